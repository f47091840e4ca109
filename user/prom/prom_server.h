/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * The /metrics endpoint: an HTTP/1.1 server (prom_http.h) on libevent's
 * event loop, its connections prom_conns.h's, on its own thread, serves the
 * text last published.  The interval loop publishes a new text
 * once per interval; a scrape takes a reference to the current one (no BPF
 * map read, no evaluation) and makes its node samples into text as it sends
 * them, a cache-sized chunk at a time (prom_rows.h): a scrape costs its
 * text's formatting, and an interval nobody scrapes costs none.
 */
#ifndef TMACG_PROM_SERVER_H
#define TMACG_PROM_SERVER_H

#include <stddef.h>

struct prom_server;
struct prom_listen_addr;
struct prom_text;

/*
 * Binds the address and starts serving an empty exposition.  NULL with the
 * reason in err (port in use, address not on this host, ...).  bound gets
 * the address actually bound ("127.0.0.1:41234" for port 0).
 */
struct prom_server *prom_server_start(const struct prom_listen_addr *a, char *bound,
				      size_t boundlen, char *err, size_t errlen);
/*
 * Serves text's pieces from now on (the server's from here, also on error;
 * text is left empty).  done: the text served until now, when no reply was
 * still sending it (else empty, and the last reply frees it), for the caller
 * to reuse or prom_text_free.  0 or -ENOMEM.
 */
int prom_server_publish_text(struct prom_server *s, struct prom_text *text, struct prom_text *done);
/* The same with one string (malloc'ed; the server frees it, also on error). */
int prom_server_publish(struct prom_server *s, char *text, size_t len);
/*
 * Health for a Kubernetes probe: /healthz answers 200 while the server runs
 * (liveness), /readyz 503 until this is called, 200 after (readiness: the
 * caller calls it once the BPF programs are attached and an interval has
 * completed).  Any thread.
 */
void prom_server_set_ready(struct prom_server *s);
/* Stops the thread, closes the socket, frees what is no longer in flight. */
void prom_server_stop(struct prom_server *s);

#endif
