// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The HTTP/1.x of the /metrics server: request heads read into method,
 * path, version and whether the connection closes, the malformed ones
 * refused with their status; and, on a live server, two requests on one
 * kept-alive connection (one pipelined behind the other) both answered,
 * and each refusal answered with its status before the close.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "prom/prom_http.h"
#include "prom/prom_server.h"
#include "prom_test_server.h"

static int parse(const char *head, struct prom_http_req *r)
{
	return prom_http_parse(head, strlen(head), r);
}

static void head_end_found_after_the_blank_line(void **state)
{
	static const char crlf[] = "GET / HTTP/1.1\r\nHost: x\r\n\r\nnext";
	static const char lf[] = "\r\nGET / HTTP/1.1\nHost: x\n\nnext";

	(void)state;
	assert_int_equal(prom_http_head_end(crlf, strlen(crlf)), strlen(crlf) - 4);
	assert_int_equal(prom_http_head_end(lf, strlen(lf)), strlen(lf) - 4);
	/* Not yet: one line end short, or only the blank lines before a request. */
	assert_int_equal(prom_http_head_end(crlf, strlen(crlf) - 6), 0);
	assert_int_equal(prom_http_head_end("\r\n\r\n", 4), 0);
}

static void requests_read(void **state)
{
	struct prom_http_req r;

	(void)state;
	assert_int_equal(parse("GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n", &r), 0);
	assert_int_equal(r.method, PROM_HTTP_GET);
	assert_string_equal(r.path, "/metrics");
	assert_false(r.http10);
	assert_false(r.close);
	assert_int_equal(parse("HEAD /metrics?x=1 HTTP/1.1\r\nConnection: keep-alive, Close\r\n"
			       "Content-Length: 0\r\n\r\n",
			       &r),
			 0);
	assert_int_equal(r.method, PROM_HTTP_HEAD);
	assert_string_equal(r.path, "/metrics");
	assert_true(r.close);
	/* HTTP/1.0 closes after the reply, keep-alive asked or not. */
	assert_int_equal(
		parse("GET http://h:9464/healthz HTTP/1.0\r\nConnection: keep-alive\r\n\r\n", &r),
		0);
	assert_string_equal(r.path, "/healthz");
	assert_true(r.http10);
	assert_true(r.close);
	assert_int_equal(parse("POST / HTTP/1.1\r\n\r\n", &r), 0);
	assert_int_equal(r.method, PROM_HTTP_OTHER);
}

static void malformed_refused(void **state)
{
	static const struct {
		const char *head;
		int status;
	} cases[] = {
		{ "GET /metrics\r\n\r\n", 400 },
		{ "GET  HTTP/1.1\r\n\r\n", 400 },
		{ "GET metrics HTTP/1.1\r\n\r\n", 400 },
		{ "GET /metrics HTTP/1.1\r\nNo colon\r\n\r\n", 400 },
		{ "GET /metrics HTTP/1.1\r\nX: a\r\n folded\r\n\r\n", 400 },
		{ "GET /metrics HTTP/1.1\r\nBad name: a\r\n\r\n", 400 },
		{ "GET /metrics HTTP/1.1\r\nContent-Length: 1x\r\n\r\n", 400 },
		{ "GET /metrics HTTP/1.1\r\nContent-Length: 5\r\n\r\n", 413 },
		{ "GET /metrics HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n", 413 },
		{ "BREW /pot HTTP/1.1\r\n\r\n", 501 },
		{ "get /metrics HTTP/1.1\r\n\r\n", 501 },
		{ "GET /metrics HTTP/2.0\r\n\r\n", 505 },
		{ "GET /metrics FTP/1.1\r\n\r\n", 400 },
	};
	struct prom_http_req r;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		int got = parse(cases[i].head, &r);

		if (got != cases[i].status)
			fail_msg("'%s': %d, expected %d", cases[i].head, got, cases[i].status);
		assert_true(r.close);
	}
}

static int connect_to(int port)
{
	struct sockaddr_in sin = { .sin_family = AF_INET,
				   .sin_port = htons(port),
				   .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	struct timeval tv = { .tv_sec = 5 };
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	assert_true(fd >= 0);
	assert_int_equal(connect(fd, (struct sockaddr *)&sin, sizeof(sin)), 0);
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	return fd;
}

/* Sends req, reads until the server closes (fails after 5 s without): NUL-terminated. */
static char *exchange(int port, const char *req, size_t len)
{
	size_t cap = 1 << 16, got = 0;
	char *buf = malloc(cap);
	int fd = connect_to(port);
	ssize_t n;

	assert_non_null(buf);
	assert_int_equal(send(fd, req, len, MSG_NOSIGNAL), (ssize_t)len);
	while (got < cap - 1 && (n = recv(fd, buf + got, cap - 1 - got, 0)) > 0)
		got += n;
	if (n < 0)
		fail_msg("the connection stayed open after %zu bytes", got);
	close(fd);
	buf[got] = '\0';
	return buf;
}

static int count(const char *s, const char *what)
{
	int n = 0;

	for (; (s = strstr(s, what)); s++)
		n++;
	return n;
}

/* Two requests sent at once on one connection: both answered, in order, then the close. */
static void kept_alive_and_pipelined(void **state)
{
	static const char reqs[] = "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"
				   "GET /nothing HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
	struct prom_server *s;
	char *resp;
	int port;

	(void)state;
	s = prom_test_server_start(&port);
	resp = exchange(port, reqs, sizeof(reqs) - 1);
	assert_int_equal(strncmp(resp, "HTTP/1.1 200 OK\r\n", 17), 0);
	assert_non_null(strstr(resp, "\r\n\r\nok\nHTTP/1.1 404 Not Found\r\n"));
	assert_int_equal(count(resp, "Connection: close\r\n"), 1);
	free(resp);
	prom_server_stop(s);
}

/* Each refusal: its status and a reason, then the connection closed. */
static void refusals_answered_then_closed(void **state)
{
	static const struct {
		const char *req, *status;
	} cases[] = {
		{ "GET /metrics\r\n\r\n", "HTTP/1.1 400 " },
		{ "GET /metrics HTTP/1.1\r\nContent-Length: 9\r\n\r\n", "HTTP/1.1 413 " },
		{ "BREW /pot HTTP/1.1\r\n\r\n", "HTTP/1.1 501 " },
		{ "GET /metrics HTTP/3.0\r\n\r\n", "HTTP/1.1 505 " },
		{ "DELETE /metrics HTTP/1.0\r\n\r\n", "HTTP/1.0 405 " },
	};
	struct prom_server *s;
	char big[PROM_HTTP_MAX_HEAD + 64], *resp;
	int port;

	(void)state;
	s = prom_test_server_start(&port);
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		resp = exchange(port, cases[i].req, strlen(cases[i].req));
		if (strncmp(resp, cases[i].status, strlen(cases[i].status)))
			fail_msg("'%s': answered '%.40s'", cases[i].req, resp);
		assert_non_null(strstr(resp, "Connection: close\r\n"));
		free(resp);
	}
	/* A head over 8 KB, its blank line never sent. */
	memset(big, 'a', sizeof(big));
	memcpy(big, "GET /metrics HTTP/1.1\r\nX-Pad: ", 30);
	resp = exchange(port, big, sizeof(big));
	assert_int_equal(strncmp(resp, "HTTP/1.1 431 ", 13), 0);
	free(resp);
	prom_server_stop(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(head_end_found_after_the_blank_line),
		cmocka_unit_test(requests_read),
		cmocka_unit_test(malformed_refused),
		cmocka_unit_test(kept_alive_and_pipelined),
		cmocka_unit_test(refusals_answered_then_closed),
	};

	signal(SIGPIPE, SIG_IGN);
	alarm(60);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
