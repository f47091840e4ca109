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

/* Accumulators on the stack: room for any layout, used as .acc. */
#define C(a, e) (*acc_counter(&(a).acc, e))
#define EN(l, a, g) (*acc_enabled(l, &(a).acc, g))
#define RUN(l, a, g) (*acc_running(l, &(a).acc, g))

static void test_delta_and_clamp(void **state)
{
	const struct acc_layout l = acc_layout_of(2, 1);
	union acc_room now, before, out;

	(void)state;
	memset(&now, 0, sizeof(now));
	memset(&before, 0, sizeof(before));
	memset(&out, 0xab, sizeof(out));
	now.acc.runtime_ns = 900;
	before.acc.runtime_ns = 100;
	C(now, 0) = 50;
	C(before, 0) = 20;
	C(now, 1) = 5;
	C(before, 1) = 9; /* went backwards: clamped, counted */
	EN(&l, now, 0) = 1000;
	EN(&l, before, 0) = 400;
	RUN(&l, now, 0) = 300;
	RUN(&l, before, 0) = 301;	       /* backwards too */
	now.words[TMACG_ACC_WORDS(2, 1)] = 77; /* beyond the layout: not touched */
	assert_int_equal(acc_delta(&l, &now.acc, &before.acc, &out.acc), 2);
	assert_int_equal(out.acc.runtime_ns, 800);
	assert_int_equal(C(out, 0), 30);
	assert_int_equal(C(out, 1), 0);
	assert_int_equal(EN(&l, out, 0), 600);
	assert_int_equal(RUN(&l, out, 0), 0);
	assert_int_equal(out.words[TMACG_ACC_WORDS(2, 1)], 0xababababababababull);
}

static void test_add_and_empty(void **state)
{
	const struct acc_layout l = acc_layout_of(4, 2), one = acc_layout_of(4, 1);
	union acc_room sum, d;

	(void)state;
	memset(&sum, 0, sizeof(sum));
	memset(&d, 0, sizeof(d));
	assert_true(acc_is_empty(&l, &sum.acc));
	d.acc.runtime_ns = 10;
	C(d, 0) = 3;
	C(d, 3) = 4;
	EN(&l, d, 1) = 7;
	RUN(&l, d, 1) = 6;
	d.words[TMACG_ACC_WORDS(4, 2)] = 99; /* beyond the layout */
	acc_add(&l, &sum.acc, &d.acc);
	acc_add(&l, &sum.acc, &d.acc);
	assert_int_equal(sum.acc.runtime_ns, 20);
	assert_int_equal(C(sum, 0), 6);
	assert_int_equal(C(sum, 3), 8);
	assert_int_equal(EN(&l, sum, 1), 14);
	assert_int_equal(RUN(&l, sum, 1), 12);
	assert_int_equal(sum.words[TMACG_ACC_WORDS(4, 2)], 0);
	assert_false(acc_is_empty(&l, &sum.acc));
	/* Enabled time alone (ran but counted nothing) is not empty either. */
	memset(&sum, 0, sizeof(sum));
	EN(&l, sum, 1) = 1;
	assert_true(acc_is_empty(&one, &sum.acc)); /* group 1 is not one's */
	assert_false(acc_is_empty(&l, &sum.acc));
}

static void test_scaled(void **state)
{
	const struct acc_layout l = acc_layout_of(5, 4);
	union acc_room a;

	(void)state;
	memset(&a, 0, sizeof(a));
	/* Group 0 ran the whole time: the count as it is. */
	C(a, 0) = 12345;
	EN(&l, a, 0) = RUN(&l, a, 0) = 1000000;
	assert_true(acc_scaled(&l, &a.acc, 0, 0) == 12345.0);
	/* Group 1 was on the PMU a quarter of the time: counts times 4. */
	C(a, 1) = 1000;
	C(a, 2) = 3;
	EN(&l, a, 1) = 4000000;
	RUN(&l, a, 1) = 1000000;
	assert_true(acc_scaled(&l, &a.acc, 1, 1) == 4000.0);
	assert_true(acc_scaled(&l, &a.acc, 2, 1) == 12.0);
	/* Group 2 enabled but never running: not measured, NAN rather than 0. */
	C(a, 3) = 55; /* a frozen value must not leak out */
	EN(&l, a, 2) = 500;
	assert_true(isnan(acc_scaled(&l, &a.acc, 3, 2)));
	/* Group 3 never enabled (the cgroup did not run): NAN too. */
	assert_true(isnan(acc_scaled(&l, &a.acc, 4, 3)));
}

static void test_running_min(void **state)
{
	const struct acc_layout l = acc_layout_of(1, 4);
	union acc_room a;

	(void)state;
	memset(&a, 0, sizeof(a));
	/* No group enabled: null in the output. */
	assert_true(isnan(acc_running_min(&l, &a.acc)));
	EN(&l, a, 0) = RUN(&l, a, 0) = 800;
	assert_true(acc_running_min(&l, &a.acc) == 1.0);
	/* Multiplexed groups: the smallest share. */
	EN(&l, a, 1) = 1000;
	RUN(&l, a, 1) = 500;
	EN(&l, a, 2) = 1000;
	RUN(&l, a, 2) = 250;
	assert_true(acc_running_min(&l, &a.acc) == 0.25);
	/* Group 3, not enabled for this cgroup, is ignored (not 0); group 4 is beyond ngroups. */
	EN(&l, a, 4) = 1000;
	RUN(&l, a, 4) = 1;
	assert_true(acc_running_min(&l, &a.acc) == 0.25);
	/* Enabled but never running: 0, the counts of that group are missing. */
	EN(&l, a, 3) = 10;
	assert_true(acc_running_min(&l, &a.acc) == 0.0);
}

/*
 * The hardware path reports each target cgroup from the sum of its
 * cgroups' deltas: running_min and the scaling both come from that sum, so
 * the ratio shown is the one the counts were scaled by.
 */
static void test_rolled_up_multiplexing(void **state)
{
	const struct acc_layout l = acc_layout_of(2, 2);
	union acc_room a, b, sum;

	(void)state;
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	memset(&sum, 0, sizeof(sum));
	/* Group 0 always on; group 1 shares the PMU: 50 % in a, 100 % in b. */
	EN(&l, a, 0) = RUN(&l, a, 0) = 100;
	EN(&l, a, 1) = 100;
	RUN(&l, a, 1) = 50;
	C(a, 1) = 50;
	EN(&l, b, 0) = RUN(&l, b, 0) = 300;
	EN(&l, b, 1) = RUN(&l, b, 1) = 300;
	C(b, 1) = 300;
	assert_true(acc_running_min(&l, &a.acc) == 0.5);
	assert_true(acc_running_min(&l, &b.acc) == 1.0);
	assert_true(acc_scaled(&l, &a.acc, 1, 1) == 100.0);
	acc_add(&l, &sum.acc, &a.acc);
	acc_add(&l, &sum.acc, &b.acc);
	/* 350 of 400 ns on the PMU; 350 counts scaled by 400/350. */
	assert_true(fabs(acc_running_min(&l, &sum.acc) - 350.0 / 400.0) < 1e-15);
	assert_true(fabs(acc_scaled(&l, &sum.acc, 1, 1) - 400.0) < 1e-9);
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
	const struct acc_layout l = acc_layout_of(4, 3);
	union acc_room a;
	const int cycles_of[3] = { 0, 2, -1 };

	(void)state;
	memset(&a, 0, sizeof(a));
	C(a, 0) = 1000;
	C(a, 1) = 600;
	EN(&l, a, 0) = 100;
	RUN(&l, a, 0) = 50;
	C(a, 2) = 400;
	C(a, 3) = 100;
	EN(&l, a, 1) = 100;
	RUN(&l, a, 1) = 25;
	EN(&l, a, 2) = 100; /* a software group: no cycles, not averaged */
	RUN(&l, a, 2) = 100;
	assert_float_equal(acc_cycles_total(&l, &a.acc, cycles_of), 1800, 1e-9);
	assert_float_equal(acc_scaled_by_cycles(&a.acc, 1, 0, 1800), 1080, 1e-9);
	assert_float_equal(acc_scaled_by_cycles(&a.acc, 3, 2, 1800), 450, 1e-9);
	assert_float_equal(acc_scaled_by_cycles(&a.acc, 0, 0, 1800), 1800, 1e-9);
	/* A group that never ran has no copy to average; one without cycles gives NAN. */
	RUN(&l, a, 1) = 0;
	assert_float_equal(acc_cycles_total(&l, &a.acc, cycles_of), 2000, 1e-9);
	C(a, 2) = 0;
	assert_true(isnan(acc_scaled_by_cycles(&a.acc, 3, 2, 2000)));
	RUN(&l, a, 0) = 0;
	assert_true(isnan(acc_cycles_total(&l, &a.acc, cycles_of)));
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
