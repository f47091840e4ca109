// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "prom/prom_conns.h"

#include <errno.h>
#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <event2/listener.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "prom/prom_http.h"

#define CAP_MAX 256
#define CAP_MIN 4
/* How often deadlines are checked and a paused listener resumed. */
#define SWEEP_MS 100
#define LOG_EVERY_NS 1000000000ULL
/* A reply the client reads nothing of for this long is abandoned. */
#define WRITE_STALL_S 10
/*
 * After a reply that closes the connection, what the client still sends is
 * read and dropped for at most this long before the close: a close with
 * unread bytes would reset the connection and could destroy the reply's
 * end before the client read it.
 */
#define LINGER_NS 2000000000ULL

enum conn_state {
	READING,   /* a request head, not complete yet */
	REPLYING,  /* the server answers: nothing more is read */
	FLUSHING,  /* the reply is all in the output, not yet all sent */
	LINGERING, /* replied, closing: our side shut, the client's read to its end */
};

struct prom_conn {
	struct prom_conns *set;
	struct bufferevent *bev;
	enum conn_state state;
	bool close;	   /* after this reply */
	int slot;	   /* in set->conn */
	uint64_t since_ns; /* accepted, last reply sent, or lingering since */
	void (*more)(struct prom_conn *k, void *arg);
	void (*gone)(void *arg);
	void *arg;
};

struct prom_conns {
	struct event_base *base;
	struct evconnlistener *lev;
	struct event *sweep_ev;
	struct prom_conn **conn;
	int n, cap, deadline_ms;
	prom_conns_request_fn *on_request;
	void *arg;
	bool paused; /* listener off: at the cap with nothing to close, or out of descriptors */
	/* Since the last log line: what the operator is told once a second. */
	uint64_t last_log_ns, accept_failed, shed, refused, deadline_closed;
	int last_errno;
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static void pause_accepting(struct prom_conns *c)
{
	if (!c->paused) {
		c->paused = true;
		evconnlistener_disable(c->lev); /* the sweep resumes it */
	}
}

/* Closes k now: its stream told, the output not yet sent dropped. */
static void conn_close(struct prom_conn *k)
{
	struct prom_conns *c = k->set;

	if (k->gone)
		k->gone(k->arg);
	c->conn[k->slot] = c->conn[--c->n];
	c->conn[k->slot]->slot = k->slot;
	bufferevent_free(k->bev); /* BEV_OPT_CLOSE_ON_FREE: closes the socket */
	free(k);
}

/* The oldest connection not being answered (closing it loses no reply); NULL if none. */
static struct prom_conn *oldest_waiting(const struct prom_conns *c)
{
	struct prom_conn *best = NULL;

	for (int i = 0; i < c->n; i++) {
		struct prom_conn *k = c->conn[i];

		if ((k->state == READING || k->state == LINGERING) &&
		    (!best || k->since_ns < best->since_ns))
			best = k;
	}
	return best;
}

/* Room for one more: the oldest waiting connection goes; with none, accepting pauses. */
static bool make_room(struct prom_conns *c)
{
	struct prom_conn *k = oldest_waiting(c);

	if (k) {
		conn_close(k);
		c->shed++;
		return true;
	}
	pause_accepting(c);
	return false;
}

static void maybe_log(struct prom_conns *c, uint64_t now, bool force)
{
	if (!c->accept_failed && !c->shed && !c->refused && !c->deadline_closed)
		return;
	if (!force && now - c->last_log_ns < LOG_EVERY_NS)
		return;
	if (c->accept_failed)
		fprintf(stderr,
			"tmacg: http: out of file descriptors (accept: %s) %llu times: %llu "
			"oldest idle connections closed to make room, %d open: raise the limit "
			"(ulimit -n), or scrape from fewer clients\n",
			strerror(c->last_errno), (unsigned long long)c->accept_failed,
			(unsigned long long)c->shed, c->n);
	else if (c->shed)
		fprintf(stderr,
			"tmacg: http: %d connections open, the limit: %llu oldest idle ones "
			"closed to make room\n",
			c->cap, (unsigned long long)c->shed);
	if (c->refused)
		fprintf(stderr,
			"tmacg: http: %llu connections refused: %d open, the limit, all being "
			"answered\n",
			(unsigned long long)c->refused, c->cap);
	if (c->deadline_closed)
		fprintf(stderr,
			"tmacg: http: %llu connections closed without a complete request within "
			"%d ms (slow or idle clients)\n",
			(unsigned long long)c->deadline_closed, c->deadline_ms);
	c->accept_failed = c->shed = c->refused = c->deadline_closed = 0;
	c->last_log_ns = now;
}

/* A request the server is not asked about: status and a line saying why, then the close. */
static void refuse(struct prom_conn *k, const struct prom_http_req *r, int status)
{
	const char *why = status == 431 ? "request head over 8 KB\n" :
			  status == 413 ? "a request has no body here\n" :
			  status == 501 ? "only GET and HEAD\n" :
			  status == 505 ? "HTTP/1.0 or HTTP/1.1 only\n" :
					  "malformed request\n";
	struct evbuffer *out = bufferevent_get_output(k->bev);

	if (prom_http_head(out, r, status, "text/plain; charset=utf-8", NULL, PROM_HTTP_LENGTH,
			   strlen(why)) ||
	    evbuffer_add(out, why, strlen(why)))
		prom_conn_abort(k);
	else
		prom_conn_done(k);
}

/* The request head in k's input, when complete, handed to the server (or refused). */
static void take_request(struct prom_conn *k)
{
	struct evbuffer *in = bufferevent_get_input(k->bev);
	size_t len = evbuffer_get_length(in), end;
	struct prom_http_req r;
	const char *head;
	int status;

	if (len > PROM_HTTP_MAX_HEAD)
		len = PROM_HTTP_MAX_HEAD;
	head = (const char *)evbuffer_pullup(in, (ev_ssize_t)len);
	end = head ? prom_http_head_end(head, len) : 0;
	if (!end && len < PROM_HTTP_MAX_HEAD)
		return; /* more to come, within the deadline */
	/* Nothing more is read until the reply is sent: a half-close cannot cut it short. */
	k->state = REPLYING;
	bufferevent_disable(k->bev, EV_READ);
	if (!end) {
		memset(&r, 0, sizeof(r));
		r.close = k->close = true;
		refuse(k, &r, 431);
		return;
	}
	status = prom_http_parse(head, end, &r);
	evbuffer_drain(in, end);
	k->close = r.close;
	if (status)
		refuse(k, &r, status);
	else
		k->set->on_request(k, &r, k->set->arg);
}

/* Replied and closing: our side shut (the client reads to its end), the client's read and dropped. */
static void linger(struct prom_conn *k)
{
	k->state = LINGERING;
	k->since_ns = now_ns();
	shutdown(bufferevent_getfd(k->bev), SHUT_WR);
	evbuffer_drain(bufferevent_get_input(k->bev),
		       evbuffer_get_length(bufferevent_get_input(k->bev)));
	bufferevent_enable(k->bev, EV_READ);
}

/* The reply is sent: the next request (perhaps already read), or the close. */
static void replied(struct prom_conn *k)
{
	k->more = NULL;
	k->gone = NULL;
	if (k->close) {
		linger(k);
		return;
	}
	k->state = READING;
	k->since_ns = now_ns();
	bufferevent_enable(k->bev, EV_READ);
	take_request(k);
}

static void on_read(struct bufferevent *bev, void *arg)
{
	struct prom_conn *k = arg;

	if (k->state == READING)
		take_request(k);
	else if (k->state == LINGERING)
		evbuffer_drain(bufferevent_get_input(bev),
			       evbuffer_get_length(bufferevent_get_input(bev)));
}

/* All the output so far is sent (the write low watermark is 0). */
static void on_written(struct bufferevent *bev, void *arg)
{
	struct prom_conn *k = arg;

	(void)bev;
	if (k->state == REPLYING && k->more)
		k->more(k, k->arg);
	else if (k->state == FLUSHING)
		replied(k);
}

/* The client's end (EOF while reading a request or lingering), an error, or a stalled write. */
static void on_event(struct bufferevent *bev, short what, void *arg)
{
	(void)bev;
	(void)what;
	conn_close(arg);
}

/* Closes connections past their deadline, resumes accepting. */
static void sweep(struct prom_conns *c)
{
	uint64_t now = now_ns(), deadline = (uint64_t)c->deadline_ms * 1000000ULL;

	for (int i = c->n - 1; i >= 0; i--) {
		struct prom_conn *k = c->conn[i];

		if (k->state == READING && now - k->since_ns > deadline) {
			conn_close(k);
			c->deadline_closed++;
		} else if (k->state == LINGERING && now - k->since_ns > LINGER_NS) {
			conn_close(k);
		}
	}
	if (c->paused && c->n < c->cap) {
		c->paused = false;
		evconnlistener_enable(c->lev);
	}
}

static void on_sweep(evutil_socket_t fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	sweep(arg);
	maybe_log(arg, now_ns(), false);
}

static void on_accept(struct evconnlistener *lev, evutil_socket_t fd, struct sockaddr *sa,
		      int salen, void *arg)
{
	struct prom_conns *c = arg;
	struct timeval stall = { WRITE_STALL_S, 0 };
	struct prom_conn *k;

	(void)lev;
	(void)sa;
	(void)salen;
	if (c->n >= c->cap && !make_room(c)) {
		close(fd); /* every connection is being answered: this one waits for none */
		c->refused++;
		maybe_log(c, now_ns(), false);
		return;
	}
	k = calloc(1, sizeof(*k));
	if (!k || !(k->bev = bufferevent_socket_new(c->base, fd, BEV_OPT_CLOSE_ON_FREE))) {
		free(k);
		close(fd);
		return;
	}
	k->set = c;
	k->since_ns = now_ns();
	k->slot = c->n;
	c->conn[c->n++] = k;
	bufferevent_setcb(k->bev, on_read, on_written, on_event, k);
	/* What a head may hold: input is read no further until it is taken or refused. */
	bufferevent_setwatermark(k->bev, EV_READ, 0, PROM_HTTP_MAX_HEAD);
	bufferevent_set_timeouts(k->bev, NULL, &stall);
	bufferevent_enable(k->bev, EV_READ | EV_WRITE);
	if (c->n >= c->cap && !oldest_waiting(c))
		pause_accepting(c);
	maybe_log(c, now_ns(), false);
}

/* accept() failed: out of descriptors (libevent retries what is worth retrying itself). */
static void on_accept_error(struct evconnlistener *lev, void *arg)
{
	struct prom_conns *c = arg;

	(void)lev;
	c->accept_failed++;
	c->last_errno = EVUTIL_SOCKET_ERROR();
	sweep(c);
	/*
	 * EMFILE/ENFILE: close the oldest waiting connection so the next accept
	 * gets its descriptor; with nothing to close, pause until the next sweep
	 * instead of spinning on a listener that stays readable.
	 */
	if (c->last_errno != EMFILE && c->last_errno != ENFILE)
		pause_accepting(c);
	else
		make_room(c);
	maybe_log(c, now_ns(), false);
}

struct evbuffer *prom_conn_output(struct prom_conn *k)
{
	return bufferevent_get_output(k->bev);
}

void prom_conn_stream(struct prom_conn *k, void (*more)(struct prom_conn *k, void *arg),
		      void (*gone)(void *arg), void *arg)
{
	k->more = more;
	k->gone = gone;
	k->arg = arg;
}

void prom_conn_done(struct prom_conn *k)
{
	k->more = NULL;
	k->gone = NULL;
	k->state = FLUSHING;
	if (!evbuffer_get_length(bufferevent_get_output(k->bev)))
		replied(k);
}

void prom_conn_abort(struct prom_conn *k)
{
	k->gone = NULL;
	conn_close(k);
}

static int default_cap(void)
{
	struct rlimit rl;
	rlim_t cap = CAP_MAX;

	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur / 4 < cap)
		cap = rl.rlim_cur / 4;
	return cap < CAP_MIN ? CAP_MIN : (int)cap;
}

struct prom_conns *prom_conns_new(struct event_base *base, int fd, int deadline_ms,
				  prom_conns_request_fn *on_request, void *arg)
{
	struct prom_conns *c = calloc(1, sizeof(*c));
	struct timeval every = { 0, SWEEP_MS * 1000 };

	if (!c) {
		close(fd);
		return NULL;
	}
	c->base = base;
	c->cap = default_cap();
	c->deadline_ms = deadline_ms;
	c->on_request = on_request;
	c->arg = arg;
	/* Backlog 0: fd listens already. */
	c->lev = evconnlistener_new(base, on_accept, c,
				    LEV_OPT_CLOSE_ON_FREE | LEV_OPT_CLOSE_ON_EXEC, 0, fd);
	if (!c->lev)
		close(fd);
	c->conn = calloc(c->cap, sizeof(*c->conn));
	c->sweep_ev = event_new(base, -1, EV_PERSIST, on_sweep, c);
	if (!c->lev || !c->conn || !c->sweep_ev || event_add(c->sweep_ev, &every)) {
		prom_conns_free(c);
		return NULL;
	}
	evconnlistener_set_error_cb(c->lev, on_accept_error);
	return c;
}

void prom_conns_free(struct prom_conns *c)
{
	if (!c)
		return;
	while (c->n)
		conn_close(c->conn[c->n - 1]);
	maybe_log(c, now_ns(), true);
	if (c->lev)
		evconnlistener_free(c->lev);
	if (c->sweep_ev)
		event_free(c->sweep_ev);
	free(c->conn);
	free(c);
}
