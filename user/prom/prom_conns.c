// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "prom/prom_conns.h"

#include <errno.h>
#include <pthread.h>
#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <event2/http.h>
#include <event2/listener.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#define CAP_MAX 256
#define CAP_MIN 4
/* How often deadlines are checked and freed connections let go. */
#define SWEEP_MS 100
#define LOG_EVERY_NS 1000000000ULL

struct conn {
	struct bufferevent *bev; /* our reference: valid until released */
	uint64_t since_ns;	 /* accepted, or last request answered */
};

struct prom_conns {
	struct prom_conns *next; /* in the registry */
	struct event_base *base;
	struct evconnlistener *lev;
	struct event *sweep_ev;
	struct conn *conns;
	int n, cap, deadline_ms;
	bool paused; /* listener off: at the cap with nothing to close, or out of descriptors */
	/* Since the last log line: what the operator is told once a second. */
	uint64_t last_log_ns, accept_failed, shed, deadline_closed;
	int last_errno;
};

/*
 * The listener's error callback gets the listener's argument, which evhttp
 * owns (its struct evhttp): the guard of a listener is looked up here.
 */
static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static struct prom_conns *registry;

static struct prom_conns *guard_of(struct evconnlistener *lev)
{
	struct prom_conns *c;

	pthread_mutex_lock(&registry_lock);
	for (c = registry; c && c->lev != lev; c = c->next)
		;
	pthread_mutex_unlock(&registry_lock);
	return c;
}

static void unregister(struct prom_conns *c)
{
	pthread_mutex_lock(&registry_lock);
	for (struct prom_conns **p = &registry; *p; p = &(*p)->next) {
		if (*p == c) {
			*p = c->next;
			break;
		}
	}
	pthread_mutex_unlock(&registry_lock);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* evhttp's connection, or NULL once evhttp has freed it (bufferevent_free clears the callbacks). */
static struct evhttp_connection *owner(struct bufferevent *bev)
{
	bufferevent_data_cb r, w;
	bufferevent_event_cb e;
	void *arg = NULL;

	bufferevent_getcb(bev, &r, &w, &e, &arg);
	return arg;
}

static void release(struct prom_conns *c, int i)
{
	bufferevent_decref(c->conns[i].bev); /* the last reference: closes the socket */
	c->conns[i] = c->conns[--c->n];
}

/* Closes connection i through evhttp (which frees its request), then lets it go. */
static void close_conn(struct prom_conns *c, int i)
{
	struct evhttp_connection *evcon = owner(c->conns[i].bev);

	if (evcon)
		evhttp_connection_free(evcon);
	release(c, i);
}

/* A connection is closed only while it sends nothing: never in the middle of a reply. */
static bool idle(const struct conn *k)
{
	return evbuffer_get_length(bufferevent_get_output(k->bev)) == 0;
}

/* The oldest connection waiting for (the rest of) a request; -1 if none. */
static int oldest_waiting(const struct prom_conns *c)
{
	int best = -1;

	for (int i = 0; i < c->n; i++)
		if (idle(&c->conns[i]) &&
		    (best < 0 || c->conns[i].since_ns < c->conns[best].since_ns))
			best = i;
	return best;
}

static void maybe_log(struct prom_conns *c, uint64_t now, bool force)
{
	if (!c->accept_failed && !c->shed && !c->deadline_closed)
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
	if (c->deadline_closed)
		fprintf(stderr,
			"tmacg: http: %llu connections closed without a complete request within "
			"%d ms (slow or idle clients)\n",
			(unsigned long long)c->deadline_closed, c->deadline_ms);
	c->accept_failed = c->shed = c->deadline_closed = 0;
	c->last_log_ns = now;
}

/* Lets go of freed connections, closes those past the deadline, resumes accepting. */
static void sweep(struct prom_conns *c)
{
	uint64_t now = now_ns(), deadline = (uint64_t)c->deadline_ms * 1000000ULL;

	for (int i = c->n - 1; i >= 0; i--) {
		if (!owner(c->conns[i].bev)) {
			release(c, i);
		} else if (now - c->conns[i].since_ns > deadline && idle(&c->conns[i])) {
			close_conn(c, i);
			c->deadline_closed++;
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

/* Room for one more: the oldest waiting connection goes; with none, accepting pauses. */
static bool make_room(struct prom_conns *c)
{
	int i = oldest_waiting(c);

	if (i >= 0) {
		close_conn(c, i);
		c->shed++;
		return true;
	}
	if (!c->paused) {
		c->paused = true;
		evconnlistener_disable(c->lev); /* the sweep resumes it */
	}
	return false;
}

/* evhttp_set_bevcb: every accepted connection's bufferevent, made here to be known. */
static struct bufferevent *on_accept(struct event_base *base, void *arg)
{
	struct prom_conns *c = arg;
	struct bufferevent *bev;

	/*
	 * Before the new one is added: it has no callbacks yet and would look
	 * freed.  evhttp sets them once this returns.
	 */
	sweep(c);
	if (c->n >= c->cap)
		make_room(c);
	bev = bufferevent_socket_new(base, -1, BEV_OPT_CLOSE_ON_FREE);
	if (!bev)
		return NULL; /* evhttp makes its own, unknown here: cannot happen without OOM */
	if (c->n < c->cap) {
		bufferevent_incref(bev);
		c->conns[c->n].bev = bev;
		c->conns[c->n].since_ns = now_ns();
		c->n++;
	}
	if (c->n >= c->cap && oldest_waiting(c) < 0 && !c->paused) {
		c->paused = true;
		evconnlistener_disable(c->lev);
	}
	maybe_log(c, now_ns(), false);
	return bev;
}

/* accept() failed: out of descriptors (anything else libevent retries or reports). */
static void on_accept_error(struct evconnlistener *lev, void *arg)
{
	struct prom_conns *c = guard_of(lev);
	int e = EVUTIL_SOCKET_ERROR();

	(void)arg;
	if (!c) {
		evconnlistener_disable(lev); /* cannot happen: never spin */
		return;
	}
	c->accept_failed++;
	c->last_errno = e;
	sweep(c);
	/*
	 * EMFILE/ENFILE: close the oldest waiting connection so the next accept
	 * gets its descriptor; with nothing to close, pause until the next sweep
	 * instead of spinning on a listener that stays readable.
	 */
	if (e != EMFILE && e != ENFILE) {
		c->paused = true;
		evconnlistener_disable(c->lev);
	} else {
		make_room(c);
	}
	maybe_log(c, now_ns(), false);
}

void prom_conns_served(struct prom_conns *c, struct evhttp_request *req)
{
	struct evhttp_connection *evcon = evhttp_request_get_connection(req);
	struct bufferevent *bev = evcon ? evhttp_connection_get_bufferevent(evcon) : NULL;

	for (int i = 0; bev && i < c->n; i++)
		if (c->conns[i].bev == bev)
			c->conns[i].since_ns = now_ns();
}

static int default_cap(void)
{
	struct rlimit rl;
	rlim_t cap = CAP_MAX;

	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur / 4 < cap)
		cap = rl.rlim_cur / 4;
	return cap < CAP_MIN ? CAP_MIN : (int)cap;
}

struct prom_conns *prom_conns_new(struct event_base *base, struct evhttp *http,
				  struct evconnlistener *lev, int cap, int deadline_ms)
{
	struct prom_conns *c = calloc(1, sizeof(*c));
	struct timeval every = { 0, SWEEP_MS * 1000 };

	if (!c)
		return NULL;
	c->base = base;
	c->lev = lev;
	c->cap = cap > 0 ? cap : default_cap();
	c->deadline_ms = deadline_ms;
	c->conns = calloc(c->cap, sizeof(*c->conns));
	c->sweep_ev = event_new(base, -1, EV_PERSIST, on_sweep, c);
	if (!c->conns || !c->sweep_ev || event_add(c->sweep_ev, &every)) {
		prom_conns_free(c);
		return NULL;
	}
	pthread_mutex_lock(&registry_lock);
	c->next = registry;
	registry = c;
	pthread_mutex_unlock(&registry_lock);
	evhttp_set_bevcb(http, on_accept, c);
	evconnlistener_set_error_cb(lev, on_accept_error);
	return c;
}

void prom_conns_free(struct prom_conns *c)
{
	if (!c)
		return;
	unregister(c);
	maybe_log(c, now_ns(), true);
	while (c->n)
		release(c, c->n - 1);
	if (c->sweep_ev)
		event_free(c->sweep_ev);
	free(c->conns);
	free(c);
}
