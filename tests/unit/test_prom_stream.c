// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * prom_server.c's streamed replies (issue 27): a text with node rows longer
 * than a chunk goes out as HTTP/1.1 chunks made as they are sent, and reads
 * as the text joined; HTTP/1.0 gets it whole after its Content-Length; HEAD says its
 * length.  A client leaving half-way, a new interval published half-way and
 * memory running out half-way each leave the server serving whole texts,
 * with every reference to the old text let go (it comes back on the next
 * publish).  The server runs in this process: no BPF, no root.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <arpa/inet.h>
#include <errno.h>
#include <event2/buffer.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "prom/prom_nodes.h"
#include "prom/prom_rows.h"
#include "prom/prom_server.h"
#include "prom/prom_text.h"
#include "prom_test_server.h"

/*
 * The server's evbuffer_reserve_space (--wrap, test_prom_stream.wrap): from
 * the fail_from-th call on (0: never), out of memory, as a chunk can meet.
 */
static int fail_from, reserves;

int __real_evbuffer_reserve_space(struct evbuffer *buf, ev_ssize_t size, struct evbuffer_iovec *vec,
				  int n_vec);

int __wrap_evbuffer_reserve_space(struct evbuffer *buf, ev_ssize_t size, struct evbuffer_iovec *vec,
				  int n_vec)
{
	if (fail_from && __atomic_add_fetch(&reserves, 1, __ATOMIC_SEQ_CST) >= fail_from)
		return -1;
	return __real_evbuffer_reserve_space(buf, size, vec, n_vec);
}

/*
 * A text of `lines` cgroups' ratios (value v, some 80 bytes a sample)
 * between two byte pieces; *joined: the text it must read as.
 */
static struct prom_text rows_text(int lines, double v, char **joined, size_t *len)
{
	static const char *const names[PROM_ROWS_FAMILIES] = { "n_slots", "n_ratio", "n_measured" };
	static char *labels[2] = { ",node=\"a\"}", ",node=\"b\"}" };
	static size_t lens[2] = { 10, 10 };
	struct prom_nodes pn = { .build = 1,
				 .n = 2,
				 .ratio = labels,
				 .ratio_len = lens,
				 .plain = labels,
				 .plain_len = lens };
	struct prom_text t = { .n = 3 };

	t.rows = prom_rows_new(names);
	assert_non_null(t.rows);
	assert_int_equal(prom_rows_labels(t.rows, &pn), 0);
	for (int i = 0; i < lines; i++) {
		char cg[64];

		snprintf(cg, sizeof(cg), "host=\"h\",cgroup=\"/svc/c%d\"", i);
		assert_int_equal(prom_rows_line(t.rows, cg, strlen(cg)), 0);
		assert_int_equal(prom_rows_samples(t.rows, PROM_ROWS_RATIO, (int[]){ 0 }, &v, 1),
				 0);
		assert_int_equal(prom_rows_samples(t.rows, PROM_ROWS_RATIO, (int[]){ 1 },
						   (double[]){ v / 2 }, 1),
				 0);
	}
	t.piece[0] = (struct prom_piece){ .buf = strdup("# TYPE n_ratio gauge\n"),
					  .len = 21,
					  .rows_family = -1 };
	t.piece[1] = (struct prom_piece){ .rows_family = PROM_ROWS_RATIO };
	t.piece[2] = (struct prom_piece){ .buf = strdup("end 1\n"), .len = 6, .rows_family = -1 };
	assert_non_null(t.piece[0].buf);
	assert_non_null(t.piece[2].buf);
	*joined = prom_text_join(&t, len);
	assert_non_null(*joined);
	return t;
}

static int connect_to(int port)
{
	struct sockaddr_in sin = { .sin_family = AF_INET,
				   .sin_port = htons(port),
				   .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	struct timeval tv = { .tv_sec = 5 };
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), small = 4096;

	assert_true(fd >= 0);
	/*
	 * A small window, before connecting: the reply cannot all sit in the
	 * sockets' buffers, so one read half-way leaves the server half-way.
	 */
	setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &small, sizeof(small));
	assert_int_equal(connect(fd, (struct sockaddr *)&sin, sizeof(sin)), 0);
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	return fd;
}

static int ask(int port, const char *method, const char *version)
{
	char req[160];
	int fd = connect_to(port);
	int n = snprintf(req, sizeof(req),
			 "%s /metrics HTTP/%s\r\nHost: x\r\nConnection: close\r\n\r\n", method,
			 version);

	assert_int_equal(send(fd, req, n, MSG_NOSIGNAL), n);
	return fd;
}

/* Up to `most` bytes of the response on fd (all until the close: SIZE_MAX); NUL-terminated. */
static char *take(int fd, size_t most, size_t *got)
{
	size_t cap = 1 << 16;
	char *buf = malloc(cap + 1);
	ssize_t n;

	assert_non_null(buf);
	*got = 0;
	while (*got < most) {
		if (*got == cap) {
			buf = realloc(buf, 2 * cap + 1);
			assert_non_null(buf);
			cap *= 2;
		}
		n = recv(fd, buf + *got, (cap - *got < most - *got ? cap - *got : most - *got), 0);
		if (n <= 0)
			break;
		*got += (size_t)n;
	}
	buf[*got] = '\0';
	return buf;
}

/*
 * A chunked body's data (NUL-terminated) and how many chunks carried it;
 * NULL when it does not end with the last chunk: a reply cut off.
 */
static char *unchunk(const char *body, size_t len, int *chunks)
{
	char *out = malloc(len + 1);
	size_t at = 0, o = 0;

	assert_non_null(out);
	*chunks = 0;
	while (at < len) {
		char *end;
		unsigned long n = strtoul(body + at, &end, 16);

		if (end == body + at || strncmp(end, "\r\n", 2))
			break;
		at = (size_t)(end - body) + 2;
		if (!n) {
			out[o] = '\0';
			return out;
		}
		if (at + n + 2 > len || strncmp(body + at + n, "\r\n", 2))
			break;
		memcpy(out + o, body + at, n);
		o += n;
		at += n + 2;
		(*chunks)++;
	}
	free(out);
	return NULL;
}

/* A whole GET (HTTP/1.1): the text it carried, checked to have come in chunks. */
static char *get_chunked(int port, int *chunks)
{
	int fd = ask(port, "GET", "1.1");
	size_t got;
	char *resp = take(fd, SIZE_MAX, &got), *body = strstr(resp, "\r\n\r\n"), *text;

	close(fd);
	assert_non_null(body);
	assert_int_equal(strncmp(resp, "HTTP/1.1 200", 12), 0);
	assert_non_null(strstr(resp, "Transfer-Encoding: chunked\r\n"));
	assert_null(strstr(resp, "Content-Length"));
	text = unchunk(body + 4, got - (size_t)(body + 4 - resp), chunks);
	free(resp);
	return text;
}

/* Publishes t; the text it replaces comes back when no reply holds it (within 2 s). */
static void publish_expect_back(struct prom_server *s, struct prom_text *t, int pieces)
{
	struct prom_text done;

	assert_int_equal(prom_server_publish_text(s, t, &done), 0);
	assert_int_equal(done.n, pieces);
	prom_text_free(&done);
}

/* A server serving 20,000 cgroups' ratios (some 2 MB); *joined: the text it must read as. */
static struct prom_server *serving_rows(int *port, char **joined, size_t *len)
{
	struct prom_server *s = prom_test_server_start(port);
	struct prom_text t = rows_text(20000, 0.25, joined, len);

	publish_expect_back(s, &t, 1);
	return s;
}

/*
 * A scrape after reads `expect` whole; once the server has seen every reply
 * go, publishing another text hands the one it replaces back: no reply,
 * finished or gone, still holds a reference to it.  Stops the server.
 */
static void whole_then_handed_back(struct prom_server *s, int port, const char *expect)
{
	struct prom_text t;
	char *text;
	size_t len;
	int chunks;

	text = get_chunked(port, &chunks);
	assert_non_null(text);
	assert_string_equal(text, expect);
	free(text);
	usleep(300000);
	t = rows_text(10, 1, &text, &len);
	publish_expect_back(s, &t, 3);
	free(text);
	prom_server_stop(s);
}

static void long_text_streams_in_chunks(void **state)
{
	struct prom_server *s;
	struct prom_text t;
	char *joined, *text, *resp, len_header[64];
	size_t len, got;
	int port, chunks, fd;

	(void)state;
	s = prom_test_server_start(&port);
	t = rows_text(20000, 0.25, &joined, &len); /* some 1.7 MB */
	assert_true(len > 1000000);
	publish_expect_back(s, &t, 1);
	text = get_chunked(port, &chunks);
	assert_non_null(text);
	assert_string_equal(text, joined);
	/* Chunks of some 64 KiB: made as they go, not one text. */
	assert_true(chunks >= (int)(len / (128 * 1024)));
	printf("  %zu bytes in %d chunks\n", len, chunks);
	free(text);
	/* HTTP/1.0 has no chunks: the text until the close. */
	fd = ask(port, "GET", "1.0");
	resp = take(fd, SIZE_MAX, &got);
	close(fd);
	assert_non_null(strstr(resp, "\r\n\r\n"));
	assert_string_equal(strstr(resp, "\r\n\r\n") + 4, joined);
	free(resp);
	/* HEAD: the length GET sends, no body. */
	fd = ask(port, "HEAD", "1.1");
	resp = take(fd, SIZE_MAX, &got);
	close(fd);
	snprintf(len_header, sizeof(len_header), "Content-Length: %zu\r\n", len);
	assert_non_null(strstr(resp, len_header));
	assert_string_equal(strstr(resp, "\r\n\r\n") + 4, "");
	free(resp);
	free(joined);
	prom_server_stop(s);
}

/*
 * Clients leaving after a few KiB (some resetting the connection): each
 * stream ends with its connection and lets go of the text, which comes back
 * on the next publish; the next scrape is whole.
 */
static void clients_leaving_half_way(void **state)
{
	struct prom_server *s;
	char *joined;
	size_t len;
	int port;

	(void)state;
	s = serving_rows(&port, &joined, &len);
	for (int i = 0; i < 20; i++) {
		int fd = ask(port, "GET", "1.1");
		size_t got;
		char *part = take(fd, 8192, &got);

		assert_true(got > 0);
		if (i % 2) {
			struct linger rst = { .l_onoff = 1, .l_linger = 0 };

			setsockopt(fd, SOL_SOCKET, SO_LINGER, &rst, sizeof(rst));
		}
		close(fd);
		free(part);
	}
	whole_then_handed_back(s, port, joined);
	free(joined);
}

/*
 * A reply half-way through when the next interval is published reads to
 * the end as the text it began (never half of each), then lets it go; a
 * scrape after reads the new text.
 */
static void new_interval_half_way(void **state)
{
	struct prom_server *s;
	struct prom_text t, done;
	char *old, *new, *head, *rest, *all, *text, *body;
	size_t len, len2, got, got2;
	int port, chunks, fd;

	(void)state;
	s = prom_test_server_start(&port);
	t = rows_text(20000, 0.25, &old, &len);
	publish_expect_back(s, &t, 1);
	fd = ask(port, "GET", "1.1");
	head = take(fd, 4096, &got);
	t = rows_text(20000, 0.5, &new, &len2);
	assert_int_equal(prom_server_publish_text(s, &t, &done), 0);
	assert_int_equal(done.n, 0); /* still being sent */
	rest = take(fd, SIZE_MAX, &got2);
	close(fd);
	all = malloc(got + got2 + 1);
	assert_non_null(all);
	memcpy(all, head, got);
	memcpy(all + got, rest, got2 + 1);
	body = strstr(all, "\r\n\r\n");
	assert_non_null(body);
	text = unchunk(body + 4, got + got2 - (size_t)(body + 4 - all), &chunks);
	assert_non_null(text);
	assert_string_equal(text, old);
	free(text);
	whole_then_handed_back(s, port, new);
	free(head);
	free(rest);
	free(all);
	free(old);
	free(new);
}

/*
 * Out of memory for a chunk half-way: the reply is cut off without its last
 * chunk, so the client (Prometheus) fails the scrape rather than take a part
 * for all of it; before the first chunk, 503.  Memory back, scrapes are whole.
 */
static void out_of_memory_half_way(void **state)
{
	struct prom_server *s;
	char *joined, *resp, *body;
	size_t len, got;
	int port, chunks, fd;

	(void)state;
	s = serving_rows(&port, &joined, &len);
	reserves = 0;
	fail_from = 5;
	fd = ask(port, "GET", "1.1");
	resp = take(fd, SIZE_MAX, &got);
	close(fd);
	body = strstr(resp, "\r\n\r\n");
	assert_non_null(body);
	assert_int_equal(strncmp(resp, "HTTP/1.1 200", 12), 0);
	assert_null(unchunk(body + 4, got - (size_t)(body + 4 - resp), &chunks));
	printf("  cut off after %zu bytes of %zu\n", got, len);
	assert_true(got > 60000 && got < len);
	free(resp);
	reserves = 0;
	fail_from = 1;
	fd = ask(port, "GET", "1.1");
	resp = take(fd, SIZE_MAX, &got);
	close(fd);
	assert_int_equal(strncmp(resp, "HTTP/1.1 503", 12), 0);
	free(resp);
	fail_from = 0;
	whole_then_handed_back(s, port, joined);
	free(joined);
}

/*
 * A client that half-closes its side once its request is sent (`nc -N`,
 * shutdown(SHUT_WR)) still gets the whole reply, however long: over HTTP/1.1
 * every chunk and the last one, over HTTP/1.0 a Content-Length and the text
 * it counts.  Nothing in the client's end of the connection says "gone".
 */
static void half_closed_client_gets_it_all(void **state)
{
	static const char *const versions[] = { "1.1", "1.0" };
	struct prom_server *s;
	char *joined;
	size_t len;
	int port;

	(void)state;
	s = serving_rows(&port, &joined, &len); /* a hundred times 16 KiB */
	for (int v = 0; v < 2; v++) {
		char req[128], *resp, *body, *text, want[64];
		int fd = connect_to(port), chunks;
		size_t got;
		int n = snprintf(req, sizeof(req), "GET /metrics HTTP/%s\r\nHost: x\r\n\r\n",
				 versions[v]);

		assert_int_equal(send(fd, req, n, MSG_NOSIGNAL), n);
		assert_int_equal(shutdown(fd, SHUT_WR), 0);
		resp = take(fd, SIZE_MAX, &got);
		close(fd);
		body = strstr(resp, "\r\n\r\n");
		assert_non_null(body);
		body += 4;
		printf("  HTTP/%s, half-closed: %zu bytes of reply for %zu of text\n", versions[v],
		       got, len);
		assert_int_equal(strncmp(resp + 5, versions[v], 3), 0);
		assert_int_equal(strncmp(resp + 8, " 200", 4), 0);
		if (!v) {
			text = unchunk(body, got - (size_t)(body - resp), &chunks);
			if (!text)
				fail_msg("HTTP/1.1: the reply has no last chunk (%zu bytes)", got);
			assert_string_equal(text, joined);
			free(text);
		} else {
			snprintf(want, sizeof(want), "Content-Length: %zu\r\n", len);
			if (!strstr(resp, want))
				fail_msg("HTTP/1.0: no '%.*s' (%zu bytes came)",
					 (int)strlen(want) - 2, want, got);
			assert_int_equal(got - (size_t)(body - resp), len);
			assert_string_equal(body, joined);
		}
		free(resp);
	}
	whole_then_handed_back(s, port, joined);
	free(joined);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(long_text_streams_in_chunks),
		cmocka_unit_test(clients_leaving_half_way),
		cmocka_unit_test(new_interval_half_way),
		cmocka_unit_test(out_of_memory_half_way),
		cmocka_unit_test(half_closed_client_gets_it_all),
	};

	signal(SIGPIPE, SIG_IGN); /* as main.c: a client gone is EPIPE, not a signal */
	return cmocka_run_group_tests(tests, NULL, NULL);
}
