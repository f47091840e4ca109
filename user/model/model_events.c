// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Which events a model needs at a given level on a given host: the planner
 * opens only those, so branches decided by flags (topdown_use_fixed ...) are
 * resolved first and the untaken branch costs no counter.  And, made once
 * when the model loads, the nodes each output depth computes and those it
 * shows: a level-6 line would otherwise look at all ~300 nodes to find the
 * 105 it shows, reading each node's record.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "model/model_impl.h"

/* Value of e when it depends only on numbers, constants and flags. */
static bool model_expr_static(const struct tma_model *m, int e, unsigned flags, double *v)
{
	const struct expr *x = &m->pool.e[e];
	bool div0 = false;
	double a, b;

	switch (x->kind) {
	case EXPR_NUM:
	case EXPR_CONST:
		*v = x->num;
		return true;
	case EXPR_FLAG:
		*v = (flags & (unsigned)x->a) ? 1 : 0;
		return true;
	case EXPR_NEG:
	case EXPR_NOT:
		if (!model_expr_static(m, x->a, flags, &a))
			return false;
		*v = expr_unary(x->kind, a);
		return true;
	case EXPR_AND:
	case EXPR_OR:
		if (!model_expr_static(m, x->a, flags, &a))
			return false;
		if ((x->kind == EXPR_AND) == (a == 0)) {
			*v = a;
			return true;
		}
		return model_expr_static(m, x->b, flags, v);
	case EXPR_COND:
		if (!model_expr_static(m, x->a, flags, &a))
			return false;
		return model_expr_static(m, a != 0 ? x->b : x->c, flags, v);
	case EXPR_ADD ... EXPR_NE:
	case EXPR_MIN:
	case EXPR_MAX:
		if (!model_expr_static(m, x->a, flags, &a) ||
		    !model_expr_static(m, x->b, flags, &b))
			return false;
		*v = expr_binary(x->kind, a, b, &div0);
		return !div0; /* the evaluator's null, not a value */
	default:
		return false;
	}
}

struct marker {
	const struct tma_model *m;
	unsigned flags;
	bool *needed;
	bool *seen;	   /* helpers, then nodes */
	bool follow_nodes; /* false: one node's own formula and helpers only */
	bool resolve;	   /* take only the branch the flags select */
};

static void mark_entity(struct marker *k, int ent);

static void mark_expr(struct marker *k, int e)
{
	const struct expr *x = &k->m->pool.e[e];
	int kids[3], n;
	double v;

	switch (x->kind) {
	case EXPR_EVENT:
		k->needed[x->a] = true;
		return;
	case EXPR_HELPER:
		mark_entity(k, x->a);
		return;
	case EXPR_NODE:
	case EXPR_OVER:
		if (k->follow_nodes)
			mark_entity(k, k->m->nhelpers + x->a);
		return;
	case EXPR_COND:
		if (k->resolve && model_expr_static(k->m, x->a, k->flags, &v)) {
			mark_expr(k, v != 0 ? x->b : x->c);
			return;
		}
		break;
	case EXPR_AND:
	case EXPR_OR:
		if (k->resolve && model_expr_static(k->m, x->a, k->flags, &v)) {
			if ((x->kind == EXPR_AND) != (v == 0))
				mark_expr(k, x->b);
			return;
		}
		break;
	default:
		break;
	}
	n = expr_operands(&k->m->pool, e, kids);
	for (int i = 0; i < n; i++)
		mark_expr(k, kids[i]);
}

static void mark_entity(struct marker *k, int ent)
{
	const struct tma_model *m = k->m;

	if (k->seen[ent])
		return;
	k->seen[ent] = true;
	if (ent < m->nhelpers) {
		mark_expr(k, m->helpers[ent].root);
		return;
	}
	mark_expr(k, m->nodes[ent - m->nhelpers].formula);
	/* a threshold may read deeper nodes (Retiring reads Heavy_Operations') */
	if (k->follow_nodes && m->nodes[ent - m->nhelpers].threshold >= 0)
		mark_expr(k, m->nodes[ent - m->nhelpers].threshold);
}

static int mark(struct marker k, bool (*want)(const struct model_entry *, const void *),
		const void *arg)
{
	const struct tma_model *m = k.m;
	bool *needed = k.needed;
	int n = 0;

	memset(needed, 0, m->nevents * sizeof(*needed));
	k.seen = calloc(m->nhelpers + m->nnodes + 1, sizeof(*k.seen));
	if (!k.seen)
		return -1;
	for (int i = 0; i < m->nnodes; i++)
		if (want(&m->nodes[i], arg))
			mark_entity(&k, m->nhelpers + i);
	free(k.seen);
	for (int i = 0; i < m->nevents; i++)
		n += needed[i];
	return n;
}

struct level_want {
	int max_level;
	bool with_info;
};

/* Counts have level 0: every depth computes them. */
static bool want_level(const struct model_entry *e, const void *arg)
{
	const struct level_want *w = arg;

	return model_node_in_run(&e->info, w->max_level, w->with_info);
}

int model_events_needed(const struct tma_model *m, int max_level, bool with_info, unsigned flags,
			bool *needed)
{
	struct level_want w = { max_level, with_info };

	return mark((struct marker){ m, flags, needed, NULL, true, true }, want_level, &w);
}

static bool want_one(const struct model_entry *e, const void *arg)
{
	return e == arg;
}

int model_node_events(const struct tma_model *m, int node, bool *needed)
{
	if (node < 0 || node >= m->nnodes)
		return -1;
	return mark((struct marker){ m, 0, needed, NULL, false, false }, want_one, &m->nodes[node]);
}

int model_node_events_for(const struct tma_model *m, int node, unsigned flags, bool *needed)
{
	if (node < 0 || node >= m->nnodes)
		return -1;
	return mark((struct marker){ m, flags, needed, NULL, false, true }, want_one,
		    &m->nodes[node]);
}

/*
 * For each output depth, the nodes it needs: those of level <= max_level
 * (and the Info metrics with with_info) plus every node their formulas and
 * thresholds read, in every branch, since flags may differ between inputs.
 */
static int subset(struct tma_model *m, int max_level, bool with_info, struct model_subset *s)
{
	bool *needed = calloc(m->nevents + 1, sizeof(bool));
	struct level_want w = { max_level, with_info };
	struct marker k = { m, 0, needed, NULL, true, false };
	int *buf = calloc(3 * (m->nnodes + 1), sizeof(int));

	k.seen = calloc(m->nhelpers + m->nnodes + 1, sizeof(bool));
	if (!needed || !buf || !k.seen) {
		free(needed);
		free(buf);
		free(k.seen);
		return -ENOMEM;
	}
	for (int i = 0; i < m->nnodes; i++)
		if (want_level(&m->nodes[i], &w))
			mark_entity(&k, m->nhelpers + i);
	s->order = buf;
	s->torder = buf + m->nnodes + 1;
	s->tloop = buf + 2 * (m->nnodes + 1);
	for (int j = 0; j < m->nnodes; j++) {
		if (k.seen[m->nhelpers + m->order[j]])
			s->order[s->norder++] = m->order[j];
		if (k.seen[m->nhelpers + m->torder[j]] && m->nodes[m->torder[j]].threshold >= 0)
			s->torder[s->ntorder++] = m->torder[j];
	}
	for (int j = 0; j < m->ntloop; j++)
		if (k.seen[m->nhelpers + m->tloop[j]] && m->nodes[m->tloop[j]].threshold >= 0)
			s->tloop[s->ntloop++] = m->tloop[j];
	free(needed);
	free(k.seen);
	return 0;
}

static int make_shown(struct tma_model *m, bool info, int level)
{
	struct model_shown *s = &m->shown[info][level];

	s->node = calloc((size_t)m->nnodes + 1, sizeof(*s->node));
	if (!s->node)
		return -ENOMEM;
	for (int i = 0; i < m->nnodes; i++)
		if (model_node_shown(&m->nodes[i].info, level, info))
			s->node[s->n++] = i;
	return 0;
}

int model_subsets(struct tma_model *m)
{
	for (int info = 0; info < 2; info++)
		for (int l = 0; l <= MODEL_MAX_LEVEL; l++)
			if (subset(m, l, info, &m->subset[info][l]) || make_shown(m, info, l))
				return -ENOMEM;
	return 0;
}
