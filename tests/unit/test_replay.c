// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Replay input: what is accepted, each malformed case with its line, and nothing half-printed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/model.h"
#include "replay/replay_read.h"
#include "replay/replay_run.h"
#include "replay_text.h"

static void bad(const char *text, const char *want)
{
	struct replay_data d;
	char err[512] = "";

	assert_int_equal(replay_read_text(text, &d, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, want);
	assert_int_equal(d.nrecords, 0);
}

#define GOOD "{\"cgroup\":\"/a\",\"interval_s\":1,\"counters\":{\"X.Y\":1}}\n"

static void test_read_ok(void **state)
{
	const char text[] =
		"{\"cgroup\":\"/a\",\"interval_s\":0.5,\"counters\":{\"PERF_METRICS.RETIRING\":2,"
		"\"TOPDOWN.SLOTS\":10},\"other\":[1]}\n"
		"\n"
		"{\"cgroup\":\"/b\",\"interval_s\":2,\"counters\":{\"PERF_METRICS.RETIRING\":2},"
		"\"topdown_fixed\":false,\"smt\":true}\n"
		"{\"cgroup\":\"/"
		"c\",\"interval_s\":1,\"counters\":{\"A.B\":3.5},\"topdown_fixed\":true}";
	struct replay_data d;
	char err[512];

	(void)state;
	assert_int_equal(replay_read_text(text, &d, err, sizeof(err)), 0);
	assert_int_equal(d.nrecords, 3);
	assert_string_equal(d.records[0].cgroup, "/a");
	assert_float_equal(d.records[0].interval_s, 0.5, 0);
	assert_int_equal(d.records[0].ncounters, 2);
	assert_true(d.records[0].topdown_fixed);  /* a PERF_METRICS.* key */
	assert_false(d.records[0].smt);		  /* default */
	assert_int_equal(d.records[1].line, 3);	  /* blank line 2 skipped */
	assert_false(d.records[1].topdown_fixed); /* given */
	assert_true(d.records[1].smt);
	assert_true(d.records[2].topdown_fixed);
	assert_string_equal(d.records[2].counters[0].name, "A.B");
	assert_float_equal(d.records[2].counters[0].value, 3.5, 0);
	replay_free(&d);
}

static void test_malformed(void **state)
{
	(void)state;
	bad(GOOD "{\"cgroup\":\"/a\",",
	    "in.jsonl:2: bad JSON: the object is not complete on this line");
	bad(GOOD GOOD "{\"cgroup\" \"/a\"}\n",
	    "in.jsonl:3: bad JSON: object property name separator ':' expected");
	bad(GOOD "{} {}\n", "in.jsonl:2: bad JSON: text after the object");
	bad("[1,2]\n", "in.jsonl:1: expected a JSON object, found array");
	bad("{\"interval_s\":1,\"counters\":{}}\n", "in.jsonl:1: \"cgroup\" (a string) is missing");
	bad("{\"cgroup\":5,\"interval_s\":1,\"counters\":{}}\n",
	    "in.jsonl:1: \"cgroup\" (a string) is missing");
	bad("{\"cgroup\":\"/a\",\"counters\":{}}\n",
	    "in.jsonl:1: \"interval_s\" (a number of seconds) is missing");
	bad("{\"cgroup\":\"/a\",\"interval_s\":\"1\",\"counters\":{}}\n",
	    "in.jsonl:1: \"interval_s\" (a number of seconds) is missing");
	bad("{\"cgroup\":\"/a\",\"interval_s\":0,\"counters\":{}}\n",
	    "in.jsonl:1: \"interval_s\" must be a positive number");
	bad("{\"cgroup\":\"/a\",\"interval_s\":1}\n",
	    "in.jsonl:1: \"counters\" (an object of event name: count) is missing");
	bad("{\"cgroup\":\"/a\",\"interval_s\":1,\"counters\":[1]}\n",
	    "in.jsonl:1: \"counters\" (an object of event name: count) is missing");
	bad(GOOD "{\"cgroup\":\"/a\",\"interval_s\":1,\"counters\":{\"A.B\":\"12\"}}\n",
	    "in.jsonl:2: counter \"A.B\" is string, not a number");
	bad("{\"cgroup\":\"/a\",\"interval_s\":1,\"counters\":{\"A.B\":null}}\n",
	    "in.jsonl:1: counter \"A.B\" is null, not a number");
	bad("{\"cgroup\":\"/a\",\"interval_s\":1,\"counters\":{\"A.B\":-1}}\n",
	    "in.jsonl:1: counter \"A.B\" is -1: counts are finite and not negative");
	bad("{\"cgroup\":\"/a\",\"interval_s\":1,\"counters\":{},\"smt\":1}\n",
	    "in.jsonl:1: \"smt\" must be true or false");
	bad("{\"cgroup\":\"/a\",\"interval_s\":1,\"counters\":{},\"topdown_fixed\":\"yes\"}\n",
	    "in.jsonl:1: \"topdown_fixed\" must be true or false");
	bad("\n\n", "in.jsonl:2: no records: expected one JSON object per line");
}

/* Writes text to a temporary file; returns its path (static buffer). */
static const char *temp_file(const char *text)
{
	static char path[64];
	FILE *f;

	strcpy(path, "/tmp/tmacg-replay-XXXXXX");
	close(mkstemp(path));
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	return path;
}

static struct tma_model *icx(void)
{
	char err[512];
	struct tma_model *m = model_load_builtin("icx", err, sizeof(err));

	if (!m)
		fail_msg("%s", err);
	return m;
}

static void test_nothing_half_printed(void **state)
{
	struct tma_model *m = icx();
	const char *path =
		temp_file(GOOD GOOD "{\"cgroup\":\"/a\",\"interval_s\":1,\"counters\":7}\n");
	char *out = NULL, *err = NULL, want[256];
	size_t outlen = 0, errlen = 0;
	FILE *o = open_memstream(&out, &outlen), *e = open_memstream(&err, &errlen);

	(void)state;
	assert_int_equal(replay_run(path, m, 3, true, false, false, o, e), 1);
	fclose(o);
	fclose(e);
	assert_int_equal(outlen, 0);
	snprintf(want, sizeof(want),
		 "tmacg: %s:3: \"counters\" (an object of event name: count) is missing\n", path);
	assert_string_equal(err, want);
	free(out);
	free(err);
	unlink(path);
	model_free(m);
}

static void test_model_failure_reported(void **state)
{
	struct tma_model *m = icx();
	const char *path = temp_file(GOOD);
	char *err = NULL, want[256];
	size_t errlen = 0;
	FILE *e = open_memstream(&err, &errlen);

	(void)state;
	assert_int_equal(replay_run(path, m, -1, true, false, false, stdout, e), 1);
	fclose(e);
	snprintf(want, sizeof(want), "tmacg: %s:1: cannot evaluate model icx: Invalid argument\n",
		 path);
	assert_string_equal(err, want);
	free(err);
	unlink(path);
	model_free(m);
}

static void test_missing_file(void **state)
{
	struct tma_model *m = icx();
	char *err = NULL;
	size_t errlen = 0;
	FILE *e = open_memstream(&err, &errlen);

	(void)state;
	assert_int_equal(replay_run("/nonexistent.jsonl", m, 1, true, false, false, stdout, e), 1);
	fclose(e);
	assert_string_equal(
		err,
		"tmacg: /nonexistent.jsonl: cannot open the replay file: No such file or directory\n");
	free(err);
	model_free(m);
}

static double metric(json_object *o, const char *name)
{
	json_object *metrics = json_object_object_get(o, "metrics"), *v;

	if (!json_object_object_get_ex(metrics, name, &v))
		fail_msg("no metric %s", name);
	return json_object_get_type(v) == json_type_null ? NAN : json_object_get_double(v);
}

static void test_json_lines(void **state)
{
	/* PERF_METRICS summing to SLOTS: each level-1 node is its share */
	const char *path = temp_file(
		"{\"cgroup\":\"/p\",\"interval_s\":2,\"counters\":{\"TOPDOWN.SLOTS\":1000,"
		"\"PERF_METRICS.RETIRING\":100,\"PERF_METRICS.FRONTEND_BOUND\":200,"
		"\"PERF_METRICS.BAD_SPECULATION\":300,\"PERF_METRICS.BACKEND_BOUND\":400,"
		"\"NOT.READ_BY_ICX\":5}}\n"
		"{\"cgroup\":\"/q\",\"interval_s\":1,\"counters\":{\"TOPDOWN.SLOTS\":1000,"
		"\"UOPS_RETIRED.SLOTS\":500}}\n");
	struct tma_model *m = icx();
	char *out = NULL, *line2;
	size_t outlen = 0;
	FILE *o = open_memstream(&out, &outlen);
	json_object *j;

	(void)state;
	assert_int_equal(replay_run(path, m, 1, true, false, false, o, stderr), 0);
	fclose(o);
	line2 = strchr(out, '\n');
	assert_non_null(line2);
	*line2++ = '\0';
	j = json_tokener_parse(out);
	assert_non_null(j);
	assert_string_equal(json_object_get_string(json_object_object_get(j, "schema")), "tmacg/1");
	assert_string_equal(json_object_get_string(json_object_object_get(j, "model")), "icx");
	assert_string_equal(json_object_get_string(json_object_object_get(j, "tma_version")),
			    "4.5");
	assert_string_equal(json_object_get_string(json_object_object_get(j, "cgroup")), "/p");
	assert_float_equal(json_object_get_double(json_object_object_get(j, "interval_s")), 2, 0);
	assert_int_equal(json_object_get_type(json_object_object_get(j, "cgroup_id")),
			 json_type_null);
	assert_float_equal(metric(j, "Retiring"), 0.1, 1e-12);
	assert_float_equal(metric(j, "Frontend_Bound"), 0.2, 1e-12);
	assert_float_equal(metric(j, "Bad_Speculation"), 0.3, 1e-12);
	assert_float_equal(metric(j, "Backend_Bound"), 0.4, 1e-12);
	/* --level 1: only the four level-1 nodes */
	assert_int_equal(json_object_object_length(json_object_object_get(j, "metrics")), 4);
	/* Backend_Bound 0.4 > 0.2 and Frontend_Bound 0.2 > 0.15 are flagged; Backend is larger */
	assert_string_equal(json_object_get_string(json_object_object_get(j, "bottleneck")),
			    "Backend_Bound");
	json_object_put(j);
	/* no PERF_METRICS: the other branch; absent counters are 0, not null */
	j = json_tokener_parse(line2);
	assert_non_null(j);
	assert_float_equal(metric(j, "Retiring"), 0.5, 1e-12);
	assert_float_equal(metric(j, "Frontend_Bound"), 0, 0);
	json_object_put(j);
	free(out);
	unlink(path);
	model_free(m);
}

static void test_stdin(void **state)
{
	const char *path =
		temp_file("{\"cgroup\":\"/s\",\"interval_s\":1,\"counters\":{}}\n{\"cgroup\":1}\n");
	struct replay_data d;
	char err[512];

	(void)state;
	assert_non_null(freopen(path, "r", stdin));
	assert_int_equal(replay_read("-", &d, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "<stdin>:2: \"cgroup\" (a string) is missing");
	unlink(path);
}

/* /dev/zero has no newline: one line's limit ends the read, naming the file and the limit. */
static void test_dev_zero_refused(void **state)
{
	struct replay_data d;
	char err[512] = "";

	(void)state;
	assert_int_equal(replay_read("/dev/zero", &d, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "/dev/zero:1: line longer than 1048576 bytes, the limit of one "
				 "replay line: not JSON lines?");
	assert_int_equal(d.nrecords, 0);
}

static void test_oversized_line_refused(void **state)
{
	size_t n = REPLAY_MAX_LINE + 1;
	char *text = malloc(sizeof(GOOD) + n + 1), err[512] = "";
	struct replay_data d;

	(void)state;
	/* A good first line, then one byte over the limit (spaces: it would parse as blank). */
	strcpy(text, GOOD);
	memset(text + strlen(GOOD), ' ', n);
	text[strlen(GOOD) + n] = '\0';
	assert_int_equal(replay_read_text(text, &d, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "in.jsonl:2: line longer than 1048576 bytes, the limit of one "
				 "replay line: not JSON lines?");
	/* Exactly at the limit is accepted (a blank line). */
	text[strlen(GOOD) + n - 1] = '\0';
	assert_int_equal(replay_read_text(text, &d, err, sizeof(err)), 0);
	assert_int_equal(d.nrecords, 1);
	replay_free(&d);
	free(text);
}

static void test_oversized_input_refused(void **state)
{
	const char text[] = GOOD GOOD GOOD;
	size_t one = strlen(GOOD);
	struct replay_data d;
	char err[512] = "";
	FILE *f;

	(void)state;
	f = fmemopen((void *)text, strlen(text), "r");
	assert_int_equal(
		replay_read_stream_limited(f, "big.jsonl", 4096, 2 * one, &d, err, sizeof(err)),
		-EFBIG);
	fclose(f);
	assert_string_equal(err, "big.jsonl: larger than 104 bytes, the limit of a replay input: "
				 "split it and replay the parts");
	assert_int_equal(d.nrecords, 0);
	f = fmemopen((void *)text, strlen(text), "r");
	assert_int_equal(
		replay_read_stream_limited(f, "big.jsonl", 4096, 3 * one, &d, err, sizeof(err)), 0);
	fclose(f);
	assert_int_equal(d.nrecords, 3);
	replay_free(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_read_ok),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_nothing_half_printed),
		cmocka_unit_test(test_missing_file),
		cmocka_unit_test(test_model_failure_reported),
		cmocka_unit_test(test_json_lines),
		cmocka_unit_test(test_stdin),
		cmocka_unit_test(test_dev_zero_refused),
		cmocka_unit_test(test_oversized_line_refused),
		cmocka_unit_test(test_oversized_input_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
