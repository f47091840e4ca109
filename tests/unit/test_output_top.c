// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * --format top's frame on fixed rows: the expected screens are worked out by
 * hand from the layout rules in user/output/output_top.c (priorities, widths); the
 * other checks hold at every width.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "model/model.h"
#include "output/cgroup_record.h"
#include "output/output_top.h"
#include "frame_width.h"

static const char text[] =
	"model t\n"
	"node 1 Frontend_Bound\n  formula E.F\n  threshold > 0.2\n"
	"node 2 Bad_Speculation\n  formula E.S\n  threshold > 0.15\n"
	"node 3 Backend_Bound\n  formula E.B\n  threshold > 0.2\n"
	"node 3.1 Memory_Bound\n  formula E.M\n  threshold > 0.2 and parent over threshold\n"
	"node 4 Retiring\n  formula E.R\n  threshold > 0.7\n";

static const char *const hw_counts[] = { "on_cpu_s", "cycles" };

struct fixture {
	struct tma_model *m;
	struct model_result *res[3];
	double counts[3][2];
};

/* Three cgroups: /a Backend and Memory bound, /b Frontend bound and busiest, /c idle. */
static const struct {
	const char *name;
	double on_cpu_s, running_min, f, s, b, mem, r;
} rows[] = {
	{ "/a", 0.5, 0.5, 0.1, 0.05, 0.6, 0.4, 0.25 },
	{ "/b", 1.5, 1.0, 0.4, 0.1, 0.2, 0.1, 0.3 },
	{ "/c", 0.2, NAN, 0, 0, 0, 0, 0 },
};

static int setup(void **state)
{
	struct fixture *fx = calloc(1, sizeof(*fx));
	char err[256];

	setenv("TZ", "UTC", 1);
	tzset();
	fx->m = model_load(text, strlen(text), "t.tma", err, sizeof(err));
	assert_non_null(fx->m);
	for (int i = 0; i < 3; i++) {
		double ev[8] = { 0 };
		struct model_input in = { .events = ev, .interval_s = 1, .flags = 0 };

		ev[model_event_index(fx->m, "E.F")] = rows[i].f;
		ev[model_event_index(fx->m, "E.S")] = rows[i].s;
		ev[model_event_index(fx->m, "E.B")] = rows[i].b;
		ev[model_event_index(fx->m, "E.M")] = rows[i].mem;
		ev[model_event_index(fx->m, "E.R")] = rows[i].r;
		fx->res[i] = model_result_new(fx->m);
		assert_int_equal(model_eval(fx->m, &in, fx->res[i]), 0);
		fx->counts[i][0] = rows[i].on_cpu_s;
	}
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *fx = *state;

	for (int i = 0; i < 3; i++)
		model_result_free(fx->res[i]);
	model_free(fx->m);
	free(fx);
	return 0;
}

static const struct top_title title = { { 0, 0 }, 1.0, "h1", "t", 0, 0 };

/* What top_draw writes for the rows added so far, as text. */
static char *draw(struct top *t, const struct top_screen *s)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	assert_non_null(f);
	assert_int_equal(top_draw(t, f, s, &title), 0);
	fclose(f);
	return out;
}

/* One frame of the three rows at this screen, as text. */
static char *frame(struct fixture *fx, struct top *t, const struct top_screen *s,
		   const char *first_name)
{
	for (int i = 0; i < 3; i++) {
		struct report_line line = {
			.interval_s = 1,
			.cgroup = i == 0 && first_name ? first_name : rows[i].name,
			.ncounts = 2,
			.count_names = hw_counts,
			.count_values = fx->counts[i],
			.running_min = rows[i].running_min,
			.tma = fx->m,
			.result = fx->res[i],
			.level = 3,
		};

		assert_int_equal(top_add(t, &line, false), 0);
	}
	return draw(t, s);
}

static char *render(struct fixture *fx, int width, int height, bool ansi, bool color)
{
	struct top *t = top_new(fx->m, 3, 2, hw_counts);
	struct top_screen s = { width, height, ansi, color };
	char *out;

	assert_non_null(t);
	out = frame(fx, t, &s, NULL);
	top_free(t);
	return out;
}

static void test_plain_80(void **state)
{
	char *out = render(*state, 80, 0, false, false);

	/*
	 * 80 columns: name 12, CPU 6, RUN 5, four shares of 5, path 12, bar 8;
	 * the names need no more, so of the 9 spare columns 4 widen the bar to
	 * 12 and 5 the path to 17.
	 * /b: 12 cells at .4/.1/.2/.3 = 4.8/1.2/2.4/3.6, floors 4+1+2+3 = 10,
	 * the two largest remainders (F .8, R .6) get one more each.
	 * /a: 1.2/.6/7.2/3 -> 1+0+7+3 = 11, then S (.6).
	 */
	assert_string_equal(
		out,
		"tmacg 00:00:00  interval 1.00s  host h1  model t  3 cgroups\n"
		"bar:  F Frontend_Bound  S Bad_Speculation  B Backend_Bound  R Retiring\n"
		"CGROUP         CPU%  RUN%   FE%  BAD%   BE%  RET% LEVEL 1      BOTTLENECK\n"
		"/b            150.0 100.0  40.0  10.0  20.0  30.0 FFFFFSBBRRRR Frontend_Bound\n"
		"/a             50.0  50.0  10.0   5.0  60.0  25.0 FSBBBBBBBRRR Backend_Bound.Me~\n"
		"/c             20.0     -   0.0   0.0   0.0   0.0              -\n");
	free(out);
}

static void test_plain_120(void **state)
{
	char *out = render(*state, 120, 0, false, false);

	/* 49 spare: the bar to 12, the path to its longest (26), the bar to its 24 */
	assert_non_null(strstr(out, "  25.0 "));
	assert_non_null(strstr(out, " Backend_Bound.Memory_Bound\n"));
	assert_non_null(strstr(out, "LEVEL 1"
				    "                  BOTTLENECK\n"));
	free(out);
}

/* The title the table and the live view share: what was lost, after what the view adds. */
static void test_title_says_what_was_lost(void **state)
{
	struct top_title ti = { { 0, 0 }, 2.0, "h", "m", 3, 2 };
	char buf[256];
	const char *tail;

	(void)state;
	top_title_text(&ti, "  5 cgroups", buf, sizeof(buf));
	tail = strstr(buf, "  interval");
	assert_non_null(tail);
	assert_string_equal(tail, "  interval 2.00s  host h  model m  5 cgroups  samples dropped: "
				  "see stderr  map full: 2 dropped, raise --max-cgroups");
	ti.dropped = ti.map_full = 0;
	top_title_text(&ti, NULL, buf, sizeof(buf));
	assert_string_equal(strstr(buf, "  interval"), "  interval 2.00s  host h  model m");
}

static void test_narrow(void **state)
{
	char *out = render(*state, 40, 0, false, false);

	/* No room for the shares: name 12, CPU, RUN, and the path (13) gets the last 15. */
	assert_string_equal(out, "tmacg 00:00:00  interval 1.00s  host h1~\n"
				 "CGROUP         CPU%  RUN% BOTTLENECK\n"
				 "/b            150.0 100.0 Frontend_Bound\n"
				 "/a             50.0  50.0 Backend_Bound~\n"
				 "/c             20.0     - -\n");
	free(out);
	out = render(*state, 10, 0, false, false);
	assert_string_equal(out, "tmacg 00:~\nCGROUP\n/b\n/a\n/c\n");
	free(out);
}

static void test_every_width_fits(void **state)
{
	for (int w = 1; w <= 140; w++) {
		char *out = render(*state, w, 0, false, false);

		/* title, legend when the bar shows, header, three rows */
		assert_true(frame_check_widths(out, w) >= 5);
		/* sorted by CPU at every width the names fit */
		if (w >= 2) {
			assert_non_null(strstr(out, "\n/b"));
			assert_true(strstr(out, "\n/b") < strstr(out, "\n/a"));
			assert_true(strstr(out, "\n/a") < strstr(out, "\n/c"));
		}
		free(out);
	}
}

static void test_hostile_name(void **state)
{
	struct fixture *fx = *state;
	struct top *t = top_new(fx->m, 3, 2, hw_counts);
	struct top_screen s = { 100, 0, false, false };
	/* an escape that would clear the screen, then 日本 (two wide characters) */
	char *out = frame(fx, t, &s, "/x\033[2J\xe6\x97\xa5\xe6\x9c\xac\n");

	assert_null(strchr(out, '\033'));
	assert_non_null(strstr(out, "/x\\x1b[2J\xe6\x97\xa5\xe6\x9c\xac\\x0a "));
	frame_check_widths(out, 100);
	free(out);
	top_free(t);
}

static void test_ansi_redraw(void **state)
{
	struct fixture *fx = *state;
	struct top *t = top_new(fx->m, 3, 2, hw_counts);
	struct top_screen s = { 80, 24, true, false };
	char *first = frame(fx, t, &s, NULL), *second = frame(fx, t, &s, NULL);

	/* the first frame clears the screen, later ones go home and overwrite */
	assert_memory_equal(first, "\033[H\033[2J", 7);
	assert_memory_equal(second, "\033[Htmacg", 8);
	/* each shorter line clears its rest, the frame clears what is below it */
	assert_non_null(strstr(second, "Retiring\033[K\n"));
	assert_string_equal(second + strlen(second) - 7, "-\033[K\033[J");
	free(first);
	free(second);
	top_free(t);
}

static void test_plain_frames_apart(void **state)
{
	struct fixture *fx = *state;
	struct top *t = top_new(fx->m, 3, 2, hw_counts);
	struct top_screen s = { 80, 0, false, false };
	char *first = frame(fx, t, &s, NULL), *second = frame(fx, t, &s, NULL);

	assert_memory_equal(first, "tmacg ", 6);
	assert_memory_equal(second, "\ntmacg ", 7);
	assert_string_equal(second + 1, first);
	free(first);
	free(second);
	top_free(t);
}

static void test_height(void **state)
{
	struct fixture *fx = *state;
	struct top *t = top_new(fx->m, 3, 2, hw_counts);
	struct top_screen s = { 80, 5, true, false };
	char *out = frame(fx, t, &s, NULL);
	int newlines = 0;

	/* five lines: title, legend, header, the busiest row, "+2 more"; no newline after it */
	for (const char *p = out; *p; p++)
		newlines += *p == '\n';
	assert_int_equal(newlines, 4);
	assert_non_null(strstr(out, "\n/b "));
	assert_null(strstr(out, "\n/a "));
	assert_non_null(strstr(out, "\n+2 more (--top N sums the rest)\033[K\033[J"));
	free(out);
	top_free(t);
}

static void test_color(void **state)
{
	char *out = render(*state, 80, 0, false, true);

	/* the bar's segments in colour, letters kept; the header in reverse video */
	assert_non_null(strstr(out, "\033[30;44mFFFFF\033[0m\033[30;41mS\033[0m"));
	assert_non_null(strstr(out, "\033[7mCGROUP"));
	free(out);
	out = render(*state, 80, 0, false, false);
	assert_null(strchr(out, '\033'));
	free(out);
}

/*
 * No level-1 split (the software model: one level-1 node, CPU_Share): CPU,
 * running_min and the rates.
 */
static void test_no_level1(void **state)
{
	static const char *const names[] = { "on_cpu_s", "cpu_utilization",
					     "context_switches_per_s", "page_faults_per_s" };
	double v[2][4] = { { 0.25, 0.25, 1234.5, 10 }, { 0.75, 0.75, 12, 0 } };
	char err[512];
	struct tma_model *m = model_load_builtin("software", err, sizeof(err));
	struct top *t = top_new(m, 3, 4, names);
	struct top_screen s = { 70, 0, false, false };
	const struct resource pod = { .k8s_namespace = "prod", .k8s_pod = "web-0" };
	char *out;

	(void)state;
	for (int i = 0; i < 2; i++) {
		struct report_line line = {
			.interval_s = 1,
			.cgroup = i ? "/kubepods/x" : "/kubepods/y",
			.resource = i ? &pod : NULL,
			.ncounts = 4,
			.count_names = names,
			.count_values = v[i],
			.running_min = 1,
		};

		assert_int_equal(top_add(t, &line, false), 0);
	}
	out = draw(t, &s);
	/* 70: name 12, CPU, RUN, the rates in 18 and 13 columns; the names need no more */
	assert_string_equal(out, "tmacg 00:00:00  interval 1.00s  host h1  model t  2 pods\n"
				 "POD            CPU%  RUN% context_switches/s page_faults/s\n"
				 "prod/web-0     75.0 100.0               12.0           0.0\n"
				 "/kubepods/y    25.0 100.0             1234.5          10.0\n");
	free(out);
	top_free(t);
	model_free(m);
}

/* A long name gets NAME_PREFERRED (24) columns before a rate column, then what is left. */
static void test_name_before_rates(void **state)
{
	static const char *const names[] = { "on_cpu_s", "context_switches_per_s",
					     "page_faults_per_s" };
	double v[3] = { 0.5, 100, 10 };
	char err[512];
	struct tma_model *m = model_load_builtin("software", err, sizeof(err));
	struct top *t = top_new(m, 3, 3, names);
	struct top_screen s = { 64, 0, false, false };
	struct report_line line = {
		.interval_s = 1,
		.cgroup = "/kubepods/burstable/pod-abcdef/c1",
		.ncounts = 3,
		.count_names = names,
		.count_values = v,
		.running_min = 1,
	};
	char *out;

	(void)state;
	assert_int_equal(top_add(t, &line, false), 0);
	out = draw(t, &s);
	/*
	 * 64: name 12, CPU and RUN leave 39; the name to 24 leaves 27; the first
	 * rate (19) fits, the second (14) does not; the 8 left widen the name to
	 * 32: the mark and the last 31 of its 33 characters.
	 */
	assert_non_null(strstr(out, "\n~ubepods/burstable/pod-abcdef/c1   50.0 100.0 "));
	assert_non_null(strstr(out, "context_switches/s\n"));
	assert_null(strstr(out, "page_faults"));
	free(out);
	top_free(t);
	model_free(m);
}

/* --top's "(other)" row comes last, however busy the rest together were. */
static void test_other_last(void **state)
{
	static const char *const names[] = { "on_cpu_s" };
	double busy[1] = { 1.5 }, idle[1] = { 0.1 };
	struct top *t = top_new(NULL, 3, 1, names);
	struct top_screen s = { 60, 0, false, false };
	struct report_line other = {
		.interval_s = 1,
		.cgroup = "(other)",
		.ncounts = 1,
		.count_names = names,
		.count_values = busy,
		.running_min = 1,
	};
	struct report_line one = other;
	char *out;

	(void)state;
	one.cgroup = "/quiet";
	one.count_values = idle;
	assert_int_equal(top_add(t, &other, true), 0);
	assert_int_equal(top_add(t, &one, false), 0);
	out = draw(t, &s);
	assert_non_null(strstr(out, "\n/quiet "));
	assert_true(strstr(out, "\n/quiet ") < strstr(out, "\n(other) "));
	free(out);
	top_free(t);
}

/* A path longer than a row holds (511 bytes) still shows its leaf. */
static void test_long_path_keeps_leaf(void **state)
{
	static const char *const names[] = { "on_cpu_s" };
	double v[1] = { 0.5 };
	char path[700];
	struct top *t = top_new(NULL, 3, 1, names);
	struct top_screen s = { 40, 0, false, false };
	struct report_line line = {
		.interval_s = 1,
		.cgroup = path,
		.ncounts = 1,
		.count_names = names,
		.count_values = v,
		.running_min = 1,
	};
	char *out;

	(void)state;
	memset(path, 'a', sizeof(path));
	strcpy(path + sizeof(path) - 6, "/leaf");
	assert_int_equal(top_add(t, &line, false), 0);
	out = draw(t, &s);
	/* 40: CPU and RUN leave the name 27 columns: the mark and the last 26 bytes */
	assert_non_null(strstr(out, "\n~aaaaaaaaaaaaaaaaaaaaa/leaf   50.0 100.0\n"));
	free(out);
	top_free(t);
}

/*
 * One row, cgroup name using cpu CPUs, of model m evaluated on the events
 * named in ev_names (values ev_values, n of them), drawn at width columns.
 */
static char *one_row(const struct tma_model *m, const char *name, double cpu,
		     const char *const *ev_names, const double *ev_values, int n, int width)
{
	static const char *const counts[] = { "on_cpu_s" };
	struct model_result *res = model_result_new(m);
	double ev[16] = { 0 };
	struct model_input in = { .events = ev, .interval_s = 1 };
	struct report_line line = { .interval_s = 1,
				    .cgroup = name,
				    .ncounts = 1,
				    .count_names = counts,
				    .count_values = &cpu,
				    .running_min = 1,
				    .tma = m,
				    .result = res,
				    .level = 1 };
	struct top_screen screen = { width, 0, false, false };
	struct top *t = top_new(m, 1, 1, counts);
	char *out;

	assert_non_null(res);
	assert_non_null(t);
	for (int i = 0; i < n; i++)
		ev[model_event_index(m, ev_names[i])] = ev_values[i];
	assert_int_equal(model_eval(m, &in, res), 0);
	assert_int_equal(top_add(t, &line, false), 0);
	out = draw(t, &screen);
	top_free(t);
	model_result_free(res);
	return out;
}

/*
 * AMD's level 1 has a fifth share, SMT_Contention: its own column (SMT%), bar
 * letter (T) and legend entry, by name when it fits and by its column's head
 * when the 80-column legend has no room for the name.
 */
static void test_five_shares(void **state)
{
	static const char amd[] = "model a\n"
				  "node 1 Frontend_Bound\n  formula E.F\n"
				  "node 2 Bad_Speculation\n  formula E.S\n"
				  "node 3 Backend_Bound\n  formula E.B\n"
				  "node 4 Retiring\n  formula E.R\n"
				  "node 5 SMT_Contention\n  formula E.T\n";
	static const char *const names[] = { "E.F", "E.S", "E.B", "E.R", "E.T" };
	static const double values[] = { 0.1, 0.1, 0.2, 0.1, 0.5 };
	char err[256], *out;
	struct tma_model *m = model_load(amd, strlen(amd), "a.tma", err, sizeof(err));

	(void)state;
	assert_non_null(m);
	out = one_row(m, "/smt", 1.0, names, values, 5, 80);
	/*
	 * 80 columns: name 12, CPU 6, RUN 5, five shares of 5, path 12, bar 8: 3
	 * spare widen the bar to 11.  11 cells at .1/.1/.2/.1/.5 = 1.1/1.1/2.2/1.1/5.5,
	 * floors 1+1+2+1+5 = 10, the largest remainder (T .5) gets the last.
	 */
	assert_non_null(strstr(out, "bar:  F Frontend_Bound  S Bad_Speculation  B Backend_Bound  "
				    "R Retiring  T SMT%\n"));
	assert_non_null(strstr(out, "CGROUP         CPU%  RUN%   FE%  BAD%   BE%  RET%  SMT% "
				    "LEVEL 1"));
	assert_non_null(strstr(out, "/smt          100.0 100.0  10.0  10.0  20.0  10.0  50.0 "
				    "FSBBRTTTTTT "));
	free(out);
	out = one_row(m, "/smt", 1.0, names, values, 5, 120);
	assert_non_null(strstr(out, "  R Retiring  T SMT_Contention\n"));
	free(out);
	model_free(m);
}

/*
 * generic's level-1 nodes are measures, not shares: value columns with two
 * decimals, no bar or path; a node whose event the PMU lacks shows "-".
 */
static void test_generic_values(void **state)
{
	/* cache-misses unmeasured: QEMU's PMU has none. */
	static const char *const names[] = { "cycles", "instructions", "branch-misses",
					     "cache-misses", "SW.CPU_CLOCK" };
	static const double values[] = { 3e9, 4e9, 6e6, NAN, 1e9 };
	char err[256], *out;
	struct tma_model *m = model_load_builtin("generic", err, sizeof(err));

	(void)state;
	assert_non_null(m);
	out = one_row(m, "/g", 0.5, names, values, 5, 100);
	/* IPC 4/3, CPI 3/4, 1.5 branch misses per 1000 instructions, 3 GHz; widths 9 or the head's. */
	assert_non_null(strstr(out, "CGROUP         CPU%  RUN%       IPC       CPI Branch_MPKI "
				    "Cache_MPKI Frequency_GHz\n"));
	assert_non_null(strstr(out, "/g             50.0 100.0      1.33      0.75        1.50 "
				    "         -          3.00\n"));
	assert_null(strstr(out, "bar:"));
	free(out);
	model_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain_80),
		cmocka_unit_test(test_plain_120),
		cmocka_unit_test(test_narrow),
		cmocka_unit_test(test_title_says_what_was_lost),
		cmocka_unit_test(test_every_width_fits),
		cmocka_unit_test(test_hostile_name),
		cmocka_unit_test(test_ansi_redraw),
		cmocka_unit_test(test_plain_frames_apart),
		cmocka_unit_test(test_height),
		cmocka_unit_test(test_color),
		cmocka_unit_test(test_no_level1),
		cmocka_unit_test(test_name_before_rates),
		cmocka_unit_test(test_long_path_keeps_leaf),
		cmocka_unit_test(test_other_last),
		cmocka_unit_test(test_five_shares),
		cmocka_unit_test(test_generic_values),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
