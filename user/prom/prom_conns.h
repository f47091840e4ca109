/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * The /metrics server's connections, each a bufferevent of its own on the
 * server's event loop: a request head read (at most PROM_HTTP_MAX_HEAD
 * bytes) and handed to the server, which answers it through the calls
 * below; then the next request on the same connection, or a close.
 *
 * What clients may hold, whatever they do: at most `cap` connections, a
 * complete request within `deadline_ms` of the connection (or of its
 * previous reply), a reply they read nothing of for 10 s abandoned, and,
 * when accept() fails for lack of descriptors (EMFILE, ENFILE), the oldest
 * connection that is not being answered is closed to make room.  That
 * failure is logged at most once a second, with counts, instead of once
 * per attempt.
 *
 * A request read, the connection reads nothing more until its reply is
 * sent: a client that half-closes its side after the request (shutdown,
 * `nc -N`) gets the whole reply, and so does one pipelining its next.
 * Runs on the server's thread only.
 */
#ifndef TMACG_PROM_CONNS_H
#define TMACG_PROM_CONNS_H

struct event_base;
struct evbuffer;
struct prom_conn;
struct prom_conns;
struct prom_http_req;

/* A complete request on k (r valid during the call): answer it with prom_conn_*. */
typedef void prom_conns_request_fn(struct prom_conn *k, const struct prom_http_req *r, void *arg);

/*
 * Accepts on fd (bound, listening, non-blocking; closed by prom_conns_free,
 * also on error).  The cap is min(256, a quarter of RLIMIT_NOFILE), at least
 * 4: the connections never take the descriptors the interval loop needs.
 */
struct prom_conns *prom_conns_new(struct event_base *base, int fd, int deadline_ms,
				  prom_conns_request_fn *on_request, void *arg);
/* Closes every connection (their streams' gone() called) and the socket. */
void prom_conns_free(struct prom_conns *c);

/* Where the reply goes: status line, fields and body, sent as the socket takes them. */
struct evbuffer *prom_conn_output(struct prom_conn *k);
/*
 * A reply sent in parts: more(k, arg) each time all the output so far has
 * gone to the socket, until it calls prom_conn_done() or prom_conn_abort();
 * gone(arg) instead if the connection ends first (the client left, stopped
 * reading for 10 s, or the server stops).
 */
void prom_conn_stream(struct prom_conn *k, void (*more)(struct prom_conn *k, void *arg),
		      void (*gone)(void *arg), void *arg);
/* The reply is all in the output: once sent, the next request is read, or the connection closes. */
void prom_conn_done(struct prom_conn *k);
/* The reply cannot be completed: the connection closes now, the output not yet sent dropped. */
void prom_conn_abort(struct prom_conn *k);

#endif
