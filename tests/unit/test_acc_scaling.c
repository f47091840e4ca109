// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Accumulator arithmetic: deltas of ever-growing BPF entries, sums for the
 * roll-up, scaling of multiplexed groups by enabled/running and the
 * quality.running_min that tells how much of the counts is estimated.
 * Expected values are worked out by hand from the definitions in
 * docs/output.md ("running_min") and docs/architecture.md (scaling).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "collect/acc_delta.h"

static void test_delta_and_clamp(void **state)
{
	struct tmacg_acc now, before, out;

	(void)state;
	memset(&now, 0, sizeof(now));
	memset(&before, 0, sizeof(before));
	memset(&out, 0xab, sizeof(out));
	now.runtime_ns = 900;
	before.runtime_ns = 100;
	now.counter[0] = 50;
	before.counter[0] = 20;
	now.counter[1] = 5;
	before.counter[1] = 9; /* went backwards: clamped, counted */
	now.time[0].enabled = 1000;
	before.time[0].enabled = 400;
	now.time[0].running = 300;
	before.time[0].running = 301; /* backwards too */
	now.counter[2] = 77;	      /* beyond nevents: not touched */
	assert_int_equal(acc_delta(&now, &before, 2, 1, &out), 2);
	assert_int_equal(out.runtime_ns, 800);
	assert_int_equal(out.counter[0], 30);
	assert_int_equal(out.counter[1], 0);
	assert_int_equal(out.time[0].enabled, 600);
	assert_int_equal(out.time[0].running, 0);
	assert_int_equal(out.counter[2], 0xababababababababull);
	assert_int_equal(out.time[1].enabled, 0xababababababababull);
}

static void test_add_and_empty(void **state)
{
	struct tmacg_acc sum, d;

	(void)state;
	memset(&sum, 0, sizeof(sum));
	memset(&d, 0, sizeof(d));
	assert_true(acc_is_empty(&sum, 2));
	d.runtime_ns = 10;
	d.counter[0] = 3;
	d.counter[3] = 4;
	d.time[1].enabled = 7;
	d.time[1].running = 6;
	d.time[2].enabled = 99; /* beyond ngroups */
	acc_add(&sum, &d, 4, 2);
	acc_add(&sum, &d, 4, 2);
	assert_int_equal(sum.runtime_ns, 20);
	assert_int_equal(sum.counter[0], 6);
	assert_int_equal(sum.counter[3], 8);
	assert_int_equal(sum.time[1].enabled, 14);
	assert_int_equal(sum.time[1].running, 12);
	assert_int_equal(sum.time[2].enabled, 0);
	assert_false(acc_is_empty(&sum, 2));
	/* Enabled time alone (ran but counted nothing) is not empty either. */
	memset(&sum, 0, sizeof(sum));
	sum.time[1].enabled = 1;
	assert_true(acc_is_empty(&sum, 1));
	assert_false(acc_is_empty(&sum, 2));
}

static void test_scaled(void **state)
{
	struct tmacg_acc a;

	(void)state;
	memset(&a, 0, sizeof(a));
	/* Group 0 ran the whole time: the count as it is. */
	a.counter[0] = 12345;
	a.time[0].enabled = a.time[0].running = 1000000;
	assert_true(acc_scaled(&a, 0, 0) == 12345.0);
	/* Group 1 was on the PMU a quarter of the time: counts times 4. */
	a.counter[1] = 1000;
	a.counter[2] = 3;
	a.time[1].enabled = 4000000;
	a.time[1].running = 1000000;
	assert_true(acc_scaled(&a, 1, 1) == 4000.0);
	assert_true(acc_scaled(&a, 2, 1) == 12.0);
	/* Group 2 enabled but never running: not measured, NAN rather than 0. */
	a.counter[3] = 55; /* a frozen value must not leak out */
	a.time[2].enabled = 500;
	assert_true(isnan(acc_scaled(&a, 3, 2)));
	/* Group 3 never enabled (the cgroup did not run): NAN too. */
	assert_true(isnan(acc_scaled(&a, 4, 3)));
}

static void test_running_min(void **state)
{
	struct tmacg_acc a;

	(void)state;
	memset(&a, 0, sizeof(a));
	/* No group enabled: null in the output. */
	assert_true(isnan(acc_running_min(&a, 4)));
	a.time[0].enabled = a.time[0].running = 800;
	assert_true(acc_running_min(&a, 4) == 1.0);
	/* Multiplexed groups: the smallest share. */
	a.time[1].enabled = 1000;
	a.time[1].running = 500;
	a.time[2].enabled = 1000;
	a.time[2].running = 250;
	assert_true(acc_running_min(&a, 4) == 0.25);
	/* Group 3, not enabled for this cgroup, is ignored (not 0); group 4 is beyond ngroups. */
	a.time[4].enabled = 1000;
	a.time[4].running = 1;
	assert_true(acc_running_min(&a, 4) == 0.25);
	/* Enabled but never running: 0, the counts of that group are missing. */
	a.time[3].enabled = 10;
	assert_true(acc_running_min(&a, 4) == 0.0);
}

/*
 * The hardware path reports each target cgroup from the sum of its
 * cgroups' deltas: running_min and the scaling both come from that sum, so
 * the ratio shown is the one the counts were scaled by.
 */
static void test_rolled_up_multiplexing(void **state)
{
	struct tmacg_acc a, b, sum;

	(void)state;
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	memset(&sum, 0, sizeof(sum));
	/* Group 0 always on; group 1 shares the PMU: 50 % in a, 100 % in b. */
	a.time[0].enabled = a.time[0].running = 100;
	a.time[1].enabled = 100;
	a.time[1].running = 50;
	a.counter[1] = 50;
	b.time[0].enabled = b.time[0].running = 300;
	b.time[1].enabled = b.time[1].running = 300;
	b.counter[1] = 300;
	assert_true(acc_running_min(&a, 2) == 0.5);
	assert_true(acc_running_min(&b, 2) == 1.0);
	assert_true(acc_scaled(&a, 1, 1) == 100.0);
	acc_add(&sum, &a, 2, 2);
	acc_add(&sum, &b, 2, 2);
	/* 350 of 400 ns on the PMU; 350 counts scaled by 400/350. */
	assert_true(fabs(acc_running_min(&sum, 2) - 350.0 / 400.0) < 1e-15);
	assert_true(fabs(acc_scaled(&sum, 1, 1) - 400.0) < 1e-9);
}

/*
 * AMD's groups each carry their own cycles (events 0 and 2 here).  Group 0
 * ran half the time and counted 1000 cycles and 600 of event 1; group 1 a
 * quarter and counted 400 cycles and 100 of event 3.  Scaled, the copies say
 * 2000 and 1600 cycles: the total is their mean, 1800.  Each event then
 * keeps its ratio to its own group's cycles exactly: event 1 is 0.6 of the
 * cycles (1080 of 1800), event 3 0.25 (450), whatever enabled/running says.
 */
static void test_group_cycles(void **state)
{
	struct tmacg_acc a;
	const int cycles_of[3] = { 0, 2, -1 };

	(void)state;
	memset(&a, 0, sizeof(a));
	a.counter[0] = 1000;
	a.counter[1] = 600;
	a.time[0].enabled = 100;
	a.time[0].running = 50;
	a.counter[2] = 400;
	a.counter[3] = 100;
	a.time[1].enabled = 100;
	a.time[1].running = 25;
	a.time[2].enabled = 100; /* a software group: no cycles, not averaged */
	a.time[2].running = 100;
	assert_float_equal(acc_cycles_total(&a, cycles_of, 3), 1800, 1e-9);
	assert_float_equal(acc_scaled_by_cycles(&a, 1, 0, 1800), 1080, 1e-9);
	assert_float_equal(acc_scaled_by_cycles(&a, 3, 2, 1800), 450, 1e-9);
	assert_float_equal(acc_scaled_by_cycles(&a, 0, 0, 1800), 1800, 1e-9);
	/* A group that never ran has no copy to average; one without cycles gives NAN. */
	a.time[1].running = 0;
	assert_float_equal(acc_cycles_total(&a, cycles_of, 3), 2000, 1e-9);
	a.counter[2] = 0;
	assert_true(isnan(acc_scaled_by_cycles(&a, 3, 2, 2000)));
	a.time[0].running = 0;
	assert_true(isnan(acc_cycles_total(&a, cycles_of, 3)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_delta_and_clamp),
		cmocka_unit_test(test_add_and_empty),
		cmocka_unit_test(test_scaled),
		cmocka_unit_test(test_group_cycles),
		cmocka_unit_test(test_running_min),
		cmocka_unit_test(test_rolled_up_multiplexing),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
