// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The built-in model "generic" (perf's generic hardware events): its inputs
 * keep perf's event names, its metrics are the definitions worked out here by
 * hand, and an event the PMU lacks (NAN: not measured) leaves exactly the
 * nodes that read it null.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "model/model.h"
#include "pmu/events.h"
#include "test_models.h"

/* Replay files and counts call the inputs as perf does. */
static void inputs_are_perfs_names(void **state)
{
	static const char *const want[] = { "cycles", "instructions", "branch-misses",
					    "cache-misses", "SW.CPU_CLOCK" };
	struct tma_model *m = test_model_builtin("generic");

	(void)state;
	assert_null(model_tma_version(m)); /* not TMA */
	assert_int_equal(model_event_count(m), 5);
	for (size_t i = 0; i < 5; i++) {
		assert_true(model_event_index(m, want[i]) >= 0);
		assert_true(i == 4 ? event_is_software(want[i]) : event_is_generic_hw(want[i]));
	}
	model_free(m);
}

static double node(const struct tma_model *m, const struct model_result *r, const char *name)
{
	int i = model_node_index(m, name);

	assert_true(i >= 0);
	return r->value[i];
}

/*
 * 2e9 cycles, 3e9 instructions, 6e6 branch misses, 1.5e6 cache misses in
 * 0.8 s on a CPU: IPC 1.5, CPI 2/3, 2 and 0.5 misses per 1000 instructions,
 * 2.5 GHz.  QEMU's PMU (no branch-misses, no cache-misses): those two null,
 * the rest as before.
 */
static void metrics_by_hand(void **state)
{
	struct tma_model *m = test_model_builtin("generic");
	struct model_result *r = model_result_new(m);
	double ev[8];
	struct model_input in = { .events = ev, .interval_s = 1.0 };

	(void)state;
	ev[model_event_index(m, "cycles")] = 2e9;
	ev[model_event_index(m, "instructions")] = 3e9;
	ev[model_event_index(m, "branch-misses")] = 6e6;
	ev[model_event_index(m, "cache-misses")] = 1.5e6;
	ev[model_event_index(m, "SW.CPU_CLOCK")] = 0.8e9;
	assert_int_equal(model_eval(m, &in, r), 0);
	assert_float_equal(node(m, r, "IPC"), 1.5, 1e-12);
	assert_float_equal(node(m, r, "CPI"), 2.0 / 3, 1e-12);
	assert_float_equal(node(m, r, "Branch_MPKI"), 2, 1e-12);
	assert_float_equal(node(m, r, "Cache_MPKI"), 0.5, 1e-12);
	assert_float_equal(node(m, r, "Frequency_GHz"), 2.5, 1e-12);
	assert_int_equal(r->bottleneck_len, 0); /* no thresholds: nothing flagged */
	ev[model_event_index(m, "branch-misses")] = NAN;
	ev[model_event_index(m, "cache-misses")] = NAN;
	assert_int_equal(model_eval(m, &in, r), 0);
	assert_float_equal(node(m, r, "IPC"), 1.5, 1e-12);
	assert_float_equal(node(m, r, "Frequency_GHz"), 2.5, 1e-12);
	assert_true(isnan(node(m, r, "Branch_MPKI")));
	assert_true(isnan(node(m, r, "Cache_MPKI")));
	/* No instructions retired: the ratios over them are null, not infinite. */
	ev[model_event_index(m, "instructions")] = 0;
	assert_int_equal(model_eval(m, &in, r), 0);
	assert_float_equal(node(m, r, "IPC"), 0, 0);
	assert_true(isnan(node(m, r, "CPI")));
	model_result_free(r);
	model_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(inputs_are_perfs_names),
		cmocka_unit_test(metrics_by_hand),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
