// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* The tree table on a fixed input; the expected text is written out by hand. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "model_list.h"
#include "output/cgroup_record.h"
#include "output/output_tree.h"

static const char text[] =
	"model t\n"
	"node 1 Frontend\n  formula E.F\n  threshold > 0.2\n"
	/* a vendor's text is text from others: a terminal escape in it must not reach the table */
	"node 1.1 Latency\n  formula E.L\n  threshold > 0.1 and parent over threshold\n"
	"  desc Waits for \033]0;owned\007 instructions.\n  brief Waits. More words.\n"
	"node 1.2 Bandwidth\n  formula E.B / E.ZERO\n"
	"node 2 Backend\n  formula E.K\n  threshold > 0.2\n"
	"info IPC\n  formula E.F * 4\n  scope thread\n";

static char *render(int level, bool color)
{
	char err[512], *out = NULL;
	size_t len = 0;
	struct tma_model *m = model_load(text, strlen(text), "t.tma", err, sizeof(err));
	struct model_result *r;
	double events[8] = { 0 };
	struct model_input in = { .events = events, .interval_s = 1, .flags = 0 };
	FILE *f = open_memstream(&out, &len);

	assert_non_null(m);
	r = model_result_new(m);
	events[model_event_index(m, "E.F")] = 0.5;
	events[model_event_index(m, "E.L")] = 0.25;
	events[model_event_index(m, "E.K")] = 0.25;
	assert_int_equal(model_eval(m, &in, r), 0);
	output_tree(f,
		    &(struct report_line){ .cgroup = "/kubepods/pod1",
					   .interval_s = 1,
					   .tma = m,
					   .result = r,
					   .level = level },
		    color);
	fclose(f);
	model_result_free(r);
	model_free(m);
	return out;
}

static void test_tree_plain(void **state)
{
	char *out = render(3, false);

	(void)state;
	assert_string_equal(out, "cgroup /kubepods/pod1, interval 1.000 s\n"
				 "  Frontend                                    50.0% * <\n"
				 "    Latency                                   25.0% * <\n"
				 "    Bandwidth                                     -\n"
				 "  Backend                                     25.0% *\n"
				 "  bottleneck: Frontend.Latency\n"
				 "  Latency: Waits for \\x1b]0;owned\\x07 instructions.\n"
				 "\n");
	free(out);
}

static void test_tree_level_1(void **state)
{
	char *out = render(1, false);

	(void)state;
	assert_string_equal(out, "cgroup /kubepods/pod1, interval 1.000 s\n"
				 "  Frontend                                    50.0% * <\n"
				 "  Backend                                     25.0% *\n"
				 "  bottleneck: Frontend\n"
				 "\n");
	free(out);
}

static void test_tree_color(void **state)
{
	char *out = render(2, true);

	(void)state;
	assert_string_equal(
		out, "cgroup /kubepods/pod1, interval 1.000 s\n"
		     "\033[1;31m  Frontend                                    50.0% * <\033[0m\n"
		     "\033[1;31m    Latency                                   25.0% * <\033[0m\n"
		     "    Bandwidth                                     -\n"
		     "\033[33m  Backend                                     25.0% *\033[0m\n"
		     "  bottleneck: Frontend.Latency\n"
		     "  Latency: Waits for \\x1b]0;owned\\x07 instructions.\n"
		     "\n");
	free(out);
}

/*
 * Levels 4-6 rotate: a node measured less than half the interval is marked
 * "~" after the flag and bottleneck columns, with the legend once; half or
 * more, or a node not reported (NAN), is not.
 */
static void test_tree_marks_low_measured(void **state)
{
	static const char deep[] = "model d\nnode 1 Top\n  formula E.A\n"
				   "node 1.1 Mid\n  formula E.B\nnode 1.1.1 Low\n  formula E.B\n"
				   "node 1.1.1.1 Deep\n  formula E.C\n"
				   "node 1.1.1.2 Deeper\n  formula E.D\n"
				   "node 1.1.1.3 Unseen\n  formula E.D\n";
	double events[8] = { 0 }, measured[6] = { NAN, NAN, NAN, 0.25, 0.5, NAN };
	/* Unseen's group failed to open: said under the tree, with the kernel's reason. */
	const char *const why[6] = { [5] = "cannot open event E.D on CPU 1: Invalid argument" };
	struct model_input in = { .events = events, .interval_s = 1 };
	char err[512], *out = NULL;
	size_t len = 0;
	struct tma_model *m = model_load(deep, strlen(deep), "d.tma", err, sizeof(err));
	struct model_result *r;
	FILE *f = open_memstream(&out, &len);

	(void)state;
	assert_non_null(m);
	r = model_result_new(m);
	for (int i = 0; i < 4; i++)
		events[i] = 0.5;
	assert_int_equal(model_eval(m, &in, r), 0);
	output_tree(f,
		    &(struct report_line){ .cgroup = "/svc",
					   .interval_s = 1,
					   .tma = m,
					   .result = r,
					   .level = 4,
					   .measured = measured,
					   .unmeasured = why },
		    false);
	fclose(f);
	assert_string_equal(out,
			    "cgroup /svc, interval 1.000 s\n"
			    "  Top                                         50.0%\n"
			    "    Mid                                       50.0%\n"
			    "      Low                                     50.0%\n"
			    "        Deep                                  50.0%     ~\n"
			    "        Deeper                                50.0%\n"
			    "        Unseen                                50.0%\n"
			    "  ~ measured less than half the interval (at --level 4-6 groups take "
			    "turns on the PMU: quality.measured)\n"
			    "  Unseen: not measured: cannot open event E.D on CPU 1: Invalid "
			    "argument\n"
			    "  bottleneck: none\n"
			    "\n");
	free(out);
	model_result_free(r);
	model_free(m);
}

/* A cgroup name with a terminal escape (clear screen) is printed escaped, as is replay's. */
static void test_tree_escapes_name(void **state)
{
	char err[512], *out = NULL;
	size_t len = 0;
	struct tma_model *m = model_load(text, strlen(text), "t.tma", err, sizeof(err));
	struct model_result *r = model_result_new(m);
	FILE *f = open_memstream(&out, &len);

	(void)state;
	output_tree(f,
		    &(struct report_line){ .cgroup = "/x\033[2J\r\xff",
					   .interval_s = 1,
					   .tma = m,
					   .result = r,
					   .level = 1 },
		    false);
	fclose(f);
	assert_null(strchr(out, '\033'));
	assert_null(strchr(out, '\r'));
	assert_non_null(strstr(out, "cgroup /x\\x1b[2J\\x0d\\xff, interval"));
	free(out);
	model_result_free(r);
	model_free(m);
}

/*
 * The summary counts (CPU time and a model's counts) under the nodes, "name
 * value" pairs wrapped before 100 columns, null as "-"; a task's label.
 */
static void test_tree_counts_and_task(void **state)
{
	static const char model[] = "model c\nnode 1 Busy\n  formula E.A / 4\n"
				    "count a_per_s\n  formula E.A / interval-s\n";
	static const char *const names[] = { "on_cpu_s",
					     "cpu_utilization",
					     "a_per_s",
					     "a_long_count_name_to_wrap",
					     "another_long_count_name",
					     "E.A" };
	double values[] = { 0.5, 0.25, 1234.5678, NAN, 7, 2 };
	char err[512], *out = NULL;
	size_t len = 0;
	struct tma_model *m = model_load(model, strlen(model), "c.tma", err, sizeof(err));
	struct model_result *r;
	double events[2] = { 2 };
	struct model_input in = { .events = events, .interval_s = 2, .flags = 0 };
	struct report_task task = { .tid = 42, .tgid = 40, .comm = "worker" };
	FILE *f = open_memstream(&out, &len);

	(void)state;
	assert_non_null(m);
	r = model_result_new(m);
	assert_int_equal(model_eval(m, &in, r), 0);
	output_tree(f,
		    &(struct report_line){ .cgroup = "/svc",
					   .interval_s = 2,
					   .tma = m,
					   .result = r,
					   .level = 3,
					   .task = &task,
					   .ncounts = 6,
					   .count_names = names,
					   .count_values = values,
					   .nsummary = 5 },
		    false);
	fclose(f);
	assert_string_equal(out, "cgroup /svc  task 42 (worker), interval 2.000 s\n"
				 "  Busy                                        50.0%\n"
				 "  on_cpu_s 0.5  cpu_utilization 0.25  a_per_s 1234.6"
				 "  a_long_count_name_to_wrap -\n"
				 "  another_long_count_name 7\n"
				 "  bottleneck: none\n"
				 "\n");
	free(out);
	model_result_free(r);
	model_free(m);
}

/* A tree without slots (model_result_no_slots) says why it names no bottleneck. */
static void test_tree_without_slots_says_why(void **state)
{
	char err[512], *out = NULL;
	size_t len = 0;
	struct tma_model *m = model_load(text, strlen(text), "t.tma", err, sizeof(err));
	struct model_result *r = model_result_new(m);
	double events[8] = { 0 };
	struct model_input in = { .events = events, .interval_s = 1, .flags = 0 };
	FILE *f = open_memstream(&out, &len);

	(void)state;
	events[model_event_index(m, "E.F")] = 0.5;
	assert_int_equal(model_eval(m, &in, r), 0);
	assert_int_equal(r->bottleneck_len, 1);
	r->bottleneck_len = 0; /* as model_result_no_slots leaves it */
	r->no_tree = MODEL_NO_SLOTS;
	output_tree(f, &(struct report_line){ .cgroup = "/a", .tma = m, .result = r, .level = 1 },
		    false);
	fclose(f);
	assert_non_null(strstr(out, "\n  bottleneck: none (" MODEL_NO_SLOTS ")\n\n"));
	free(out);
	model_result_free(r);
	model_free(m);
}

static void test_metrics_list(void **state)
{
	char err[512], *out = NULL;
	size_t len = 0;
	struct tma_model *m = model_load(text, strlen(text), "t.tma", err, sizeof(err));
	FILE *f = open_memstream(&out, &len);

	(void)state;
	model_metrics_print(f, m, false);
	fclose(f);
	assert_string_equal(out, "Frontend\t1\t-\tE.F\n"
				 "Latency\t2\tFrontend\tE.L\n"
				 "Bandwidth\t2\tFrontend\tE.B,E.ZERO\n"
				 "Backend\t1\t-\tE.K\n"
				 "IPC\t0\t-\tE.F\n");
	free(out);
	model_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tree_plain),
		cmocka_unit_test(test_tree_without_slots_says_why),
		cmocka_unit_test(test_tree_level_1),
		cmocka_unit_test(test_tree_color),
		cmocka_unit_test(test_tree_counts_and_task),
		cmocka_unit_test(test_metrics_list),
		cmocka_unit_test(test_tree_escapes_name),
		cmocka_unit_test(test_tree_marks_low_measured),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
