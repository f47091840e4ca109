// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Files and streams that try to hurt (issue 17): devices and FIFOs where a
 * file is wanted, control bytes in parse errors, numbers past a double,
 * duplicate keys, and reads that must still end on SIGINT or SIGTERM.  Every
 * test runs under an alarm: a read that blocks or never ends fails it, in
 * bounded time.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
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
#include "replay/replay_read.h"
#include "replay/replay_run.h"

/* What would block forever fails the test instead: SIGALRM's default ends the program. */
#define BOUND_S 10

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
	struct tma_model *m;

	(void)state;
	text = many(4096, false);
	m = model_load(text, strlen(text), "t.tma", err, sizeof(err));
	if (!m)
		fail_msg("4096 nodes must load: %s", err);
	model_free(m);
	free(text);
	text = many(4097, false);
	assert_null(model_load(text, strlen(text), "t.tma", err, sizeof(err)));
	assert_string_equal(err, "t.tma:8194:6: more than 4096 nodes, Info metrics and counts, "
				 "the limit of a model (the built-in ones have under 300)");
	free(text);
	text = many(4097, true);
	assert_null(model_load(text, strlen(text), "t.tma", err, sizeof(err)));
	assert_string_equal(err, "t.tma:4098:8: more than 4096 constants and helpers, the limit "
				 "of a model (the built-in ones have under 100)");
	free(text);
}

static int read_replay(const char *text, struct replay_data *d, char *err, size_t errlen)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	int rc;

	assert_non_null(f);
	rc = replay_read_stream(f, "in.jsonl", d, err, errlen);
	fclose(f);
	return rc;
}

/* Issue 17.8: a key given twice in a replay line was read as its last value, silently. */
static void test_replay_duplicate_key_refused(void **state)
{
	struct replay_data d;
	char err[512] = "";

	(void)state;
	assert_int_equal(read_replay("{\"cgroup\":\"/a\",\"interval_s\":1,"
				     "\"counters\":{\"X.Y\":1,\"X.Y\" :2}}\n",
				     &d, err, sizeof(err)),
			 -EINVAL);
	assert_string_equal(err, "in.jsonl:1: a key given twice in one object: each key once "
				 "(which one would count?)");
	assert_int_equal(read_replay("{\"cgroup\":\"/a\",\"cgroup\":\"/b\",\"interval_s\":1,"
				     "\"counters\":{}}\n",
				     &d, err, sizeof(err)),
			 -EINVAL);
	/* A key-like string inside a value is not a key. */
	assert_int_equal(read_replay("{\"cgroup\":\"/a\\\":\\\"\",\"interval_s\":1,"
				     "\"counters\":{\"X.Y\":1}}\n",
				     &d, err, sizeof(err)),
			 0);
	replay_free(&d);
}

/* Issue 17.4 for replay: a key's control bytes in an error are escaped too. */
static void test_replay_error_escapes_controls(void **state)
{
	struct replay_data d;
	char err[512] = "";

	(void)state;
	assert_int_equal(read_replay("{\"cgroup\":\"/a\",\"interval_s\":1,"
				     "\"counters\":{\"\\u001b]0;x\\u0007\":\"s\"}}\n",
				     &d, err, sizeof(err)),
			 -EINVAL);
	assert_no_controls(err);
	assert_non_null(strstr(err, "counter \"\\x1b]0;x\\x07\" is string"));
}

static int none(void *ctx, const struct replay_record *rec, struct model_result *res)
{
	(void)ctx;
	(void)rec;
	(void)res;
	return 0;
}

/* Issue 17.8: an event the model reads and the recording lacks is named, once, with a count. */
static void test_replay_missing_event_warned(void **state)
{
	static const char model[] = "model t\nnode 1 A\n  formula X.Y / (X.Y + Z.W)\n";
	struct tma_model *m;
	struct replay_data d;
	char err[512] = "", *text = NULL;
	size_t len = 0;
	FILE *e = open_memstream(&text, &len);

	(void)state;
	m = model_load(model, sizeof(model) - 1, "t.tma", err, sizeof(err));
	assert_non_null(m);
	assert_int_equal(
		read_replay("{\"cgroup\":\"/a\",\"interval_s\":1,\"counters\":{\"X.Y\":1,"
			    "\"Z.W\":1}}\n"
			    "{\"cgroup\":\"/a\",\"interval_s\":1,\"counters\":{\"X.Y\":1}}\n"
			    "{\"cgroup\":\"/a\",\"interval_s\":1,\"counters\":{\"X.Y\":1}}\n",
			    &d, err, sizeof(err)),
		0);
	assert_int_equal(replay_each(&d, m, 1, false, none, NULL, e), 0);
	fclose(e);
	assert_string_equal(text, "tmacg: warning: in.jsonl: 2 of 3 records lack Z.W (first on "
				  "line 2), which model t reads: it read as 0 there (record it, "
				  "or check the event's name)\n");
	free(text);
	replay_free(&d);
	model_free(m);
}

/* build/tests/unit/test_x -> build/tmacg: the binary of the same tree (plain or sanitizer). */
static void tmacg_path(char *buf, size_t len)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	assert_true(n > 0);
	exe[n] = '\0';
	snprintf(buf, len, "%s/../../tmacg", dirname(exe));
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
	tmacg_path(bin, sizeof(bin));
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
	tmacg_path(bin, sizeof(bin));
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
		cmocka_unit_test(test_replay_duplicate_key_refused),
		cmocka_unit_test(test_replay_error_escapes_controls),
		cmocka_unit_test(test_replay_missing_event_warned),
		cmocka_unit_test(test_replay_pipe_ends_on_signal),
		cmocka_unit_test(test_model_fifo_ends_at_once),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
