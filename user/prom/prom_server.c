// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "prom_server.h"

#include <errno.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "prom_listen.h"

/* Prometheus's text format, version 0.0.4. */
#define CONTENT_TYPE "text/plain; version=0.0.4; charset=utf-8"
/* Scrapers are few (one or two Prometheus servers): a cap keeps a flood cheap. */
#define MAX_CONNECTIONS 32
#define CONNECTION_TIMEOUT_S 10

struct prom_server {
	struct MHD_Daemon *daemon;
	int fd;
	pthread_mutex_t lock;
	/* The last interval's text as a response MHD may queue any number of times. */
	struct MHD_Response *current;
	struct MHD_Response *index, *not_found, *not_allowed;
};

static void log_mhd(void *cls, const char *fmt, va_list ap)
{
	(void)cls;
	fputs("tmacg: http: ", stderr);
	vfprintf(stderr, fmt, ap);
}

static enum MHD_Result handle(void *cls, struct MHD_Connection *c, const char *url,
			      const char *method, const char *version, const char *upload_data,
			      size_t *upload_data_size, void **con_cls)
{
	struct prom_server *s = cls;
	enum MHD_Result ret;

	(void)version;
	(void)upload_data;
	(void)upload_data_size;
	(void)con_cls;
	if (strcmp(method, MHD_HTTP_METHOD_GET) && strcmp(method, MHD_HTTP_METHOD_HEAD))
		return MHD_queue_response(c, MHD_HTTP_METHOD_NOT_ALLOWED, s->not_allowed);
	if (!strcmp(url, "/"))
		return MHD_queue_response(c, MHD_HTTP_OK, s->index);
	if (strcmp(url, "/metrics"))
		return MHD_queue_response(c, MHD_HTTP_NOT_FOUND, s->not_found);
	/* Under the lock: publish must not destroy the response before MHD holds it. */
	pthread_mutex_lock(&s->lock);
	ret = MHD_queue_response(c, MHD_HTTP_OK, s->current);
	pthread_mutex_unlock(&s->lock);
	return ret;
}

static struct MHD_Response *static_text(const char *text, const char *header, const char *value)
{
	struct MHD_Response *r = MHD_create_response_from_buffer(strlen(text), (void *)text,
								  MHD_RESPMEM_PERSISTENT);

	if (r && (MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE,
					  "text/plain; charset=utf-8") != MHD_YES ||
		  (header && MHD_add_response_header(r, header, value) != MHD_YES))) {
		MHD_destroy_response(r);
		r = NULL;
	}
	return r;
}

static struct MHD_Response *metrics_response(char *text, size_t len)
{
	struct MHD_Response *r = MHD_create_response_from_buffer_with_free_callback_cls(
		len, text, free, text);

	if (!r) {
		free(text);
		return NULL;
	}
	if (MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, CONTENT_TYPE) != MHD_YES) {
		MHD_destroy_response(r);
		return NULL;
	}
	return r;
}

int prom_server_publish(struct prom_server *s, char *text, size_t len)
{
	struct MHD_Response *r = metrics_response(text, len), *old;

	if (!r)
		return -ENOMEM;	/* the last text stays served */
	pthread_mutex_lock(&s->lock);
	old = s->current;
	s->current = r;
	pthread_mutex_unlock(&s->lock);
	/* MHD counts its own references: scrapes still sending it keep it alive. */
	if (old)
		MHD_destroy_response(old);
	return 0;
}

static int bind_socket(const struct prom_listen_addr *a, char *err, size_t errlen)
{
	struct sockaddr_storage ss = a->ss;
	socklen_t len = a->len;
	char shown[80];
	int one = 1, zero = 0, fd;

	prom_listen_format((const struct sockaddr *)&a->ss, shown, sizeof(shown));
	fd = socket(ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 && a->any && errno == EAFNOSUPPORT) {
		/* No IPv6 on this host: every IPv4 address. */
		struct sockaddr_in *in4 = (struct sockaddr_in *)&ss;
		in_port_t port = ((const struct sockaddr_in6 *)&a->ss)->sin6_port;

		memset(&ss, 0, sizeof(ss));
		in4->sin_family = AF_INET;
		in4->sin_addr.s_addr = htonl(INADDR_ANY);
		in4->sin_port = port;
		len = sizeof(*in4);
		fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
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
			snprintf(err, errlen, "--listen %s: the port is in use (another tmacg or "
				 "exporter?): choose another port", shown);
		else if (e == EADDRNOTAVAIL)
			snprintf(err, errlen, "--listen %s: no such address on this host: give "
				 "one of its addresses, or :PORT for all", shown);
		else if (e == EACCES)
			snprintf(err, errlen, "--listen %s: not allowed to bind this port "
				 "(below 1024 needs CAP_NET_BIND_SERVICE): choose one above 1023",
				 shown);
		else
			snprintf(err, errlen, "--listen %s: cannot listen: %s", shown, strerror(e));
		close(fd);
		return -1;
	}
	return fd;
}

struct prom_server *prom_server_start(const struct prom_listen_addr *a, char *bound,
				      size_t boundlen, char *err, size_t errlen)
{
	struct prom_server *s = calloc(1, sizeof(*s));
	struct sockaddr_storage ss;
	socklen_t sslen = sizeof(ss);
	sigset_t stop, old;
	char *empty = strdup("");

	if (!s || !empty) {
		free(s);
		free(empty);
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	pthread_mutex_init(&s->lock, NULL);
	s->fd = bind_socket(a, err, errlen);
	if (s->fd < 0)
		goto fail;
	if (!getsockname(s->fd, (struct sockaddr *)&ss, &sslen))
		prom_listen_format((struct sockaddr *)&ss, bound, boundlen);
	s->current = metrics_response(empty, 0);
	empty = NULL;
	s->index = static_text("tmacg: Prometheus metrics at /metrics\n", NULL, NULL);
	s->not_found = static_text("not found: tmacg serves /metrics\n", NULL, NULL);
	s->not_allowed = static_text("only GET and HEAD\n", MHD_HTTP_HEADER_ALLOW, "GET, HEAD");
	if (!s->current || !s->index || !s->not_found || !s->not_allowed) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	/*
	 * The server's thread inherits this mask: SIGINT and SIGTERM must reach
	 * the interval loop, whose wait they end.
	 */
	sigemptyset(&stop);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGTERM);
	pthread_sigmask(SIG_BLOCK, &stop, &old);
	s->daemon = MHD_start_daemon(MHD_USE_AUTO_INTERNAL_THREAD | MHD_USE_ERROR_LOG, 0, NULL,
				     NULL, handle, s, MHD_OPTION_EXTERNAL_LOGGER, log_mhd, NULL,
				     MHD_OPTION_LISTEN_SOCKET, s->fd, MHD_OPTION_CONNECTION_LIMIT,
				     (unsigned int)MAX_CONNECTIONS, MHD_OPTION_CONNECTION_TIMEOUT,
				     (unsigned int)CONNECTION_TIMEOUT_S, MHD_OPTION_END);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!s->daemon) {
		snprintf(err, errlen, "cannot start the HTTP server (libmicrohttpd) on %s", bound);
		goto fail;
	}
	s->fd = -1;	/* the daemon's now: MHD_stop_daemon() closes it */
	return s;
fail:
	free(empty);
	prom_server_stop(s);
	return NULL;
}

void prom_server_stop(struct prom_server *s)
{
	if (!s)
		return;
	if (s->daemon)
		MHD_stop_daemon(s->daemon);	/* joins its thread */
	if (s->fd >= 0)
		close(s->fd);
	if (s->current)
		MHD_destroy_response(s->current);
	if (s->index)
		MHD_destroy_response(s->index);
	if (s->not_found)
		MHD_destroy_response(s->not_found);
	if (s->not_allowed)
		MHD_destroy_response(s->not_allowed);
	pthread_mutex_destroy(&s->lock);
	free(s);
}
