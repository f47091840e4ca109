// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Evaluates a model on one cgroup's counts with the reference's rules
 * (TMA-MODELS.md "Evaluation rules").  Runs per cgroup per interval: it walks
 * the loaded expression array in dependency order, caches each helper once
 * per evaluation and allocates nothing.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model_impl.h"

/* The public result plus the helper cache, allocated together by model_result_new(). */
struct result_impl {
	struct model_result r;
	double *hval;
	unsigned char *hstate;	/* 0: not computed yet, 1: computed, 2: computed and failed */
	bool *tfail;		/* the threshold divided by zero: the node is null (see eval_thresholds) */
	int nhelpers;
};

struct ctx {
	const struct tma_model *m;
	const struct model_input *in;
	struct result_impl *ri;
	double self;	/* thresholds: the node's own value */
	bool bad;	/* a division by exactly 0.0 or an unmeasured (NAN) event was read */
};

static double eval(struct ctx *c, int e)
{
	const struct expr *x = &c->m->pool.e[e];
	double a, b;

	switch (x->kind) {
	case EXPR_NUM:
	case EXPR_CONST:
		return x->num;
	case EXPR_FLAG:
		return (c->in->flags & (unsigned)x->a) ? 1 : 0;
	case EXPR_EVENT:
		a = c->in->events[x->a];
		if (isnan(a)) {
			c->bad = true;
			return 0;
		}
		return a;
	case EXPR_INTERVAL:
		return c->in->interval_s;
	case EXPR_HELPER: {
		struct result_impl *ri = c->ri;

		/* a helper's value and failure depend only on the input: compute it once */
		if (!ri->hstate[x->a]) {
			bool saved = c->bad;

			c->bad = false;
			ri->hval[x->a] = eval(c, c->m->helpers[x->a].root);
			ri->hstate[x->a] = c->bad ? 2 : 1;
			c->bad = saved;
		}
		if (ri->hstate[x->a] == 2)
			c->bad = true;
		return ri->hval[x->a];
	}
	case EXPR_NODE:
		/* a failed node reads as 0, as the reference does */
		a = c->ri->r.value[x->a];
		return isnan(a) ? 0 : a;
	case EXPR_SELF:
		return c->self;
	case EXPR_OVER:
		return c->ri->r.flagged[x->a];
	case EXPR_NEG:
		return -eval(c, x->a);
	case EXPR_NOT:
		return eval(c, x->a) == 0;
	case EXPR_AND:
		a = eval(c, x->a);
		return a == 0 ? a : eval(c, x->b);
	case EXPR_OR:
		a = eval(c, x->a);
		return a != 0 ? a : eval(c, x->b);
	case EXPR_COND:
		return eval(c, x->a) != 0 ? eval(c, x->b) : eval(c, x->c);
	default:
		break;
	}
	a = eval(c, x->a);
	b = eval(c, x->b);
	switch (x->kind) {
	case EXPR_ADD: return a + b;
	case EXPR_SUB: return a - b;
	case EXPR_MUL: return a * b;
	case EXPR_DIV:
		if (b == 0.0) {
			c->bad = true;
			return 0;
		}
		return a / b;
	case EXPR_LT: return a < b;
	case EXPR_LE: return a <= b;
	case EXPR_GT: return a > b;
	case EXPR_GE: return a >= b;
	case EXPR_EQ: return a == b;
	case EXPR_NE: return a != b;
	case EXPR_MIN: return b < a ? b : a;	/* Python's min keeps the first of equals */
	case EXPR_MAX: return b > a ? b : a;
	default: return NAN;	/* unresolved names cannot reach here: the loader refuses them */
	}
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
	if (!ri->r.value || !ri->r.flagged || !ri->r.bottleneck || !ri->hval || !ri->hstate ||
	    !ri->tfail) {
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
	free(ri);
}

/*
 * Flags depend on other flags (parent over threshold, Retiring on
 * Heavy_Operations'): iterate until none changes.  The reference computes a
 * node's threshold in the same step as its value, so a division by zero that
 * the threshold reaches (Fetch_Bandwidth's HighIPC when there are no clocks)
 * makes the node null: returns true when that happened to a node not yet null.
 */
static bool eval_thresholds(struct ctx *c)
{
	const struct tma_model *m = c->m;
	struct model_result *r = &c->ri->r;
	bool changed = true, failed = false;

	memset(r->flagged, 0, m->nnodes * sizeof(bool));
	/* monotone thresholds settle in depth+1 passes; the bound stops a "not X over" flip-flop */
	for (int pass = 0; changed && pass <= m->nnodes + 1; pass++) {
		changed = false;
		failed = false;
		for (int i = 0; i < m->nnodes; i++) {
			const struct model_entry *e = &m->nodes[i];
			bool f = false;

			if (e->threshold >= 0 && !isnan(r->value[i])) {
				double t;

				c->self = r->value[i];
				c->bad = false;
				t = eval(c, e->threshold);
				f = !c->bad && t != 0;
				failed |= c->bad;
			}
			if (f != r->flagged[i]) {
				r->flagged[i] = f;
				changed = true;
			}
		}
	}
	if (!failed)
		return false;
	/* the last pass was stable: its failures are the ones that count */
	failed = false;
	for (int i = 0; i < m->nnodes; i++) {
		const struct model_entry *e = &m->nodes[i];

		if (e->threshold < 0 || isnan(r->value[i]))
			continue;
		c->self = r->value[i];
		c->bad = false;
		eval(c, e->threshold);
		if (c->bad) {
			c->ri->tfail[i] = true;
			failed = true;
		}
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

		for (int i = 0; i < m->nnodes; i++) {
			if (m->nodes[i].info.is_info || m->nodes[i].info.parent != cur ||
			    !r->flagged[i])
				continue;
			if (best < 0 || r->value[i] > r->value[best])
				best = i;
		}
		if (best < 0)
			break;
		r->bottleneck[r->bottleneck_len++] = best;
		cur = best;
	}
}

static void eval_values(struct ctx *c)
{
	const struct tma_model *m = c->m;
	struct model_result *out = &c->ri->r;

	memset(c->ri->hstate, 0, m->nhelpers);
	for (int k = 0; k < m->nnodes; k++) {
		int i = m->order[k];
		const struct model_entry *e = &m->nodes[i];
		double v;

		c->bad = false;
		v = eval(c, e->formula);
		if (c->bad || c->ri->tfail[i])
			v = NAN;
		else if (v > e->cap)
			v = e->cap;
		out->value[i] = v;
	}
}

int model_eval(const struct tma_model *m, const struct model_input *in, struct model_result *out)
{
	struct result_impl *ri = (struct result_impl *)out;
	struct ctx c = { .m = m, .in = in, .ri = ri };

	if (!m || !in || !out || out->nnodes != m->nnodes || ri->nhelpers != m->nhelpers ||
	    (m->nevents && !in->events))
		return -EINVAL;
	memset(ri->tfail, 0, m->nnodes * sizeof(bool));
	/* a node nulled by its threshold reads as 0 in the nodes computed from it: recompute */
	for (int round = 0; round <= m->nnodes; round++) {
		eval_values(&c);
		if (!eval_thresholds(&c))
			break;
	}
	find_bottleneck(m, out);
	return 0;
}
