// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * A replay of a replay (issue 24): every line `tmacg --replay` writes carries
 * what its formulas read, so replaying it gives the same metrics.  For every
 * golden file of every model (the .jsonl files of tests/golden/), as a user runs it:
 *   tmacg --replay GOLDEN --model M [--tma-version V] --level 6 --info --format json > a.json
 *   tmacg --replay a.json --model M [--tma-version V] --level 6 --info --format json
 * and every node of every line compared (exact, or within 1e-12 relative); the
 * model and TMA version are those tests/golden/README.md names for the file.
 * It used to write "counts": {} and no retire latencies: the second replay
 * had every node null (no_top_down), and GNR's latencies fell back to Intel's
 * defaults.  A live line carries its --retire-latency file's latencies the same
 * way.  Run from the repository root (tests/run does).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <fcntl.h>
#include <glob.h>
#include <json-c/json.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "measure.h"
#include "util/run_error.h"
#include "model/model.h"
#include "offline_capture.h"
#include "options.h"
#include "output/output_json.h"
#include "pmu/cpu_desc.h"
#include "replay/replay_read.h"
#include "replay/replay_run.h"
#include "golden_model.h"
#include "group_lines.h"
#include "replay_text.h"
#include "repo_root.h"

/* measure_open()'s failure, when it fails. */
static struct run_error open_error;

#define OUT_MAX (16u << 20) /* a golden file's replay at level 6 with --info: under 1 MiB */

/* tmacg --replay path MODEL... --level 6 --info --format json: its stdout. */
static char *replay(const char *path, char *const *model, int nmodel)
{
	const char *argv[16] = { "tmacg", "--replay", path };
	char *out = malloc(OUT_MAX);
	int argc = 3, saved = dup(STDERR_FILENO), quiet = open("/dev/null", O_WRONLY), code;

	for (int i = 0; i < nmodel; i++)
		argv[argc++] = model[i];
	argv[argc++] = "--level";
	argv[argc++] = "6";
	argv[argc++] = "--info";
	argv[argc++] = "--format";
	argv[argc++] = "json";
	assert_non_null(out);
	/* The golden files lack events the models read (0 there): not this test's concern. */
	fflush(stderr);
	assert_true(saved >= 0 && quiet >= 0);
	dup2(quiet, STDERR_FILENO);
	code = offline_capture(STDOUT_FILENO, NULL, argc, argv, out, OUT_MAX);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	close(quiet);
	if (code)
		fail_msg("tmacg --replay %s --model %s: exit %d", path, model[1], code);
	assert_true(strlen(out) < OUT_MAX - 1); /* not cut */
	return out;
}

/* Replays golden, then its own output, and compares line by line: the nodes compared. */
static int round_trip(const char *golden)
{
	char buf[128], *model[6], tmp[] = "/tmp/tmacg-replay-round-trip-XXXXXX";
	const char *base = strrchr(golden, '/') + 1;
	char *first, *second, *sa = NULL, *sb = NULL, *la, *lb;
	int fd, lines = 0, nodes = 0, nmodel = golden_model(base, buf, sizeof(buf), model, 6);

	first = replay(golden, model, nmodel);
	fd = mkstemp(tmp);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, first, strlen(first)), (ssize_t)strlen(first));
	close(fd);
	second = replay(tmp, model, nmodel);
	remove(tmp);
	la = strtok_r(first, "\n", &sa);
	lb = strtok_r(second, "\n", &sb);
	for (; la && lb; la = strtok_r(NULL, "\n", &sa), lb = strtok_r(NULL, "\n", &sb)) {
		json_object *a = json_tokener_parse(la), *b = json_tokener_parse(lb);

		assert_non_null(a);
		assert_non_null(b);
		/* the same nodes within 1e-12, and what follows from them */
		nodes += same_metrics(base, ++lines, a, b, 1e-12);
		/* and what says where the latencies came from */
		assert_true(json_object_equal(json_object_object_get(a, "quality"),
					      json_object_object_get(b, "quality")));
		json_object_put(a);
		json_object_put(b);
	}
	if (la || lb)
		fail_msg("%s: the second replay wrote %s lines", base, la ? "fewer" : "more");
	assert_true(lines > 0);
	printf("  %s (", base);
	for (int i = 1; i < nmodel; i++)
		printf("%s%s", i > 1 ? " " : "", model[i]);
	printf("): %d lines, %d nodes the same\n", lines, nodes);
	free(first);
	free(second);
	return lines;
}

static void replay_of_a_replay_gives_the_same_metrics(void **state)
{
	glob_t g;

	(void)state;
	assert_int_equal(glob("tests/golden/*.jsonl", 0, NULL, &g), 0);
	assert_true(g.gl_pathc >= 13); /* every model's file, none lost by the glob */
	for (size_t i = 0; i < g.gl_pathc; i++)
		round_trip(g.gl_pathv[i]);
	globfree(&g);
}

/* Writes text to a new temporary file named by path (a mkstemp template). */
static void temp_file(char *path, const char *text)
{
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

/*
 * The JSON line tmacg writes live for cgroup /a with the accumulated sum,
 * evaluated into r (counts: room for the line's counts); freed by the caller.
 */
static char *live_line(struct measure *ms, const struct tmacg_acc *sum, double interval_s,
		       double running_min, double *counts, struct model_result *r)
{
	struct report_line line;
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	measure_evaluate(ms, sum, interval_s, counts, r);
	line = *measure_facts(ms);
	line.interval_s = interval_s;
	line.cgroup = "/a";
	line.count_values = counts;
	line.running_min = running_min;
	line.result = r;
	f = open_memstream(&text, &len);
	assert_int_equal(output_json_line(f, &line), 0);
	fclose(f);
	return text;
}

/*
 * A live line measured with --retire-latency FILE carries the latencies its
 * model read ("retire_latency": {EVENT: cycles}), so its replay, without the
 * file, weighs by the same ones: 1.6e9 cpu-clock ns x 3.25 cycles.  It used to
 * carry none: the node read no latency and was null when replayed.
 */
static void live_line_carries_its_given_latencies(void **state)
{
	char model[] = "/tmp/tmacg-rl-model-XXXXXX", lat[] = "/tmp/tmacg-rl-file-XXXXXX";
	const char *argv[] = { "tmacg", "--model-file", model, "--retire-latency", lat, NULL };
	struct options o;
	struct measure_config mc;
	struct measure *ms;
	struct model_result *r;
	union acc_room sum = { .acc.runtime_ns = 1500000000 };
	struct replay_data d;
	double counts[64];
	char err[1024], *text = NULL, *again = NULL;
	size_t alen = 0;
	FILE *f;
	json_object *a;

	(void)state;
	temp_file(model, "model lat\nnode 1 Weighted\n"
			 "  formula SW.CPU_CLOCK * SW.CPU_CLOCK:retire_latency\n");
	temp_file(lat, "{\"Data\": {\"SW.CPU_CLOCK\": {\"MEAN\": 3.25}}}\n");
	assert_int_equal(options_parse(&o, 5, (char **)argv, stdout, stderr), 0);
	options_measure_config(&o, &mc);
	if (measure_open(&ms, &mc, &open_error))
		fail_msg("%s", open_error.msg);
	unlink(model);
	unlink(lat);
	assert_true(ms->facts.ncounts <= 64);
	*acc_counter(&sum.acc, 0) = 1600000000; /* the model's one event: SW.CPU_CLOCK */
	*acc_enabled(&ms->layout, &sum.acc, 0) = *acc_running(&ms->layout, &sum.acc, 0) =
		1600000000;
	r = model_result_new(ms->facts.tma);
	assert_non_null(r);
	text = live_line(ms, &sum.acc, 2.0, 1, counts, r);
	assert_float_equal(r->value[0], 1.6e9 * 3.25, 1);
	assert_non_null(strstr(text, "\"retire_latency\":{\"SW.CPU_CLOCK\":3.25}"));
	assert_int_equal(replay_read_text(text, &d, err, sizeof(err)), 0);
	f = open_memstream(&again, &alen);
	assert_int_equal(replay_run_data(&d, ms->facts.tma, 1, true, false, false, f, stderr), 0);
	fclose(f);
	a = json_tokener_parse(again);
	assert_non_null(a);
	assert_float_equal(json_object_get_double(json_object_object_get(
				   json_object_object_get(a, "metrics"), "Weighted")),
			   r->value[0], 0);
	json_object_put(a);
	replay_free(&d);
	free(text);
	free(again);
	model_result_free(r);
	measure_close(ms);
}

/*
 * A multiplexed count is scaled up (x enabled / running) and rounded to the
 * nearest whole number, as perf stat gives scaled counts: the line carries
 * 1429, not 1428.5714285714287 (digits past the count are noise of the
 * estimate, and a level-6 line carries 122 counts), and the formulas read
 * the same whole number, so the line's replay gives its metrics exactly.
 */
static void live_scaled_counts_are_whole(void **state)
{
	char model[] = "/tmp/tmacg-whole-model-XXXXXX";
	const char *argv[] = { "tmacg", "--model-file", model, NULL };
	struct options o;
	struct measure_config mc;
	struct measure *ms;
	struct model_result *r;
	union acc_room sum = { .acc.runtime_ns = 1000000000 };
	double counts[64];
	char *text;

	(void)state;
	temp_file(model, "model whole\nnode 1 Thousandths\n  formula SW.CPU_CLOCK / 1000\n");
	assert_int_equal(options_parse(&o, 3, (char **)argv, stdout, stderr), 0);
	options_measure_config(&o, &mc);
	if (measure_open(&ms, &mc, &open_error))
		fail_msg("%s", open_error.msg);
	unlink(model);
	*acc_counter(&sum.acc, 0) = 1000;
	*acc_enabled(&ms->layout, &sum.acc, 0) = 1000000000;
	*acc_running(&ms->layout, &sum.acc, 0) = 700000000; /* 1000 / 0.7 = 1428.57... */
	r = model_result_new(ms->facts.tma);
	assert_non_null(r);
	text = live_line(ms, &sum.acc, 1.0, 0.7, counts, r);
	if (!strstr(text, "\"SW.CPU_CLOCK\":1429,") && !strstr(text, "\"SW.CPU_CLOCK\":1429}"))
		fail_msg("the scaled count is not 1429:\n%s", text);
	assert_true(r->value[0] == 1429 / 1000.0);
	free(text);
	model_result_free(r);
	measure_close(ms);
}

/* The fraction of the interval group g ran, for live_rotation_line_keeps_measured. */
static const double group_ran[] = { 0.25, 0.5, 0 };

/*
 * The rotation fixture's model from dir (three groups of software stand-ins) at
 * --level 6, its last group refused by the kernel, opened into *ms; the live line
 * of an interval in which group g ran ran[g] of the time, evaluated into *r.
 */
static char *refused_rotation_line(const char *dir, const double *ran, struct measure **ms,
				   struct model_result **r)
{
	const char *argv[] = { "tmacg", "--model", "rot", "--level", "6", NULL };
	char why[] = "cannot open event SW.X on CPU 0: No such file or directory";
	static union acc_room sum = { .acc.runtime_ns = 1000000000 };
	static double counts[64];
	struct measure_config mc;
	struct options o;

	setenv("TMACG_MODEL_DIR", dir, 1);
	cpu_desc_reset(); /* read the fixture's description */
	assert_int_equal(options_parse(&o, 5, (char **)argv, stdout, stderr), 0);
	options_measure_config(&o, &mc);
	if (measure_open(ms, &mc, &open_error))
		fail_msg("%s", open_error.msg);
	assert_int_equal((*ms)->ngroups, 3);
	assert_int_equal(measure_groups_unopened(*ms, 1u << 2, (char *const[]){ NULL, NULL, why }),
			 0);
	for (int g = 0; g < (*ms)->ngroups; g++) {
		*acc_enabled(&(*ms)->layout, &sum.acc, g) = 1000000000;
		*acc_running(&(*ms)->layout, &sum.acc, g) = (__u64)(ran[g] * 1e9);
	}
	for (int i = 0; i < (*ms)->nevents; i++)
		*acc_counter(&sum.acc, i) =
			ran[(*ms)->events[i].group] ? 1000000 * (__u64)(i + 1) : 0;
	*r = model_result_new((*ms)->facts.tma);
	assert_non_null(*r);
	return live_line(*ms, &sum.acc, 1.0, 0, counts, *r);
}

/*
 * A line written live at --level 6 with groups in turns (the rotation
 * fixture: three groups of software stand-ins, the last of which the kernel
 * refused to open) and replayed keeps the same nulls (the nodes of that
 * group), the same quality.measured, node by node, and the same
 * quality.unmeasured; at --level 4 it keeps the levels it shows.  Replay
 * used to drop quality.measured.
 */
static void live_rotation_line_keeps_measured(void **state)
{
	char root[4096], dir[4200], err[1024], *text = NULL, *again = NULL;
	struct measure *ms;
	struct model_result *r;
	struct replay_data d;
	size_t alen = 0;
	json_object *a, *b, *x;
	FILE *f;
	int nulls = 0;

	(void)state;
	assert_int_equal(repo_root(root, sizeof(root)), 0);
	snprintf(dir, sizeof(dir), "%s/tests/fixtures/rotation", root);
	text = refused_rotation_line(dir, group_ran, &ms, &r);
	assert_int_equal(replay_read_text(text, &d, err, sizeof(err)), 0);
	f = open_memstream(&again, &alen);
	assert_int_equal(replay_run_data(&d, ms->facts.tma, 6, true, false, false, f, stderr), 0);
	fclose(f);
	a = json_tokener_parse(text);
	b = json_tokener_parse(again);
	assert_non_null(a);
	assert_non_null(b);
	/* The same measured fractions, and the same nulls in metrics. */
	if (strcmp(json_object_to_json_string(json_object_object_get(
			   json_object_object_get(a, "quality"), "measured")),
		   json_object_to_json_string(json_object_object_get(
			   json_object_object_get(b, "quality"), "measured"))))
		fail_msg("measured changed:\n%s\n%s", text, again);
	if (!strstr(text, "\"unmeasured\":{") ||
	    strcmp(json_object_to_json_string(json_object_object_get(
			   json_object_object_get(a, "quality"), "unmeasured")),
		   json_object_to_json_string(json_object_object_get(
			   json_object_object_get(b, "quality"), "unmeasured"))))
		fail_msg("unmeasured changed:\n%s\n%s", text, again);
	assert_true(json_object_object_length(json_object_object_get(
			    json_object_object_get(b, "quality"), "measured")) > 0);
	json_object_object_foreach(json_object_object_get(a, "metrics"), node, v) {
		assert_true(
			json_object_object_get_ex(json_object_object_get(b, "metrics"), node, &x));
		assert_int_equal(v == NULL, x == NULL);
		nulls += v == NULL;
	}
	assert_true(nulls > 0); /* the group that never ran: its nodes are null */
	json_object_put(b);
	free(again);
	again = NULL;
	/* At --level 4: only the nodes it shows. */
	f = open_memstream(&again, &alen);
	assert_int_equal(replay_run_data(&d, ms->facts.tma, 4, true, false, false, f, stderr), 0);
	fclose(f);
	b = json_tokener_parse(again);
	assert_non_null(b);
	x = json_object_object_get(json_object_object_get(b, "quality"), "measured");
	assert_true(json_object_object_get_ex(x, "Busy", NULL));
	assert_false(json_object_object_get_ex(x, "Migrating", NULL));
	json_object_put(a);
	json_object_put(b);
	replay_free(&d);
	free(text);
	free(again);
	model_result_free(r);
	measure_close(ms);
	unsetenv("TMACG_MODEL_DIR");
	cpu_desc_reset();
}

/* path's whole text, NUL-terminated; freed by the caller. */
static char *file_text(const char *path)
{
	FILE *f = fopen(path, "r");
	char *text = calloc(1, 1 << 16);
	size_t n;

	assert_non_null(f);
	assert_non_null(text);
	n = fread(text, 1, (1 << 16) - 1, f);
	assert_true(n > 0 && n < (1 << 16) - 1);
	fclose(f);
	return text;
}

/*
 * A node computed from a node of a group the kernel refused is null, as the
 * refused node is: the rotation fixture's model with one node more, Busy less
 * Major_Faulting (whose event is in the refused group 2).  The refused
 * group's events used to be NAN but not absent, so the node read
 * Major_Faulting as a failed node, 0, and gave Busy's value as if measured.
 */
static void refused_group_nulls_the_nodes_computed_from_it(void **state)
{
	static const double ran[] = { 0.5, 0.5, 0 };
	char root[4096], src[4300], dir[] = "/tmp/tmacg-refused-XXXXXX", path[4300], *text, *tma;
	struct measure *ms;
	struct model_result *r;
	FILE *f;

	(void)state;
	assert_int_equal(repo_root(root, sizeof(root)), 0);
	assert_non_null(mkdtemp(dir));
	for (int i = 0; i < 2; i++) {
		snprintf(src, sizeof(src), "%s/tests/fixtures/rotation/rot.%s", root,
			 i ? "tma" : "cpu");
		snprintf(path, sizeof(path), "%s/rot.%s", dir, i ? "tma" : "cpu");
		tma = file_text(src);
		f = fopen(path, "w");
		assert_non_null(f);
		fputs(tma, f);
		if (i)
			fputs("node 1.1.1.1.3 Busy_less_major\n"
			      "  formula Busy - Major_Faulting\n"
			      "  threshold >= 0\n",
			      f);
		fclose(f);
		free(tma);
	}
	text = refused_rotation_line(dir, ran, &ms, &r);
	/* Busy measured, Major_Faulting refused: the node from both has no value. */
	if (strstr(text, "\"Busy\":null") || !strstr(text, "\"Major_Faulting\":null") ||
	    !strstr(text, "\"Busy_less_major\":null"))
		fail_msg("Busy_less_major is not null beside a refused Major_Faulting:\n%s", text);
	free(text);
	model_result_free(r);
	measure_close(ms);
	unsetenv("TMACG_MODEL_DIR");
	cpu_desc_reset();
	for (int i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/rot.%s", dir, i ? "tma" : "cpu");
		unlink(path);
	}
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(replay_of_a_replay_gives_the_same_metrics),
		cmocka_unit_test(live_line_carries_its_given_latencies),
		cmocka_unit_test(live_rotation_line_keeps_measured),
		cmocka_unit_test(live_scaled_counts_are_whole),
		cmocka_unit_test(refused_group_nulls_the_nodes_computed_from_it),
	};
	return cmocka_run_group_tests_name("replay_round_trip", tests, NULL, NULL);
}
