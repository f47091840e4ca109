// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Compiles the resolved expression trees to postfix code once at load, so
 * model_eval, which runs per cgroup per interval, loops over a flat array
 * instead of recursing through the tree.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "model/model_impl.h"

struct compiler {
	struct tma_model *m;
	struct model_code *c;
	bool plain; /* model_compile's: no rewrite */
	int cap, numcap;
	int depth, max_depth; /* value stack of the block being compiled */
	int rc;
};

static int emit(struct compiler *k, int code, int arg)
{
	struct model_code *c = k->c;

	if (c->nops == k->cap) {
		int cap = k->cap ? 2 * k->cap : 1024;
		struct model_op *n = realloc(c->ops, cap * sizeof(*n));

		if (!n) {
			k->rc = -ENOMEM;
			return -1;
		}
		c->ops = n;
		k->cap = cap;
	}
	c->ops[c->nops] = (struct model_op){ code, arg };
	return c->nops++;
}

static int number(struct compiler *k, double v)
{
	struct model_code *c = k->c;

	for (int i = 0; i < c->nnum; i++)
		if (!memcmp(&c->num[i], &v, sizeof(v)))
			return i;
	if (c->nnum == k->numcap) {
		int cap = k->numcap ? 2 * k->numcap : 64;
		double *n = realloc(c->num, cap * sizeof(*n));

		if (!n) {
			k->rc = -ENOMEM;
			return 0;
		}
		c->num = n;
		k->numcap = cap;
	}
	c->num[c->nnum] = v;
	return c->nnum++;
}

static void push(struct compiler *k, int n)
{
	k->depth += n;
	if (k->depth > k->max_depth)
		k->max_depth = k->depth;
}

static void compile(struct compiler *k, int e)
{
	const struct expr *x = &k->m->pool.e[e];
	int j1, j2;

	switch (x->kind) {
	case EXPR_NUM:
	case EXPR_CONST:
		emit(k, EXPR_NUM, number(k, x->num));
		push(k, 1);
		return;
	case EXPR_EVENT:
	case EXPR_LATENCY:
	case EXPR_INTERVAL:
	case EXPR_PMU_SLOTS:
	case EXPR_FLAG:
	case EXPR_HELPER:
	case EXPR_NODE:
	case EXPR_SELF:
	case EXPR_OVER:
		emit(k, x->kind, x->a);
		push(k, 1);
		return;
	case EXPR_NEG:
	case EXPR_NOT:
		compile(k, x->a);
		emit(k, x->kind, 0);
		return;
	case EXPR_AND:
	case EXPR_OR:
		compile(k, x->a);
		j1 = emit(k, x->kind, 0);
		push(k, -1);
		compile(k, x->b);
		if (j1 >= 0)
			k->c->ops[j1].arg = k->c->nops;
		return;
	case EXPR_COND: /* cond JZ else; then JMP end; else: ...; end: */
		compile(k, x->a);
		j1 = emit(k, OP_JZ, 0);
		push(k, -1);
		compile(k, x->b);
		j2 = emit(k, OP_JMP, 0);
		push(k, -1);
		if (j1 >= 0)
			k->c->ops[j1].arg = k->c->nops;
		compile(k, x->c);
		if (j2 >= 0)
			k->c->ops[j2].arg = k->c->nops;
		return;
	default:
		break;
	}
	compile(k, x->a);
	compile(k, x->b);
	push(k, -1);
	emit(k, x->kind, 0);
}

/* A block of code (a formula, a threshold) starts here: its value stack is empty. */
static int block_begin(struct compiler *k)
{
	k->depth = k->max_depth = 0;
	return k->c->nops;
}

static void block_end(struct compiler *k)
{
	emit(k, OP_RET, 0);
	/* helpers called from this block stack their values above it: sum the blocks */
	k->c->stack += k->max_depth + 1;
}

/*
 * A deep node's threshold repeats every ancestor's: "(MEM_Latency > 0.1) and
 * (L3_Miss_Bound > 0.1) and (Memory_Bound > 0.2) and (Backend_Bound > 0.2)"
 * is MEM_Latency's own comparison, then L3_Miss_Bound's whole threshold link
 * for link.  Such a threshold is compiled as its own links and the parent's
 * flag (EXPR_OVER), which the parent's threshold has just set: one comparison
 * and a flag, not one comparison per level (level 6 evaluates 105 thresholds
 * per cgroup per interval).  The same truth exactly where
 *   - the parent's links each compare a node with a number >= 0 (no event,
 *     no division: no formula failure a flag would not carry; a node that is
 *     null reads as 0, below every such number), one of them the parent's own
 *     value (a null parent is never flagged, and its links are then false);
 *   - the parent's flag is settled first: before the node in threshold
 *     order, and neither repeated with a cycle of flags.
 * The plain compilation keeps every link: test_golden and
 * test_threshold_chain hold the two to the same flags.
 */
#define MAX_LINKS 64

/* The links of an "and" chain (left-associated as parsed) into links[]; their count, -1: too many. */
static int and_links(const struct tma_model *m, int e, int *links, int n)
{
	const struct expr *x = &m->pool.e[e];

	if (x->kind == EXPR_AND) {
		n = and_links(m, x->a, links, n);
		return n < 0 ? n : and_links(m, x->b, links, n);
	}
	if (n == MAX_LINKS)
		return -1;
	links[n] = e;
	return n + 1;
}

/* Link e compares node `node` (or, in owner's own threshold, its value: self) with a number >= 0. */
static bool node_above(const struct tma_model *m, int e, int owner, int *node, double *num)
{
	const struct expr *x = &m->pool.e[e], *a, *b;

	if (x->kind != EXPR_GT)
		return false;
	a = &m->pool.e[x->a];
	b = &m->pool.e[x->b];
	if ((b->kind != EXPR_NUM && b->kind != EXPR_CONST) || !(b->num >= 0))
		return false;
	if (a->kind == EXPR_NODE)
		*node = a->a;
	else if (a->kind == EXPR_SELF)
		*node = owner;
	else
		return false;
	*num = b->num;
	return true;
}

/*
 * Node i's threshold as its own links then its parent's (the rules above):
 * how many links are its own, 0 where it is not so.
 */
static int own_links(const struct compiler *k, int i, const int *torder_pos, const bool *looped,
		     int *links)
{
	const struct tma_model *m = k->m;
	int p = m->nodes[i].info.parent, plinks[MAX_LINKS], n, np, own;
	bool reads_parent = false;

	if (k->plain || p < 0 || m->nodes[i].threshold < 0 || m->nodes[p].threshold < 0 ||
	    looped[i] || looped[p] || torder_pos[p] > torder_pos[i])
		return 0;
	n = and_links(m, m->nodes[i].threshold, links, 0);
	np = and_links(m, m->nodes[p].threshold, plinks, 0);
	own = n - np;
	if (n < 0 || np < 0 || own < 1)
		return 0;
	for (int k = 0; k < np; k++) {
		int a, b;
		double x, y;

		if (!node_above(m, plinks[k], p, &a, &x) ||
		    !node_above(m, links[own + k], i, &b, &y) || a != b || x != y)
			return 0;
		reads_parent |= a == p;
	}
	return reads_parent ? own : 0;
}

/* The own links, each an "and" (a false one jumps to the end with its 0), then the parent's flag. */
static int parent_flag_block(struct compiler *k, int i, const int *links, int own)
{
	int pc = block_begin(k), jumps[MAX_LINKS];

	for (int l = 0; l < own; l++) {
		compile(k, links[l]);
		jumps[l] = emit(k, EXPR_AND, 0);
		push(k, -1);
	}
	emit(k, EXPR_OVER, k->m->nodes[i].info.parent);
	push(k, 1);
	for (int l = 0; l < own; l++)
		if (jumps[l] >= 0)
			k->c->ops[jumps[l]].arg = k->c->nops;
	block_end(k);
	return pc;
}

/*
 * Node i's threshold as data where it is one comparison (node_above) and,
 * with own links, its parent's flag (own 1); else above_node[i] stays -1.
 * The plain compilation runs every threshold's code.
 */
static void above(struct compiler *k, int i, const int *links, int own)
{
	const struct tma_model *m = k->m;
	struct model_code *c = k->c;
	int root = m->nodes[i].threshold, node;
	double num;
	bool one = !k->plain && root >= 0 &&
		   (own == 1 ? node_above(m, links[0], i, &node, &num) :
			       !own && node_above(m, root, i, &node, &num));

	c->above_node[i] = one ? node : -1;
	c->above_num[i] = one ? num : 0;
	c->above_parent[i] = one && own ? m->nodes[i].info.parent : -1;
}

static int block(struct compiler *k, int root)
{
	int pc = block_begin(k);

	compile(k, root);
	block_end(k);
	return pc;
}

int model_compile(struct tma_model *m, bool plain)
{
	struct model_code *c = &m->code;
	struct compiler k = { .m = m, .c = c, .plain = plain };
	int *torder_pos;
	bool *looped;

	c->helper_pc = calloc(m->nhelpers + 1, sizeof(int));
	c->node_pc = calloc(m->nnodes + 1, sizeof(int));
	c->thresh_pc = calloc(m->nnodes + 1, sizeof(int));
	c->above_node = calloc(m->nnodes + 1, sizeof(int));
	c->above_parent = calloc(m->nnodes + 1, sizeof(int));
	c->above_num = calloc(m->nnodes + 1, sizeof(double));
	if (!c->helper_pc || !c->node_pc || !c->thresh_pc || !c->above_node || !c->above_parent ||
	    !c->above_num)
		return -ENOMEM;
	m->slots_helper = -1;
	for (int h = 0; h < m->nhelpers; h++) {
		c->helper_pc[h] = block(&k, m->helpers[h].root);
		if (!strcmp(m->helpers[h].name, "SLOTS"))
			m->slots_helper = h;
	}
	torder_pos = calloc(m->nnodes + 1, sizeof(int));
	looped = calloc(m->nnodes + 1, sizeof(bool));
	if (!torder_pos || !looped) {
		free(torder_pos);
		free(looped);
		return -ENOMEM;
	}
	for (int j = 0; j < m->nnodes; j++)
		torder_pos[m->torder[j]] = j;
	for (int j = 0; j < m->ntloop; j++)
		looped[m->tloop[j]] = true;
	for (int i = 0; i < m->nnodes; i++) {
		int links[MAX_LINKS], own = own_links(&k, i, torder_pos, looped, links);

		c->node_pc[i] = block(&k, m->nodes[i].formula);
		c->thresh_pc[i] = own ? parent_flag_block(&k, i, links, own) :
				  m->nodes[i].threshold >= 0 ? block(&k, m->nodes[i].threshold) :
							       -1;
		above(&k, i, links, own);
	}
	free(torder_pos);
	free(looped);
	return k.rc;
}

void model_code_free(struct model_code *c)
{
	free(c->ops);
	free(c->num);
	free(c->helper_pc);
	free(c->node_pc);
	free(c->thresh_pc);
	free(c->above_node);
	free(c->above_parent);
	free(c->above_num);
	memset(c, 0, sizeof(*c));
}
