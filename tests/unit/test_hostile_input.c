// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Files and streams that try to hurt (issue 17): devices and FIFOs where a
 * file is wanted, control bytes in parse errors, numbers past a double,
 * models past their size, and reads that must still end on SIGINT or
 * SIGTERM (replay input's own cases are in test_replay.c).  Every
 * test runs under an alarm: a read that blocks or never ends fails it, in
 * bounded time.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "model/model.h"
#include "pmu/cpu_desc.h"
#include "tree_tmacg.h"

/*
 * What would block forever fails the program instead: SIGALRM's default ends
 * it.  For the whole group, with room for a sanitizer build on a loaded host.
 */
#define BOUND_S 120

static char tmp[] = "/tmp/tmacg-hostile-XXXXXX";

static int setup(void **state)
{
	(void)state;
	alarm(BOUND_S);
	return mkdtemp(tmp) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	alarm(0);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmp);
	return system(cmd);
}

static void path_in_tmp(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/%s", tmp, name);
}

/* No byte of err may reach the terminal as a control. */
static void assert_no_controls(const char *err)
{
	for (const unsigned char *u = (const unsigned char *)err; *u; u++)
		if (*u < 0x20 || *u == 0x7f)
			fail_msg("control byte 0x%02x in: %s", *u, err);
}

/* Issue 17.1: a .cpu symlink to /dev/zero grew memory without limit. */
static void test_cpu_description_device_refused(void **state)
{
	char link[PATH_MAX], err[1024] = "";

	(void)state;
	path_in_tmp(link, sizeof(link), "zero.cpu");
	assert_int_equal(symlink("/dev/zero", link), 0);
	setenv("TMACG_MODEL_DIR", tmp, 1);
	cpu_desc_reset();
	assert_true(cpu_desc_init(err, sizeof(err)) < 0);
	assert_non_null(strstr(err, "zero.cpu: a character device, not a regular file: the CPU "
				    "description must be a regular file"));
	unlink(link);
	unsetenv("TMACG_MODEL_DIR");
	cpu_desc_reset();
}

/* Issue 17.1 and 17.3: a FIFO as a model file or .cpu is refused at once, never waited on. */
static void test_fifo_refused_without_blocking(void **state)
{
	char fifo[PATH_MAX], err[1024] = "";

	(void)state;
	path_in_tmp(fifo, sizeof(fifo), "x.tma");
	assert_int_equal(mkfifo(fifo, 0600), 0);
	assert_null(model_load_file(fifo, err, sizeof(err)));
	assert_non_null(strstr(err, "x.tma: a FIFO (named pipe), not a regular file"));
	unlink(fifo);

	path_in_tmp(fifo, sizeof(fifo), "y.cpu");
	assert_int_equal(mkfifo(fifo, 0600), 0);
	setenv("TMACG_MODEL_DIR", tmp, 1);
	cpu_desc_reset();
	assert_true(cpu_desc_init(err, sizeof(err)) < 0);
	assert_non_null(strstr(err, "y.cpu: a FIFO (named pipe), not a regular file"));
	unlink(fifo);
	unsetenv("TMACG_MODEL_DIR");
	cpu_desc_reset();
}

/* Issue 17.4: a file's escape sequences are shown as \xHH, never sent to the terminal. */
static void test_parse_errors_escape_controls(void **state)
{
	static const char model[] = "model t\n\x1b]0;pwned\x07 x\n";
	static const char cpu[] = "cpu t\nperf_metrics \x1b[2J\n";
	char err[1024] = "";

	(void)state;
	assert_null(model_load(model, sizeof(model) - 1, "t.tma", err, sizeof(err)));
	assert_no_controls(err);
	assert_string_equal(err, "t.tma:2:1: '\\x1b]0;pwned\\x07' outside a node, info or count "
				 "block");

	assert_null(cpu_desc_parse(cpu, sizeof(cpu) - 1, "t.cpu", err, sizeof(err)));
	assert_no_controls(err);
	assert_non_null(strstr(err, "'perf_metrics \\x1b[2J'"));
}

/* Issue 17.8: 1e999 is not a number a model may hold (it was infinity). */
static void test_constant_past_double_refused(void **state)
{
	static const char model[] = "model t\nconst Big = 1e999\nnode 1 A\n  formula Big\n";
	char err[1024] = "";

	(void)state;
	assert_null(model_load(model, sizeof(model) - 1, "t.tma", err, sizeof(err)));
	assert_string_equal(err, "t.tma:2:13: number too large for a double (at most about "
				 "1.8e308)");
}

/* A model of n level-1 nodes (or n helpers), as generated text. */
static char *many(int n, bool helpers)
{
	size_t cap = 64 + (size_t)n * 64, len = 0;
	char *t = malloc(cap);

	assert_non_null(t);
	len += snprintf(t + len, cap - len, "model t\n");
	for (int i = 0; i < n; i++)
		len += helpers ? snprintf(t + len, cap - len, "helper H%d = X.Y\n", i) :
				 snprintf(t + len, cap - len, "node %d N%d\n  formula X.Y\n", i + 1,
					  i);
	if (helpers)
		snprintf(t + len, cap - len, "node 1 A\n  formula H0\n");
	return t;
}

/* Issue 17.7: loading is quadratic in the node count, so the count is capped and said. */
static void test_model_size_capped(void **state)
{
	char err[1024] = "", *text;

	(void)state;
	text = many(2049, false);
	assert_null(model_load(text, strlen(text), "t.tma", err, sizeof(err)));
	assert_string_equal(err, "t.tma:4098:6: more than 2048 nodes, Info metrics and counts, "
				 "the limit of a model (the built-in ones have under 300)");
	free(text);
	text = many(2049, true);
	assert_null(model_load(text, strlen(text), "t.tma", err, sizeof(err)));
	assert_string_equal(err, "t.tma:2050:8: more than 2048 constants and helpers, the limit "
				 "of a model (the built-in ones have under 100)");
	free(text);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Waits up to limit_s for pid; kills it and fails when it is still running then. */
static int wait_bounded(pid_t pid, double limit_s)
{
	double until = now_s() + limit_s;
	int status;

	while (now_s() < until) {
		if (waitpid(pid, &status, WNOHANG) == pid)
			return status;
		usleep(20000);
	}
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	fail_msg("tmacg did not end within %.0f s of the signal", limit_s);
	return -1;
}

/* Issue 17.3: --replay - from a pipe that stays open must still end on SIGINT (and SIGTERM). */
static void test_replay_pipe_ends_on_signal(void **state)
{
	static const int sigs[] = { SIGINT, SIGTERM };
	char bin[PATH_MAX];

	(void)state;
	tree_tmacg(bin, sizeof(bin));
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		int in[2], status;
		pid_t pid;

		assert_int_equal(pipe(in), 0);
		pid = fork();
		assert_true(pid >= 0);
		if (!pid) {
			int null = open("/dev/null", O_WRONLY);

			dup2(in[0], STDIN_FILENO);
			dup2(null, STDOUT_FILENO);
			dup2(null, STDERR_FILENO);
			close(in[1]);
			execl(bin, bin, "--replay", "-", "--model", "icx", (char *)NULL);
			_exit(127);
		}
		close(in[0]);
		/* A line and no end: tmacg is blocked reading the next one. */
		assert_true(write(in[1], "\n", 1) == 1);
		usleep(300000);
		kill(pid, sigs[i]);
		status = wait_bounded(pid, 5);
		close(in[1]);
		assert_true(WIFSIGNALED(status) || (WIFEXITED(status) && WEXITSTATUS(status)));
		assert_false(WIFEXITED(status) && WEXITSTATUS(status) == 127);
	}
}

/* Issue 17.3: --model-file FIFO blocked forever in open(), deaf to SIGTERM: now refused at once. */
static void test_model_fifo_ends_at_once(void **state)
{
	char bin[PATH_MAX], fifo[PATH_MAX];
	int status;
	pid_t pid;

	(void)state;
	tree_tmacg(bin, sizeof(bin));
	path_in_tmp(fifo, sizeof(fifo), "m.tma");
	assert_int_equal(mkfifo(fifo, 0600), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		int null = open("/dev/null", O_WRONLY);

		dup2(null, STDOUT_FILENO);
		dup2(null, STDERR_FILENO);
		execl(bin, bin, "--model-file", fifo, "--list-metrics", (char *)NULL);
		_exit(127);
	}
	status = wait_bounded(pid, 5);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 1);
	unlink(fifo);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cpu_description_device_refused),
		cmocka_unit_test(test_fifo_refused_without_blocking),
		cmocka_unit_test(test_parse_errors_escape_controls),
		cmocka_unit_test(test_constant_past_double_refused),
		cmocka_unit_test(test_model_size_capped),
		cmocka_unit_test(test_replay_pipe_ends_on_signal),
		cmocka_unit_test(test_model_fifo_ends_at_once),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
