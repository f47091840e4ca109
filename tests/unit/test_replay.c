// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Replay input: what is accepted, each malformed case with its line, a bad line costs that line. */
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
#include "replay/replay_inputs.h"
#include "replay/replay_read.h"
#include "replay/replay_run.h"
#include "replay/replay_source.h"
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
	bad(GOOD "{\"cgroup\":\"/a\",\n",
	    "in.jsonl:2: bad JSON: the object is not complete on this line");
	/* The same as the last line, without its newline: a recording cut short. */
	bad(GOOD "{\"cgroup\":\"/a\",",
	    "in.jsonl:2: incomplete last line: the recording was cut short? (the object is not "
	    "complete on this line)");
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
	bad("{\"cgroup\":\"/a\",\"interval_s\":1,\"counters\":{},\"retire_latency\":[1]}\n",
	    "in.jsonl:1: \"retire_latency\" must be an object of event name: cycles");
	bad("{\"cgroup\":\"/a\",\"interval_s\":1,\"counters\":{},\"retire_latency\":{\"A.B\":\"9\"}}\n",
	    "in.jsonl:1: retire_latency \"A.B\" must be a number of cycles, 0 or more");
	bad("{\"cgroup\":\"/a\",\"interval_s\":1,\"counters\":{},\"retire_latency\":{\"A.B\":-1}}\n",
	    "in.jsonl:1: retire_latency \"A.B\" must be a number of cycles, 0 or more");
	bad("{\"cgroup\":\"/a\",\"interval_s\":1,\"counters\":{\"A.B\":-1}}\n",
	    "in.jsonl:1: counter \"A.B\" is -1: counts are finite and not negative");
	bad("{\"cgroup\":\"/a\",\"interval_s\":1,\"counters\":{},\"smt\":\"null\"}\n",
	    "in.jsonl:1: \"smt\" must be true, false or null");
	bad("{\"cgroup\":\"/a\",\"interval_s\":1,\"counters\":{},\"smt\":1}\n",
	    "in.jsonl:1: \"smt\" must be true, false or null");
	bad("{\"cgroup\":\"/a\",\"interval_s\":1,\"counters\":{},\"topdown_fixed\":\"yes\"}\n",
	    "in.jsonl:1: \"topdown_fixed\" must be true or false");
	bad("\n\n", "in.jsonl:2: no records: expected one JSON object per line");
}

/* text in a temporary file: its path */
static const char *temp_file(const char *text)
{
	const char *path = replay_temp_file(text);

	assert_non_null(path);
	return path;
}

/* The golden vectors these tests replay are TMA 4.5 ones. */
static struct tma_model *icx(void)
{
	char err[512];
	struct tma_model *m = model_load_version("icx", "4.5", err, sizeof(err));

	if (!m)
		fail_msg("%s", err);
	return m;
}

/*
 * path replayed as tmacg --replay PATH replays it (offline.c): opened, read
 * as it comes and printed; the exit code, the input's own failures included.
 */
static int replay_run(const char *path, const struct tma_model *m, int level, bool json, bool color,
		      bool info, FILE *out, FILE *err)
{
	struct replay_inputs in;
	struct replay_source src;
	char msg[512];
	int rc, end;

	if (replay_inputs_open(&in, path, NULL, 0, msg, sizeof(msg))) {
		fprintf(err, "tmacg: %s\n", msg);
		return 1;
	}
	replay_inputs_source(&in, &src, err);
	rc = replay_run_from(&src, m, level, json, color, info, out, err);
	end = replay_source_end(&src);
	replay_inputs_close(&in);
	return rc ? rc : end;
}

/* A bad line costs that line: the lines around it are printed, it is named, the exit is 1. */
static void test_bad_line_costs_that_line(void **state)
{
	struct tma_model *m = icx();
	const char *path =
		temp_file(GOOD GOOD "{\"cgroup\":\"/a\",\"interval_s\":1,\"counters\":7}\n" GOOD);
	char *out = NULL, *err = NULL, want[512];
	size_t outlen = 0, errlen = 0, lines = 0;
	FILE *o = open_memstream(&out, &outlen), *e = open_memstream(&err, &errlen);

	(void)state;
	assert_int_equal(replay_run(path, m, 3, true, false, false, o, e), 1);
	fclose(o);
	fclose(e);
	for (const char *p = out; (p = strchr(p, '\n')); p++)
		lines++;
	assert_int_equal(lines, 3);
	snprintf(want, sizeof(want),
		 "tmacg: %s:3: \"counters\" (an object of event name: count) is missing\n", path);
	assert_true(!strncmp(err, want, strlen(want)));
	snprintf(want, sizeof(want), "\ntmacg: %s: 1 bad line skipped, 3 replayed\n", path);
	assert_non_null(strstr(err, want));
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

/*
 * TMA 5.1's retire latencies: a line's own "retire_latency" object, else the
 * --retire-latency file's, each missing one from Intel's defaults; a latency none of
 * them has leaves its node null, and quality.retire_latency says which were used.
 */
static void test_retire_latency(void **state)
{
	static const char model[] = "model t\ntma_version 5.1\n"
				    "node 1 Lock\n  formula L.K * L.K:retire_latency / C.C\n"
				    "node 2 Split\n  formula S.P * S.P:retire_latency / C.C\n";
	static const char lines[] =
		"{\"cgroup\":\"/own\",\"interval_s\":1,\"counters\":{\"L.K\":10,\"S.P\":4,"
		"\"C.C\":1000},\"retire_latency\":{\"L.K\":50}}\n"
		"{\"cgroup\":\"/none\",\"interval_s\":1,\"counters\":{\"L.K\":10,\"S.P\":4,"
		"\"C.C\":1000}}\n";
	char err[512], *out = NULL;
	size_t outlen = 0;
	struct tma_model *m = model_load(model, strlen(model), "t.tma", err, sizeof(err));
	struct rl_table defaults = { 0 }, file = { 0 };
	struct replay_data d;
	FILE *o;
	json_object *j;
	const char *want[][3] = {
		/* quality, Lock, Split per line, each setting */
		{ "given", "0.5", NULL },
		{ "none", NULL, NULL }, /* nothing else */
		{ "given+defaults", "0.5", "0.02" },
		{ "defaults", "0.3", "0.02" }, /* + defaults */
		{ "given+defaults", "0.5", "0.02" },
		{ "given+defaults", "0.1", "0.02" }, /* + file */
	};

	(void)state;
	assert_non_null(m);
	assert_int_equal(rl_table_add(&defaults, "L.K", 30), 0);
	assert_int_equal(rl_table_add(&defaults, "S.P", 5), 0);
	assert_int_equal(rl_table_add(&file, "L.K", 10), 0);
	assert_int_equal(replay_read_text(lines, &d, err, sizeof(err)), 0);
	for (int setting = 0; setting < 3; setting++) {
		char *line;

		d.rl_defaults = setting ? &defaults : NULL;
		d.rl_file = setting == 2 ? &file : NULL;
		o = open_memstream(&out, &outlen);
		assert_int_equal(replay_run_data(&d, m, 1, true, false, false, o, stderr), 0);
		fclose(o);
		line = out;
		for (int i = 0; i < 2; i++) {
			const char *const *w = want[setting * 2 + i];
			json_object *q, *metrics;
			char *nl = strchr(line, '\n');

			*nl = '\0';
			j = json_tokener_parse(line);
			assert_non_null(j);
			q = json_object_object_get(json_object_object_get(j, "quality"),
						   "retire_latency");
			assert_string_equal(json_object_get_string(q), w[0]);
			metrics = json_object_object_get(j, "metrics");
			for (int k = 0; k < 2; k++) {
				json_object *v =
					json_object_object_get(metrics, k ? "Split" : "Lock");

				if (!w[k + 1])
					assert_int_equal(json_object_get_type(v), json_type_null);
				else
					assert_float_equal(json_object_get_double(v),
							   atof(w[k + 1]), 1e-15);
			}
			json_object_put(j);
			line = nl + 1;
		}
		free(out);
		out = NULL;
	}
	replay_free(&d);
	rl_table_free(&defaults);
	rl_table_free(&file);
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

/* A device is refused by fstat before a byte is read; a stream's endless line, by its limit. */
static void test_dev_zero_refused(void **state)
{
	struct replay_data d;
	char err[512] = "";
	FILE *zero = fopen("/dev/zero", "r");

	(void)state;
	assert_int_equal(replay_read("/dev/zero", &d, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "/dev/zero: a character device, not a regular file: the replay "
				 "file must be a regular file or a pipe");
	assert_int_equal(d.nrecords, 0);
	assert_non_null(zero);
	assert_int_equal(replay_read_stream(zero, "<stdin>", &d, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "<stdin>:1: line longer than 1048576 bytes, the limit of one "
				 "replay line: not JSON lines?");
	fclose(zero);
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

/* No limit on the input: it is read a line at a time, each record gone before the next. */
static void test_input_has_no_size_limit(void **state)
{
	size_t one = strlen(GOOD), n = 20000;
	char *text = malloc(one * n + 1);
	struct replay_reader r;
	struct replay_record rec;
	FILE *f;
	int count = 0, rc;

	(void)state;
	for (size_t i = 0; i < n; i++)
		memcpy(text + i * one, GOOD, one);
	text[one * n] = '\0';
	f = fmemopen(text, one * n, "r");
	replay_reader_init(&r, f, "big.jsonl", 4096);
	assert_false(r.live); /* not a pipe */
	while ((rc = replay_reader_next(&r, &rec)) == 1) {
		assert_int_equal(rec.line, ++count);
		replay_record_free(&rec);
	}
	assert_int_equal(rc, 0);
	assert_int_equal(count, (int)n);
	/* the reader holds one line: its buffer never grew past the longest */
	assert_true(r.cap <= 4096);
	replay_reader_free(&r);
	fclose(f);
	free(text);
}

struct verdict {
	const struct tma_model *m;
	int records;
	bool no_tree[2];
	int bottleneck_len[2];
	double bad_speculation[2];
};

static int keep_verdict(void *ctx, const struct replay_record *rec, const struct replay_eval *ev)
{
	struct verdict *v = ctx;
	const struct model_result *res = ev->res;

	(void)rec;
	v->no_tree[v->records] = res->no_tree != NULL;
	v->bottleneck_len[v->records] = res->bottleneck_len;
	v->bad_speculation[v->records] = res->value[model_node_index(v->m, "Bad_Speculation")];
	v->records++;
	return 0;
}

/*
 * Issue 17.5: a cgroup whose counters are all zero got Bad_Speculation = 1 and the
 * bottleneck Bad_Speculation.Machine_Clears.  No slots: null, no bottleneck, a reason.
 */
static void test_idle_cgroup_has_no_verdict(void **state)
{
	static const char text[] =
		"{\"cgroup\":\"/idle\",\"interval_s\":1,\"counters\":{\"TOPDOWN.SLOTS\":0,"
		"\"CPU_CLK_UNHALTED.THREAD\":0,\"INST_RETIRED.ANY\":0}}\n"
		"{\"cgroup\":\"/busy\",\"interval_s\":1,\"counters\":{\"TOPDOWN.SLOTS\":1000,"
		"\"CPU_CLK_UNHALTED.THREAD\":250,\"INST_RETIRED.ANY\":400,"
		"\"UOPS_ISSUED.ANY\":500,\"UOPS_RETIRED.SLOTS\":400,"
		"\"IDQ_UOPS_NOT_DELIVERED.CORE\":100}}\n";
	struct tma_model *m = icx();
	struct verdict v = { .m = m };
	struct replay_data d;
	struct replay_source src;
	char err[512] = "", *line = NULL;
	size_t len = 0;
	FILE *f = fmemopen((void *)text, strlen(text), "r"), *out, *null = fopen("/dev/null", "w");

	(void)state;
	assert_non_null(null);
	assert_int_equal(replay_read_stream(f, "idle.jsonl", &d, err, sizeof(err)), 0);
	fclose(f);
	src = replay_source_data(&d);
	assert_int_equal(replay_each_from(&src, m, 3, false, keep_verdict, &v, null), 0);
	assert_true(v.no_tree[0]);
	assert_int_equal(v.bottleneck_len[0], 0);
	assert_true(isnan(v.bad_speculation[0]));
	/* A cgroup that ran keeps its verdict. */
	assert_false(v.no_tree[1]);
	assert_false(isnan(v.bad_speculation[1]));
	/* The JSON line says why: null metrics, no bottleneck, the reason in quality. */
	out = open_memstream(&line, &len);
	assert_int_equal(replay_run_data(&d, m, 3, true, false, false, out, null), 0);
	fclose(out);
	fclose(null);
	assert_non_null(strstr(line, "\"no_top_down\":\"" MODEL_NO_SLOTS "\""));
	assert_non_null(strstr(line, "\"Bad_Speculation\":null"));
	assert_non_null(strstr(line, "\"bottleneck\":null"));
	free(line);
	replay_free(&d);
	model_free(m);
}

/* Issue 17.8: a key given twice in a replay line was read as its last value, silently. */
static void test_replay_duplicate_key_refused(void **state)
{
	struct replay_data d;
	char err[512] = "";

	(void)state;
	assert_int_equal(replay_read_text("{\"cgroup\":\"/a\",\"interval_s\":1,"
					  "\"counters\":{\"X.Y\":1,\"X.Y\" :2}}\n",
					  &d, err, sizeof(err)),
			 -EINVAL);
	assert_string_equal(err, "in.jsonl:1: a key given twice in one object: each key once "
				 "(which one would count?)");
	assert_int_equal(replay_read_text("{\"cgroup\":\"/a\",\"cgroup\":\"/b\",\"interval_s\":1,"
					  "\"counters\":{}}\n",
					  &d, err, sizeof(err)),
			 -EINVAL);
	/* A key-like string inside a value is not a key. */
	assert_int_equal(replay_read_text("{\"cgroup\":\"/a\\\":\\\"\",\"interval_s\":1,"
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
	assert_int_equal(replay_read_text("{\"cgroup\":\"/a\",\"interval_s\":1,"
					  "\"counters\":{\"\\u001b]0;x\\u0007\":\"s\"}}\n",
					  &d, err, sizeof(err)),
			 -EINVAL);
	for (const char *p = err; *p; p++)
		assert_true((unsigned char)*p >= 0x20 && *p != 0x7f);
	assert_non_null(strstr(err, "counter \"\\x1b]0;x\\x07\" is string"));
}

static int none(void *ctx, const struct replay_record *rec, const struct replay_eval *ev)
{
	(void)ctx;
	(void)rec;
	(void)ev;
	return 0;
}

/* Issue 17.8: an event the model reads and the recording lacks is named, once, with a count. */
static void test_replay_missing_event_warned(void **state)
{
	static const char model[] = "model t\nnode 1 A\n  formula X.Y / (X.Y + Z.W)\n";
	struct tma_model *m;
	struct replay_data d;
	struct replay_source src;
	char err[512] = "", *text = NULL;
	size_t len = 0;
	FILE *e = open_memstream(&text, &len);

	(void)state;
	m = model_load(model, sizeof(model) - 1, "t.tma", err, sizeof(err));
	assert_non_null(m);
	assert_int_equal(
		replay_read_text("{\"cgroup\":\"/a\",\"interval_s\":1,\"counters\":{\"X.Y\":1,"
				 "\"Z.W\":1}}\n"
				 "{\"cgroup\":\"/a\",\"interval_s\":1,\"counters\":{\"X.Y\":1}}\n"
				 "{\"cgroup\":\"/a\",\"interval_s\":1,\"counters\":{\"X.Y\":1}}\n",
				 &d, err, sizeof(err)),
		0);
	src = replay_source_data(&d);
	assert_int_equal(replay_each_from(&src, m, 1, false, none, NULL, e), 0);
	fclose(e);
	assert_string_equal(text, "tmacg: warning: in.jsonl: 2 of 3 records lack Z.W (first on "
				  "line 2), which model t reads: it read as 0 there (record it, "
				  "or check the event's name)\n");
	free(text);
	replay_free(&d);
	model_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_read_ok),
		cmocka_unit_test(test_idle_cgroup_has_no_verdict),
		cmocka_unit_test(test_replay_duplicate_key_refused),
		cmocka_unit_test(test_replay_error_escapes_controls),
		cmocka_unit_test(test_replay_missing_event_warned),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_bad_line_costs_that_line),
		cmocka_unit_test(test_missing_file),
		cmocka_unit_test(test_model_failure_reported),
		cmocka_unit_test(test_json_lines),
		cmocka_unit_test(test_retire_latency),
		cmocka_unit_test(test_stdin),
		cmocka_unit_test(test_dev_zero_refused),
		cmocka_unit_test(test_oversized_line_refused),
		cmocka_unit_test(test_input_has_no_size_limit),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
