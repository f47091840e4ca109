// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Evaluates a model on one cgroup's counts with the reference's rules
 * (docs/tma-rules.md "Evaluation rules").  Runs per cgroup per interval: it runs
 * the compiled code (model_compile.c) in dependency order, computes each
 * helper once per evaluation and allocates nothing.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/model_impl.h"

/* The public result plus the helper cache, allocated together by model_result_new(). */
struct result_impl {
	struct model_result r;
	double *hval;
	/* 0: not computed yet, 1: computed, 2: computed and failed, 3: failed reading an absent input */
	unsigned char *hstate;
	bool *absent;  /* the node is null for an absent input (model_input.absent) */
	bool *tfail;   /* the threshold divided by zero: the node is null (see eval_thresholds) */
	double *stack; /* values of the formula being run and the helpers it calls */
	int nhelpers;
	/* The subset (of the model of serial nulled_serial) whose outside nodes are null. */
	const struct model_subset *nulled;
	uint64_t nulled_serial;
};

struct ctx {
	const struct tma_model *m;
	const struct model_input *in;
	struct result_impl *ri;
	double self; /* thresholds: the node's own value */
	bool bad;    /* a division by exactly 0.0 or an unmeasured (NAN) event was read */
	bool absent; /* an absent input, or a node null for one, was read */
};

/*
 * A subset's node values, run as one: each formula's OP_RET stores its
 * node's value (store_value) and goes on to the next node's formula, not
 * back to a loop that calls run again for it (a level-3 evaluation runs 41
 * formulas of some 8 ops each: the calls cost as much as their ops).
 */
struct value_run {
	const int *order; /* the nodes, in dependency order */
	int n, k;	  /* how many; the one running */
	double *stack;	  /* where each formula's values start */
};

static double run(struct ctx *c, int pc, double *sp, struct value_run *vr);

/* A helper's value and failure depend only on the input: compute it once per evaluation. */
static double helper(struct ctx *c, int h, double *sp)
{
	struct result_impl *ri = c->ri;

	if (!ri->hstate[h]) {
		bool saved = c->bad, saved_absent = c->absent;

		c->bad = c->absent = false;
		ri->hval[h] = run(c, c->m->code.helper_pc[h], sp, NULL);
		ri->hstate[h] = c->absent ? 3 : c->bad ? 2 : 1;
		c->bad = saved;
		c->absent = saved_absent;
	}
	if (ri->hstate[h] >= 2)
		c->bad = true;
	if (ri->hstate[h] == 3)
		c->absent = true;
	return ri->hval[h];
}

/* An input nobody measured or gave (NAN) fails the formula; it reads as 0 meanwhile. */
static inline double input_operand(double v, bool *bad)
{
	if (isnan(v)) {
		*bad = true;
		return 0;
	}
	return v;
}

/*
 * A binary operator (by 0.0: the formula fails), its kind a constant, so
 * that expr_binary's arithmetic is inlined, not chosen by a second switch
 * per op.
 */
#define BINARY_CASE(kind)                                           \
	case kind:                                                  \
		sp--;                                               \
		sp[-1] = expr_binary(kind, sp[-1], sp[0], &c->bad); \
		break

/*
 * Node i's value v, as its formula's run left it: null where the formula
 * failed, read an absent input or its threshold failed; else capped.
 */
static void store_value(struct ctx *c, int i, double v)
{
	c->ri->absent[i] = c->absent;
	if (c->bad || c->absent || c->ri->tfail[i])
		v = NAN;
	else if (v > c->m->nodes[i].cap)
		v = c->m->nodes[i].cap;
	c->ri->r.value[i] = v;
}

/*
 * Runs one compiled formula with its values stacked from sp up; returns its
 * value.  With vr, runs vr's node formulas one after another from the
 * first, each value stored (returns 0).  The inputs are read into locals
 * first: c->bad and c->absent are written as the code runs, and a store
 * through a bool may alias any pointer the loop would otherwise reload
 * from c after it.
 */
static double run(struct ctx *c, int pc, double *sp, struct value_run *vr)
{
	const struct model_op *ops = c->m->code.ops, *ip = ops + pc;
	const double *num = c->m->code.num;
	const struct model_input *in = c->in;
	const double *events = in->events;
	const bool *absent_event = in->absent;
	const double *value = c->ri->r.value;
	const bool *absent_node = c->ri->absent;
	const bool *flagged = c->ri->r.flagged;
	const unsigned char *hstate = c->ri->hstate;
	const double *hval = c->ri->hval;

	for (;;) {
		struct model_op o = *ip++;
		double v;

		switch (o.code) {
		case EXPR_NUM:
			*sp++ = num[o.arg];
			break;
		case EXPR_EVENT:
			v = events[o.arg];
			if (isnan(v) && absent_event && absent_event[o.arg])
				c->absent = true;
			*sp++ = input_operand(v, &c->bad);
			break;
		case EXPR_LATENCY: /* a latency nobody gave is no value, never a count */
			*sp++ = input_operand(in->latencies ? in->latencies[o.arg] : NAN, &c->bad);
			break;
		case EXPR_INTERVAL:
			*sp++ = in->interval_s;
			break;
		case EXPR_PMU_SLOTS: /* a width not known (or not a number) is 0 */
			*sp++ = in->pmu_slots > 0 ? in->pmu_slots : 0;
			break;
		case EXPR_FLAG:
			*sp++ = (in->flags & (unsigned)o.arg) != 0;
			break;
		case EXPR_HELPER:
			/* most reads find it computed, and fine: no call, nothing to mark */
			v = hstate[o.arg] == 1 ? hval[o.arg] : helper(c, o.arg, sp);
			*sp++ = v;
			break;
		case EXPR_NODE: /* a failed node reads as 0, as the reference does */
			v = value[o.arg];
			/* ... unless it can never have a value here: then neither can this */
			if (isnan(v) && absent_node[o.arg])
				c->absent = true;
			*sp++ = isnan(v) ? 0 : v;
			break;
		case EXPR_SELF:
			*sp++ = c->self;
			break;
		case EXPR_OVER:
			*sp++ = flagged[o.arg];
			break;
		case EXPR_NEG:
		case EXPR_NOT:
			sp[-1] = expr_unary(o.code, sp[-1]);
			break;
		case EXPR_AND: /* Python: the deciding operand is the value */
			if (sp[-1] == 0)
				ip = ops + o.arg;
			else
				sp--;
			break;
		case EXPR_OR:
			if (sp[-1] != 0)
				ip = ops + o.arg;
			else
				sp--;
			break;
		case OP_JZ:
			sp--;
			if (sp[0] == 0)
				ip = ops + o.arg;
			break;
		case OP_JMP:
			ip = ops + o.arg;
			break;
		case OP_RET:
			if (!vr)
				return sp[-1];
			store_value(c, vr->order[vr->k], sp[-1]);
			if (++vr->k == vr->n)
				return 0;
			c->bad = c->absent = false;
			sp = vr->stack;
			ip = ops + c->m->code.node_pc[vr->order[vr->k]];
			break;
			BINARY_CASE(EXPR_ADD);
			BINARY_CASE(EXPR_SUB);
			BINARY_CASE(EXPR_MUL);
			BINARY_CASE(EXPR_DIV);
			BINARY_CASE(EXPR_LT);
			BINARY_CASE(EXPR_LE);
			BINARY_CASE(EXPR_GT);
			BINARY_CASE(EXPR_GE);
			BINARY_CASE(EXPR_EQ);
			BINARY_CASE(EXPR_NE);
			BINARY_CASE(EXPR_MIN);
			BINARY_CASE(EXPR_MAX);
		default: /* model_compile writes no other code: no range check per op */
			__builtin_unreachable();
		}
	}
}

static double eval_block(struct ctx *c, int pc)
{
	return run(c, pc, c->ri->stack, NULL);
}

struct model_result *model_result_new(const struct tma_model *m)
{
	struct result_impl *ri = calloc(1, sizeof(*ri));
	int n = m->nnodes;

	if (!ri)
		return NULL;
	ri->r.nnodes = n;
	ri->nhelpers = m->nhelpers;
	ri->r.value = calloc(n + 1, sizeof(double));
	ri->r.flagged = calloc(n + 1, sizeof(bool));
	ri->r.bottleneck = calloc(MODEL_MAX_LEVEL + 1, sizeof(int));
	ri->hval = calloc(m->nhelpers + 1, sizeof(double));
	ri->hstate = calloc(m->nhelpers + 1, 1);
	ri->tfail = calloc(n + 1, sizeof(bool));
	ri->absent = calloc(n + 1, sizeof(bool));
	ri->stack = calloc(m->code.stack + 1, sizeof(double));
	if (!ri->r.value || !ri->r.flagged || !ri->r.bottleneck || !ri->hval || !ri->hstate ||
	    !ri->tfail || !ri->absent || !ri->stack) {
		model_result_free(&ri->r);
		return NULL;
	}
	return &ri->r;
}

void model_result_free(struct model_result *r)
{
	struct result_impl *ri = (struct result_impl *)r;

	if (!r)
		return;
	free(r->value);
	free(r->flagged);
	free(r->bottleneck);
	free(ri->hval);
	free(ri->hstate);
	free(ri->tfail);
	free(ri->absent);
	free(ri->stack);
	free(ri);
}

/*
 * Flags depend on other flags (parent over threshold, Retiring on
 * Heavy_Operations'): iterate until none changes.  The reference computes a
 * node's threshold in the same step as its value, so a division by zero that
 * the threshold reaches (Fetch_Bandwidth's HighIPC when there are no clocks)
 * makes the node null: returns true when that happened to a node not yet null.
 */
static inline bool eval_threshold(struct ctx *c, int i)
{
	const struct model_code *code = &c->m->code;
	struct model_result *r = &c->ri->r;
	int a = code->above_node[i], p = code->above_parent[i];
	bool f;

	if (a >= 0) {
		/* a null node reads as 0, below the number: never flagged, never failing */
		f = r->value[a] > code->above_num[i] && (p < 0 || r->flagged[p]);
		c->ri->tfail[i] = false;
	} else {
		c->self = r->value[i];
		c->bad = false;
		f = eval_block(c, code->thresh_pc[i]) != 0 && !c->bad;
		c->ri->tfail[i] = c->bad;
	}
	if (f == r->flagged[i])
		return false;
	r->flagged[i] = f;
	return true;
}

static bool eval_thresholds(struct ctx *c, const struct model_subset *s)
{
	const struct tma_model *m = c->m;
	struct model_result *r = &c->ri->r;
	bool changed = true, failed = false;

	memset(r->flagged, 0, m->nnodes * sizeof(bool));
	/* in threshold order one pass settles every flag outside a cycle of flags */
	for (int k = 0; k < s->ntorder; k++) {
		int i = s->torder[k];

		if (!isnan(r->value[i])) {
			eval_threshold(c, i);
			failed |= c->ri->tfail[i];
		}
	}
	if (!s->ntloop) /* that pass was the last */
		return failed;
	/* bounded, so that a "not X over threshold" flip-flop stops */
	for (int pass = 0; changed && pass <= s->ntloop; pass++) {
		changed = false;
		for (int k = 0; k < s->ntloop; k++) {
			int i = s->tloop[k];

			if (!isnan(r->value[i]))
				changed |= eval_threshold(c, i);
		}
	}
	/* the last pass is stable: its failures are the ones that count */
	failed = false;
	for (int k = 0; k < s->ntorder; k++) {
		int i = s->torder[k];

		failed |= c->ri->tfail[i] && !isnan(r->value[i]);
	}
	return failed;
}

/* From level 1 down: the flagged child with the largest value, until none is flagged. */
static void find_bottleneck(const struct tma_model *m, struct model_result *r)
{
	int cur = -1;

	r->bottleneck_len = 0;
	while (r->bottleneck_len < MODEL_MAX_LEVEL) {
		int best = -1;

		for (int k = m->kid_start[cur + 1]; k < m->kid_start[cur + 2]; k++) {
			int i = m->kids[k];

			if (r->flagged[i] && (best < 0 || r->value[i] > r->value[best]))
				best = i;
		}
		if (best < 0)
			break;
		r->bottleneck[r->bottleneck_len++] = best;
		cur = best;
	}
}

static void eval_values(struct ctx *c, const struct model_subset *s)
{
	const struct tma_model *m = c->m;
	struct value_run vr = { s->order, s->norder, 0, c->ri->stack };

	memset(c->ri->hstate, 0, m->nhelpers);
	if (!s->norder)
		return;
	c->bad = c->absent = false;
	run(c, m->code.node_pc[s->order[0]], vr.stack, &vr);
}

int model_eval(const struct tma_model *m, const struct model_input *in, struct model_result *out)
{
	return model_eval_level(m, in, out, MODEL_MAX_LEVEL, true);
}

int model_eval_level(const struct tma_model *m, const struct model_input *in,
		     struct model_result *out, int max_level, bool with_info)
{
	struct result_impl *ri = (struct result_impl *)out;
	struct ctx c = { .m = m, .in = in, .ri = ri };
	const struct model_subset *s;

	if (!m || !in || !out || out->nnodes != m->nnodes || ri->nhelpers != m->nhelpers ||
	    (m->nevents && !in->events) || max_level < 0)
		return -EINVAL;
	s = &m->subset[with_info][max_level < MODEL_MAX_LEVEL ? max_level : MODEL_MAX_LEVEL];
	/*
	 * Nodes outside the subset stay null: set where the last evaluation
	 * into out had another, as every node of the subset is written below.
	 */
	if (ri->nulled != s || ri->nulled_serial != m->serial) {
		for (int i = 0; i < m->nnodes; i++)
			out->value[i] = NAN;
		ri->nulled = s;
		ri->nulled_serial = m->serial;
	}
	memset(ri->tfail, 0, m->nnodes * sizeof(bool));
	memset(ri->absent, 0, m->nnodes * sizeof(bool));
	/* a node nulled by its threshold reads as 0 in the nodes computed from it: recompute */
	for (int round = 0; round <= m->nnodes; round++) {
		eval_values(&c, s);
		if (!eval_thresholds(&c, s))
			break;
	}
	out->no_tree = NULL;
	find_bottleneck(m, out);
	out->slots = NAN;
	if (m->slots_helper >= 0) {
		/* Cached when a node read it; computed now otherwise. */
		double slots;

		c.bad = false;
		slots = helper(&c, m->slots_helper, ri->stack);

		out->slots = c.bad ? NAN : slots;
	}
	return 0;
}

void model_result_no_slots(const struct tma_model *m, struct model_result *r)
{
	/* r->slots: the evaluation's SLOTS, NAN where it could not be computed */
	if (m->slots_helper < 0 || r->slots > 0)
		return;
	for (int i = 0; i < m->nnodes; i++) {
		if (m->nodes[i].info.level > 0) {
			r->value[i] = NAN;
			r->flagged[i] = false;
		}
	}
	r->bottleneck_len = 0;
	r->no_tree = MODEL_NO_SLOTS;
}
