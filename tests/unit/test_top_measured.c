// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The live view at --level 4-6, groups in turns (docs/live-view.md): the
 * bottleneck path marks its nodes measured less than half the interval "~",
 * MEAS% gives the share of the interval its deepest node shown was measured,
 * a path that stopped because a child was never measured (null in metrics:
 * measured 0, or its group refused) ends in "?" with MEAS% 0, and MEAS% gives
 * way to the path and the shares when the terminal is narrow.  Lines without
 * quality.measured (levels 1-3) draw as before: no column, no marks.  The
 * expected screens are worked out by hand from the layout rules in
 * user/output/output_top.c.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "output/cgroup_record.h"
#include "output/output_top.h"
#include "frame_width.h"

/* TMA's level 1, and Backend_Bound's path down to level 4. */
static const char model_text[] =
	"model d\n"
	"node 1 Frontend_Bound\n  formula E.F\n  threshold > 0.2\n"
	"node 2 Bad_Speculation\n  formula E.S\n  threshold > 0.15\n"
	"node 3 Backend_Bound\n  formula E.B\n  threshold > 0.2\n"
	"node 3.1 Memory_Bound\n  formula E.M\n  threshold > 0.2 and parent over threshold\n"
	"node 3.1.1 L3_Bound\n  formula E.L\n  threshold > 0.1 and parent over threshold\n"
	"node 3.1.1.1 DRAM_Bound\n  formula E.D\n  threshold > 0.1 and parent over threshold\n"
	"node 4 Retiring\n  formula E.R\n  threshold > 0.7\n";

static const char *const counts[] = { "on_cpu_s" };

#define NROWS 4

/*
 * /deep: the path to DRAM_Bound, L3_Bound seen 30 % of the interval and
 * DRAM_Bound 5 %; /seen: the same path seen over half; /unseen: DRAM_Bound
 * never on the PMU (measured 0, null), so the walk stops at L3_Bound; /idle:
 * did not run (nothing flagged, nodes left out of measured).
 */
static const struct {
	const char *name;
	double cpu, running_min, busy, l3_seen, dram_seen, dram;
} rows[NROWS] = {
	{ "/deep", 1.0, 0.05, 1, 0.3, 0.05, 0.2 },
	{ "/seen", 0.8, 0.6, 1, 0.8, 0.6, 0.2 },
	{ "/unseen", 0.5, 0, 1, 0.7, 0, NAN },
	{ "/idle", 0, NAN, 0, NAN, NAN, 0 },
};

struct fixture {
	struct tma_model *m;
	struct model_result *res[NROWS];
	double *measured[NROWS];
	const char **unmeasured; /* for the refused group's test */
	int dram;		 /* DRAM_Bound's node index */
};

static int setup(void **state)
{
	struct fixture *fx = calloc(1, sizeof(*fx));
	char err[256];
	int n;

	setenv("TZ", "UTC", 1);
	fx->m = model_load(model_text, strlen(model_text), "d.tma", err, sizeof(err));
	assert_non_null(fx->m);
	n = model_node_count(fx->m);
	fx->dram = model_node_index(fx->m, "DRAM_Bound");
	for (int i = 0; i < NROWS; i++) {
		double ev[16] = { 0 }, b = rows[i].busy;
		struct model_input in = { .events = ev, .interval_s = 1 };

		ev[model_event_index(fx->m, "E.F")] = 0.2 * b;
		ev[model_event_index(fx->m, "E.B")] = 0.6 * b;
		ev[model_event_index(fx->m, "E.M")] = 0.4 * b;
		ev[model_event_index(fx->m, "E.L")] = 0.3 * b;
		ev[model_event_index(fx->m, "E.D")] = rows[i].dram;
		ev[model_event_index(fx->m, "E.R")] = 0.2 * b;
		fx->res[i] = model_result_new(fx->m);
		assert_int_equal(model_eval(fx->m, &in, fx->res[i]), 0);
		/* Levels 1-2 are read in every slice: not reported, as on Intel. */
		fx->measured[i] = calloc(n, sizeof(double));
		for (int k = 0; k < n; k++)
			fx->measured[i][k] = NAN;
		fx->measured[i][model_node_index(fx->m, "L3_Bound")] = rows[i].l3_seen;
		fx->measured[i][fx->dram] = rows[i].dram_seen;
	}
	fx->unmeasured = calloc(n, sizeof(*fx->unmeasured));
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *fx = *state;

	for (int i = 0; i < NROWS; i++) {
		model_result_free(fx->res[i]);
		free(fx->measured[i]);
	}
	free(fx->unmeasured);
	model_free(fx->m);
	free(fx);
	return 0;
}

static const struct top_title title = { { 0, 0 }, 1.0, "h1", "d", 0, 0 };

/* The four rows into t; rotating: with quality.measured (--level 4), else without (1-3). */
static void add_rows(struct fixture *fx, struct top *t, bool rotating)
{
	for (int i = 0; i < NROWS; i++) {
		double cpu = rows[i].cpu;
		struct report_line line = {
			.interval_s = 1,
			.cgroup = rows[i].name,
			.ncounts = 1,
			.count_names = counts,
			.count_values = &cpu,
			.running_min = rows[i].running_min,
			.measured = rotating ? fx->measured[i] : NULL,
			.unmeasured = fx->unmeasured,
			.tma = fx->m,
			.result = fx->res[i],
			.level = 4,
		};

		assert_int_equal(top_add(t, &line, false), 0);
	}
}

static char *draw(struct top *t, int width)
{
	struct top_screen s = { width, 0, false, false };
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	assert_non_null(f);
	assert_int_equal(top_draw(t, f, &s, &title), 0);
	fclose(f);
	return out;
}

/* One frame of the four rows at width, the path shown to show_level ('1'-'4' keyed). */
static char *render(struct fixture *fx, int width, bool rotating, char show_level)
{
	struct top *t = top_new(fx->m, 4, 1, counts);
	char *out;

	assert_non_null(t);
	if (show_level)
		assert_int_equal(top_key(t, show_level), TOP_KEY_REDRAW);
	add_rows(fx, t, rotating);
	out = draw(t, width);
	print_message("%s", out);
	top_free(t);
	return out;
}

/* Whether the rows come in this order in out (each row's name at its line's start). */
static void assert_rows_in_order(const char *out, const char *const *names, int n)
{
	const char *at = out;

	for (int i = 0; i < n; i++) {
		char row[32];
		const char *p;

		snprintf(row, sizeof(row), "\n%s ", names[i]);
		p = strstr(at, row);
		if (!p)
			fail_msg("row %s not after the previous one:\n%s", names[i], out);
		at = p + 1;
	}
}

/*
 * MEAS% is a sort key while rotating, after the name: `s` reaches it (its
 * header "*MEAS", one column short for the '%'), the
 * rows come best measured first, `r` puts the least measured first, and
 * a row without a path ("-") stays last either way.
 */
static void test_sort_by_meas(void **state)
{
	static const char *const most[] = { "/seen", "/deep", "/unseen", "/idle" };
	static const char *const least[] = { "/unseen", "/deep", "/seen", "/idle" };
	struct top *t = top_new(((struct fixture *)*state)->m, 4, 1, counts);
	char *out = NULL;
	int presses = 0;

	assert_non_null(t);
	add_rows(*state, t, true);
	while (!out || !strstr(out, " *MEAS ")) {
		free(out);
		assert_true(++presses < 12);
		assert_int_equal(top_key(t, 's'), TOP_KEY_REDRAW);
		out = draw(t, 120);
	}
	assert_int_equal(presses, 6); /* CPU%, FE% BAD% BE% RET%, CGROUP, then MEAS% */
	assert_rows_in_order(out, most, 4);
	free(out);
	assert_int_equal(top_key(t, 'r'), TOP_KEY_REDRAW);
	out = draw(t, 120);
	assert_rows_in_order(out, least, 4);
	free(out);
	assert_int_equal(top_key(t, 's'), TOP_KEY_REDRAW); /* and round to CPU% */
	out = draw(t, 120);
	assert_null(strstr(out, "*MEAS"));
	free(out);
	top_free(t);
}

static void test_marks_and_meas_120(void **state)
{
	char *out = render(*state, 120, true, 0);

	/*
	 * 120: name 12, CPU 6, RUN 5, four shares of 5, path 12, MEAS 5, bar 8
	 * take 77 with their spaces; of the 43 spare the bar takes 4 (12), the
	 * path 36 (its longest, /deep's 48) and the bar the last 3 (15).  Bars
	 * of .2/0/.6/.2: 3, 0, 9 and 3 cells.
	 */
	assert_string_equal(
		out,
		"tmacg 00:00:00  interval 1.00s  host h1  model d  4 cgroups\n"
		"bar:  F Frontend_Bound  S Bad_Speculation  B Backend_Bound  R Retiring\n"
		"CGROUP         CPU%  RUN%   FE%  BAD%   BE%  RET% LEVEL 1         MEAS% BOTTLENECK\n"
		"/deep         100.0   5.0  20.0   0.0  60.0  20.0 FFFBBBBBBBBBRRR   5.0 "
		"Backend_Bound.Memory_Bound.~L3_Bound.~DRAM_Bound\n"
		"/seen          80.0  60.0  20.0   0.0  60.0  20.0 FFFBBBBBBBBBRRR  60.0 "
		"Backend_Bound.Memory_Bound.L3_Bound.DRAM_Bound\n"
		"/unseen        50.0   0.0  20.0   0.0  60.0  20.0 FFFBBBBBBBBBRRR   0.0 "
		"Backend_Bound.Memory_Bound.L3_Bound.?\n"
		"/idle           0.0     -   0.0   0.0   0.0   0.0                     - -\n");
	free(out);
}

/*
 * Narrower, MEAS% goes after the path and before the bar: at 80 the bar gets
 * the 3 spare columns (11) and the path its 12; at 68 the bar is gone; at 67
 * MEAS% too, and the path takes its 5 columns (17).  A path too long is cut
 * at its start, where a node begins ("~.DRAM_Bound") or, when even the
 * deepest node and the cut do not fit, inside its name ("~~DRAM_Bound": the
 * cut, then the mark), so the node MEAS% is about stays in sight.
 */
static void test_narrow(void **state)
{
	char *out = render(*state, 80, true, 0);

	assert_non_null(strstr(out,
			       "\nCGROUP         CPU%  RUN%   FE%  BAD%   BE%  RET% LEVEL 1    "
			       " MEAS% BOTTLENECK\n"));
	assert_non_null(strstr(out, "\n/deep         100.0   5.0  20.0   0.0  60.0  20.0 "
				    "FFBBBBBBBRR   5.0 ~~DRAM_Bound\n"));
	assert_non_null(strstr(out, "  60.0 ~.DRAM_Bound\n"));
	assert_non_null(strstr(out, "   0.0 ~.L3_Bound.?\n"));
	free(out);
	out = render(*state, 68, true, 0);
	assert_string_equal(out,
			    "tmacg 00:00:00  interval 1.00s  host h1  model d  4 cgroups\n"
			    "CGROUP         CPU%  RUN%   FE%  BAD%   BE%  RET% MEAS% BOTTLENECK\n"
			    "/deep         100.0   5.0  20.0   0.0  60.0  20.0   5.0 ~~DRAM_Bound\n"
			    "/seen          80.0  60.0  20.0   0.0  60.0  20.0  60.0 ~.DRAM_Bound\n"
			    "/unseen        50.0   0.0  20.0   0.0  60.0  20.0   0.0 ~.L3_Bound.?\n"
			    "/idle           0.0     -   0.0   0.0   0.0   0.0     - -\n");
	free(out);
	out = render(*state, 67, true, 0);
	assert_null(strstr(out, "MEAS%"));
	assert_non_null(strstr(out, "\n/deep         100.0   5.0  20.0   0.0  60.0  20.0 "
				    "~.~DRAM_Bound\n"));
	free(out);
}

/* At every width: nothing wider, and MEAS% only beside the path, from 68 columns. */
static void test_every_width(void **state)
{
	for (int w = 1; w <= 160; w++) {
		struct top *t = top_new(((struct fixture *)*state)->m, 4, 1, counts);
		char *out, *meas, *path;

		add_rows(*state, t, true);
		out = draw(t, w);
		frame_check_widths(out, w);
		meas = strstr(out, " MEAS% ");
		path = strstr(out, " BOTTLENECK");
		if ((w >= 68) != (meas != NULL))
			fail_msg("%d columns: MEAS%% %s\n%s", w, meas ? "shown" : "missing", out);
		if (meas && path != meas + 6)
			fail_msg("%d columns: MEAS%% not right before the path\n%s", w, out);
		free(out);
		top_free(t);
	}
}

/*
 * Levels 1-3 (no quality.measured): no MEAS% column, the path as the model
 * writes it.  Without MEAS% the 49 spare columns give the bar 4, the path 34
 * (its longest, 46) and the bar the last 11 (23 cells: 4.6/13.8/4.6, floors
 * 4+13+4 and the remainders .8, .6 to B and F).
 */
static void test_not_rotating_unchanged(void **state)
{
	char *out = render(*state, 120, false, 0);

	assert_null(strstr(out, "MEAS%"));
	assert_null(strchr(out, '?'));
	assert_non_null(strstr(out, " Backend_Bound.Memory_Bound.L3_Bound.DRAM_Bound\n/seen"));
	assert_non_null(strstr(out,
			       "\n/unseen        50.0   0.0  20.0   0.0  60.0  20.0 "
			       "FFFFFBBBBBBBBBBBBBBRRRR Backend_Bound.Memory_Bound.L3_Bound\n"));
	free(out);
}

/*
 * The keys' level: MEAS% follows the deepest node shown (L3_Bound's 30 % and
 * 70 % at 3), "-" for a node read in every slice (Memory_Bound at 2); "?" only
 * when the level shown is below the path's end.  At level 2 the path's
 * longest is 26: the bar gets 4 + 12, its 24 cells (4.8/14.4/4.8: 4+14+4,
 * then F and R).
 */
static void test_level_keys(void **state)
{
	char *out = render(*state, 120, true, '3');

	assert_non_null(strstr(out, "  30.0 Backend_Bound.Memory_Bound.~L3_Bound\n"));
	assert_non_null(strstr(out, "  80.0 Backend_Bound.Memory_Bound.L3_Bound\n"));
	assert_non_null(strstr(out, "  70.0 Backend_Bound.Memory_Bound.L3_Bound\n"));
	free(out);
	out = render(*state, 120, true, '2');
	assert_non_null(strstr(out, "\n/deep         100.0   5.0  20.0   0.0  60.0  20.0 "
				    "FFFFFBBBBBBBBBBBBBBRRRRR     - Backend_Bound.Memory_Bound\n"));
	assert_null(strchr(out, '~'));
	free(out);
}

/*
 * A group the kernel refused (quality.unmeasured): DRAM_Bound null in every
 * line, so /deep's walk, too, stops above it at the unseen level.
 */
static void test_refused_group(void **state)
{
	struct fixture *fx = *state;
	char *out;

	fx->unmeasured[fx->dram] = "cannot open event E.D on CPU 0: No such file or directory";
	model_result_free(fx->res[0]);
	fx->res[0] = model_result_new(fx->m);
	{
		double ev[16] = { 0 };
		struct model_input in = { .events = ev, .interval_s = 1 };

		ev[model_event_index(fx->m, "E.B")] = 0.6;
		ev[model_event_index(fx->m, "E.M")] = 0.4;
		ev[model_event_index(fx->m, "E.L")] = 0.3;
		ev[model_event_index(fx->m, "E.D")] = NAN;
		assert_int_equal(model_eval(fx->m, &in, fx->res[0]), 0);
	}
	fx->measured[0][fx->dram] = NAN;
	out = render(fx, 120, true, 0);
	assert_non_null(strstr(out, "\n/deep         100.0   5.0   0.0   0.0  60.0   0.0 "));
	assert_non_null(strstr(out, "   0.0 Backend_Bound.Memory_Bound.~L3_Bound.?\n/seen"));
	free(out);
}

/*
 * One level-1 node with a tree below it (the rotation test model's shape):
 * no shares or bar, but the path from level 2 on, with its marks and MEAS%;
 * at level 1 nothing to walk, as with the software model.
 */
static void test_one_root_tree(void **state)
{
	static const char tree[] = "model o\n"
				   "node 1 Switching\n  formula E.W\n  threshold >= 0\n"
				   "node 1.1 Faulting\n  formula E.P\n  threshold >= 0\n";
	double cpu = 0.5, seen[3] = { 0.4, 0.3, NAN }, ev[4] = { 0 };
	char err[256], *out;
	struct tma_model *m = model_load(tree, strlen(tree), "o.tma", err, sizeof(err));
	struct model_result *res = model_result_new(m);
	struct model_input in = { .events = ev, .interval_s = 1 };
	struct report_line line = { .interval_s = 1,
				    .cgroup = "/svc",
				    .ncounts = 1,
				    .count_names = counts,
				    .count_values = &cpu,
				    .running_min = 0.3,
				    .measured = seen,
				    .tma = m,
				    .result = res,
				    .level = 2 };

	(void)state;
	assert_non_null(res);
	assert_int_equal(model_eval(m, &in, res), 0);
	for (int level = 1; level <= 2; level++) {
		struct top *t = top_new(m, level, 1, counts);

		line.level = level;
		assert_int_equal(top_add(t, &line, false), 0);
		out = draw(t, 60);
		print_message("%s", out);
		assert_string_equal(
			strchr(out, '\n') + 1,
			level == 1 ? "CGROUP         CPU%  RUN%\n"
				     "/svc           50.0  30.0\n" :
				     "CGROUP         CPU%  RUN% MEAS% BOTTLENECK\n"
				     "/svc           50.0  30.0  30.0 ~Switching.~Faulting\n");
		free(out);
		top_free(t);
	}
	model_result_free(res);
	model_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_marks_and_meas_120),
		cmocka_unit_test(test_sort_by_meas),
		cmocka_unit_test(test_narrow),
		cmocka_unit_test(test_every_width),
		cmocka_unit_test(test_not_rotating_unchanged),
		cmocka_unit_test(test_level_keys),
		cmocka_unit_test(test_one_root_tree),
		/* last: it changes the fixture */
		cmocka_unit_test(test_refused_group),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
