// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "prometheus_proc.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

bool prometheus_installed(void)
{
	if (system("command -v prometheus >/dev/null 2>&1 && command -v promtool >/dev/null 2>&1")) {
		fprintf(stderr, "  prometheus and promtool are not installed (Debian package "
				"prometheus; deploy/install-deps.sh --test installs it)\n");
		return false;
	}
	return true;
}

/* A port nothing listens on now (the kernel's choice for port 0). */
static int free_port(void)
{
	struct sockaddr_in sin = { .sin_family = AF_INET,
				   .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(sin);
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), port = -1;

	if (fd >= 0 && !bind(fd, (struct sockaddr *)&sin, sizeof(sin)) &&
	    !getsockname(fd, (struct sockaddr *)&sin, &len))
		port = ntohs(sin.sin_port);
	if (fd >= 0)
		close(fd);
	return port;
}

/*
 * GET target over HTTP/1.0 (so the body comes whole, never chunked, until the
 * close): the body (malloc'ed), its status in *status; NULL when the server
 * cannot be reached or says nothing within 30 s.
 */
static char *http_get(int port, const char *target, int *status)
{
	struct sockaddr_in sin = { .sin_family = AF_INET,
				   .sin_port = htons(port),
				   .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	struct timeval tv = { .tv_sec = 30 };
	char chunk[65536], *all = NULL, *body = NULL, *head_end;
	size_t len = 0;
	ssize_t n;
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return NULL;
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	if (connect(fd, (struct sockaddr *)&sin, sizeof(sin)) ||
	    dprintf(fd, "GET %s HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n", target) < 0) {
		close(fd);
		return NULL;
	}
	while ((n = read(fd, chunk, sizeof(chunk))) > 0) {
		char *grown = realloc(all, len + n + 1);

		if (!grown)
			break;
		all = grown;
		memcpy(all + len, chunk, n);
		len += n;
		all[len] = '\0';
	}
	close(fd);
	if (all && sscanf(all, "HTTP/1.%*d %d", status) == 1 &&
	    (head_end = strstr(all, "\r\n\r\n")))
		body = strdup(head_end + 4);
	free(all);
	return body;
}

int prometheus_start(struct prometheus_proc *p, const char *dir, const char *config)
{
	char path[300];
	FILE *f;

	memset(p, 0, sizeof(*p));
	snprintf(p->dir, sizeof(p->dir), "%s", dir);
	snprintf(path, sizeof(path), "%s/prometheus.yml", dir);
	f = fopen(path, "w");
	if (!f || fputs(config, f) < 0 || fclose(f)) {
		fprintf(stderr, "cannot write %s: %s\n", path, strerror(errno));
		return -1;
	}
	p->port = free_port();
	if (p->port < 0)
		return -1;
	p->pid = fork();
	if (p->pid == 0) {
		char cfg[320], data[320], listen[64], log[320];

		snprintf(cfg, sizeof(cfg), "--config.file=%s/prometheus.yml", dir);
		snprintf(data, sizeof(data), "--storage.tsdb.path=%s/data", dir);
		snprintf(listen, sizeof(listen), "--web.listen-address=127.0.0.1:%d", p->port);
		snprintf(log, sizeof(log), "%s/prometheus.log", dir);
		if (!freopen(log, "w", stderr) || !freopen("/dev/null", "w", stdout))
			_exit(127);
		execlp("prometheus", "prometheus", cfg, data, listen, "--log.level=warn",
		       (char *)NULL);
		_exit(127);
	}
	for (int i = 0; i < 600; i++) {
		int status = 0;
		char *body = http_get(p->port, "/-/ready", &status);

		free(body);
		if (body && status == 200)
			return 0;
		if (waitpid(p->pid, NULL, WNOHANG) == p->pid) {
			fprintf(stderr, "prometheus exited: see %s/prometheus.log\n", dir);
			p->pid = 0;
			return -1;
		}
		usleep(100000);
	}
	fprintf(stderr, "prometheus was not ready within 60 s: see %s/prometheus.log\n", dir);
	prometheus_stop(p);
	return -1;
}

void prometheus_reload(const struct prometheus_proc *p)
{
	if (p->pid > 0)
		kill(p->pid, SIGHUP);
}

/* expr in a URL's query: every byte but the unreserved ones as %XX. */
static char *url_encode(const char *s)
{
	char *out = malloc(3 * strlen(s) + 1), *o = out;

	assert_non_null(out);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (isalnum(c) || strchr("-_.~", c))
			*o++ = (char)c;
		else
			o += sprintf(o, "%%%02X", c);
	}
	*o = '\0';
	return out;
}

json_object *prometheus_api(const struct prometheus_proc *p, const char *target)
{
	json_object *reply, *status, *data;
	char *body;
	int code = 0;

	body = http_get(p->port, target, &code);
	if (!body)
		fail_msg("prometheus on port %d did not answer %s", p->port, target);
	reply = json_tokener_parse(body);
	if (!reply || !json_object_object_get_ex(reply, "status", &status) ||
	    strcmp(json_object_get_string(status), "success") ||
	    !json_object_object_get_ex(reply, "data", &data))
		fail_msg("prometheus: HTTP %d for %s:\n%s", code, target, body);
	free(body);
	json_object_get(data);
	json_object_put(reply);
	return data;
}

json_object *prometheus_query(const struct prometheus_proc *p, const char *expr, double t)
{
	char *q = url_encode(expr), *target;
	json_object *data, *result;
	char when[64] = "";

	if (t > 0)
		snprintf(when, sizeof(when), "&time=%.3f", t);
	assert_true(asprintf(&target, "/api/v1/query?query=%s%s", q, when) > 0);
	free(q);
	data = prometheus_api(p, target);
	if (!json_object_object_get_ex(data, "result", &result))
		fail_msg("prometheus: no result for %s", expr);
	free(target);
	json_object_get(result);
	json_object_put(data);
	return result;
}

void prometheus_stop(struct prometheus_proc *p)
{
	if (p->pid > 0) {
		kill(p->pid, SIGTERM);
		waitpid(p->pid, NULL, 0);
	}
	p->pid = 0;
}
