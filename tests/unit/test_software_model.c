// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The built-in model "software" (--pmu software) on the one measurement path:
 * the four events it opens at every depth, the count keys docs/output.md
 * promises, in their order, and their values on an interval sum worked out
 * here by hand.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "measure.h"
#include "util/run_error.h"
#include "model/model.h"
#include "options.h"
#include "software_counts.h"

/* measure_open()'s failure, when it fails. */
static struct run_error open_error;

static const char *const four[] = { "SW.CPU_CLOCK", "SW.CONTEXT_SWITCHES", "SW.CPU_MIGRATIONS",
				    "SW.PAGE_FAULTS" };

/* The same four events (what make bench compares with perf) at every depth. */
static void four_events_at_every_depth(void **state)
{
	char err[512];
	struct tma_model *m = model_load_builtin("software", err, sizeof(err));
	bool needed[16];

	(void)state;
	if (!m)
		fail_msg("%s", err);
	assert_null(model_tma_version(m)); /* not TMA: JSON tma_version null */
	assert_true(model_event_count(m) <= 16);
	for (int info = 0; info < 2; info++) {
		for (int level = 1; level <= 6; level++) {
			assert_int_equal(model_events_needed(m, level, info, 0, needed), 4);
			for (int i = 0; i < 4; i++)
				assert_true(needed[model_event_index(m, four[i])]);
		}
	}
	model_free(m);
}

static double count_of(const struct measure *ms, const double *counts, const char *name)
{
	for (int i = 0; i < ms->facts.ncounts; i++)
		if (!strcmp(ms->facts.count_names[i], name))
			return counts[i];
	fail_msg("no count %s", name);
	return NAN;
}

static int event_of(const struct measure *ms, const char *name)
{
	for (int e = 0; e < ms->nevents; e++)
		if (!strcmp(ms->events[e].name, name))
			return e;
	fail_msg("event %s not opened", name);
	return -1;
}

/*
 * measure_open(--pmu software) plans the four events in one group on any
 * machine, names the counts as the docs do, and computes them: 2 s interval,
 * 1.5 s on a CPU by the scheduler, 1.6 s of cpu-clock, 300 switches, 30
 * migrations, 600 faults.  The counts over the interval's length are
 * marked derived (written to 9 digits), the measured ones not.
 */
static void counts_keep_their_keys_and_values(void **state)
{
	static const char *argv[] = { "tmacg", "--pmu", "software", NULL };
	static const struct {
		const char *name;
		double want;
		bool derived;
	} want[] = {
		{ "on_cpu_s", 1.5, false },
		{ "cpu_utilization", 0.75, true },
		{ "cpu_clock_s", 1.6, false },
		{ "context_switches", 300, false },
		{ "context_switches_per_s", 150, true },
		{ "cpu_migrations", 30, false },
		{ "cpu_migrations_per_s", 15, true },
		{ "page_faults", 600, false },
		{ "page_faults_per_s", 300, true },
		{ "SW.CPU_CLOCK", 1.6e9, false },
		{ "SW.CONTEXT_SWITCHES", 300, false },
		{ "SW.CPU_MIGRATIONS", 30, false },
		{ "SW.PAGE_FAULTS", 600, false },
	};
	struct options o;
	struct measure_config mc;
	struct measure *ms;
	struct model_result *r;
	union acc_room sum;
	double counts[64];

	(void)state;
	assert_int_equal(options_parse(&o, 3, (char **)argv, stdout, stderr), 0);
	options_measure_config(&o, &mc);
	if (measure_open(&ms, &mc, &open_error))
		fail_msg("%s", open_error.msg);
	assert_string_equal(ms->facts.model, "software");
	assert_null(ms->facts.tma_version);
	assert_int_equal(ms->nevents, 4);
	assert_int_equal(ms->ngroups, 1);
	/* The plan's group leader, as the collector and pmu_open() take it: the first event. */
	assert_true(measure_event_is_leader(ms, 0));
	for (int e = 1; e < ms->nevents; e++)
		assert_false(measure_event_is_leader(ms, e));
	assert_false(measure_event_is_leader(ms, ms->nevents));
	assert_true(ms->facts.ncounts <= 64);
	/* The documented keys first, in order: the table shows them (nsummary). */
	assert_int_equal(ms->facts.nsummary, software_ndocumented);
	for (int i = 0; i < software_ndocumented; i++)
		assert_string_equal(ms->facts.count_names[i], software_documented_counts[i]);
	assert_int_equal(ms->facts.ncounts,
			 software_ndocumented + 4); /* then the four events, re-playable */
	memset(&sum, 0, sizeof(sum));
	sum.acc.runtime_ns = 1500000000;
	*acc_counter(&sum.acc, event_of(ms, "SW.CPU_CLOCK")) = 1600000000;
	*acc_counter(&sum.acc, event_of(ms, "SW.CONTEXT_SWITCHES")) = 300;
	*acc_counter(&sum.acc, event_of(ms, "SW.CPU_MIGRATIONS")) = 30;
	*acc_counter(&sum.acc, event_of(ms, "SW.PAGE_FAULTS")) = 600;
	*acc_enabled(&ms->layout, &sum.acc, 0) = *acc_running(&ms->layout, &sum.acc, 0) =
		1600000000;
	r = model_result_new(ms->facts.tma);
	assert_non_null(r);
	measure_evaluate(ms, &sum.acc, 2.0, counts, r);
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		if (fabs(count_of(ms, counts, want[i].name) - want[i].want) > 1e-9 * want[i].want)
			fail_msg("%s: %.17g, want %.17g", want[i].name,
				 count_of(ms, counts, want[i].name), want[i].want);
	assert_non_null(ms->facts.count_derived);
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		for (int c = 0; c < ms->facts.ncounts; c++)
			if (!strcmp(ms->facts.count_names[c], want[i].name) &&
			    ms->facts.count_derived[c] != want[i].derived)
				fail_msg("%s: derived %d, want %d", want[i].name,
					 ms->facts.count_derived[c], want[i].derived);
	assert_float_equal(r->value[model_node_index(ms->facts.tma, "CPU_Share")], 0.8, 1e-12);
	/* A cgroup that did not run: every count a measured 0, as docs/output.md says. */
	memset(&sum, 0, sizeof(sum));
	measure_evaluate(ms, &sum.acc, 2.0, counts, r);
	for (int i = 0; i < ms->facts.ncounts; i++)
		if (counts[i] != 0)
			fail_msg("idle: %s is %g, not 0", ms->facts.count_names[i], counts[i]);
	assert_float_equal(r->value[model_node_index(ms->facts.tma, "CPU_Share")], 0, 0);
	/* Multiplexed out all interval (enabled, never running): unmeasured, null. */
	sum.acc.runtime_ns = 1000;
	*acc_enabled(&ms->layout, &sum.acc, 0) = 1000;
	measure_evaluate(ms, &sum.acc, 2.0, counts, r);
	assert_float_equal(count_of(ms, counts, "on_cpu_s"), 1e-6, 1e-15);
	assert_true(isnan(count_of(ms, counts, "page_faults")));
	assert_true(isnan(count_of(ms, counts, "SW.PAGE_FAULTS")));
	assert_true(isnan(r->value[model_node_index(ms->facts.tma, "CPU_Share")]));
	model_result_free(r);
	measure_close(ms);
}

/* A model's count may not take a name tmacg reports itself: refused, saying which. */
static void count_named_like_a_fixed_count_is_refused(void **state)
{
	static const char text[] = "model clash\nnode 1 N\n  formula SW.CPU_CLOCK\n"
				   "count cpu_utilization\n  formula SW.CPU_CLOCK\n";
	char path[] = "/tmp/tmacg-clash-XXXXXX";
	const char *argv[] = { "tmacg", "--model-file", path, NULL };
	struct options o;
	struct measure_config mc;
	struct measure *ms = NULL;
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, sizeof(text) - 1), (ssize_t)(sizeof(text) - 1));
	close(fd);
	assert_int_equal(options_parse(&o, 3, (char **)argv, stdout, stderr), 0);
	options_measure_config(&o, &mc);
	assert_int_not_equal(measure_open(&ms, &mc, &open_error), 0);
	unlink(path);
	assert_null(ms);
	assert_non_null(strstr(open_error.msg,
			       "model clash: count cpu_utilization has the name of a count "
			       "tmacg reports itself"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(four_events_at_every_depth),
		cmocka_unit_test(counts_keep_their_keys_and_values),
		cmocka_unit_test(count_named_like_a_fixed_count_is_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
