// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "prom/prom_server.h"

#include <errno.h>
#include <event2/buffer.h>
#include <event2/event.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "prom/prom_conns.h"
#include "prom/prom_http.h"
#include "prom/prom_listen.h"
#include "prom/prom_text.h"

/* Prometheus's text format, version 0.0.4. */
#define CONTENT_TYPE "text/plain; version=0.0.4; charset=utf-8"
#define TEXT_TYPE "text/plain; charset=utf-8"
/*
 * A complete request within 5 s of connecting (or of the previous reply),
 * however slowly it trickles in: a client sending a header line every 2 s
 * made progress forever.  Connections are capped and shed (prom_conns.h).
 */
#define REQUEST_DEADLINE_MS 5000

/*
 * One interval's text, shared by every reply still sending it: a scrape takes
 * a reference to each byte piece instead of a copy, and makes the rows into
 * text as it sends them; the last reference frees them.
 */
struct snapshot {
	atomic_uint refs;
	struct prom_text text;
};

/*
 * A /metrics reply too long for one chunk, sent a chunk at a time: the next
 * is made once the last has gone to the socket, into memory just freed,
 * still in cache.  HTTP/1.1 gets chunks; HTTP/1.0 the bytes after a
 * Content-Length.  Lives until its last chunk is sent or its connection
 * ends, whichever comes first.
 */
struct stream {
	struct snapshot *snap;
	int piece;
	struct prom_rows_cursor at;
	size_t most;  /* the longest sample's text: room for the next, always */
	bool chunked; /* HTTP/1.1 chunks, else the bytes a Content-Length counted */
};

struct prom_server {
	struct event_base *base;
	struct prom_conns *conns;
	struct event *stop_ev;
	int stop_fd; /* eventfd: the main thread's way to end the loop */
	int fd;
	pthread_t thread;
	bool running;
	pthread_mutex_t lock; /* guards current */
	struct snapshot *current;
	atomic_bool ready; /* /readyz: an interval has completed */
};

static void snapshot_put(struct snapshot *snap)
{
	if (snap && atomic_fetch_sub(&snap->refs, 1) == 1) {
		prom_text_free(&snap->text);
		free(snap);
	}
}

/* evbuffer's cleanup: the reply no longer needs the text (sent, or the connection died). */
static void snapshot_release(const void *data, size_t len, void *arg)
{
	(void)data;
	(void)len;
	snapshot_put(arg);
}

/* A reply of one short text (static: referenced, not copied); HEAD gets its length only. */
static void reply_text(struct prom_conn *k, const struct prom_http_req *r, int status,
		       const char *extra, const char *text)
{
	struct evbuffer *out = prom_conn_output(k);
	size_t len = strlen(text);

	if (prom_http_head(out, r, status, TEXT_TYPE, extra, PROM_HTTP_LENGTH, len) ||
	    (r->method != PROM_HTTP_HEAD && evbuffer_add_reference(out, text, len, NULL, NULL)))
		prom_conn_abort(k);
	else
		prom_conn_done(k);
}

static void reply_unavailable(struct prom_conn *k, const struct prom_http_req *r)
{
	reply_text(k, r, 503, NULL, "out of memory: try again\n");
}

/*
 * The next chunk of st's text into body: byte pieces referenced, rows made
 * into text, until it holds PROM_TEXT_CHUNK bytes or the text ends.  0, or -1
 * out of memory (body then holds part of a chunk: never to be sent).
 */
static int next_chunk(struct stream *st, struct evbuffer *body)
{
	const struct prom_text *t = &st->snap->text;

	/* Until the next sample might not fit: never an empty chunk, whatever the samples' length. */
	while (st->piece < t->n && (!evbuffer_get_length(body) ||
				    evbuffer_get_length(body) + st->most <= PROM_TEXT_CHUNK)) {
		const struct prom_piece *p = &t->piece[st->piece];
		struct evbuffer_iovec v;
		size_t n, want = PROM_TEXT_CHUNK - evbuffer_get_length(body);

		if (p->rows_family < 0) {
			st->piece++;
			if (!p->len)
				continue;
			/* Each piece holds a reference of its own, dropped once it is sent. */
			atomic_fetch_add(&st->snap->refs, 1);
			if (evbuffer_add_reference(body, p->buf, p->len, snapshot_release,
						   st->snap)) {
				snapshot_put(st->snap);
				return -1;
			}
			continue;
		}
		if (want < st->most)
			want = st->most;
		if (evbuffer_reserve_space(body, (ev_ssize_t)want, &v, 1) < 1)
			return -1;
		/* No more than asked: libevent may give twice that, and the chunk would be less hot. */
		n = prom_text_piece_read(t, st->piece, &st->at, v.iov_base,
					 v.iov_len < want ? v.iov_len : want);
		v.iov_len = n;
		if (evbuffer_commit_space(body, &v, 1))
			return -1;
		if (!n) {
			st->piece++;
			st->at = (struct prom_rows_cursor){ 0 };
		}
	}
	return 0;
}

static void stream_free(void *arg)
{
	struct stream *st = arg;

	snapshot_put(st->snap);
	free(st);
}

/* The last chunk went to the socket: the next, or the reply's end. */
static void stream_more(struct prom_conn *k, void *arg)
{
	struct stream *st = arg;
	struct evbuffer *out = prom_conn_output(k), *body = evbuffer_new();
	int ret = !body || next_chunk(st, body) ? -1 : 0;
	bool end = !ret && !evbuffer_get_length(body);

	if (!ret && !end)
		ret = st->chunked ? prom_http_chunk(out, body) : evbuffer_add_buffer(out, body);
	else if (!ret && st->chunked)
		ret = prom_http_last_chunk(out);
	if (body)
		evbuffer_free(body); /* lets go of what a failed chunk referenced */
	if (ret) {
		/*
		 * Half a text must never pass for all of it: without the last
		 * chunk, or short of its Content-Length, the client sees the
		 * reply cut off and the scrape fails.
		 */
		stream_free(st);
		prom_conn_abort(k);
	} else if (end) {
		stream_free(st);
		prom_conn_done(k);
	}
}

/*
 * The text in one reply with its Content-Length when it fits in one
 * chunk (a few cgroups, or before the first interval), else streamed: in
 * HTTP/1.1 chunks, or to an HTTP/1.0 client after the Content-Length
 * the text is counted to (rows made into text twice: such clients are
 * rare, and the length is what tells them a reply cut off from a whole
 * one).  Out of memory before anything is sent, the scrape fails whole
 * with 503, never a part of the text taken for all of it (Prometheus
 * would ingest the part).
 */
static void reply_body(struct prom_conn *k, const struct prom_http_req *r, struct snapshot *snap)
{
	struct evbuffer *out = prom_conn_output(k), *body = evbuffer_new();
	struct stream *st = calloc(1, sizeof(*st));
	bool whole = false, chunks;
	size_t len = (size_t)-1;
	int ret;

	if (st) {
		*st = (struct stream){ .snap = snap, /* this reply's reference, now the stream's */
				       .most = snap->text.rows ?
						       prom_rows_max_sample(snap->text.rows) :
						       0,
				       .chunked = !r->http10 };
		if (body && !next_chunk(st, body)) {
			/* Whole in one chunk: body's references hold the text while it is sent. */
			whole = st->piece >= snap->text.n;
			len = whole	  ? evbuffer_get_length(body) :
			      st->chunked ? 0 :
					    prom_text_len(&snap->text);
		}
	} else {
		snapshot_put(snap);
	}
	if (len == (size_t)-1) {
		if (body)
			evbuffer_free(body); /* lets go of the pieces referenced */
		if (st)
			stream_free(st);
		reply_unavailable(k, r);
		return;
	}
	chunks = !whole && st->chunked;
	ret = prom_http_head(out, r, 200, CONTENT_TYPE, NULL,
			     chunks ? PROM_HTTP_CHUNKED : PROM_HTTP_LENGTH, len) ||
	      (chunks ? prom_http_chunk(out, body) : evbuffer_add_buffer(out, body));
	evbuffer_free(body);
	if (ret || whole)
		stream_free(st);
	if (ret)
		prom_conn_abort(k);
	else if (whole)
		prom_conn_done(k);
	else
		prom_conn_stream(k, stream_more, stream_free, st);
}

static void reply_metrics(struct prom_server *s, struct prom_conn *k, const struct prom_http_req *r)
{
	struct snapshot *snap;
	size_t n;

	/* Under the lock: publish must not drop the text before this reply holds it. */
	pthread_mutex_lock(&s->lock);
	snap = s->current;
	atomic_fetch_add(&snap->refs, 1);
	pthread_mutex_unlock(&s->lock);
	if (r->method != PROM_HTTP_HEAD) {
		reply_body(k, r, snap);
		return;
	}
	/* HEAD: the Content-Length GET would send (the rows made into text to count it). */
	n = prom_text_len(&snap->text);
	snapshot_put(snap);
	if (n == (size_t)-1) {
		reply_unavailable(k, r);
		return;
	}
	if (prom_http_head(prom_conn_output(k), r, 200, CONTENT_TYPE, NULL, PROM_HTTP_LENGTH, n))
		prom_conn_abort(k);
	else
		prom_conn_done(k);
}

static void handle(struct prom_conn *k, const struct prom_http_req *r, void *arg)
{
	struct prom_server *s = arg;
	const char *path = r->path;

	if (r->method == PROM_HTTP_OTHER)
		reply_text(k, r, 405, "Allow: GET, HEAD\r\n", "only GET and HEAD\n");
	else if (!strcmp(path, "/"))
		reply_text(k, r, 200, NULL, "tmacg: Prometheus metrics at /metrics\n");
	else if (!strcmp(path, "/metrics"))
		reply_metrics(s, k, r);
	else if (!strcmp(path, "/healthz"))
		reply_text(k, r, 200, NULL, "ok\n");
	else if (!strcmp(path, "/readyz") && atomic_load(&s->ready))
		reply_text(k, r, 200, NULL, "ready\n");
	else if (!strcmp(path, "/readyz"))
		reply_text(k, r, 503, NULL, "not ready: no interval completed yet\n");
	else
		reply_text(k, r, 404, NULL,
			   "not found: tmacg serves /metrics, /healthz and /readyz\n");
}

static void on_stop(evutil_socket_t fd, short what, void *arg)
{
	(void)fd;
	(void)what;
	event_base_loopbreak(arg);
}

static void *serve(void *arg)
{
	struct prom_server *s = arg;

	event_base_dispatch(s->base);
	return NULL;
}

/* libevent's warnings, at most one line a second: a flood of failures must not fill a disk. */
static void log_libevent(int severity, const char *msg)
{
	static _Atomic uint64_t last_ns;
	static atomic_uint suppressed;
	struct timespec ts;
	uint64_t now, last;

	if (severity < EVENT_LOG_WARN)
		return;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	now = ts.tv_sec * 1000000000ULL + ts.tv_nsec;
	last = atomic_load(&last_ns);
	if (last && now - last < 1000000000ULL) {
		atomic_fetch_add(&suppressed, 1);
		return;
	}
	atomic_store(&last_ns, now);
	fprintf(stderr, "tmacg: http: %s", msg);
	if (atomic_load(&suppressed))
		fprintf(stderr, " (and %u more libevent messages in the last second)",
			atomic_exchange(&suppressed, 0));
	fputc('\n', stderr);
}

void prom_server_set_ready(struct prom_server *s)
{
	atomic_store(&s->ready, true);
}

int prom_server_publish_text(struct prom_server *s, struct prom_text *text, struct prom_text *done)
{
	struct snapshot *snap = malloc(sizeof(*snap)), *old;

	done->n = 0;
	done->rows = NULL;
	if (!snap) {
		prom_text_free(text);
		return -ENOMEM; /* the last text stays served */
	}
	atomic_init(&snap->refs, 1);
	snap->text = *text;
	text->n = 0;
	text->rows = NULL;
	pthread_mutex_lock(&s->lock);
	old = s->current;
	s->current = snap;
	pthread_mutex_unlock(&s->lock);
	/*
	 * Replies still sending the old text hold their own references and the
	 * last one frees it; when none does (the usual case), its pieces are the
	 * caller's again.
	 */
	if (old && atomic_fetch_sub(&old->refs, 1) == 1) {
		*done = old->text;
		free(old);
	}
	return 0;
}

int prom_server_publish(struct prom_server *s, char *text, size_t len)
{
	struct prom_text t = { .n = 1,
			       .piece[0] = { .buf = text,
					     .len = len,
					     .cap = len,
					     .rows_family = -1 } },
			 done;
	int ret = prom_server_publish_text(s, &t, &done);

	prom_text_free(&done);
	return ret;
}

static int bind_socket(const struct prom_listen_addr *a, char *err, size_t errlen)
{
	struct sockaddr_storage ss = a->ss;
	socklen_t len = a->len;
	char shown[80];
	int one = 1, zero = 0, fd;

	prom_listen_format((const struct sockaddr *)&a->ss, shown, sizeof(shown));
	fd = socket(ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0 && a->any && errno == EAFNOSUPPORT) {
		/* No IPv6 on this host: every IPv4 address. */
		struct sockaddr_in *in4 = (struct sockaddr_in *)&ss;
		in_port_t port = ((const struct sockaddr_in6 *)&a->ss)->sin6_port;

		memset(&ss, 0, sizeof(ss));
		in4->sin_family = AF_INET;
		in4->sin_addr.s_addr = htonl(INADDR_ANY);
		in4->sin_port = port;
		len = sizeof(*in4);
		fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	}
	if (fd < 0) {
		snprintf(err, errlen, "--listen %s: cannot create a socket: %s", shown,
			 strerror(errno));
		return -1;
	}
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (a->any && ss.ss_family == AF_INET6)
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero));
	if (bind(fd, (struct sockaddr *)&ss, len) || listen(fd, 64)) {
		int e = errno;

		if (e == EADDRINUSE)
			snprintf(err, errlen,
				 "--listen %s: the port is in use (another tmacg or "
				 "exporter?): choose another port",
				 shown);
		else if (e == EADDRNOTAVAIL)
			snprintf(err, errlen,
				 "--listen %s: no such address on this host: give "
				 "one of its addresses, or :PORT for all",
				 shown);
		else if (e == EACCES)
			snprintf(err, errlen,
				 "--listen %s: not allowed to bind this port "
				 "(below 1024 needs CAP_NET_BIND_SERVICE): choose one above 1023",
				 shown);
		else
			snprintf(err, errlen, "--listen %s: cannot listen: %s", shown, strerror(e));
		close(fd);
		return -1;
	}
	return fd;
}

/* The connections on s->fd (theirs from here), and the event that ends the loop. */
static int setup_http(struct prom_server *s)
{
	int fd = s->fd;

	s->fd = -1;
	s->base = event_base_new();
	if (!s->base) {
		close(fd);
		return -1;
	}
	s->conns = prom_conns_new(s->base, fd, REQUEST_DEADLINE_MS, handle, s);
	s->stop_ev = event_new(s->base, s->stop_fd, EV_READ, on_stop, s->base);
	if (!s->conns || !s->stop_ev || event_add(s->stop_ev, NULL))
		return -1;
	return 0;
}

struct prom_server *prom_server_start(const struct prom_listen_addr *a, char *bound,
				      size_t boundlen, char *err, size_t errlen)
{
	struct prom_server *s = calloc(1, sizeof(*s));
	struct sockaddr_storage ss;
	socklen_t sslen = sizeof(ss);
	sigset_t stop, old;
	int ret;

	if (!s) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	s->fd = s->stop_fd = -1;
	pthread_mutex_init(&s->lock, NULL);
	if (prom_server_publish(s, NULL, 0)) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	s->fd = bind_socket(a, err, errlen);
	if (s->fd < 0)
		goto fail;
	if (!getsockname(s->fd, (struct sockaddr *)&ss, &sslen))
		prom_listen_format((struct sockaddr *)&ss, bound, boundlen);
	event_set_log_callback(log_libevent);
	s->stop_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (s->stop_fd < 0 || setup_http(s)) {
		snprintf(err, errlen, "cannot start the HTTP server (libevent) on %s", bound);
		goto fail;
	}
	/*
	 * The server's thread inherits this mask: the stop signals and their
	 * nudges (util/stop_signal.h) must reach the interval loop, whose wait
	 * or write they end.
	 */
	sigemptyset(&stop);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGTERM);
	sigaddset(&stop, SIGHUP);
	sigaddset(&stop, SIGALRM);
	pthread_sigmask(SIG_BLOCK, &stop, &old);
	ret = pthread_create(&s->thread, NULL, serve, s);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (ret) {
		snprintf(err, errlen, "cannot start the HTTP server's thread: %s", strerror(ret));
		goto fail;
	}
	s->running = true;
	return s;
fail:
	prom_server_stop(s);
	return NULL;
}

void prom_server_stop(struct prom_server *s)
{
	if (!s)
		return;
	if (s->running) {
		uint64_t one = 1;

		/* Cannot fail: adding 1 to a counter nobody else writes. */
		if (write(s->stop_fd, &one, sizeof(one)) != sizeof(one))
			abort();
		pthread_join(s->thread, NULL);
	}
	/* Closes the connections still open, so their replies drop their snapshots. */
	prom_conns_free(s->conns);
	if (s->stop_ev)
		event_free(s->stop_ev);
	if (s->base)
		event_base_free(s->base);
	if (s->stop_fd >= 0)
		close(s->stop_fd);
	if (s->fd >= 0)
		close(s->fd);
	snapshot_put(s->current);
	pthread_mutex_destroy(&s->lock);
	free(s);
}
