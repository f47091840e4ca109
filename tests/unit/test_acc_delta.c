// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Accumulator arithmetic: deltas, clamping, multiplexing scale, running ratio. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "collect/acc_delta.h"

static void delta_subtracts_used_fields_only(void **state)
{
	struct tmacg_acc now = { 0 }, before = { 0 }, out;

	(void)state;
	memset(&out, 0x55, sizeof(out));
	now.runtime_ns = 1000;
	before.runtime_ns = 400;
	now.counter[0] = 50;
	before.counter[0] = 20;
	now.counter[1] = 7;
	now.time[0].enabled = 300;
	before.time[0].enabled = 100;
	now.time[0].running = 150;
	before.time[0].running = 100;
	assert_int_equal(acc_delta(&now, &before, 2, 1, &out), 0);
	assert_true(out.runtime_ns == 600);
	assert_true(out.counter[0] == 30);
	assert_true(out.counter[1] == 7);
	assert_true(out.time[0].enabled == 200);
	assert_true(out.time[0].running == 50);
	assert_true(out.counter[2] == 0x5555555555555555ULL); /* beyond nevents: untouched */
}

static void going_backwards_is_clamped_and_counted(void **state)
{
	struct tmacg_acc now = { 0 }, before = { 0 }, out;

	(void)state;
	now.counter[0] = 5;
	before.counter[0] = 9;
	now.time[0].enabled = 10;
	before.time[0].enabled = 11;
	now.time[0].running = 20;
	before.time[0].running = 10;
	assert_int_equal(acc_delta(&now, &before, 1, 1, &out), 2);
	assert_true(out.counter[0] == 0);
	assert_true(out.time[0].enabled == 0);
	assert_true(out.time[0].running == 10);
}

static void add_and_empty(void **state)
{
	struct tmacg_acc sum = { 0 }, d = { 0 };

	(void)state;
	assert_true(acc_is_empty(&sum, 2));
	d.counter[0] = 3;
	d.time[1].enabled = 4;
	d.time[1].running = 2;
	acc_add(&sum, &d, 1, 2);
	acc_add(&sum, &d, 1, 2);
	assert_true(sum.counter[0] == 6);
	assert_true(sum.time[1].enabled == 8);
	assert_false(acc_is_empty(&sum, 2));
	memset(&d, 0, sizeof(d));
	d.runtime_ns = 1; /* ran, though no group was enabled: not empty */
	assert_false(acc_is_empty(&d, 2));
}

static void scaling_for_multiplexing(void **state)
{
	struct tmacg_acc a = { 0 };

	(void)state;
	a.counter[0] = 1000;
	a.time[0].enabled = 400;
	a.time[0].running = 100; /* on the PMU a quarter of the time */
	assert_true(acc_scaled(&a, 0, 0) == 4000.0);
	a.time[0].running = 400;
	assert_true(acc_scaled(&a, 0, 0) == 1000.0);
	a.time[0].running = 0; /* never counted: unknown, not zero */
	assert_true(isnan(acc_scaled(&a, 0, 0)));
}

static void running_min_over_enabled_groups(void **state)
{
	struct tmacg_acc a = { 0 };

	(void)state;
	assert_true(isnan(acc_running_min(&a, 3)));
	a.time[0].enabled = 100;
	a.time[0].running = 100;
	a.time[1].enabled = 100;
	a.time[1].running = 25;
	/* group 2 never enabled: ignored */
	assert_true(acc_running_min(&a, 3) == 0.25);
}

/*
 * A node's measured fraction: the least running/enabled among its groups
 * only (a rotating group's enabled is the whole time, running its turns).
 */
static void measured_over_a_nodes_groups(void **state)
{
	struct tmacg_acc a = { 0 };

	(void)state;
	assert_true(isnan(acc_measured(&a, 0x7)));
	a.time[0].enabled = 1000;
	a.time[0].running = 1000;
	a.time[1].enabled = 1000;
	a.time[1].running = 250;
	a.time[2].enabled = 1000;
	a.time[2].running = 0; /* never on while the cgroup ran */
	a.time[TMACG_MAX_GROUPS - 1].enabled = 1000;
	a.time[TMACG_MAX_GROUPS - 1].running = 500;
	assert_true(acc_measured(&a, 1u << 0) == 1.0);
	assert_true(acc_measured(&a, 1u << 0 | 1u << 1) == 0.25);
	assert_true(acc_measured(&a, 1u << 1 | 1u << 2) == 0.0);
	assert_true(acc_measured(&a, 1ull << (TMACG_MAX_GROUPS - 1) | 1u << 0) == 0.5);
	assert_true(isnan(acc_measured(&a, 1u << 5))); /* never enabled */
	assert_true(isnan(acc_measured(&a, 0)));
}

/* acc_clear empties what acc_add filled: the sum is empty and adds afresh. */
static void clear_undoes_add(void **state)
{
	struct tmacg_acc sum = { 0 }, d = { 0 }, zero = { 0 };

	(void)state;
	d.runtime_ns = 7;
	d.counter[0] = 3;
	d.counter[2] = 5;
	d.time[1].enabled = 11;
	d.time[1].running = 9;
	acc_add(&sum, &d, 3, 2);
	assert_false(acc_is_empty(&sum, 2));
	acc_clear(&sum, 3, 2);
	assert_true(acc_is_empty(&sum, 2));
	assert_memory_equal(&sum, &zero, sizeof(sum));
	acc_add(&sum, &d, 3, 2);
	assert_int_equal(sum.counter[2], 5);
	assert_int_equal(sum.time[1].running, 9);
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
	};
	return cmocka_run_group_tests_name("acc_delta", tests, NULL, NULL);
}
