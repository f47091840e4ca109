// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* The formula language and the evaluation rules, on small models written here. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "test_models.h"

/* The model in text, the test failed where it does not load. */
static struct tma_model *load(const char *text)
{
	return test_model_text(text, "t.tma");
}

struct ev {
	const char *name;
	double value;
};

/* Evaluates m with the given events (others 0); r is reused by the caller. */
static void run(const struct tma_model *m, struct model_result *r, const struct ev *evs,
		double interval, unsigned flags)
{
	double events[64] = { 0 };
	struct model_input in = { .events = events, .interval_s = interval, .flags = flags };

	assert_true(model_event_count(m) <= 64);
	for (; evs && evs->name; evs++) {
		int i = model_event_index(m, evs->name);

		assert_true(i >= 0);
		events[i] = evs->value;
	}
	assert_int_equal(model_eval(m, &in, r), 0);
}

/* The value of one formula, with helpers H = 1 / Z.ZERO and G = 2 available. */
static double formula_flags(const char *f, const struct ev *evs, unsigned flags)
{
	char text[1024];
	struct tma_model *m;
	struct model_result *r;
	double v;

	snprintf(text, sizeof(text),
		 "model t\nhelper H = 1 / Z.ZERO\nhelper G = 2\nconst K = 3\n"
		 "node 1 N\n  formula %s\nnode 2 Unused\n  formula A.X + B.X + C.X + H + G + K\n",
		 f);
	m = load(text);
	r = model_result_new(m);
	assert_non_null(r);
	run(m, r, evs, 0.5, flags);
	v = r->value[model_node_index(m, "N")];
	model_result_free(r);
	model_free(m);
	return v;
}

static double formula(const char *f)
{
	static const struct ev evs[] = { { "A.X", 4 }, { "B.X", 0 }, { "C.X", 10 }, { 0 } };

	return formula_flags(f, evs, 0);
}

static void test_numbers_and_precedence(void **state)
{
	(void)state;
	assert_float_equal(formula("1 + 2 * 3"), 7, 0);
	assert_float_equal(formula("(1 + 2) * 3"), 9, 0);
	assert_float_equal(formula("2 - 3 - 4"), -5, 0);
	assert_float_equal(formula("8 / 4 / 2"), 1, 0);
	assert_float_equal(formula("-2 * 3"), -6, 0);
	assert_float_equal(formula("- -2"), 2, 0);
	assert_float_equal(formula("1e9"), 1e9, 0);
	assert_float_equal(formula("2.5e-1"), 0.25, 0);
	assert_float_equal(formula("0x80"), 128, 0);
	assert_float_equal(formula(".5"), 0.5, 0);
	assert_float_equal(formula("1 + 2 > 2"), 1, 0);
	assert_float_equal(formula("3 <= 2"), 0, 0);
	assert_float_equal(formula("2 == 2"), 1, 0);
	assert_float_equal(formula("2 != 2"), 0, 0);
	assert_float_equal(formula("not 1 + 1 == 2"), 0, 0);
	assert_float_equal(formula("1 or 0 and 0"), 1, 0);		/* and binds tighter */
	assert_float_equal(formula("1 if 0 else 2 if 1 else 3"), 2, 0); /* right-assoc */
	assert_float_equal(formula("1 + 1 if 0 else 5"), 5, 0);		/* if-else lowest */
	assert_float_equal(formula("min(3, 1, 2)"), 1, 0);
	assert_float_equal(formula("max(1, 5, 2)"), 5, 0);
	assert_float_equal(formula("True + True + False"), 2, 0);
	assert_float_equal(formula("K * G"), 6, 0);
}

static void test_events_and_inputs(void **state)
{
	static const struct ev evs[] = { { "INT_MISC.RECOVERY_CYCLES:c1:e1", 3 },
					 { "EXE_ACTIVITY.3_PORTS_UTIL:u0x80", 5 },
					 { "OCR.DEMAND_RFO.L3_MISS:ocr_msr_val=0x103b800002", 7 },
					 { "msr/tsc/", 11 },
					 { 0 } };

	(void)state;
	assert_float_equal(formula_flags("INT_MISC.RECOVERY_CYCLES:c1:e1 + "
					 "EXE_ACTIVITY.3_PORTS_UTIL:u0x80 * 10 + "
					 "OCR.DEMAND_RFO.L3_MISS:ocr_msr_val=0x103b800002 * 100 + "
					 "msr/tsc/ * 1000",
					 evs, 0),
			   3 + 50 + 700 + 11000, 0);
	assert_float_equal(formula("interval-s * 2"), 1, 0); /* interval 0.5 */
}

static void test_flags(void **state)
{
	(void)state;
	assert_float_equal(formula_flags("1 if topdown_use_fixed else 2", NULL, 0), 2, 0);
	assert_float_equal(
		formula_flags("1 if topdown_use_fixed else 2", NULL, MODEL_FLAG_TOPDOWN_FIXED), 1,
		0);
	assert_float_equal(formula_flags("smt_enabled * 4", NULL, MODEL_FLAG_SMT), 4, 0);
	assert_float_equal(formula_flags("smt_enabled * 4", NULL, MODEL_FLAG_TOPDOWN_FIXED), 0, 0);
}

static void test_short_circuit_values(void **state)
{
	(void)state;
	/* Python: and/or yield the deciding operand */
	assert_float_equal(formula("0 and 5"), 0, 0);
	assert_float_equal(formula("3 and 5"), 5, 0);
	assert_float_equal(formula("0 or 7"), 7, 0);
	assert_float_equal(formula("4 or 7"), 4, 0);
	assert_float_equal(formula("not 0"), 1, 0);
	assert_float_equal(formula("not A.X"), 0, 0);
}

static void test_division_by_zero(void **state)
{
	(void)state;
	/* exactly 0.0 in the denominator: the node is null */
	assert_true(isnan(formula("A.X / B.X")));
	assert_true(isnan(formula("0 * (A.X / B.X)")));
	assert_true(isnan(formula("A.X / (C.X - 10)")));
	assert_float_equal(formula("A.X / 1e-300"), 4e300, 1e290);
	/* anywhere in the node's helpers too, even when the result would not use it */
	assert_true(isnan(formula("0 * H")));
	/* untaken branches and short-circuited operands are not evaluated */
	assert_float_equal(formula("A.X / B.X if 0 else 5"), 5, 0);
	assert_float_equal(formula("5 if 1 else A.X / B.X"), 5, 0);
	assert_true(isnan(formula("A.X / B.X if 1 else 5")));
	assert_float_equal(formula("0 and A.X / B.X"), 0, 0);
	assert_float_equal(formula("1 or H"), 1, 0);
	assert_true(isnan(formula("1 and H")));
}

static const char tree[] =
	"model t\n"
	"node 1 A\n  formula E.A\n  threshold > 0.3\n"
	"node 1.1 B\n  formula E.B\n  threshold > 0.1 and parent over threshold\n"
	"node 1.2 C\n  formula E.C\n  threshold > 0.1 and parent over threshold\n"
	"node 2 R\n  formula E.R + 0 * D\n  threshold > 0.7 or self.D.thresh\n"
	"node 2.1 D\n  formula E.D\n  threshold > 0.5\n"
	"node 2.2 S\n  formula E.S / E.ZERO\n  threshold True\n"
	"node 3 Later\n  formula Cap + 1\n"
	"node 4 Cap\n  formula E.A * 10\n  cap 1\n"
	"node 5 T\n  formula E.A\n  threshold > 0.1 and D over threshold and 1 / E.ZERO\n"
	"node 6 NanRead\n  formula S + 1\n"
	"info I\n  formula E.A * 2\n  scope thread\n";

static void test_nodes_caps_and_null_reads(void **state)
{
	static const struct ev evs[] = { { "E.A", 0.5 }, { "E.B", 0.4 }, { "E.C", 0.6 },
					 { "E.R", 0.1 }, { "E.D", 0.9 }, { "E.S", 1 },
					 { 0 } };
	struct tma_model *m = load(tree);
	struct model_result *r = model_result_new(m);

	(void)state;
	run(m, r, evs, 1, 0);
	assert_float_equal(r->value[model_node_index(m, "Cap")], 1, 0); /* 5 capped */
	/* a node may read one written after it */
	assert_float_equal(r->value[model_node_index(m, "Later")], 2, 0);
	assert_true(isnan(r->value[model_node_index(m, "S")]));
	/* a null node reads as 0 */
	assert_float_equal(r->value[model_node_index(m, "NanRead")], 1, 0);
	assert_float_equal(r->value[model_node_index(m, "I")], 1, 0);
	assert_true(model_node(m, model_node_index(m, "I"))->is_info);
	assert_int_equal(model_node(m, model_node_index(m, "B"))->level, 2);
	assert_int_equal(model_node(m, model_node_index(m, "B"))->parent, model_node_index(m, "A"));
	model_result_free(r);
	model_free(m);
}

static void test_unmeasured_event_is_null(void **state)
{
	struct tma_model *m = load(tree);
	struct model_result *r = model_result_new(m);
	double events[16] = { 0 };
	struct model_input in = { .events = events, .interval_s = 1, .flags = 0 };

	(void)state;
	events[model_event_index(m, "E.A")] = NAN;
	events[model_event_index(m, "E.D")] = 0.9;
	assert_int_equal(model_eval(m, &in, r), 0);
	assert_true(isnan(r->value[model_node_index(m, "A")]));
	assert_false(r->flagged[model_node_index(m, "A")]);
	/* Later reads Cap, whose event is NAN: Cap is null and reads as 0 */
	assert_true(isnan(r->value[model_node_index(m, "Cap")]));
	assert_float_equal(r->value[model_node_index(m, "Later")], 1, 0);
	model_result_free(r);
	model_free(m);
}

/*
 * An event the host does not count at all (model_input.absent): the nodes reading it are
 * null, and so is every node computed from them, through helpers too, where a node that
 * failed in this interval reads as 0.  A threshold reading its parent's flag is not a read
 * of its value: the child keeps its own.
 */
static void test_absent_event_nulls_its_readers(void **state)
{
	static const char text[] = "model h\nhelper H = E.X * 2\n"
				   "node 1 N\n  formula H + 1\n"
				   "node 2 M\n  formula N + 1\n"
				   "node 3 Z\n  formula E.Y / E.ZERO\n"
				   "node 4 K\n  formula Z + 1\n";
	struct tma_model *m = load(tree), *h = load(text);
	struct model_result *r = model_result_new(m), *rh = model_result_new(h);
	double events[16] = { 0 };
	bool absent[16] = { false };
	struct model_input in = { .events = events, .absent = absent, .interval_s = 1 };

	(void)state;
	events[model_event_index(m, "E.A")] = NAN;
	absent[model_event_index(m, "E.A")] = true;
	events[model_event_index(m, "E.B")] = 0.4;
	assert_int_equal(model_eval(m, &in, r), 0);
	assert_true(isnan(r->value[model_node_index(m, "A")]));
	assert_true(isnan(r->value[model_node_index(m, "Cap")]));
	/* Later reads Cap: no value here ever, so none for Later (not 0 + 1) */
	assert_true(isnan(r->value[model_node_index(m, "Later")]));
	assert_float_equal(r->value[model_node_index(m, "B")], 0.4, 0);
	/* S divides by zero in this interval: it reads as 0, as the reference has it */
	assert_float_equal(r->value[model_node_index(m, "NanRead")], 1, 0);

	memset(events, 0, sizeof(events));
	events[model_event_index(h, "E.X")] = NAN;
	absent[model_event_index(h, "E.X")] = true;
	events[model_event_index(h, "E.Y")] = 1;
	assert_int_equal(model_eval(h, &in, rh), 0);
	assert_true(isnan(rh->value[model_node_index(h, "N")]));
	assert_true(isnan(rh->value[model_node_index(h, "M")]));
	assert_float_equal(rh->value[model_node_index(h, "K")], 1, 0);
	/* without the absent marks: the reference's reading */
	in.absent = NULL;
	assert_int_equal(model_eval(h, &in, rh), 0);
	assert_float_equal(rh->value[model_node_index(h, "M")], 1, 0);
	model_result_free(rh);
	model_result_free(r);
	model_free(h);
	model_free(m);
}

static void test_thresholds_and_bottleneck(void **state)
{
	static const struct ev evs[] = { { "E.A", 0.5 }, { "E.B", 0.4 }, { "E.C", 0.6 },
					 { "E.R", 0.1 }, { "E.D", 0.9 }, { "E.S", 1 },
					 { 0 } };
	struct tma_model *m = load(tree);
	struct model_result *r = model_result_new(m);

	(void)state;
	run(m, r, evs, 1, 0);
	assert_true(r->flagged[model_node_index(m, "A")]);
	assert_true(r->flagged[model_node_index(m, "B")]);
	assert_true(r->flagged[model_node_index(m, "C")]);
	assert_true(r->flagged[model_node_index(m, "D")]);
	/* R is below 0.7 but reads D's flag, decided after R: needs the second pass */
	assert_true(r->flagged[model_node_index(m, "R")]);
	/* null is never flagged, even with threshold True */
	assert_false(r->flagged[model_node_index(m, "S")]);
	/* a division by zero reached by the threshold nulls the node */
	assert_true(isnan(r->value[model_node_index(m, "T")]));
	/* level 1: A (0.5) beats R (0.1); below A: C (0.6) beats B (0.4) */
	assert_int_equal(r->bottleneck_len, 2);
	assert_int_equal(r->bottleneck[0], model_node_index(m, "A"));
	assert_int_equal(r->bottleneck[1], model_node_index(m, "C"));
	/*
	 * The path every printer shows, the model's one text per node: cut at the
	 * report's level, the same pointer for every result, none at level 0.
	 */
	assert_string_equal(model_bottleneck_path(m, r, 2), "A.C");
	assert_ptr_equal(model_bottleneck_path(m, r, 6),
			 model_node(m, model_node_index(m, "C"))->path);
	assert_string_equal(model_bottleneck_path(m, r, 1), "A");
	assert_int_equal(model_bottleneck_end(m, r, 1), model_node_index(m, "A"));
	assert_null(model_bottleneck_path(m, r, 0));
	assert_null(model_bottleneck_path(m, NULL, 3));
	assert_null(model_bottleneck_path(NULL, r, 3));
	assert_string_equal(model_node(m, model_node_index(m, "I"))->path, "I");

	/* A under its threshold: its children are not flagged, R leads, then D */
	run(m, r,
	    (const struct ev[]){
		    { "E.A", 0.2 }, { "E.B", 0.4 }, { "E.R", 0.1 }, { "E.D", 0.9 }, { 0 } },
	    1, 0);
	assert_false(r->flagged[model_node_index(m, "B")]);
	assert_int_equal(r->bottleneck_len, 2);
	assert_int_equal(r->bottleneck[0], model_node_index(m, "R"));
	assert_int_equal(r->bottleneck[1], model_node_index(m, "D"));
	assert_string_equal(model_bottleneck_path(m, r, 2), "R.D");
	/* T's threshold stops at "D over threshold" before dividing: T keeps its value */
	run(m, r, (const struct ev[]){ { "E.A", 0.2 }, { "E.D", 0.1 }, { 0 } }, 1, 0);
	assert_float_equal(r->value[model_node_index(m, "T")], 0.2, 0);
	assert_int_equal(r->bottleneck_len, 0);
	assert_null(model_bottleneck_path(m, r, 2));
	assert_int_equal(model_bottleneck_end(m, r, 2), -1);
	model_result_free(r);
	model_free(m);
}

/*
 * Two flags that read each other (a cycle of flags, run again until they
 * settle): B is over its threshold on its own, and A's threshold divides by
 * zero once B's flag is up, which is after A's first pass: only the pass
 * over the cycle reaches the division.  The threshold fails there, and A is
 * null, as the reference's evaluation in one step with its value makes it;
 * B keeps its value.
 */
static void test_flag_cycle_failure_nulls_its_node(void **state)
{
	/* B first: its threshold reads A's flag, so A's is decided first, before B's is up */
	struct tma_model *m =
		load("model t\n"
		     "node 1 B\n  formula E.B\n  threshold > 0.1 or A over threshold\n"
		     "node 2 A\n  formula E.A\n"
		     "  threshold B over threshold and 1 / E.ZERO > 0\n");
	struct model_result *r = model_result_new(m);

	(void)state;
	assert_non_null(r);
	run(m, r, (const struct ev[]){ { "E.A", 0.5 }, { "E.B", 0.5 }, { 0 } }, 1, 0);
	assert_true(isnan(r->value[model_node_index(m, "A")]));
	assert_float_equal(r->value[model_node_index(m, "B")], 0.5, 0);
	assert_true(r->flagged[model_node_index(m, "B")]);
	model_result_free(r);
	model_free(m);
}

/*
 * Thresholds as TMA writes them, chains of "node > number" (one fused op,
 * model_compile.c) joined by and/or (jumps threaded through chains of the
 * same operator): strictly greater, a null node read as 0, and an "and"
 * that fails inside an "or" still trying the "or"'s other side.
 */
static void test_threshold_chains(void **state)
{
	static const char text[] =
		"model c\nconst M = -1\n"
		"node 1 A\n  formula E.A\n"
		"node 2 Null\n  formula E.A / E.ZERO\n"
		"node 3 Edge\n  formula E.E\n"
		"  threshold (Edge > 0.05) and (A > 0.5)\n"
		"node 4 Zero\n  formula E.E\n"
		"  threshold (Zero > 0.05) and (Null > M) and (A > 0.25)\n"
		"node 5 Either\n  formula E.E\n"
		"  threshold ((A > 0.75) and (Edge > 0.05)) or (Either > 0.1)\n"
		"node 6 Neither\n  formula E.E\n"
		"  threshold ((A > 0.75) and (Edge > 0.05)) or (Neither > 0.9)\n";
	static const struct ev evs[] = { { "E.A", 0.5 }, { "E.E", 0.3 }, { 0 } };
	struct tma_model *m = load(text);
	struct model_result *r = model_result_new(m);

	(void)state;
	run(m, r, evs, 1, 0);
	assert_true(isnan(r->value[model_node_index(m, "Null")]));
	/* A is 0.5: not over 0.5 */
	assert_false(r->flagged[model_node_index(m, "Edge")]);
	/* Null reads as 0, over M (-1: a constant, one op with the comparison); A over 0.25 */
	assert_true(r->flagged[model_node_index(m, "Zero")]);
	/* A not over 0.75: the "and" fails, the "or" still decides */
	assert_true(r->flagged[model_node_index(m, "Either")]);
	assert_false(r->flagged[model_node_index(m, "Neither")]);
	model_result_free(r);
	model_free(m);
}

static void test_eval_level(void **state)
{
	static const struct ev evs[] = { { "E.A", 0.5 }, { "E.B", 0.4 }, { "E.C", 0.6 },
					 { "E.R", 0.1 }, { "E.D", 0.9 }, { "E.S", 1 },
					 { 0 } };
	struct tma_model *m = load(tree);
	struct model_result *r = model_result_new(m);
	double events[16] = { 0 };
	struct model_input in = { .events = events, .interval_s = 1, .flags = 0 };

	(void)state;
	for (const struct ev *e = evs; e->name; e++)
		events[model_event_index(m, e->name)] = e->value;
	assert_int_equal(model_eval_level(m, &in, r, 1, false), 0);
	assert_float_equal(r->value[model_node_index(m, "A")], 0.5, 0);
	/* level 2 and Info metrics are not computed... */
	assert_true(isnan(r->value[model_node_index(m, "B")]));
	assert_false(r->flagged[model_node_index(m, "C")]);
	assert_true(isnan(r->value[model_node_index(m, "I")]));
	/* ...except what level 1 reads: R's formula and threshold read D */
	assert_float_equal(r->value[model_node_index(m, "D")], 0.9, 0);
	assert_true(r->flagged[model_node_index(m, "R")]);
	/* Cap is level 1 (node 4), Later reads it */
	assert_float_equal(r->value[model_node_index(m, "Later")], 2, 0);
	assert_int_equal(r->bottleneck_len, 1);
	assert_int_equal(r->bottleneck[0], model_node_index(m, "A"));
	assert_int_equal(model_eval_level(m, &in, r, 0, true), 0);
	assert_float_equal(r->value[model_node_index(m, "I")], 1, 0);
	assert_true(isnan(r->value[model_node_index(m, "A")]));
	assert_int_equal(model_eval_level(m, &in, r, -1, true), -EINVAL);
	model_result_free(r);
	model_free(m);
}

static void test_icx_events_needed(void **state)
{
	char err[512];
	/* TMA 4.5 writes both branches; Intel's 5.2 file the PERF_METRICS one only */
	struct tma_model *m = model_load_version("icx", "4.5", err, sizeof(err));
	bool *needed = calloc(model_event_count(m), sizeof(bool));

	(void)state;
	/* level 1 with PERF_METRICS: the fixed-counter branch */
	model_events_needed(m, 1, false, MODEL_FLAG_TOPDOWN_FIXED, needed);
	assert_true(needed[model_event_index(m, "PERF_METRICS.BACKEND_BOUND")]);
	assert_true(needed[model_event_index(m, "INT_MISC.RECOVERY_CYCLES:c1:e1")]);
	assert_false(needed[model_event_index(m, "TOPDOWN.BACKEND_BOUND_SLOTS")]);
	assert_false(needed[model_event_index(m, "IDQ_UOPS_NOT_DELIVERED.CORE")]);
	/* without: the general-purpose branch */
	model_events_needed(m, 1, false, 0, needed);
	assert_false(needed[model_event_index(m, "PERF_METRICS.BACKEND_BOUND")]);
	assert_true(needed[model_event_index(m, "TOPDOWN.BACKEND_BOUND_SLOTS")]);
	assert_true(needed[model_event_index(m, "IDQ_UOPS_NOT_DELIVERED.CORE")]);
	assert_false(needed[model_event_index(m, "ICACHE_16B.IFDATA_STALL")]); /* level 3 */
	model_events_needed(m, 3, false, 0, needed);
	assert_true(needed[model_event_index(m, "ICACHE_16B.IFDATA_STALL")]);
	free(needed);
	model_free(m);
}

static void test_events_needed(void **state)
{
	struct tma_model *m = load("model t\n"
				   "helper SL = F.X if topdown_use_fixed else G.X\n"
				   "node 1 A\n  formula SL / S.X\n"
				   "node 1.1 B\n  formula D.X\n"
				   "node 2 C\n  formula E.X\n  threshold B over threshold\n"
				   "info I\n  formula I.X\n");
	bool needed[16];

	(void)state;
	assert_int_equal(model_event_count(m), 6);
	assert_int_equal(model_events_needed(m, 1, false, MODEL_FLAG_TOPDOWN_FIXED, needed), 4);
	assert_true(needed[model_event_index(m, "F.X")]);
	assert_false(needed[model_event_index(m, "G.X")]);
	assert_true(needed[model_event_index(m, "S.X")]);
	/* C's threshold reads B's flag: B is level 2 but needed */
	assert_true(needed[model_event_index(m, "D.X")]);
	assert_false(needed[model_event_index(m, "I.X")]);
	assert_int_equal(model_events_needed(m, 1, true, 0, needed), 5);
	assert_true(needed[model_event_index(m, "G.X")]);
	assert_false(needed[model_event_index(m, "F.X")]);
	assert_true(needed[model_event_index(m, "I.X")]);
	/* one node's own events, both branches, not through other nodes */
	assert_int_equal(model_node_events(m, model_node_index(m, "A"), needed), 3);
	assert_int_equal(model_event_index(m, "NOPE.X"), -1);
	model_free(m);
}

static void test_header(void **state)
{
	static const char old[] = "model t\ncpu GenuineIntel 6 0x6A\nnode 1 A\n  formula 1\n";
	struct tma_model *m = load("model t # a comment\ntitle Test CPU\ntma_version 9.1\n"
				   "const W = 2 * 3\nnode 1 A\n  formula W + \\\n    1\n");
	char err[512] = "";

	(void)state;
	assert_string_equal(model_id(m), "t");
	assert_string_equal(model_title(m), "Test CPU");
	assert_string_equal(model_tma_version(m), "9.1");
	model_free(m);
	/* Which CPUs run a model is said in their .cpu descriptions only. */
	assert_null(model_load(old, sizeof(old) - 1, "t.tma", err, sizeof(err)));
	assert_non_null(strstr(err, "t.tma:2:1: 'cpu' lines belong in the CPU's description"));
	assert_non_null(strstr(err, "'model t' in its .cpu file"));
}

static void test_builtins_load(void **state)
{
	char err[512];
	struct tma_model *m = model_load_version("icx", "4.5", err, sizeof(err));

	(void)state;
	assert_non_null(m);
	assert_string_equal(model_tma_version(m), "4.5");
	assert_int_equal(model_node(m, model_node_index(m, "DRAM_Bound"))->level, 3);
	assert_string_equal(model_node(m, model_node_index(m, "4K_Aliasing"))->number, "3.1.1.5");
	model_free(m);
	/* the default, TMA 5.2: DRAM_Bound is L3_Miss_Bound, MEM_Bandwidth and MEM_Latency
	 * under it (Intel's ICX file leaves their parent out: the import places them) */
	m = model_load_builtin("icx", err, sizeof(err));
	assert_non_null(m);
	assert_string_equal(model_tma_version(m), "5.2");
	assert_int_equal(model_node_index(m, "DRAM_Bound"), -1);
	assert_int_equal(model_node(m, model_node_index(m, "L3_Miss_Bound"))->level, 3);
	assert_int_equal(model_node(m, model_node_index(m, "MEM_Bandwidth"))->parent,
			 model_node_index(m, "L3_Miss_Bound"));
	assert_int_equal(model_node(m, model_node_index(m, "MEM_Latency"))->parent,
			 model_node_index(m, "L3_Miss_Bound"));
	model_free(m);
	assert_null(model_load_builtin("nope", err, sizeof(err)));
	assert_non_null(strstr(err, "unknown model 'nope': built-in models are"));
}

/*
 * Counts: computed at every depth (their events always needed), with level 0
 * and no parent, so neither the tree nor the bottleneck walk sees them.
 */
static void test_counts(void **state)
{
	static const char text[] = "model t\n"
				   "node 1 A\n  formula E.A\n  threshold > 0.1\n"
				   "count c_per_s\n  desc per second\n  formula E.C / interval-s\n"
				   "info I\n  formula E.I\n";
	static const struct ev evs[] = { { "E.A", 0.5 }, { "E.C", 30 }, { "E.I", 7 }, { 0 } };
	struct tma_model *m = load(text);
	struct model_result *r = model_result_new(m);
	int c = model_node_index(m, "c_per_s");
	bool needed[8];

	(void)state;
	assert_true(c >= 0);
	assert_true(model_node(m, c)->is_count);
	assert_false(model_node(m, c)->is_info);
	assert_int_equal(model_node(m, c)->level, 0);
	assert_int_equal(model_node(m, c)->parent, -1);
	assert_null(model_node(m, c)->number);
	assert_int_equal(model_events_needed(m, 1, false, 0, needed), 2);
	assert_true(needed[model_event_index(m, "E.C")]);
	assert_false(needed[model_event_index(m, "E.I")]);
	run(m, r, evs, 2, 0); /* every depth: level 6 with Info metrics */
	assert_float_equal(r->value[c], 15, 0);
	{
		double events[8] = { 0 };
		struct model_input in = { .events = events, .interval_s = 2, .flags = 0 };

		for (const struct ev *e = evs; e->name; e++)
			events[model_event_index(m, e->name)] = e->value;
		assert_int_equal(model_eval_level(m, &in, r, 1, false), 0);
		assert_float_equal(r->value[c], 15, 0);
		assert_true(isnan(r->value[model_node_index(m, "I")]));
	}
	assert_int_equal(r->bottleneck_len, 1);
	assert_int_equal(r->bottleneck[0], model_node_index(m, "A"));
	model_result_free(r);
	model_free(m);
}

/*
 * EVENT:retire_latency is an input of its own: the formula reads the latency given,
 * never the event's count, and a latency nobody gave makes the reading node null
 * (TMA-MODELS.md "Retire latency"); the nodes that read that node read it as 0.
 */
static void test_retire_latency_inputs(void **state)
{
	struct tma_model *m = load("model t\n"
				   "node 1 Lock\n  formula M.LOCK * M.LOCK:retire_latency / C.C\n"
				   "node 2 Split\n"
				   "  formula (M.SPLIT * M.SPLIT:retire_latency if "
				   "M.SPLIT:retire_latency >= 0 else M.SPLIT * 7) / C.C\n"
				   "node 3 Sum\n  formula Lock + Split\n");
	struct model_result *r = model_result_new(m);
	double events[4] = { 0 }, lat[2];
	struct model_input in = { .events = events, .interval_s = 1, .latencies = lat };
	bool needed[4];
	int lock = model_latency_index(m, "M.LOCK"), split = model_latency_index(m, "M.SPLIT");

	(void)state;
	assert_int_equal(model_latency_count(m), 2);
	assert_true(lock >= 0 && split >= 0);
	assert_string_equal(model_latency_name(m, lock), "M.LOCK");
	/* not counters: only the events are opened */
	assert_int_equal(model_event_count(m), 3);
	assert_int_equal(model_event_index(m, "M.LOCK:retire_latency"), -1);
	assert_int_equal(model_events_needed(m, 1, false, 0, needed), 3);
	events[model_event_index(m, "M.LOCK")] = 100;
	events[model_event_index(m, "M.SPLIT")] = 10;
	events[model_event_index(m, "C.C")] = 1000;
	lat[lock] = 25.5;
	lat[split] = 3;
	assert_int_equal(model_eval(m, &in, r), 0);
	assert_float_equal(r->value[0], 100 * 25.5 / 1000, 1e-15);
	assert_float_equal(r->value[1], 10 * 3 / 1000.0, 1e-15);
	/* no latency for SPLIT: Split is null (not the count, not the else branch) */
	lat[split] = NAN;
	assert_int_equal(model_eval(m, &in, r), 0);
	assert_float_equal(r->value[0], 2.55, 1e-15);
	assert_true(isnan(r->value[1]));
	assert_float_equal(r->value[2], 2.55, 1e-15);
	/* none at all */
	in.latencies = NULL;
	assert_int_equal(model_eval(m, &in, r), 0);
	assert_true(isnan(r->value[0]) && isnan(r->value[1]));
	assert_float_equal(r->value[2], 0, 0);
	model_result_free(r);
	model_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_numbers_and_precedence),
		cmocka_unit_test(test_events_and_inputs),
		cmocka_unit_test(test_flags),
		cmocka_unit_test(test_short_circuit_values),
		cmocka_unit_test(test_division_by_zero),
		cmocka_unit_test(test_absent_event_nulls_its_readers),
		cmocka_unit_test(test_nodes_caps_and_null_reads),
		cmocka_unit_test(test_flag_cycle_failure_nulls_its_node),
		cmocka_unit_test(test_unmeasured_event_is_null),
		cmocka_unit_test(test_thresholds_and_bottleneck),
		cmocka_unit_test(test_threshold_chains),
		cmocka_unit_test(test_events_needed),
		cmocka_unit_test(test_eval_level),
		cmocka_unit_test(test_icx_events_needed),
		cmocka_unit_test(test_header),
		cmocka_unit_test(test_builtins_load),
		cmocka_unit_test(test_counts),
		cmocka_unit_test(test_retire_latency_inputs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
