// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * tmacg --replay on Granite Rapids' golden vectors, as a user runs it: each line's
 * quality.retire_latency says where its latencies came from, and Lock_Latency (TMA 5.1,
 * weighed by MEM_INST_RETIRED.LOCK_LOADS' latency) is the reference's value
 * (tests/golden/gnr-tma5.1.jsonl), with Intel's defaults or the line's own latencies.
 * --retire-latency FILE replaces the defaults; a bad file stops with its reason.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "offline.h"
#include "options.h"

#define GOLDEN "tests/golden/gnr-tma5.1.jsonl"

/* offline_run() on argv with stdout and stderr captured; returns its exit code. */
static int run(const char **argv, char **out, char **errtext)
{
	struct options o;
	char opath[] = "/tmp/tmacg-rl-out-XXXXXX", epath[] = "/tmp/tmacg-rl-err-XXXXXX";
	int argc = 0, ofd = mkstemp(opath), efd = mkstemp(epath);
	int so = dup(STDOUT_FILENO), se = dup(STDERR_FILENO), code;
	char **bufs[2] = { out, errtext };
	int fds[2] = { ofd, efd };

	while (argv[argc])
		argc++;
	assert_true(ofd >= 0 && efd >= 0);
	assert_int_equal(options_parse(&o, argc, (char **)argv, stdout, stderr), 0);
	options_resolve(&o, false);
	fflush(stdout);
	fflush(stderr);
	dup2(ofd, STDOUT_FILENO);
	dup2(efd, STDERR_FILENO);
	code = offline_run(&o);
	fflush(stdout);
	fflush(stderr);
	dup2(so, STDOUT_FILENO);
	dup2(se, STDERR_FILENO);
	close(so);
	close(se);
	for (int i = 0; i < 2; i++) {
		off_t n = lseek(fds[i], 0, SEEK_END);

		*bufs[i] = calloc(n + 1, 1);
		assert_non_null(*bufs[i]);
		assert_int_equal(pread(fds[i], *bufs[i], n, 0), n);
		close(fds[i]);
	}
	unlink(opath);
	unlink(epath);
	return code;
}

/* The first two golden vectors: p0 without its own latencies, p1 with them. */
static void first_vectors(char *path, json_object *want[2])
{
	FILE *in = fopen(GOLDEN, "r"), *out;
	char *line = NULL;
	size_t cap = 0;
	int fd = mkstemp(path);

	assert_non_null(in);
	assert_true(fd >= 0);
	out = fdopen(fd, "w");
	for (int i = 0; i < 2; i++) {
		assert_true(getline(&line, &cap, in) > 0);
		fputs(line, out);
		want[i] = json_tokener_parse(line);
		assert_non_null(want[i]);
	}
	assert_false(json_object_object_get_ex(want[0], "retire_latency", NULL));
	assert_true(json_object_object_get_ex(want[1], "retire_latency", NULL));
	free(line);
	fclose(in);
	fclose(out);
}

static const char *quality(json_object *line)
{
	json_object *q = json_object_object_get(line, "quality");

	return json_object_get_string(json_object_object_get(q, "retire_latency"));
}

static double node(json_object *line, const char *name)
{
	return json_object_get_double(json_object_object_get(
		json_object_object_get(line, name[0] == 'e' ? "expected" : "metrics"), name + 1));
}

static void check(const char *file, json_object *want[2], const char *const q[2], bool golden)
{
	const char *argv[] = { "tmacg", "--replay", file, "--model", "gnr", "--format",
			       "json",	"--level",  "4",  NULL,	     NULL,  NULL };
	char *out, *err, *at;

	if (!golden) {
		argv[9] = "--retire-latency";
		argv[10] = "tools/perfmon/graniterapids_retire_latency.json";
	}
	assert_int_equal(run(argv, &out, &err), 0);
	at = out;
	for (int i = 0; i < 2; i++) {
		char *nl = strchr(at, '\n');
		json_object *got;

		assert_non_null(nl);
		*nl = '\0';
		got = json_tokener_parse(at);
		assert_non_null(got);
		assert_string_equal(quality(got), q[i]);
		if (golden) /* the reference's value, within 1e-9 */
			assert_float_equal(node(got, "mLock_Latency"),
					   node(want[i], "eLock_Latency"),
					   1e-9 * node(want[i], "eLock_Latency"));
		json_object_put(got);
		at = nl + 1;
	}
	free(out);
	free(err);
}

static void test_gnr_replay(void **state)
{
	char path[] = "/tmp/tmacg-rl-in-XXXXXX", *out, *err;
	json_object *want[2];
	static const char *const defaults[2] = { "defaults", "given+defaults" };
	static const char *const file[2] = { "given", "given+defaults" };
	const char *bad[] = { "tmacg",
			      "--replay",
			      path,
			      "--model",
			      "gnr",
			      "--retire-latency",
			      "/nonexistent/lat.json",
			      NULL };

	(void)state;
	unsetenv("TMACG_MODEL_DIR");
	first_vectors(path, want);
	check(path, want, defaults, true);
	/* Intel's own file given: the same numbers, now "given" (p1 keeps its own) */
	check(path, want, file, false);
	assert_int_equal(run(bad, &out, &err), 1);
	assert_string_equal(out, "");
	assert_non_null(strstr(err, "/nonexistent/lat.json: cannot open the retire-latency file"));
	free(out);
	free(err);
	unlink(path);
	json_object_put(want[0]);
	json_object_put(want[1]);
}

/* A model that reads no retire latency: the file is not silently ignored. */
static void test_unused_file_warned(void **state)
{
	char path[] = "/tmp/tmacg-rl-in-XXXXXX", *out, *err;
	json_object *want[2];
	const char *argv[] = { "tmacg",
			       "--replay",
			       path,
			       "--model",
			       "icx",
			       "--format",
			       "json",
			       "--retire-latency",
			       "tools/perfmon/graniterapids_retire_latency.json",
			       NULL };

	(void)state;
	first_vectors(path, want);
	assert_int_equal(run(argv, &out, &err), 0);
	assert_non_null(strstr(err, "warning: model icx reads no retire latency"));
	assert_non_null(strstr(out, "\"retire_latency\":null"));
	free(out);
	free(err);
	unlink(path);
	json_object_put(want[0]);
	json_object_put(want[1]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gnr_replay),
		cmocka_unit_test(test_unused_file_warned),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
