/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * What clients may hold of the /metrics server, whatever they do: at most
 * `cap` connections, a complete request within `deadline_ms` of the
 * connection (or of its previous reply), and, when accept() fails for lack
 * of descriptors (EMFILE, ENFILE), the oldest connection that is not
 * sending a reply is closed to make room.  That failure is logged at most
 * once a second, with counts, instead of once per attempt (375 MB of stderr
 * in 40 s before).
 *
 * evhttp keeps its connections to itself, so each one is known through its
 * bufferevent, created here (evhttp_set_bevcb) and held by a reference: the
 * pointer stays valid until evhttp has freed the connection (which clears
 * the bufferevent's callbacks) and a sweep lets it go.  Runs on the server's
 * thread only.
 */
#ifndef TMACG_PROM_CONNS_H
#define TMACG_PROM_CONNS_H

struct event_base;
struct evhttp;
struct evhttp_request;
struct evconnlistener;
struct prom_conns;

/*
 * 0 for cap: min(256, a quarter of RLIMIT_NOFILE), at least 4: the
 * connections never take the descriptors the interval loop needs.
 */
struct prom_conns *prom_conns_new(struct event_base *base, struct evhttp *http,
				  struct evconnlistener *lev, int cap, int deadline_ms);
/* A complete request arrived on req's connection: its deadline starts again after the reply. */
void prom_conns_served(struct prom_conns *c, struct evhttp_request *req);
/* After evhttp_free(): lets go of every connection's bufferevent. */
void prom_conns_free(struct prom_conns *c);

#endif
