// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The Neoverse models on hand-worked counts: the slot width from the host
 * (pmu_slots, caps/slots) or the model's documented one, N2's erratum
 * correction, and Arm's unclamped values.  The golden vectors
 * (test_golden.c) bind the formulas; these bind what they cannot: a vector
 * carries no width.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"

struct counts {
	double cycles, br_mis_pred, op_retired, op_spec, stall_slot, stall_slot_backend,
		stall_slot_frontend;
};

/* Evaluates model id on c with the host's slot width; returns node name's value. */
static double eval(const char *id, const struct counts *c, double pmu_slots, const char *name)
{
	static const char *const counters[] = { "CPU_CYCLES",	      "BR_MIS_PRED",
						"OP_RETIRED",	      "OP_SPEC",
						"STALL_SLOT",	      "STALL_SLOT_BACKEND",
						"STALL_SLOT_FRONTEND" };
	const double values[] = {
		c->cycles,     c->br_mis_pred,	      c->op_retired,	     c->op_spec,
		c->stall_slot, c->stall_slot_backend, c->stall_slot_frontend
	};
	char err[512];
	struct tma_model *m = model_load_builtin(id, err, sizeof(err));
	struct model_result *r;
	double events[16], v;
	struct model_input in = { .events = events, .interval_s = 1, .pmu_slots = pmu_slots };
	int i;

	if (!m)
		fail_msg("%s: %s", id, err);
	assert_true(model_event_count(m) <= 16);
	for (i = 0; i < model_event_count(m); i++) {
		events[i] = NAN;
		for (size_t k = 0; k < sizeof(counters) / sizeof(counters[0]); k++)
			if (!strcmp(model_event_name(m, i), counters[k]))
				events[i] = values[k];
		if (isnan(events[i]))
			fail_msg("%s reads %s, which this test does not give", id,
				 model_event_name(m, i));
	}
	r = model_result_new(m);
	assert_non_null(r);
	assert_int_equal(model_eval(m, &in, r), 0);
	i = model_node_index(m, name);
	if (i < 0)
		fail_msg("%s has no node %s", id, name);
	v = r->value[i];
	model_result_free(r);
	model_free(m);
	return v;
}

static void near(double want, double got)
{
	if (fabs(want - got) > 1e-12)
		fail_msg("want %.17g, got %.17g", want, got);
}

/* One interval's counts, shared by the width and erratum tests (the figures their comments work out). */
static const struct counts c = { .cycles = 1000,
				 .br_mis_pred = 10,
				 .op_retired = 900,
				 .op_spec = 1000,
				 .stall_slot = 4000,
				 .stall_slot_backend = 2000,
				 .stall_slot_frontend = 2000 };

/*
 * 1000 cycles, 2000 frontend-stalled slots, 10 mispredicts: V2's Frontend_Bound is
 * 2000 / (8 x 1000) - 10 / 1000 = 0.24 at its documented width, 2000 / (4 x 1000) -
 * 0.01 = 0.49 where caps/slots says 4.
 */
static void test_width_from_host(void **state)
{
	(void)state;
	near(0.24, eval("neoverse-v2", &c, 0, "Frontend_Bound"));
	near(0.24, eval("neoverse-v2", &c, 8, "Frontend_Bound"));
	near(0.49, eval("neoverse-v2", &c, 4, "Frontend_Bound"));
	near(0.24, eval("neoverse-v2", &c, NAN, "Frontend_Bound")); /* not a number: documented */
	/* Retiring = 900/1000 x (1 - 4000/(W x 1000)): W 8 -> 0.45, W 5 -> 0.18 */
	near(0.45, eval("neoverse-v2", &c, 0, "Retiring"));
	near(0.18, eval("neoverse-n2-r0p3", &c, 0, "Retiring"));
	near(0.45, eval("neoverse-n2-r0p3", &c, 8, "Retiring"));
	/* V1: 2000/(8 x 1000) - 4 x 10/1000 = 0.21 */
	near(0.21, eval("neoverse-v1", &c, 0, "Frontend_Bound"));
}

/*
 * N2 r0p0-r0p2 count one extra STALL_SLOT and STALL_SLOT_FRONTEND per cycle:
 * Frontend_Bound = (2000 - 1000)/(5 x 1000) - 0.01 = 0.19 there, 0.39 on r0p3.
 */
static void test_n2_erratum(void **state)
{
	(void)state;
	near(0.19, eval("neoverse-n2", &c, 0, "Frontend_Bound"));
	near(0.39, eval("neoverse-n2-r0p3", &c, 0, "Frontend_Bound"));
	/* Retiring = 0.9 x (1 - (4000 - 1000)/5000) = 0.36 with the correction */
	near(0.36, eval("neoverse-n2", &c, 0, "Retiring"));
	/* Backend_Bound has no correction: 2000/5000 - 3 x 0.01 = 0.37 on both */
	near(0.37, eval("neoverse-n2", &c, 0, "Backend_Bound"));
	near(0.37, eval("neoverse-n2-r0p3", &c, 0, "Backend_Bound"));
}

/* Arm's formulas go negative where mispredicts outweigh the stalls: not clamped. */
static void test_not_clamped(void **state)
{
	const struct counts c = { .cycles = 1000,
				  .br_mis_pred = 100,
				  .op_retired = 500,
				  .op_spec = 1000,
				  .stall_slot = 400,
				  .stall_slot_backend = 200,
				  .stall_slot_frontend = 200 };

	(void)state;
	/* 200/8000 - 100/1000 = -0.075; 200/8000 - 0.3 = -0.275 */
	near(-0.075, eval("neoverse-v2", &c, 0, "Frontend_Bound"));
	near(-0.275, eval("neoverse-v2", &c, 0, "Backend_Bound"));
	/* (1 - 0.5) x (1 - 400/8000) + 4 x 0.1 = 0.875 */
	near(0.875, eval("neoverse-v2", &c, 0, "Bad_Speculation"));
}

/* Level 1 under Intel's names, and N1's two shares of cycles. */
static void test_shared_names(void **state)
{
	static const char *const models[] = { "neoverse-n2", "neoverse-n2-r0p3", "neoverse-v1",
					      "neoverse-v2" };
	static const char *const level1[] = { "Frontend_Bound", "Bad_Speculation", "Backend_Bound",
					      "Retiring" };
	char err[512];

	(void)state;
	for (size_t i = 0; i < 4; i++) {
		struct tma_model *m = model_load_builtin(models[i], err, sizeof(err));

		if (!m)
			fail_msg("%s: %s", models[i], err);
		assert_int_equal(model_node_count(m), 4);
		for (size_t k = 0; k < 4; k++) {
			int n = model_node_index(m, level1[k]);

			assert_true(n >= 0);
			assert_int_equal(model_node(m, n)->level, 1);
			assert_string_equal(model_node(m, n)->domain, "Slots");
		}
		model_free(m);
	}
	{
		struct tma_model *m = model_load_builtin("neoverse-n1", err, sizeof(err));

		if (!m)
			fail_msg("neoverse-n1: %s", err);
		assert_int_equal(model_node_count(m), 2);
		assert_string_equal(model_node(m, model_node_index(m, "Frontend_Bound"))->domain,
				    "Clocks");
		assert_string_equal(model_node(m, model_node_index(m, "Backend_Bound"))->domain,
				    "Clocks");
		model_free(m);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_width_from_host),
		cmocka_unit_test(test_n2_erratum),
		cmocka_unit_test(test_not_clamped),
		cmocka_unit_test(test_shared_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
