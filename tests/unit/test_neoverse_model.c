// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The Neoverse models on hand-worked counts: the slot width from the host
 * (pmu_slots, caps/slots) or the model's documented one, N2's erratum
 * correction, and Arm's unclamped values.  The golden vectors
 * (test_golden.c) bind the formulas; these bind what they cannot: a vector
 * carries no width.  V3's and N3's trees are held to Arm's own files: every node, its
 * parent and Arm's words for it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <ctype.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "offline_capture.h"

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

/* Arm's words with every run of white space one space, as a .tma text value holds them. */
static void squeeze(const char *in, char *out, size_t len)
{
	size_t n = 0;

	for (; *in && n + 1 < len; in++)
		if (!isspace((unsigned char)*in))
			out[n++] = *in;
		else if (n && out[n - 1] != ' ')
			out[n++] = ' ';
	out[n] = '\0';
}

/* Arm's name for a node: level 1 under TMA's names, the rest Arm's own. */
static const char *arm_name(const struct model_node_info *n)
{
	static const char *const tma[][2] = { { "Frontend_Bound", "frontend_bound" },
					      { "Bad_Speculation", "bad_speculation" },
					      { "Backend_Bound", "backend_bound" },
					      { "Retiring", "retiring" } };

	for (size_t i = 0; i < 4; i++)
		if (!strcmp(n->name, tma[i][0]))
			return tma[i][1];
	return n->name;
}

/*
 * V3 and N3 against Arm's own files (tools/arm-telemetry/, read here, not through the
 * importer): every metric of Arm's decision tree is a node, 4, 5, 8 and 4 at levels 1-4,
 * each below the node whose next_items name it (backend_busy_bound, which none names,
 * under Backend_Bound), and each carries Arm's description word for word (--explain,
 * --list-metrics --format json).
 */
static void test_v3_n3_are_arms_tree(void **state)
{
	static const char *const ids[] = { "neoverse-v3", "neoverse-n3" };

	(void)state;
	for (size_t k = 0; k < 2; k++) {
		char path[256], err[512], want[1024];
		struct tma_model *m = model_load_builtin(ids[k], err, sizeof(err));
		json_object *spec, *metrics, *tree;
		int per_level[5] = { 0 };

		if (!m)
			fail_msg("%s: %s", ids[k], err);
		snprintf(path, sizeof(path), "tools/arm-telemetry/%s.json", ids[k]);
		spec = json_object_from_file(path);
		if (!spec)
			fail_msg("cannot read %s: run from the repository root", path);
		assert_true(json_object_object_get_ex(spec, "metrics", &metrics));
		tree = json_object_object_get(
			json_object_object_get(json_object_object_get(spec, "methodologies"),
					       "topdown_methodology"),
			"decision_tree");
		tree = json_object_object_get(tree, "metrics");
		assert_int_equal(model_node_count(m), (int)json_object_array_length(tree));
		for (int i = 0; i < model_node_count(m); i++) {
			const struct model_node_info *n = model_node(m, i);
			struct model_node_text t;
			json_object *arm, *d;

			assert_true(n->level >= 1 && n->level <= 4);
			per_level[n->level]++;
			if (!json_object_object_get_ex(metrics, arm_name(n), &arm))
				fail_msg("%s: node %s is no metric of Arm's", ids[k], n->name);
			assert_true(model_node_description(m, i, &t));
			assert_true(json_object_object_get_ex(arm, "description", &d));
			squeeze(json_object_get_string(d), want, sizeof(want));
			if (strcmp(t.brief, want))
				fail_msg("%s %s: '%s', Arm says '%s'", ids[k], n->name, t.brief,
					 want);
			assert_int_equal(strncmp(t.one_line, want, strlen(t.one_line)), 0);
		}
		assert_int_equal(per_level[1], 4);
		assert_int_equal(per_level[2], 5);
		assert_int_equal(per_level[3], 8);
		assert_int_equal(per_level[4], 4);
		/* parents: the node whose next_items name it */
		for (size_t j = 0; j < json_object_array_length(tree); j++) {
			json_object *step = json_object_array_get_idx(tree, j), *next;
			const char *from =
				json_object_get_string(json_object_object_get(step, "name"));

			assert_true(json_object_object_get_ex(step, "next_items", &next));
			for (size_t c = 0; c < json_object_array_length(next); c++) {
				const char *kid =
					json_object_get_string(json_object_array_get_idx(next, c));
				int i = model_node_index(m, kid);

				if (i < 0)
					continue; /* a stage-2 group, not a node */
				assert_string_equal(
					arm_name(model_node(m, model_node(m, i)->parent)), from);
			}
		}
		assert_string_equal(
			model_node(m,
				   model_node(m, model_node_index(m, "backend_busy_bound"))->parent)
				->name,
			"Backend_Bound");
		json_object_put(spec);
		model_free(m);
	}
}

/* V3 evaluated on counts given by event name (the rest 0); returns its bottleneck path. */
static void v3_bottleneck(const char *const *names, const double *counts, int n, char *path,
			  size_t len)
{
	char err[512];
	struct tma_model *m = model_load_builtin("neoverse-v3", err, sizeof(err));
	double events[32] = { 0 };
	struct model_input in = { .events = events, .interval_s = 1 };
	struct model_result *r;
	size_t at = 0;

	if (!m)
		fail_msg("neoverse-v3: %s", err);
	assert_true(model_event_count(m) <= 32);
	for (int i = 0; i < n; i++) {
		int e = model_event_index(m, names[i]);

		assert_true(e >= 0);
		events[e] = counts[i];
	}
	r = model_result_new(m);
	assert_non_null(r);
	assert_int_equal(model_eval(m, &in, r), 0);
	path[0] = '\0';
	for (int l = 0; l < r->bottleneck_len; l++)
		at += (size_t)snprintf(path + at, len - at, "%s%s", l ? "." : "",
				       model_node(m, r->bottleneck[l])->name);
	model_result_free(r);
	model_free(m);
}

/*
 * Below level 1 a node is a share of its parent's stall cycles: the bottleneck goes down to
 * the child holding most of them (> 0.5), and stops where none does.  1000 cycles of 10
 * slots, half the slots backend-stalled (Backend_Bound 0.5); of 600 backend stall cycles 400
 * memory-bound (0.67), of those 350 in the caches (0.875), 300 of them L1D (0.86).
 */
static void test_v3_bottleneck_follows_the_larger_share(void **state)
{
	static const char *const names[] = {
		"CPU_CYCLES",
		"STALL_SLOT",
		"STALL_SLOT_BACKEND",
		"STALL_SLOT_FRONTEND",
		"OP_RETIRED",
		"OP_SPEC",
		"STALL_BACKEND",
		"STALL_BACKEND_MEMBOUND",
		"STALL_BACKEND_CPUBOUND",
		"STALL_BACKEND_BUSY",
		"STALL_BACKEND_L1D",
		"STALL_BACKEND_MEM",
		"STALL_BACKEND_TLB",
		"STALL_BACKEND_ST",
	};
	double counts[] = { 1000, 6000, 5000, 1000, 900, 1000, 600, 400, 200, 50, 300, 50, 20, 10 };
	char path[512];

	(void)state;
	v3_bottleneck(names, counts, 14, path, sizeof(path));
	assert_string_equal(path, "Backend_Bound.backend_mem_bound.backend_mem_cache_bound."
				  "backend_cache_l1d_bound");
	/* memory and core even (250 and 250 of 600): no share dominates, the path stops */
	counts[7] = counts[8] = 250;
	v3_bottleneck(names, counts, 14, path, sizeof(path));
	assert_string_equal(path, "Backend_Bound");
}

/* --explain prints Arm's words for a level-3 node of V3, with its parent and formula. */
static void test_explain_v3(void **state)
{
	static char text[16384];
	const char *argv[] = { "tmacg",	  "--explain",	 "backend_mem_store_bound",
			       "--model", "neoverse-v3", NULL };

	(void)state;
	assert_int_equal(offline_capture(STDOUT_FILENO, NULL, 5, argv, text, sizeof(text)), 0);
	if (!strstr(text, "backend_mem_store_bound: node 3.2.3, level 3 of model neoverse-v3") ||
	    !strstr(text, "parent:    backend_mem_bound\n") ||
	    !strstr(text, "  This metric is the percentage of total cycles stalled in the backend "
			  "due to\n  memory write pending caused by stores stalled in the "
			  "pre-commit stage.\n") ||
	    !strstr(text, "formula:   stall_backend_st / stall_backend_membound\n"))
		fail_msg("%s", text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_width_from_host),
		cmocka_unit_test(test_n2_erratum),
		cmocka_unit_test(test_not_clamped),
		cmocka_unit_test(test_shared_names),
		cmocka_unit_test(test_v3_n3_are_arms_tree),
		cmocka_unit_test(test_explain_v3),
		cmocka_unit_test(test_v3_bottleneck_follows_the_larger_share),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
