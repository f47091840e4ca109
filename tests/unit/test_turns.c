// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Levels 4-6 live (cpus/turns.h): the slices a run takes turns in, given the
 * plan's and the groups that opened; the group whose time tells a CPU's
 * events still count; when each slice starts.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "cpus/turns.h"

/*
 * Live, a refused group's turn would read nothing new: its slice is left out
 * and the others share the interval; groups on in every slice (group 0
 * here) stay in each, and a slice keeps the groups of its own that opened.
 */
static void refused_groups_give_up_their_turns(void **state)
{
	/* group 0 everywhere; slices {1}, {2}, {3, 4}, {5} */
	const uint64_t plan[] = { 0x3, 0x5, 0x19, 0x21 };
	uint64_t out[TURNS_MAX_SLICES];

	(void)state;
	assert_int_equal(turns_live_slices(plan, 4, ~0ull, out), 4);
	assert_memory_equal(out, plan, sizeof(plan));
	/* Group 2 refused: its slice goes; group 4 refused: slice {3, 4} keeps 3. */
	assert_int_equal(turns_live_slices(plan, 4, ~(1ull << 2 | 1ull << 4), out), 3);
	assert_true(out[0] == 0x3 && out[1] == 0x9 && out[2] == 0x21);
	/* Every group of its own refused: one slice, the groups on in all of them. */
	assert_int_equal(turns_live_slices(plan, 4, 0x1, out), 1);
	assert_true(out[0] == 0x1);
	/* The group on everywhere refused too: one slice, nothing in it. */
	assert_int_equal(turns_live_slices(plan, 4, 0, out), 1);
	assert_true(out[0] == 0);
}

/*
 * Rebuilt for the groups open now: from slice 0, the groups on in every
 * slice known (the clock group, the lowest of them); with every turn refused,
 * or no turns at all, every opened group on all the time.
 */
static void rebuilt_from_slice_0_for_the_open_groups(void **state)
{
	const uint64_t plan[] = { 0x3, 0x5, 0x19, 0x21 };
	struct turns t = { .plan = plan, .plan_nslices = 4 };

	(void)state;
	turns_rebuild(&t, 0x3f);
	assert_int_equal(t.nslices, 4);
	assert_int_equal(t.now, 0);
	assert_true(turns_on(&t, 0) == 0x3 && turns_on(&t, 3) == 0x21);
	assert_int_equal(turns_clock_group(&t), 0);
	t.now = 2;
	turns_rebuild(&t, 0x3f & ~(1ull << 2));
	assert_int_equal(t.nslices, 3);
	assert_int_equal(t.now, 0); /* made again: from the first */
	/* Every group of its own refused: one slice, every opened group in it. */
	turns_rebuild(&t, 0x1);
	assert_int_equal(t.nslices, 1);
	assert_true(turns_on(&t, 0) == 0x1);
	/* The group on everywhere refused: the others take turns, no clock group. */
	turns_rebuild(&t, 0x3e);
	assert_int_equal(t.nslices, 4);
	assert_int_equal(turns_clock_group(&t), -1);
	/* No turns in the plan: every group on, the lowest is the clock. */
	t = (struct turns){ .plan = plan, .plan_nslices = 1 };
	turns_rebuild(&t, 0x6);
	assert_int_equal(t.nslices, 1);
	assert_true(turns_on(&t, 0) == 0x6);
	assert_int_equal(turns_clock_group(&t), 1);
}

/* Slice k of n starts k/n into the interval, exactly, even for long intervals. */
static void slices_share_the_interval(void **state)
{
	const uint64_t ten_s = 10000000000ull;

	(void)state;
	assert_true(turns_slice_start(1000, ten_s, 0, 19) == 1000);
	assert_true(turns_slice_start(1000, ten_s, 1, 19) == 1000 + ten_s / 19);
	assert_true(turns_slice_start(0, UINT64_MAX / 2, 18, 19) ==
		    (UINT64_MAX / 2) / 19 * 18 + ((UINT64_MAX / 2) % 19) * 18 / 19);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(refused_groups_give_up_their_turns),
		cmocka_unit_test(rebuilt_from_slice_0_for_the_open_groups),
		cmocka_unit_test(slices_share_the_interval),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
