// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * tmacg --replay FILE --group-by KEY[,KEY...] [--interval DUR]
 * (docs/output.md "Summing lines: --group-by"): what keeps groups apart
 * (models, SMT, TMA versions, PERF_METRICS, retire latencies), null keys, a
 * key no line has, a count one line lacks, the table, --interval and its bad
 * lines.  The formulas on the sums of every model: test_replay_group_golden.c.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <json-c/json.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "group_lines.h"
#include "replay_text.h"

/* A software-model line (time: 10:00:second), its four events: a negative one left out, NAN null. */
struct sw {
	const char *model, *host, *cgroup;
	const char *resource; /* JSON text */
	const double *ev;
	bool smt;
	int second;
};

static void sw_line(FILE *f, const struct sw *l)
{
	static const char *const names[4] = { "SW.CONTEXT_SWITCHES", "SW.CPU_CLOCK",
					      "SW.CPU_MIGRATIONS", "SW.PAGE_FAULTS" };
	const char *sep = "";

	fprintf(f,
		"{\"schema\":\"tmacg/1\",\"time\":\"2026-11-28T10:00:%02dZ\",\"interval_s\":1,"
		"\"host\":\"%s\",\"model\":\"%s\",\"tma_version\":null,\"cgroup\":\"%s\","
		"\"resource\":%s,\"counts\":{",
		l->second, l->host, l->model, l->cgroup, l->resource);
	for (int i = 0; i < 4; i++) {
		if (l->ev[i] < 0)
			continue;
		if (isnan(l->ev[i]))
			fprintf(f, "%s\"%s\":null", sep, names[i]);
		else
			fprintf(f, "%s\"%s\":%.17g", sep, names[i], l->ev[i]);
		sep = ",";
	}
	fprintf(f, "},\"topdown_fixed\":false,\"smt\":%s}\n", l->smt ? "true" : "false");
}

/* tmacg --replay (a file of text) --format json MORE...: its run. */
static struct tmacg_run replay_text(const char *text, const char *const *more)
{
	const char *path = replay_temp_file(text);
	const char *args[24] = { "--replay", path, "--format", "json" };
	int n = 4;
	struct tmacg_run r;

	assert_non_null(path);
	while (*more)
		args[n++] = *more++;
	args[n] = NULL;
	r = tmacg_run(args);
	remove(path);
	return r;
}

/* The text of n software lines. */
static char *sw_text(const struct sw *lines, size_t n)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	for (size_t i = 0; i < n; i++)
		sw_line(f, &lines[i]);
	fclose(f);
	return text;
}

/* tmacg --replay (n software lines) --format json MORE...: the run, its lines in *out (*nout). */
static struct tmacg_run grouped(const struct sw *lines, size_t n, const char *const *more,
				json_object ***out, int *nout)
{
	char *text = sw_text(lines, n);
	struct tmacg_run r = replay_text(text, more);

	free(text);
	*out = json_lines(r.out, nout);
	return r;
}

#define N(a) (sizeof(a) / sizeof((a)[0]))

static const double sw_a[4] = { 100, 4e8, 3, 50 }, sw_b[4] = { 300, 2e8, 1, 10 };

static const struct sw pods_with_and_without_a_workload[] = {
	{ "software", "a", "/p1", "{\"k8s.deployment.name\":\"cart\"}", sw_a, false, 1 },
	{ "software", "a", "/p2", "{}", sw_b, false, 1 },
	{ "software", "b", "/p3", "{\"k8s.deployment.name\":\"cart\"}", sw_b, false, 1 },
	{ "software", "b", "/p4", "{\"k8s.pod.name\":\"x\"}", sw_a, false, 1 },
};

/* The string at key of group.by of line o. */
static const char *by(json_object *o, const char *key)
{
	return json_object_get_string(json_at(json_at(o, "group", "by"), key, NULL));
}

static int64_t group_lines(json_object *o)
{
	return json_object_get_int64(json_at(o, "group", "lines"));
}

/*
 * Lines lacking a key form the group where it is null; a key that no line
 * has is named once on stderr, at the end; the sums are the formulas on
 * the summed counts (one line holding them replayed alone).
 */
static void null_keys_and_a_key_no_line_has(void **state)
{
	static const double summed[4] = { 400, 6e8, 4, 60 };
	static const struct sw sum[] = { { "software", "a", "/sum", "{}", summed, false, 1 } };
	const char *more[] = { "--group-by", "k8s.deployment.name,nosuch.key", "--info", NULL };
	const char *none[] = { "--info", NULL };
	json_object **l, **lo;
	int n, no;
	struct tmacg_run r = grouped(pods_with_and_without_a_workload,
				     N(pods_with_and_without_a_workload), more, &l, &n),
			 one = grouped(sum, 1, none, &lo, &no);

	(void)state;
	assert_int_equal(r.code, 0);
	assert_int_equal(n, 2);
	assert_string_equal(by(l[0], "k8s.deployment.name"), "cart");
	/* present and null: the lines lacked it */
	assert_true(json_object_object_get_ex(json_at(l[1], "group", "by"), "k8s.deployment.name",
					      NULL));
	assert_null(by(l[1], "k8s.deployment.name"));
	assert_null(by(l[0], "nosuch.key"));
	assert_int_equal(group_lines(l[0]), 2);
	assert_int_equal(json_object_get_int(json_at(l[0], "group", "cgroups")), 2);
	/* not grouped by them: host and cgroup are null */
	assert_null(json_at(l[0], "host", NULL));
	assert_null(json_at(l[0], "cgroup", NULL));
	assert_true(json_is(json_at(l[0], "counts", "SW.CPU_CLOCK"), 6e8));
	/* a key no line has: named once, at the end */
	assert_non_null(strstr(r.err, "no line has --group-by key nosuch.key"));
	assert_null(strstr(strstr(r.err, "nosuch.key") + 1, "no line has --group-by key"));
	assert_null(strstr(r.err, "key k8s.deployment.name"));
	/* the formulas on the summed counts */
	assert_int_equal(one.code, 0);
	assert_int_equal(no, 1);
	assert_true(same_metrics("software", 0, l[0], lo[0], 1e-9) >= 4);
	assert_true(json_close(json_at(l[0], "counts", "context_switches_per_s"),
			       json_at(lo[0], "counts", "context_switches_per_s"), 0));
	json_lines_free(lo, no);
	json_lines_free(l, n);
	tmacg_run_free(&r);
	tmacg_run_free(&one);
}

/* Counts whose formulas differ (another model, SMT on) are never summed: their own groups. */
static void other_models_and_smt_are_other_groups(void **state)
{
	/* one host: only what the formulas read tells them apart */
	static const struct sw lines[] = {
		{ "software", "a", "/p1", "{}", sw_a, false, 1 },
		{ "software", "a", "/p2", "{}", sw_b, true, 1 },
		{ "generic", "a", "/p3", "{}", sw_a, false, 1 },
		{ "software", "a", "/p4", "{}", sw_b, false, 1 },
	};
	/* in the order they began: software without SMT (2 lines), with SMT, generic */
	static const struct {
		const char *model;
		bool smt;
		int lines;
	} want[] = { { "software", false, 2 }, { "software", true, 1 }, { "generic", false, 1 } };
	const char *more[] = { "--group-by", "host", NULL };
	json_object **l;
	int n;
	struct tmacg_run r = grouped(lines, N(lines), more, &l, &n);

	(void)state;
	if (r.code)
		fail_msg("exit %d: %s", r.code, r.err);
	assert_int_equal(n, 3);
	for (int i = 0; i < n; i++) {
		assert_string_equal(json_object_get_string(json_at(l[i], "model", NULL)),
				    want[i].model);
		assert_true(json_object_get_boolean(json_at(l[i], "smt", NULL)) == want[i].smt);
		assert_int_equal(group_lines(l[i]), want[i].lines);
		/* every group says the key's value */
		assert_string_equal(json_object_get_string(json_at(l[i], "host", NULL)), "a");
	}
	json_lines_free(l, n);
	tmacg_run_free(&r);
}

/* A line of model at version, PERF_METRICS or not, with latencies (JSON text, or NULL). */
static void tma_line(FILE *f, const char *model, const char *version, bool fixed,
		     const char *latencies)
{
	fprintf(f,
		"{\"schema\":\"tmacg/1\",\"time\":\"2026-11-28T10:00:01Z\",\"interval_s\":1,"
		"\"host\":\"a\",\"model\":\"%s\",\"tma_version\":\"%s\",\"cgroup\":\"/p\","
		"\"resource\":{},\"counts\":{\"TOPDOWN.SLOTS\":1000,\"PERF_METRICS.RETIRING\":400},"
		"\"topdown_fixed\":%s,\"smt\":false%s%s}\n",
		model, version, fixed ? "true" : "false", latencies ? ",\"retire_latency\":" : "",
		latencies ? latencies : "");
}

/*
 * The other inputs of the formulas keep lines apart too: the TMA version, PERF_METRICS
 * (topdown_fixed), the line's own retire latencies (in any order the same).
 */
static void other_versions_flags_and_latencies_are_other_groups(void **state)
{
	static const struct {
		const char *model, *version;
		bool fixed;
		int lines;
	} want[] = { { "icx", "5.2", true, 2 },
		     { "icx", "4.5", true, 1 },
		     { "icx", "5.2", false, 1 },
		     { "gnr", "5.1", true, 2 },
		     { "gnr", "5.1", true, 1 } };
	const char *more[] = { "--group-by", "host", NULL };
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	struct tmacg_run r;
	json_object **l;
	int n;

	(void)state;
	assert_non_null(f);
	tma_line(f, "icx", "5.2", true, NULL);
	tma_line(f, "icx", "4.5", true, NULL);
	tma_line(f, "icx", "5.2", false, NULL);
	tma_line(f, "icx", "5.2", true, NULL);
	tma_line(f, "gnr", "5.1", true,
		 "{\"MEM_INST_RETIRED.LOCK_LOADS\":5,\"FRONTEND_RETIRED.L2_MISS\":9}");
	tma_line(f, "gnr", "5.1", true,
		 "{\"MEM_INST_RETIRED.LOCK_LOADS\":6,\"FRONTEND_RETIRED.L2_MISS\":9}");
	/* the same latencies written in another order */
	tma_line(f, "gnr", "5.1", true,
		 "{\"FRONTEND_RETIRED.L2_MISS\":9,\"MEM_INST_RETIRED.LOCK_LOADS\":5}");
	fclose(f);
	r = replay_text(text, more);
	if (r.code)
		fail_msg("exit %d: %s", r.code, r.err);
	l = json_lines(r.out, &n);
	assert_int_equal(n, 5);
	for (int i = 0; i < n; i++) {
		assert_string_equal(json_object_get_string(json_at(l[i], "model", NULL)),
				    want[i].model);
		assert_string_equal(json_object_get_string(json_at(l[i], "tma_version", NULL)),
				    want[i].version);
		assert_true(json_object_get_boolean(json_at(l[i], "topdown_fixed", NULL)) ==
			    want[i].fixed);
		assert_int_equal(group_lines(l[i]), want[i].lines);
	}
	assert_true(json_is(
		json_at(json_at(l[3], "retire_latency", NULL), "MEM_INST_RETIRED.LOCK_LOADS", NULL),
		5));
	assert_true(json_is(
		json_at(json_at(l[4], "retire_latency", NULL), "MEM_INST_RETIRED.LOCK_LOADS", NULL),
		6));
	json_lines_free(l, n);
	tmacg_run_free(&r);
	free(text);
}

/* The table names each group by its keys, "(none)" for a null one, and what it summed. */
static void the_table_names_the_group(void **state)
{
	const char *more[] = { "--group-by", "host,k8s.deployment.name", "--format", "table",
			       NULL };
	char *text = sw_text(pods_with_and_without_a_workload, N(pods_with_and_without_a_workload));
	struct tmacg_run r = replay_text(text, more);

	(void)state;
	assert_int_equal(r.code, 0);
	if (!strstr(r.out, "group host=a k8s.deployment.name=cart (1 line, 1 cgroup), "
			   "interval 1.000 s\n  CPU_Share") ||
	    !strstr(r.out, "group host=a k8s.deployment.name=(none) (1 line, 1 cgroup)") ||
	    !strstr(r.out, "group host=b k8s.deployment.name=cart (1 line, 1 cgroup)"))
		fail_msg("%s", r.out);
	tmacg_run_free(&r);
	free(text);
}

/*
 * A count missing (absent, or null) in one line of a group: null in the sum,
 * the nodes that read it null for that group, never computed on a part of
 * the lines; quality.unmeasured says why.  The others are computed.
 */
static void a_count_one_line_lacks_is_never_summed_in_part(void **state)
{
	static const double lacks[4] = { 100, 4e8, 3, -1 }, null[4] = { 100, 4e8, NAN, 7 };
	static const struct sw lines[] = {
		{ "software", "a", "/p1", "{\"k8s.namespace.name\":\"shop\"}", sw_a, false, 1 },
		{ "software", "b", "/p2", "{\"k8s.namespace.name\":\"shop\"}", lacks, false, 1 },
		{ "software", "a", "/p3", "{\"k8s.namespace.name\":\"web\"}", sw_b, false, 1 },
		{ "software", "b", "/p4", "{\"k8s.namespace.name\":\"web\"}", null, false, 1 },
	};
	const char *more[] = { "--group-by", "k8s.namespace.name", "--info", NULL };
	json_object **l, *why;
	int n;
	struct tmacg_run r = grouped(lines, N(lines), more, &l, &n);

	(void)state;
	assert_int_equal(r.code, 0);
	assert_int_equal(n, 2);
	/* shop: SW.PAGE_FAULTS absent from one line */
	assert_true(
		json_object_object_get_ex(json_at(l[0], "counts", NULL), "SW.PAGE_FAULTS", NULL));
	assert_null(json_at(l[0], "counts", "SW.PAGE_FAULTS"));
	assert_null(json_at(l[0], "counts", "page_faults_per_s"));
	assert_non_null(json_at(l[0], "metrics", "CPU_Share"));
	assert_non_null(json_at(l[0], "metrics", "Run_Slice_ms"));
	why = json_at(json_at(l[0], "quality", "unmeasured"), "Faults_Per_CPU_ms", NULL);
	assert_non_null(why);
	assert_non_null(strstr(json_object_get_string(why),
			       "SW.PAGE_FAULTS is null or missing in 1 of the 2 lines summed"));
	assert_true(json_object_object_get_ex(json_at(l[0], "metrics", NULL), "Faults_Per_CPU_ms",
					      NULL));
	assert_null(json_at(l[0], "metrics", "Faults_Per_CPU_ms"));
	/* web: SW.CPU_MIGRATIONS null in one line */
	assert_null(json_at(l[1], "counts", "SW.CPU_MIGRATIONS"));
	assert_null(json_at(l[1], "metrics", "Migrations_Per_Switch"));
	assert_non_null(json_at(l[1], "metrics", "Faults_Per_CPU_ms"));
	assert_non_null(
		json_at(json_at(l[1], "quality", "unmeasured"), "Migrations_Per_Switch", NULL));
	assert_null(json_at(json_at(l[1], "quality", "unmeasured"), "Faults_Per_CPU_ms", NULL));
	json_lines_free(l, n);
	tmacg_run_free(&r);
}

/*
 * --interval DUR: each DUR of the lines' time summed on its own, written
 * once a line of a later interval comes (a line one interval late still
 * counts, one two intervals late is a bad line: named, exit 1).  The sum's
 * interval_s is the seconds its lines cover.
 */
static void each_interval_summed_on_its_own(void **state)
{
	static const struct sw lines[] = {
		{ "software", "a", "/p1", "{}", sw_a, false, 10 },
		{ "software", "a", "/p1", "{}", sw_b, false, 11 },
		{ "software", "a", "/p1", "{}", sw_a, false, 21 },
		{ "software", "a", "/p2", "{}", sw_b, false, 12 }, /* one interval late */
		{ "software", "a", "/p1", "{}", sw_b, false, 35 },
		{ "software", "a", "/p1", "{}", sw_b, false, 19 }, /* two intervals late */
		{ "software", "a", "/p1", "{}", sw_a, false, 36 },
	};
	const char *more[] = { "--group-by", "host", "--interval", "10s", NULL };
	json_object **l;
	int n;
	struct tmacg_run r = grouped(lines, N(lines), more, &l, &n);

	(void)state;
	assert_int_equal(r.code, 1);
	assert_non_null(strstr(r.err, ":6: its time is in an interval of --interval already "
				      "written"));
	assert_non_null(strstr(r.err, "1 bad line skipped, 6 replayed"));
	assert_int_equal(n, 3);
	/* 10-20 s: three lines (one late), from 9 s to 12 s; 20-30 s; 30-40 s */
	assert_int_equal(group_lines(l[0]), 3);
	assert_int_equal(json_object_get_int(json_at(l[0], "group", "cgroups")), 2);
	assert_true(json_is(json_at(l[0], "interval_s", NULL), 3));
	assert_string_equal(json_object_get_string(json_at(l[0], "time", NULL)),
			    "2026-11-28T10:00:12.000000000Z");
	assert_true(json_is(json_at(l[0], "counts", "SW.CONTEXT_SWITCHES"), 700));
	assert_int_equal(group_lines(l[1]), 1);
	assert_string_equal(json_object_get_string(json_at(l[1], "time", NULL)),
			    "2026-11-28T10:00:21.000000000Z");
	assert_int_equal(group_lines(l[2]), 2);
	assert_true(json_is(json_at(l[2], "interval_s", NULL), 2));
	json_lines_free(l, n);
	tmacg_run_free(&r);
}

/* --interval needs each line's time: a line without one (not tmacg's own) is a bad line. */
static void interval_needs_the_lines_time(void **state)
{
	const char *text =
		"{\"cgroup\":\"/a\",\"interval_s\":1,\"counters\":{\"SW.CPU_CLOCK\":5}}\n";
	const char *more[] = { "--model",    "software", "--group-by", "cgroup",
			       "--interval", "1s",	 NULL };
	const char *whole[] = { "--model", "software", "--group-by", "cgroup", NULL };
	struct tmacg_run r = replay_text(text, more), w;

	(void)state;
	assert_int_equal(r.code, 1);
	assert_non_null(strstr(r.err, ":1: no \"time\": --interval sums lines by their time"));
	assert_string_equal(r.out, "");
	/* over the whole input it is summed like any line */
	w = replay_text(text, whole);
	assert_int_equal(w.code, 0);
	assert_non_null(strstr(w.out, "\"group\":{\"by\":{\"cgroup\":\"/a\"},\"lines\":1"));
	tmacg_run_free(&r);
	tmacg_run_free(&w);
}

/*
 * --replay FILE...: the files one input, read in turn (per host recordings
 * summed per workload); a bad line is named with its own file, the end
 * with all of them.
 */
static void the_files_are_one_input(void **state)
{
	static const struct sw a[] = { { "software", "a", "/p1", "{}", sw_a, false, 1 } },
			       b[] = { { "software", "b", "/p2", "{}", sw_b, false, 1 } };
	char *ta = sw_text(a, 1), *tb = sw_text(b, 1), pa[64], *bad;
	const char *args[] = { "--replay", pa,	   NULL, "--group-by", "k8s.deployment.name",
			       "--format", "json", NULL };
	struct tmacg_run r;
	json_object **l;
	int n;

	(void)state;
	snprintf(pa, sizeof(pa), "%s", replay_temp_file(ta));
	bad = malloc(strlen(tb) + 8);
	assert_non_null(bad);
	sprintf(bad, "%snot\n", tb);
	args[2] = replay_temp_file(bad);
	r = tmacg_run(args);
	assert_int_equal(r.code, 1);
	l = json_lines(r.out, &n);
	assert_int_equal(n, 1);
	assert_int_equal(group_lines(l[0]), 2);
	assert_true(json_is(json_at(l[0], "counts", "SW.CONTEXT_SWITCHES"), 400));
	assert_non_null(strstr(r.err, args[2]));
	assert_non_null(strstr(strstr(r.err, args[2]), ":2: bad JSON"));
	assert_non_null(strstr(r.err, " and 1 more: 1 bad line skipped, 2 replayed"));
	remove(pa);
	remove(args[2]);
	json_lines_free(l, n);
	tmacg_run_free(&r);
	free(ta);
	free(tb);
	free(bad);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(null_keys_and_a_key_no_line_has),
		cmocka_unit_test(other_models_and_smt_are_other_groups),
		cmocka_unit_test(other_versions_flags_and_latencies_are_other_groups),
		cmocka_unit_test(the_table_names_the_group),
		cmocka_unit_test(a_count_one_line_lacks_is_never_summed_in_part),
		cmocka_unit_test(each_interval_summed_on_its_own),
		cmocka_unit_test(interval_needs_the_lines_time),
		cmocka_unit_test(the_files_are_one_input),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
