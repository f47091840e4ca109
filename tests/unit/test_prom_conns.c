// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Issue 17.2: the /metrics server under slow clients at a low descriptor
 * limit.  The server runs in this process (no BPF, no root) with
 * RLIMIT_NOFILE at 128; a child process plays 200 clients that trickle one
 * header line every 2 s and a scraper that asks every 200 ms.  Scrapes must
 * be answered, stderr must stay small, and a trickling client must be cut
 * off at the request deadline.  Bounded: about 30 s in all.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <arpa/inet.h>
#include <errno.h>
#include <event2/buffer.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "prom/prom_server.h"
#include "prom/prom_text.h"
#include "prom_test_server.h"

/*
 * The server's evbuffer_add_reference (linked with --wrap,
 * test_prom_conns.wrap), refusing the piece whose bytes start at
 * refuse_data: the out-of-memory a reply can meet half-way through a text.
 */
static const void *refuse_data;

int __real_evbuffer_add_reference(struct evbuffer *buf, const void *data, size_t len,
				  evbuffer_ref_cleanup_cb cleanup, void *arg);

int __wrap_evbuffer_add_reference(struct evbuffer *buf, const void *data, size_t len,
				  evbuffer_ref_cleanup_cb cleanup, void *arg)
{
	if (data && data == refuse_data)
		return -1;
	return __real_evbuffer_add_reference(buf, data, len, cleanup, arg);
}

#define SLOW_CLIENTS 200
#define RUN_S 12
#define SCRAPE_EVERY_MS 200

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static struct prom_server *start(int *port)
{
	struct prom_server *s = prom_test_server_start(port);

	/* About 10 KB, as a small host's exposition. */
	{
		size_t len = 10000;
		char *text = malloc(len);

		assert_non_null(text);
		memset(text, '#', len);
		text[len - 1] = '\n';
		assert_int_equal(prom_server_publish(s, text, len), 0);
	}
	return s;
}

static int connect_to(int port, bool nonblock)
{
	struct sockaddr_in sin = { .sin_family = AF_INET,
				   .sin_port = htons(port),
				   .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | (nonblock ? SOCK_NONBLOCK : 0), 0);

	if (fd < 0)
		return -1;
	if (connect(fd, (struct sockaddr *)&sin, sizeof(sin)) && errno != EINPROGRESS) {
		close(fd);
		return -1;
	}
	return fd;
}

/* One GET /metrics: 1 when answered 200 within 3 s. */
static int scrape_once(int port)
{
	static const char req[] = "GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
	struct timeval tv = { .tv_sec = 3 };
	char buf[16384];
	int fd = connect_to(port, false), ok = 0;
	size_t got = 0;
	ssize_t n;

	if (fd < 0)
		return 0;
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	if (send(fd, req, sizeof(req) - 1, MSG_NOSIGNAL) == (ssize_t)sizeof(req) - 1) {
		while ((n = recv(fd, buf + (got < 32 ? got : 32), sizeof(buf) - 33, 0)) > 0)
			got += n;
		ok = got >= 12 && !strncmp(buf, "HTTP/1.1 200", 12);
	}
	close(fd);
	return ok;
}

/*
 * The child: SLOW_CLIENTS trickling a header line every 2 s (reconnecting
 * when cut off) and a scraper.  Writes "attempted answered" to out.
 */
static void clients(int port, int out)
{
	static const char first[] = "GET /metrics HTTP/1.1\r\nHost: x\r\n";
	struct rlimit rl;
	int fds[SLOW_CLIENTS];
	double next_line[SLOW_CLIENTS], end = now_s() + RUN_S, next_scrape = now_s() + 0.5;
	int attempted = 0, answered = 0;
	char msg[64];

	getrlimit(RLIMIT_NOFILE, &rl);
	rl.rlim_cur = rl.rlim_max;
	setrlimit(RLIMIT_NOFILE, &rl);
	for (int i = 0; i < SLOW_CLIENTS; i++) {
		fds[i] = -1;
		next_line[i] = now_s() + i * 0.005;
	}
	while (now_s() < end) {
		double t = now_s();

		for (int i = 0; i < SLOW_CLIENTS; i++) {
			char c;

			if (fds[i] >= 0 && recv(fds[i], &c, 1, MSG_DONTWAIT) == 0) {
				close(fds[i]); /* cut off: come back, as a hostile client would */
				fds[i] = -1;
			}
			if (t < next_line[i])
				continue;
			if (fds[i] < 0) {
				fds[i] = connect_to(port, true);
				if (fds[i] >= 0)
					send(fds[i], first, sizeof(first) - 1, MSG_NOSIGNAL);
			} else if (send(fds[i], "X-Slow: a\r\n", 11, MSG_NOSIGNAL) < 0 &&
				   errno != EAGAIN) {
				close(fds[i]);
				fds[i] = -1;
			}
			next_line[i] = t + 2;
		}
		if (t >= next_scrape) {
			attempted++;
			answered += scrape_once(port);
			next_scrape = now_s() + SCRAPE_EVERY_MS / 1000.0;
		}
		usleep(5000);
	}
	snprintf(msg, sizeof(msg), "%d %d\n", attempted, answered);
	if (write(out, msg, strlen(msg)) < 0)
		_exit(1);
	_exit(0);
}

/*
 * Runs the clients against a server started at `limit` descriptors; with
 * squeeze, this process then takes all but a few of the descriptors left
 * (as a busy interval loop would), so accept() fails for lack of them.
 */
static void slow_clients_run(rlim_t limit, bool squeeze)
{
	char log_path[] = "/tmp/tmacg-prom-conns-XXXXXX", result[64] = "";
	struct rlimit saved, rl;
	int log_fd = mkstemp(log_path), saved_err = dup(STDERR_FILENO), pipefd[2], port, status;
	int attempted = 0, answered = 0, held[256], nheld = 0;
	struct prom_server *s;
	struct stat st;
	pid_t pid;
	ssize_t n;

	assert_true(log_fd >= 0);
	assert_int_equal(getrlimit(RLIMIT_NOFILE, &saved), 0);
	rl = saved;
	rl.rlim_cur = limit;
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &rl), 0);
	assert_int_equal(pipe(pipefd), 0);
	fflush(stderr);
	dup2(log_fd, STDERR_FILENO); /* what the server logs, measured */
	s = start(&port);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		close(pipefd[0]);
		clients(port, pipefd[1]);
	}
	close(pipefd[1]);
	if (squeeze) {
		/* Leave 6 descriptors: the server reaches EMFILE before its cap. */
		int fd;

		while (nheld < 256 && (fd = open("/dev/null", O_RDONLY | O_CLOEXEC)) >= 0)
			held[nheld++] = fd;
		for (int k = 0; k < 6 && nheld; k++)
			close(held[--nheld]);
	}
	n = read(pipefd[0], result, sizeof(result) - 1);
	close(pipefd[0]);
	waitpid(pid, &status, 0);
	while (nheld)
		close(held[--nheld]);
	prom_server_stop(s);
	fflush(stderr);
	dup2(saved_err, STDERR_FILENO);
	close(saved_err);
	assert_int_equal(setrlimit(RLIMIT_NOFILE, &saved), 0);
	assert_true(n > 0);
	assert_int_equal(sscanf(result, "%d %d", &attempted, &answered), 2);
	assert_int_equal(fstat(log_fd, &st), 0);
	printf("  ulimit -n %lu%s: %d of %d scrapes answered in %d s, %lld bytes logged\n",
	       (unsigned long)limit, squeeze ? ", all but 6 descriptors taken" : "", answered,
	       attempted, RUN_S, (long long)st.st_size);
	{
		char head[600] = "";

		if (pread(log_fd, head, sizeof(head) - 1, 0) > 0)
			printf("  log begins: %s\n", head);
	}
	close(log_fd);
	unlink(log_path);
	assert_true(attempted >= 20);
	/* Nearly every scrape answered (one may meet a shed or a full backlog). */
	assert_true(answered >= attempted * 9 / 10);
	/* At most a few lines a second: RUN_S seconds of them, not one per attempt. */
	assert_true(st.st_size <= RUN_S * 600);
}

static void slow_clients_at_128_descriptors(void **state)
{
	(void)state;
	slow_clients_run(128, false);
}

static void slow_clients_out_of_descriptors(void **state)
{
	(void)state;
	slow_clients_run(128, true);
}

/* A request trickling in a line a second is cut off at the deadline (5 s), not served forever. */
/* One request's whole response (NUL-terminated, at most 64 KiB), or NULL. */
static char *fetch(int port, const char *method)
{
	char req[128], *buf = malloc(65536);
	struct timeval tv = { .tv_sec = 3 };
	int fd = connect_to(port, false), len;
	size_t got = 0;
	ssize_t n;

	if (fd < 0 || !buf) {
		free(buf);
		return NULL;
	}
	len = snprintf(req, sizeof(req),
		       "%s /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", method);
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	if (send(fd, req, len, MSG_NOSIGNAL) == len)
		while (got < 65535 && (n = recv(fd, buf + got, 65535 - got, 0)) > 0)
			got += n;
	close(fd);
	buf[got] = '\0';
	return buf;
}

/* A text of n pieces, copies of parts, piece i of family i. */
static struct prom_text pieces_of(const char *const *parts, int n)
{
	struct prom_text t = { 0 };

	for (int i = 0; i < n; i++) {
		t.piece[t.n++] = (struct prom_piece){ .buf = strdup(parts[i]),
						      .len = strlen(parts[i]),
						      .cap = strlen(parts[i]) + 1,
						      .rows_family = -1 };
		assert_non_null(t.piece[i].buf);
	}
	return t;
}

/*
 * A text published in pieces is served as their concatenation (GET), its
 * Content-Length their sum (HEAD); publishing the next hands the previous
 * one's pieces back when no reply still sends them, for the builder to
 * write the next interval into (prom_expo_recycle).
 */
static void pieces_served_whole_and_handed_back(void **state)
{
	static const char *const parts[] = { "# TYPE a gauge\na 1\n", "b{x=\"y\"} 2\n", "",
					     "c 3\n" };
	struct prom_text t, done;
	struct prom_server *s;
	char *got, *p0;
	int port;

	(void)state;
	s = start(&port);
	t = pieces_of(parts, 4);
	p0 = t.piece[0].buf;
	assert_int_equal(prom_server_publish_text(s, &t, &done), 0);
	assert_int_equal(t.n, 0);
	assert_int_equal(done.n, 1); /* start()'s text: no reply held it */
	prom_text_free(&done);
	got = fetch(port, "GET");
	assert_non_null(got);
	assert_non_null(strstr(got, "\r\n\r\n# TYPE a gauge\na 1\nb{x=\"y\"} 2\nc 3\n"));
	assert_non_null(strstr(got, "Content-Length: 34\r\n"));
	free(got);
	got = fetch(port, "HEAD");
	assert_non_null(got);
	assert_non_null(strstr(got, "Content-Length: 34\r\n"));
	free(got);
	/*
	 * Replaced once both replies are done (the server thread drops their
	 * references as it frees them, just after the last byte): the four pieces
	 * come back as they went, nothing copied.
	 */
	usleep(200000);
	t = (struct prom_text){ .n = 1, .piece[0] = { strdup("d 4\n"), 4, 5, -1 } };
	assert_non_null(t.piece[0].buf);
	assert_int_equal(prom_server_publish_text(s, &t, &done), 0);
	assert_int_equal(done.n, 4);
	assert_ptr_equal(done.piece[0].buf, p0);
	assert_string_equal(done.piece[3].buf, "c 3\n");
	prom_text_free(&done);
	prom_server_stop(s);
}

/*
 * A piece the reply cannot reference (out of memory): the scrape fails whole
 * with 503, never a part of the text taken for all of it (Prometheus would
 * ingest the part); the pieces referenced before it are let go, so the text
 * still comes back whole at the next publish, and the next scrape is whole.
 */
static void unreferenced_piece_fails_the_scrape_whole(void **state)
{
	static const char *const parts[] = { "a 1\n", "b 2\n", "c 3\n" };
	struct prom_text t, done;
	struct prom_server *s;
	char *got;
	int port;

	(void)state;
	s = start(&port);
	t = pieces_of(parts, 3);
	refuse_data = t.piece[1].buf;
	assert_int_equal(prom_server_publish_text(s, &t, &done), 0);
	prom_text_free(&done);
	got = fetch(port, "GET");
	assert_non_null(got);
	if (strncmp(got, "HTTP/1.1 503", 12) || !strstr(got, "out of memory") ||
	    strstr(got, "a 1\n"))
		fail_msg("not a whole failure:\n%s", got);
	free(got);
	refuse_data = NULL;
	got = fetch(port, "GET");
	assert_non_null(got);
	assert_non_null(strstr(got, "HTTP/1.1 200"));
	assert_non_null(strstr(got, "\r\n\r\na 1\nb 2\nc 3\n"));
	free(got);
	/* both replies done: the three pieces come back, the failed reply's references dropped */
	usleep(200000);
	t = (struct prom_text){ .n = 1, .piece[0] = { strdup("d 4\n"), 4, 5, -1 } };
	assert_non_null(t.piece[0].buf);
	assert_int_equal(prom_server_publish_text(s, &t, &done), 0);
	assert_int_equal(done.n, 3);
	prom_text_free(&done);
	prom_server_stop(s);
}

static void trickling_request_cut_off(void **state)
{
	struct prom_server *s;
	int port, fd;
	double t0, closed = 0;
	char c;

	(void)state;
	s = start(&port);
	fd = connect_to(port, false);
	assert_true(fd >= 0);
	t0 = now_s();
	assert_int_equal(send(fd, "GET /metrics HTTP/1.1\r\n", 23, MSG_NOSIGNAL), 23);
	while (now_s() - t0 < 9) {
		if (recv(fd, &c, 1, MSG_DONTWAIT) == 0 ||
		    send(fd, "X-Slow: a\r\n", 11, MSG_NOSIGNAL) < 0) {
			closed = now_s() - t0;
			break;
		}
		usleep(500000);
	}
	close(fd);
	prom_server_stop(s);
	if (closed)
		printf("  trickling client cut off after %.1f s\n", closed);
	else
		printf("  trickling client still served after 9 s\n");
	assert_true(closed > 4 && closed < 7);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pieces_served_whole_and_handed_back),
		cmocka_unit_test(unreferenced_piece_fails_the_scrape_whole),
		cmocka_unit_test(trickling_request_cut_off),
		cmocka_unit_test(slow_clients_at_128_descriptors),
		cmocka_unit_test(slow_clients_out_of_descriptors),
	};

	signal(SIGPIPE, SIG_IGN);
	alarm(60); /* bounded: a hang fails the program */
	return cmocka_run_group_tests(tests, NULL, NULL);
}
