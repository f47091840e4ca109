// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The collector at its limits: TMACG_MAX_EVENTS events in TMACG_MAX_GROUPS
 * groups must pass the verifier and count consistently in every group.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "pmu_drive.h"
#include "collect/collector.h"
#include "itest.h"
#include "itest_collect.h"
#include "pmu/pmu.h"
#include "util/run_error.h"

/* collector_open()'s failure, when it fails. */
static struct run_error load_error;

static void max_events_and_groups_load_and_count(void **state)
{
	enum { PER_GROUP = TMACG_MAX_EVENTS / TMACG_MAX_GROUPS };
	static struct pmu_event events[TMACG_MAX_EVENTS];
	struct pmu_event sw[8];
	int event_group[TMACG_MAX_EVENTS];
	bool leader[TMACG_MAX_EVENTS];
	struct collector_config cfg = { 0 };
	struct collector col;
	struct pmu_set pmu;
	struct itest_found f = { 0 };
	char parent[128], err[1024];
	uint64_t before, after;

	(void)state;
	ITEST_NEED_ROOT();
	/* Every group: cpu-clock leading three more software events. */
	assert_int_equal(pmu_software_events(sw, 8), PER_GROUP);
	for (int e = 0; e < TMACG_MAX_EVENTS; e++) {
		events[e] = sw[e % PER_GROUP];
		events[e].group = e / PER_GROUP;
		event_group[e] = events[e].group;
		leader[e] = e % PER_GROUP == 0;
	}
	cfg.nevents = TMACG_MAX_EVENTS;
	cfg.ngroups = TMACG_MAX_GROUPS;
	cfg.event_group = event_group;
	cfg.event_is_leader = leader;
	cfg.per_task = true; /* the largest program: nothing pruned */
	cfg.max_cgroups = 1024;
	cfg.max_tasks = 1024;
	if (collector_open(&col, &cfg, &load_error))
		fail_msg("%s", load_error.msg);
	f.layout = col.layout;
	if (pmu_open(&pmu, events, TMACG_MAX_EVENTS, col.ncpus, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(collector_set_events(&col, &pmu, err, sizeof(err)), 0);
	assert_int_equal(collector_attach(&col, err, sizeof(err)), 0);
	assert_int_equal(pmu_enable(&pmu), 0);

	itest_parent_name(parent, sizeof(parent), "limits");
	assert_int_equal(itest_mkcg(parent), 0);
	assert_int_equal(itest_cgroup_id(parent, &f.want), 0);
	collector_flush(&col, pmu.online);
	assert_int_equal(collector_read_cgroups(&col, itest_collect_one, &f), 0); /* baseline */
	memset(&f.sum, 0, sizeof(f.sum));
	before = itest_usage_usec(parent);
	assert_int_equal(itest_wait(itest_burn_in(parent, "0.5", "0.8", NULL)), 0);
	after = itest_usage_usec(parent);
	collector_flush(&col, pmu.online);
	assert_int_equal(collector_read_cgroups(&col, itest_collect_one, &f), 0);

	printf("  runtime %.4f s, cpu.stat %.4f s\n", itest_runtime(&f) / 1e9,
	       (after - before) / 1e6);
	assert_true(fabs(itest_runtime(&f) / 1e3 - (double)(after - before)) <=
		    fmax(0.02 * (after - before), 20000));
	/* Every group ran the whole time the task ran and counted the same cpu-clock. */
	for (int g = 0; g < TMACG_MAX_GROUPS; g++) {
		double clock = (double)itest_counter(&f, g * PER_GROUP);

		assert_true(itest_enabled(&f, g) > 0);
		assert_true(itest_running(&f, g) == itest_enabled(&f, g));
		if (fabs(clock - (double)itest_counter(&f, 0)) > 0.02 * itest_counter(&f, 0))
			fail_msg("group %d cpu-clock %.0f, group 0 %.0f", g, clock,
				 (double)itest_counter(&f, 0));
	}
	collector_close(&col);
	pmu_close(&pmu);
	assert_int_equal(itest_rmcg(parent), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(max_events_and_groups_load_and_count, itest_cleanup),
	};
	return cmocka_run_group_tests_name("collector_limits", tests, itest_group_setup, NULL);
}
