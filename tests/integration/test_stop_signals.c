// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * SIGTERM, SIGINT and SIGHUP end a live run within a second whatever its
 * output is blocked on (a pipe nobody reads: a pod's log pipe backed up),
 * in every format and with --listen: the interval so far is written if the
 * output takes it, else dropped with one line on stderr and exit 1.  The
 * promise is 1 s; the tests allow 5 s (a loaded machine), where tmacg used
 * to wait for the reader for ever.  --pmu software: no PMU needed.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "itest.h"
#include "text_count.h"

#define PIPE_BYTES 4096
#define EXIT_WITHIN_S 5.0

struct blocked {
	pid_t pid;
	int rd; /* the pipe's read end: nobody reads it until the test does */
	char err_path[64];
	int status;
	double exit_s; /* from the signal to the exit */
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static char *read_all(const char *path)
{
	FILE *f = fopen(path, "r");
	char *text = NULL;
	size_t cap = 0;

	assert_non_null(f);
	if (getdelim(&text, &cap, '\0', f) < 0) {
		free(text);
		text = strdup("");
	}
	fclose(f);
	return text;
}

/* Waits up to 60 s for stderr to say text (tmacg -v's "ready": measuring). */
static void wait_for_err(const struct blocked *b, const char *text)
{
	for (int i = 0; i < 600; i++) {
		char *err = read_all(b->err_path);
		bool said = strstr(err, text) != NULL;

		free(err);
		if (said)
			return;
		usleep(100000);
	}
	fail_msg("tmacg never said \"%s\"", text);
}

/* Whether pid sleeps in the kernel's pipe write (anon_pipe_write, pipe_write). */
static bool in_pipe_write(pid_t pid)
{
	char path[64], wchan[128] = "";
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/wchan", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return false;
	if (!fgets(wchan, sizeof(wchan), f))
		wchan[0] = '\0';
	fclose(f);
	return strstr(wchan, "pipe_write") != NULL;
}

/*
 * $TMACG -v args with stdout a pipe of one page, stderr a file; returns once
 * it measures.  With full, once the pipe is full too: tmacg is blocked in a
 * write.
 */
static void start(struct blocked *b, const char *const args[], bool full)
{
	const char *argv[32] = { getenv("TMACG"), "-v" };
	int p[2], n = 2, fd, queued = 0;

	assert_non_null(argv[0]);
	for (; args[n - 2]; n++)
		argv[n] = args[n - 2];
	argv[n] = NULL;
	strcpy(b->err_path, "/tmp/tmacg-stop-XXXXXX");
	fd = mkstemp(b->err_path);
	assert_true(fd >= 0);
	assert_int_equal(pipe2(p, O_CLOEXEC), 0);
	assert_true(fcntl(p[1], F_SETPIPE_SZ, PIPE_BYTES) >= PIPE_BYTES);
	b->pid = fork();
	assert_true(b->pid >= 0);
	if (b->pid == 0) {
		dup2(p[1], 1);
		dup2(fd, 2);
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	close(p[1]);
	close(fd);
	b->rd = p[0];
	wait_for_err(b, "tmacg: ready");
	for (int i = 0; full && i < 600 && !in_pipe_write(b->pid); i++)
		usleep(100000);
	assert_int_equal(ioctl(b->rd, FIONREAD, &queued), 0);
	if (full && !in_pipe_write(b->pid))
		fail_msg("tmacg wrote %d bytes in 60 s and is not blocked writing more", queued);
}

/* Sends sig and waits for the exit, EXIT_WITHIN_S at most (then SIGKILL, and a failure). */
static void stop(struct blocked *b, int sig)
{
	double t0 = now_s();
	int status;

	assert_int_equal(kill(b->pid, sig), 0);
	while (waitpid(b->pid, &status, WNOHANG) == 0) {
		if (now_s() - t0 > EXIT_WITHIN_S) {
			kill(b->pid, SIGKILL);
			waitpid(b->pid, &status, 0);
			fail_msg("still running %.0f s after %s, its output blocked", EXIT_WITHIN_S,
				 strsignal(sig));
		}
		usleep(20000);
	}
	b->exit_s = now_s() - t0;
	b->status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static void finish(struct blocked *b)
{
	close(b->rd);
	unlink(b->err_path);
}

/* Blocked, then each signal: exit 1 within the limit, and the loss said once. */
static void expect_dropped(const char *const args[], bool full, int sig)
{
	struct blocked b;
	char *err;

	start(&b, args, full);
	stop(&b, sig);
	err = read_all(b.err_path);
	print_message("%s %s: exit %d after %.2f s\n", args[3], strsignal(sig), b.status, b.exit_s);
	if (b.status != 1 || text_count(err, "were dropped") != 1)
		fail_msg("%s: exit %d, want 1 and one line saying what was dropped; stderr:\n%s",
			 strsignal(sig), b.status, err);
	assert_non_null(strstr(err, "the output was blocked after the stop signal"));
	free(err);
	finish(&b);
}

static void each_stop_signal_ends_a_blocked_run(void **state)
{
	static const int sigs[] = { SIGTERM, SIGINT, SIGHUP };
	const char *const args[] = { "--pmu",	   "software", "--format", "json",
				     "--interval", "10ms",     NULL };

	(void)state;
	ITEST_NEED_ROOT();
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		expect_dropped(args, true, sigs[i]);
}

/* The table, the live view and the HTML report (written at the end, into a full pipe). */
static void every_format_ends_blocked(void **state)
{
	const char *const table[] = { "--pmu", "software", "--format", "table", "--interval",
				      "10ms",  "--color",  "never",    NULL };
	const char *const top[] = { "--pmu", "software", "--format", "top", "--interval",
				    "10ms",  "--color",	 "never",    NULL };
	const char *const html[] = { "--pmu",	   "software", "--format", "html",
				     "--interval", "100ms",    NULL };

	(void)state;
	ITEST_NEED_ROOT();
	expect_dropped(table, true, SIGTERM);
	expect_dropped(top, true, SIGTERM);
	expect_dropped(html, false, SIGTERM); /* a report larger than the pipe */
}

/* --listen's server thread must not take the signal the blocked loop waits for. */
static void listen_ends_blocked(void **state)
{
	const char *const args[] = { "--pmu", "software", "--format",	 "json", "--interval",
				     "10ms",  "--listen", "127.0.0.1:0", NULL };

	(void)state;
	ITEST_NEED_ROOT();
	expect_dropped(args, true, SIGTERM);
	expect_dropped(args, true, SIGHUP);
}

/*
 * An output blocked when the signal comes that then takes everything gets
 * everything: the last interval whole, every line JSON, exit 0.
 */
static void output_that_takes_it_gets_the_last_interval(void **state)
{
	const char *const args[] = { "--pmu",	   "software", "--format", "json",
				     "--interval", "10ms",     NULL };
	struct blocked b;
	char *out = NULL, *err, chunk[65536];
	size_t len = 0, nlines;
	json_object **lines;
	ssize_t got;
	pid_t pid;
	int status;

	(void)state;
	ITEST_NEED_ROOT();
	start(&b, args, true);
	pid = b.pid;
	assert_int_equal(kill(pid, SIGTERM), 0);
	/* read at once: well within the 500 ms an output gets to take the next byte */
	while ((got = read(b.rd, chunk, sizeof(chunk))) > 0 || (got < 0 && errno == EINTR)) {
		if (got <= 0)
			continue;
		out = realloc(out, len + (size_t)got + 1);
		assert_non_null(out);
		memcpy(out + len, chunk, (size_t)got);
		len += (size_t)got;
	}
	assert_non_null(out);
	out[len] = '\0';
	assert_int_equal(waitpid(pid, &status, 0), pid);
	err = read_all(b.err_path);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || strstr(err, "were dropped"))
		fail_msg("status %#x, want exit 0 and nothing dropped; stderr:\n%s", status, err);
	assert_true(len > PIPE_BYTES);
	assert_int_equal(out[len - 1], '\n');
	lines = itest_json_lines(out, &nlines);
	assert_non_null(lines); /* every line whole */
	assert_true(nlines >= 2);
	itest_json_free(lines, nlines);
	free(err);
	free(out);
	finish(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(each_stop_signal_ends_a_blocked_run, itest_cleanup),
		cmocka_unit_test_teardown(every_format_ends_blocked, itest_cleanup),
		cmocka_unit_test_teardown(listen_ends_blocked, itest_cleanup),
		cmocka_unit_test_teardown(output_that_takes_it_gets_the_last_interval,
					  itest_cleanup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
