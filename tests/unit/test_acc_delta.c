// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Accumulator arithmetic: deltas, clamping, multiplexing scale, running ratio. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "collect/acc_delta.h"

/* Accumulators of layout L on the stack: room for any layout, used as .acc. */
#define C(a, e) (*acc_counter(&(a).acc, e))
#define EN(l, a, g) (*acc_enabled(l, &(a).acc, g))
#define RUN(l, a, g) (*acc_running(l, &(a).acc, g))

/* Group g's enabled and running times in a. */
static void set_times(const struct acc_layout *l, union acc_room *a, int g, __u64 enabled,
		      __u64 running)
{
	*acc_enabled(l, &a->acc, g) = enabled;
	*acc_running(l, &a->acc, g) = running;
}

static void delta_subtracts_used_fields_only(void **state)
{
	const struct acc_layout l = acc_layout_of(2, 1);
	union acc_room now = { 0 }, before = { 0 }, out;

	(void)state;
	memset(&out, 0x55, sizeof(out));
	now.acc.runtime_ns = 1000;
	before.acc.runtime_ns = 400;
	C(now, 0) = 50;
	C(before, 0) = 20;
	C(now, 1) = 7;
	set_times(&l, &now, 0, 300, 150);
	set_times(&l, &before, 0, 100, 100);
	assert_int_equal(acc_delta(&l, &now.acc, &before.acc, &out.acc), 0);
	assert_true(out.acc.runtime_ns == 600);
	assert_true(C(out, 0) == 30);
	assert_true(C(out, 1) == 7);
	assert_true(EN(&l, out, 0) == 200);
	assert_true(RUN(&l, out, 0) == 50);
	/* beyond the layout's words: untouched */
	assert_true(out.words[TMACG_ACC_WORDS(2, 1)] == 0x5555555555555555ULL);
}

static void going_backwards_is_clamped_and_counted(void **state)
{
	const struct acc_layout l = acc_layout_of(1, 1);
	union acc_room now = { 0 }, before = { 0 }, out;

	(void)state;
	C(now, 0) = 5;
	C(before, 0) = 9;
	set_times(&l, &now, 0, 10, 20);
	set_times(&l, &before, 0, 11, 10);
	assert_int_equal(acc_delta(&l, &now.acc, &before.acc, &out.acc), 2);
	assert_true(C(out, 0) == 0);
	assert_true(EN(&l, out, 0) == 0);
	assert_true(RUN(&l, out, 0) == 10);
}

static void add_and_empty(void **state)
{
	const struct acc_layout l = acc_layout_of(1, 2);
	union acc_room sum = { 0 }, d = { 0 };

	(void)state;
	assert_true(acc_is_empty(&l, &sum.acc));
	C(d, 0) = 3;
	EN(&l, d, 1) = 4;
	RUN(&l, d, 1) = 2;
	acc_add(&l, &sum.acc, &d.acc);
	acc_add(&l, &sum.acc, &d.acc);
	assert_true(C(sum, 0) == 6);
	assert_true(EN(&l, sum, 1) == 8);
	assert_false(acc_is_empty(&l, &sum.acc));
	memset(&d, 0, sizeof(d));
	d.acc.runtime_ns = 1; /* ran, though no group was enabled: not empty */
	assert_false(acc_is_empty(&l, &d.acc));
}

static void scaling_for_multiplexing(void **state)
{
	const struct acc_layout l = acc_layout_of(1, 1);
	union acc_room a = { 0 };

	(void)state;
	C(a, 0) = 1000;
	EN(&l, a, 0) = 400;
	RUN(&l, a, 0) = 100; /* on the PMU a quarter of the time */
	assert_true(acc_scaled(&l, &a.acc, 0, 0) == 4000.0);
	RUN(&l, a, 0) = 400;
	assert_true(acc_scaled(&l, &a.acc, 0, 0) == 1000.0);
	RUN(&l, a, 0) = 0; /* never counted: unknown, not zero */
	assert_true(isnan(acc_scaled(&l, &a.acc, 0, 0)));
}

static void running_min_over_enabled_groups(void **state)
{
	const struct acc_layout l = acc_layout_of(2, 3);
	union acc_room a = { 0 };

	(void)state;
	assert_true(isnan(acc_running_min(&l, &a.acc)));
	EN(&l, a, 0) = 100;
	RUN(&l, a, 0) = 100;
	EN(&l, a, 1) = 100;
	RUN(&l, a, 1) = 25;
	/* group 2 never enabled: ignored */
	assert_true(acc_running_min(&l, &a.acc) == 0.25);
}

/*
 * A node's measured fraction: the least running/enabled among its groups
 * only (a rotating group's enabled is the whole time, running its turns).
 */
static void measured_over_a_nodes_groups(void **state)
{
	const struct acc_layout l = acc_layout_of(3, TMACG_MAX_GROUPS);
	union acc_room a = { 0 };

	(void)state;
	assert_true(isnan(acc_measured(&l, &a.acc, 0x7)));
	EN(&l, a, 0) = 1000;
	RUN(&l, a, 0) = 1000;
	EN(&l, a, 1) = 1000;
	RUN(&l, a, 1) = 250;
	EN(&l, a, 2) = 1000;
	RUN(&l, a, 2) = 0; /* never on while the cgroup ran */
	EN(&l, a, TMACG_MAX_GROUPS - 1) = 1000;
	RUN(&l, a, TMACG_MAX_GROUPS - 1) = 500;
	assert_true(acc_measured(&l, &a.acc, 1u << 0) == 1.0);
	assert_true(acc_measured(&l, &a.acc, 1u << 0 | 1u << 1) == 0.25);
	assert_true(acc_measured(&l, &a.acc, 1u << 1 | 1u << 2) == 0.0);
	assert_true(acc_measured(&l, &a.acc, 1ull << (TMACG_MAX_GROUPS - 1) | 1u << 0) == 0.5);
	assert_true(isnan(acc_measured(&l, &a.acc, 1u << 5))); /* never enabled */
	/* a group never enabled is left out, before or after one that was */
	assert_true(acc_measured(&l, &a.acc, 1u << 5 | 1ull << (TMACG_MAX_GROUPS - 1)) == 0.5);
	assert_true(acc_measured(&l, &a.acc, 1u << 1 | 1u << 5) == 0.25);
	assert_true(isnan(acc_measured(&l, &a.acc, 0)));
}

/*
 * A line's many events and nodes on one sum: each group's scale and share
 * taken once give acc_scaled's and acc_measured's values exactly.
 */
static void per_group_once_equals_per_event(void **state)
{
	const struct acc_layout l = acc_layout_of(3, 4);
	union acc_room a = { 0 };
	double scale[4], share[4];

	(void)state;
	for (int g = 0; g < 3; g++) {
		EN(&l, a, g) = 3000;
		RUN(&l, a, g) = 1000 * (unsigned)g; /* group 0 never ran, group 2 a third short */
	}
	RUN(&l, a, 2) = 3000;
	RUN(&l, a, 1) = 700;
	C(a, 0) = 12345;
	C(a, 1) = 777;
	C(a, 2) = 5;
	acc_group_scales(&l, &a.acc, scale);
	acc_running_shares(&l, &a.acc, share);
	for (int e = 0; e < 3; e++)
		for (int g = 0; g < 4; g++) {
			double want = acc_scaled(&l, &a.acc, e, g), got = C(a, e) * scale[g];

			assert_true(isnan(want) ? isnan(got) : got == want);
		}
	for (uint64_t mask = 0; mask < 16; mask++) {
		double want = acc_measured(&l, &a.acc, mask), got = acc_least_share(share, mask);

		assert_true(isnan(want) ? isnan(got) : got == want);
	}
	assert_true(acc_least_share(share, 0x6) == 700.0 / 3000.0);
	assert_true(isnan(acc_least_share(share, 0x8))); /* group 3 never enabled */
}

/* acc_clear empties what acc_add filled: the sum is empty and adds afresh. */
static void clear_undoes_add(void **state)
{
	const struct acc_layout l = acc_layout_of(3, 2);
	union acc_room sum = { 0 }, d = { 0 }, zero = { 0 };

	(void)state;
	d.acc.runtime_ns = 7;
	C(d, 0) = 3;
	C(d, 2) = 5;
	EN(&l, d, 1) = 11;
	RUN(&l, d, 1) = 9;
	acc_add(&l, &sum.acc, &d.acc);
	assert_false(acc_is_empty(&l, &sum.acc));
	acc_clear(&l, &sum.acc);
	assert_true(acc_is_empty(&l, &sum.acc));
	assert_memory_equal(&sum, &zero, sizeof(sum));
	acc_add(&l, &sum.acc, &d.acc);
	assert_int_equal(C(sum, 2), 5);
	assert_int_equal(RUN(&l, sum, 1), 9);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(delta_subtracts_used_fields_only),
		cmocka_unit_test(going_backwards_is_clamped_and_counted),
		cmocka_unit_test(add_and_empty),
		cmocka_unit_test(clear_undoes_add),
		cmocka_unit_test(scaling_for_multiplexing),
		cmocka_unit_test(running_min_over_enabled_groups),
		cmocka_unit_test(measured_over_a_nodes_groups),
		cmocka_unit_test(per_group_once_equals_per_event),
	};
	return cmocka_run_group_tests_name("acc_delta", tests, NULL, NULL);
}
