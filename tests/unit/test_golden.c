// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The built-in models against the reference implementation's values (tests/golden/, see
 * its README.md): every node of every vector within a relative tolerance (1e-9 for icx
 * 4.5, spr 5.01, gnr 5.1 and srf, 1e-6 for the imported skx and clx and the four TMA 5.2
 * files from Intel's own metric files), null exactly where the reference has null, each
 * model at the TMA version of its file.  Run from the repository root (tests/run does).
 * The Neoverse models at 1e-9 too, on Arm's own formulas, unclamped (V3 and N3: all
 * four levels).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "model/model_impl.h"
#include "model/retire_latency.h"
#include "pmu/cpu_desc.h"
#include "test_models.h"

/* The reference's flags from a vector, as replay derives them. */
static unsigned vector_flags(json_object *o)
{
	json_object *x;
	unsigned flags = 0;

	if (json_object_object_get_ex(o, "topdown_fixed", &x) && json_object_get_boolean(x))
		flags |= MODEL_FLAG_TOPDOWN_FIXED;
	if (json_object_object_get_ex(o, "smt", &x) && json_object_get_boolean(x))
		flags |= MODEL_FLAG_SMT;
	return flags;
}

static bool close_enough(double want, double got, double rel)
{
	return fabs(want - got) <= fmax(rel * fabs(want), 1e-12);
}

/* What one golden file binds, and what it cannot. */
struct golden_case {
	const char *model, *file;
	const char *version; /* --tma-version; NULL: the model's default */
	double rel;	     /* relative tolerance */
	/* Vectors without PERF_METRICS (topdown_fixed false): the model has no
	 * general-purpose-counter form of levels 1-2, so these nodes (those levels and every
	 * node that reads one) are not compared there; every other node is. */
	const char *const *unfixed_differs;
	/* Nodes of the reference's tree that the model's source does not have: they must be
	 * absent from the model and 0 in every vector (a non-zero value fails: look again). */
	const char *const *reference_only;
	/* Pairs reference name, model name: AMD's level 1 under TMA's names; NULL-terminated. */
	const char *const *renamed;
};

static const char *model_name_for(const struct golden_case *gc, const char *name)
{
	for (const char *const *p = gc->renamed; p && *p; p += 2)
		if (!strcmp(p[0], name))
			return p[1];
	return name;
}

static bool listed(const char *const *list, const char *name)
{
	for (; list && *list; list++)
		if (!strcmp(*list, name))
			return true;
	return false;
}

/*
 * The same model compiled plain (every threshold link compared, none left to
 * the parent's flag) gives every node the same value, bit for bit, and the
 * same flags and bottleneck: the golden values do not pin thresholds.
 */
static void same_as_plain(const struct tma_model *m, const struct model_result *r,
			  const struct tma_model *plain, struct model_result *pr,
			  const struct model_input *in, const char *id)
{
	assert_int_equal(model_eval(plain, in, pr), 0);
	for (int i = 0; i < r->nnodes; i++) {
		if (memcmp(&r->value[i], &pr->value[i], sizeof(double)) &&
		    !(isnan(r->value[i]) && isnan(pr->value[i])))
			fail_msg("vector %s: %s is %.17g, compiled plain %.17g", id,
				 model_node(m, i)->name, r->value[i], pr->value[i]);
		if (r->flagged[i] != pr->flagged[i])
			fail_msg("vector %s: %s flagged %d, compiled plain %d", id,
				 model_node(m, i)->name, r->flagged[i], pr->flagged[i]);
	}
	assert_int_equal(r->bottleneck_len, pr->bottleneck_len);
	for (int l = 0; l < r->bottleneck_len; l++)
		assert_int_equal(r->bottleneck[l], pr->bottleneck[l]);
}

/*
 * The vector with a quarter of its events not measured (NAN: a group that
 * never ran), a different quarter each vector: the formulas that read them
 * fail, and the other nodes keep their values, compiled either way alike.
 */
static void same_as_plain_unmeasured(const struct tma_model *m, struct model_result *r,
				     const struct tma_model *plain, struct model_result *pr,
				     const struct model_input *in, int nev, const char *id)
{
	static unsigned phase;
	double *events = calloc(nev + 1, sizeof(double));
	struct model_input some = *in;

	assert_non_null(events);
	for (int i = 0; i < nev; i++)
		events[i] = (i + phase) % 4 ? in->events[i] : NAN;
	phase++;
	some.events = events;
	assert_int_equal(model_eval(m, &some, r), 0);
	same_as_plain(m, r, plain, pr, &some, id);
	free(events);
}

/* Checks one vector; returns the number of nodes compared, fails the test at the first mismatch. */
static int check_vector(const struct golden_case *gc, const struct tma_model *m,
			struct model_result *r, const struct tma_model *plain,
			struct model_result *pr, json_object *o)
{
	json_object *counters, *expected, *levels, *id = json_object_object_get(o, "id");
	int nev = model_event_count(m), compared = 0;
	double *events = calloc(nev + 1, sizeof(double));
	double *lat = calloc(model_latency_count(m) + 1, sizeof(double));
	struct model_input in = { .events = events, .latencies = lat };
	bool fixed = vector_flags(o) & MODEL_FLAG_TOPDOWN_FIXED;
	json_object *given;

	assert_non_null(events);
	assert_true(json_object_object_get_ex(o, "counters", &counters));
	assert_true(json_object_object_get_ex(o, "expected", &expected));
	assert_true(json_object_object_get_ex(o, "expected_level", &levels));
	for (int i = 0; i < nev; i++) {
		json_object *v;

		if (json_object_object_get_ex(counters, model_event_name(m, i), &v))
			events[i] = json_object_get_double(v);
	}
	/* TMA-MODELS.md "Retire latency": the vector's own, else Intel's published defaults */
	if (model_latency_count(m)) {
		const struct cpu_desc *d = cpu_desc_for_model(model_id(m));
		struct rl_table t = { 0 };

		assert_non_null(d);
		if (json_object_object_get_ex(o, "retire_latency", &given)) {
			json_object_object_foreach(given, ev, cycles)
				assert_int_equal(
					rl_table_add(&t, ev, json_object_get_double(cycles)), 0);
		}
		rl_fill(m, &t, &d->retire_latency, lat);
		rl_table_free(&t);
	}
	in.interval_s = json_object_get_double(json_object_object_get(o, "interval_s"));
	in.flags = vector_flags(o);
	assert_int_equal(model_eval(m, &in, r), 0);
	same_as_plain(m, r, plain, pr, &in, json_object_get_string(id));
	json_object_object_foreach(expected, ref_name, want) {
		const char *name = model_name_for(gc, ref_name);
		int i = model_node_index(m, name);
		double got;

		if (listed(gc->reference_only, name)) {
			if (i >= 0)
				fail_msg("%s has node %s: take it out of reference_only",
					 model_id(m), name);
			if (json_object_get_type(want) == json_type_null ||
			    json_object_get_double(want) != 0)
				fail_msg("vector %s: %s, which %s lacks, is %s in the reference",
					 json_object_get_string(id), name, model_id(m),
					 json_object_to_json_string(want));
			continue;
		}
		if (i < 0)
			fail_msg("vector %s: model %s has no node %s", json_object_get_string(id),
				 model_id(m), name);
		if (!fixed && listed(gc->unfixed_differs, name))
			continue;
		got = r->value[i];
		if (json_object_get_type(want) == json_type_null) {
			if (!isnan(got))
				fail_msg("vector %s: %s expected null, got %.17g",
					 json_object_get_string(id), name, got);
		} else if (isnan(got) ||
			   !close_enough(json_object_get_double(want), got, gc->rel)) {
			fail_msg("vector %s: %s expected %.17g, got %.17g",
				 json_object_get_string(id), name, json_object_get_double(want),
				 got);
		}
		if (model_node(m, i)->level !=
		    json_object_get_int(json_object_object_get(levels, ref_name)))
			fail_msg("%s: %s is level %d, expected_level says %d", model_id(m), name,
				 model_node(m, i)->level,
				 json_object_get_int(json_object_object_get(levels, ref_name)));
		compared++;
	}
	same_as_plain_unmeasured(m, r, plain, pr, &in, nev, json_object_get_string(id));
	free(events);
	free(lat);
	return compared;
}

/* only_fixed: skip vectors without PERF_METRICS (the model implements that mode only). */
static void run_golden(const struct golden_case *gc, bool only_fixed)
{
	char path[4096], err[512];
	struct tma_model *m = model_load_version(gc->model, gc->version, err, sizeof(err)), *plain;
	struct model_result *r, *pr;
	char *line = NULL;
	size_t cap = 0;
	int vectors = 0, nodes = 0;
	FILE *f;

	if (!m)
		fail_msg("built-in model '%s' does not load: %s", gc->model, err);
	plain = model_load_version(gc->model, gc->version, err, sizeof(err));
	assert_non_null(plain);
	test_model_plain(plain);
	snprintf(path, sizeof(path), "tests/golden/%s", gc->file);
	f = fopen(path, "r");
	if (!f)
		fail_msg("cannot open %s: run the test from the repository root", path);
	r = model_result_new(m);
	pr = model_result_new(plain);
	assert_non_null(r);
	assert_non_null(pr);
	while (getline(&line, &cap, f) > 0) {
		json_object *o = json_tokener_parse(line);

		assert_non_null(o);
		if (!only_fixed || (vector_flags(o) & MODEL_FLAG_TOPDOWN_FIXED)) {
			nodes += check_vector(gc, m, r, plain, pr, o);
			vectors++;
		}
		json_object_put(o);
	}
	free(line);
	fclose(f);
	print_message("%s TMA %s: %d vectors, %d node values agree\n", gc->model,
		      model_tma_version(m), vectors, nodes);
	if (gc->version)
		assert_string_equal(model_tma_version(m), gc->version);
	assert_true(vectors > 0);
	model_result_free(r);
	model_result_free(pr);
	model_free(m);
	model_free(plain);
}

static void test_icx_golden(void **state)
{
	static const struct golden_case gc = {
		.model = "icx", .file = "icx-tma4.5.jsonl", .version = "4.5", .rel = 1e-9
	};

	(void)state;
	run_golden(&gc, false);
}

static void test_spr_golden(void **state)
{
	static const struct golden_case gc = {
		.model = "spr", .file = "spr-tma5.01.jsonl", .version = "5.01", .rel = 1e-9
	};

	(void)state;
	run_golden(&gc, true);
}

/*
 * TMA 5.2, the default of icx, spr, emr and gnr: computed from Intel's own metric files
 * (tests/golden/README.md), every vector PERF_METRICS, every node bound, at 1e-6.
 */
static void test_tma52_golden(void **state)
{
	static const struct golden_case cases[] = {
		{ .model = "icx", .file = "icx-tma5.2.jsonl", .version = "5.2", .rel = 1e-6 },
		{ .model = "spr", .file = "spr-tma5.2.jsonl", .version = "5.2", .rel = 1e-6 },
		{ .model = "emr", .file = "emr-tma5.2.jsonl", .version = "5.2", .rel = 1e-6 },
		{ .model = "gnr", .file = "gnr-tma5.2.jsonl", .version = "5.2", .rel = 1e-6 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		run_golden(&cases[i], false);
}

/* No PERF_METRICS: every vector binds, topdown_fixed or not (the model never reads it). */
static void test_skx_golden(void **state)
{
	static const struct golden_case gc = { .model = "skx",
					       .file = "skx-tma5.01.jsonl",
					       .rel = 1e-6 };

	(void)state;
	run_golden(&gc, false);
}

static void test_clx_golden(void **state)
{
	static const struct golden_case gc = { .model = "clx",
					       .file = "clx-tma5.01.jsonl",
					       .rel = 1e-6 };

	(void)state;
	run_golden(&gc, false);
}

/*
 * GNR: Intel's TMA 5.1 file gives levels 1-2 in their PERF_METRICS form only, so the
 * PERF_METRICS vectors bind every node.  Without PERF_METRICS the reference reads
 * TOPDOWN.*_SLOTS and IDQ_BUBBLES.* instead, which the model cannot: there the nodes below
 * differ (levels 1-2 and 20 of the 22 nodes that read them) and all the others agree.  The
 * reference's CXL_Mem_Bound is not in Intel's file (0 in every vector).  Retire latencies
 * are the vector's own where it gives them, else Intel's published defaults (gnr.cpu).
 */
static const char *const gnr_unfixed_differs[] = { "Frontend_Bound",
						   "Fetch_Latency",
						   "Mispredicts_Resteers",
						   "Clears_Resteers",
						   "Fetch_Bandwidth",
						   "Bad_Speculation",
						   "Branch_Mispredicts",
						   "Other_Mispredicts",
						   "Machine_Clears",
						   "Backend_Bound",
						   "Memory_Bound",
						   "Core_Bound",
						   "Ports_Utilization",
						   "Retiring",
						   "Light_Operations",
						   "FP_Arith",
						   "X87_Use",
						   "FP_Scalar",
						   "FP_Vector",
						   "FP_Vector_128b",
						   "FP_Vector_256b",
						   "Int_Operations",
						   "Int_Vector_128b",
						   "Int_Vector_256b",
						   "Memory_Operations",
						   "Fused_Instructions",
						   "Non_Fused_Branches",
						   "Nop_Instructions",
						   "Shuffles_256b",
						   "Heavy_Operations",
						   "Few_Uops_Instructions",
						   "Other_Nukes",
						   NULL };
static const char *const gnr_reference_only[] = { "CXL_Mem_Bound", NULL };

static void test_gnr_golden(void **state)
{
	static const struct golden_case gc = { .model = "gnr",
					       .file = "gnr-tma5.1.jsonl",
					       .version = "5.1",
					       .rel = 1e-9,
					       .unfixed_differs = gnr_unfixed_differs,
					       .reference_only = gnr_reference_only };

	(void)state;
	run_golden(&gc, false);
}

/* perf's level-1 metric names, and the TMA names the AMD models give them. */
static const char *const amd_level1[] = { "frontend_bound",
					  "Frontend_Bound",
					  "bad_speculation",
					  "Bad_Speculation",
					  "backend_bound",
					  "Backend_Bound",
					  "retiring",
					  "Retiring",
					  "smt_contention",
					  "SMT_Contention",
					  NULL };

static void test_zen4_golden(void **state)
{
	static const struct golden_case gc = { .model = "zen4",
					       .file = "zen4-perf037dd13.jsonl",
					       .rel = 1e-9,
					       .renamed = amd_level1 };

	(void)state;
	run_golden(&gc, false);
}

static void test_zen5_golden(void **state)
{
	static const struct golden_case gc = { .model = "zen5",
					       .file = "zen5-perfa9fe4ac.jsonl",
					       .rel = 1e-9,
					       .renamed = amd_level1 };

	(void)state;
	run_golden(&gc, false);
}

/* Zen 6: Zen 5's formulas with the resync event renamed (bp_fe_redir.resync). */
static void test_zen6_golden(void **state)
{
	static const struct golden_case gc = { .model = "zen6",
					       .file = "zen6-perfd4eb7b2.jsonl",
					       .rel = 1e-9,
					       .renamed = amd_level1 };

	(void)state;
	run_golden(&gc, false);
}

/* Sierra Forest: no PERF_METRICS, no SMT; the reference's E-core TMA 4.0 tree is Intel's. */
static void test_srf_golden(void **state)
{
	static const struct golden_case gc = { .model = "srf",
					       .file = "srf-tma4.0.jsonl",
					       .rel = 1e-9 };

	(void)state;
	run_golden(&gc, false);
}

/* Arm's level-1 metric names, and the TMA names the Neoverse models give them. */
static const char *const arm_level1[] = { "frontend_bound",  "Frontend_Bound", "bad_speculation",
					  "Bad_Speculation", "backend_bound",  "Backend_Bound",
					  "retiring",	     "Retiring",       NULL };

/* N1's cycle accounting under the same names: fractions of cycles, not of slots. */
static const char *const arm_n1_level1[] = { "frontend_stalled_cycles", "Frontend_Bound",
					     "backend_stalled_cycles", "Backend_Bound", NULL };

/*
 * The replay's path: a vector carries no slot width (pmu_slots 0), so every model takes
 * its documented one (N2 5, V1 and V2 8), as the reference did.
 */
static void test_neoverse_n1_golden(void **state)
{
	static const struct golden_case gc = { .model = "neoverse-n1",
					       .file = "neoverse-n1-ts6687b72.jsonl",
					       .rel = 1e-9,
					       .renamed = arm_n1_level1 };

	(void)state;
	run_golden(&gc, false);
}

static void test_neoverse_n2_golden(void **state)
{
	static const struct golden_case gc = { .model = "neoverse-n2",
					       .file = "neoverse-n2-ts6687b72.jsonl",
					       .rel = 1e-9,
					       .renamed = arm_level1 };

	(void)state;
	run_golden(&gc, false);
}

static void test_neoverse_n2_r0p3_golden(void **state)
{
	static const struct golden_case gc = { .model = "neoverse-n2-r0p3",
					       .file = "neoverse-n2-r0p3-ts6687b72.jsonl",
					       .rel = 1e-9,
					       .renamed = arm_level1 };

	(void)state;
	run_golden(&gc, false);
}

static void test_neoverse_v1_golden(void **state)
{
	static const struct golden_case gc = { .model = "neoverse-v1",
					       .file = "neoverse-v1-ts6687b72.jsonl",
					       .rel = 1e-9,
					       .renamed = arm_level1 };

	(void)state;
	run_golden(&gc, false);
}

static void test_neoverse_v2_golden(void **state)
{
	static const struct golden_case gc = { .model = "neoverse-v2",
					       .file = "neoverse-v2-ts6687b72.jsonl",
					       .rel = 1e-9,
					       .renamed = arm_level1 };

	(void)state;
	run_golden(&gc, false);
}

/*
 * V3 and N3: Arm's four-level tree, imported from Arm's specifications (tools/arm-telemetry/);
 * level 1 under TMA's names, levels 2-4 under Arm's, every node of every vector at its level.
 */
static void test_neoverse_v3_golden(void **state)
{
	static const struct golden_case gc = { .model = "neoverse-v3",
					       .file = "neoverse-v3-ts6687b72.jsonl",
					       .rel = 1e-9,
					       .renamed = arm_level1 };

	(void)state;
	run_golden(&gc, false);
}

static void test_neoverse_n3_golden(void **state)
{
	static const struct golden_case gc = { .model = "neoverse-n3",
					       .file = "neoverse-n3-ts6687b72.jsonl",
					       .rel = 1e-9,
					       .renamed = arm_level1 };

	(void)state;
	run_golden(&gc, false);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_icx_golden),
		cmocka_unit_test(test_spr_golden),
		cmocka_unit_test(test_tma52_golden),
		cmocka_unit_test(test_skx_golden),
		cmocka_unit_test(test_clx_golden),
		cmocka_unit_test(test_gnr_golden),
		cmocka_unit_test(test_zen4_golden),
		cmocka_unit_test(test_zen5_golden),
		cmocka_unit_test(test_zen6_golden),
		cmocka_unit_test(test_srf_golden),
		cmocka_unit_test(test_neoverse_n1_golden),
		cmocka_unit_test(test_neoverse_n2_golden),
		cmocka_unit_test(test_neoverse_n2_r0p3_golden),
		cmocka_unit_test(test_neoverse_v1_golden),
		cmocka_unit_test(test_neoverse_v2_golden),
		cmocka_unit_test(test_neoverse_v3_golden),
		cmocka_unit_test(test_neoverse_n3_golden),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
