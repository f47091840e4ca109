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

bool model_compile_plain;

struct compiler {
	struct tma_model *m;
	struct model_code *c;
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

/*
 * "node > number" as one op (OP_NODE_GT_NUM): each TMA threshold is a chain
 * of them ("(L3_Bound > 0.05) and (Memory_Bound > 0.2) and ..."), and three
 * dispatches for one comparison were a fifth of an evaluation's ops.
 */
static bool node_gt_num(struct compiler *k, const struct expr *x)
{
	const struct expr *a, *b;
	int num;

	if (model_compile_plain || x->kind != EXPR_GT)
		return false;
	a = &k->m->pool.e[x->a];
	b = &k->m->pool.e[x->b];
	if (a->kind != EXPR_NODE || (b->kind != EXPR_NUM && b->kind != EXPR_CONST) || a->a < 0 ||
	    a->a >= 1 << 16)
		return false;
	num = number(k, b->num);
	if (num >= 1 << 15)
		return false; /* the number is kept: OP_NUM takes it by index */
	emit(k, OP_NODE_GT_NUM, a->a | num << 16);
	push(k, 1);
	return true;
}

static void compile(struct compiler *k, int e);

/*
 * "a + leaf" (or -, *, /) with the leaf a node, an event or a helper: a's
 * code, then one op that reads the leaf and applies the operator
 * (OP_ADD_NODE ...).  Sums of nodes and ratios of events are most of TMA's
 * formulas: a fifth of icx's ops were such a leaf and its operator, two
 * dispatches for one step (issue 27).
 */
static bool binary_with_leaf(struct compiler *k, const struct expr *x)
{
	const struct expr *b;
	int base;

	if (model_compile_plain || x->kind < EXPR_ADD || x->kind > EXPR_DIV)
		return false;
	b = &k->m->pool.e[x->b];
	if (b->kind == EXPR_NODE)
		base = OP_ADD_NODE;
	else if (b->kind == EXPR_EVENT)
		base = OP_ADD_EVENT;
	else if (b->kind == EXPR_HELPER)
		base = OP_ADD_HELPER;
	else
		return false;
	compile(k, x->a);
	emit(k, base + (x->kind - EXPR_ADD), b->a);
	return true;
}

static void compile(struct compiler *k, int e)
{
	const struct expr *x = &k->m->pool.e[e];
	int j1, j2;

	switch (x->kind) {
	case EXPR_NUM:
	case EXPR_CONST:
		emit(k, OP_NUM, number(k, x->num));
		push(k, 1);
		return;
	case EXPR_EVENT:
		emit(k, OP_EVENT, x->a);
		push(k, 1);
		return;
	case EXPR_LATENCY:
		emit(k, OP_LATENCY, x->a);
		push(k, 1);
		return;
	case EXPR_INTERVAL:
		emit(k, OP_INTERVAL, 0);
		push(k, 1);
		return;
	case EXPR_PMU_SLOTS:
		emit(k, OP_PMU_SLOTS, 0);
		push(k, 1);
		return;
	case EXPR_FLAG:
		emit(k, OP_FLAG, x->a);
		push(k, 1);
		return;
	case EXPR_HELPER:
		emit(k, OP_HELPER, x->a);
		push(k, 1);
		return;
	case EXPR_NODE:
		emit(k, OP_NODE, x->a);
		push(k, 1);
		return;
	case EXPR_SELF:
		emit(k, OP_SELF, 0);
		push(k, 1);
		return;
	case EXPR_OVER:
		emit(k, OP_OVER, x->a);
		push(k, 1);
		return;
	case EXPR_NEG:
	case EXPR_NOT:
		compile(k, x->a);
		emit(k, x->kind == EXPR_NEG ? OP_NEG : OP_NOT, 0);
		return;
	case EXPR_AND:
	case EXPR_OR:
		compile(k, x->a);
		j1 = emit(k, x->kind == EXPR_AND ? OP_AND : OP_OR, 0);
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
	if (node_gt_num(k, x) || binary_with_leaf(k, x))
		return;
	compile(k, x->a);
	compile(k, x->b);
	push(k, -1);
	emit(k,
	     x->kind == EXPR_MIN ? OP_MIN :
	     x->kind == EXPR_MAX ? OP_MAX :
				   OP_ADD + (x->kind - EXPR_ADD),
	     0);
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
 * flag (OP_OVER), which the parent's threshold has just set: one comparison
 * and a flag, not one comparison per level (level 6 evaluates 105 thresholds
 * per cgroup per interval, issue 27).  The same truth exactly where
 *   - the parent's links each compare a node with a number >= 0 (no event,
 *     no division: no formula failure a flag would not carry; a node that is
 *     null reads as 0, below every such number), one of them the parent's own
 *     value (a null parent is never flagged, and its links are then false);
 *   - the parent's flag is settled first: before the node in threshold
 *     order, and neither repeated with a cycle of flags.
 * The plain compilation (model_compile_plain) keeps every link: test_golden
 * holds the two to the same flags on every vector.
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
static int own_links(const struct tma_model *m, int i, const int *torder_pos, const bool *looped,
		     int *links)
{
	int p = m->nodes[i].info.parent, plinks[MAX_LINKS], n, np, own;
	bool reads_parent = false;

	if (model_compile_plain || p < 0 || m->nodes[i].threshold < 0 ||
	    m->nodes[p].threshold < 0 || looped[i] || looped[p] || torder_pos[p] > torder_pos[i])
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
		jumps[l] = emit(k, OP_AND, 0);
		push(k, -1);
	}
	emit(k, OP_OVER, k->m->nodes[i].info.parent);
	push(k, 1);
	for (int l = 0; l < own; l++)
		if (jumps[l] >= 0)
			k->c->ops[jumps[l]].arg = k->c->nops;
	block_end(k);
	return pc;
}

_Static_assert(OP_DIV_NODE - OP_ADD_NODE == EXPR_DIV - EXPR_ADD &&
		       OP_DIV_EVENT - OP_ADD_EVENT == EXPR_DIV - EXPR_ADD &&
		       OP_DIV_HELPER - OP_ADD_HELPER == EXPR_DIV - EXPR_ADD,
	       "a leaf's operators in OP_ADD's order");
_Static_assert(OP_NE - OP_ADD == EXPR_NE - EXPR_ADD,
	       "arithmetic and comparison opcodes follow the expr kinds");

static int block(struct compiler *k, int root)
{
	int pc = block_begin(k);

	compile(k, root);
	block_end(k);
	return pc;
}

/*
 * An OP_AND whose target is another OP_AND jumps straight to that one's
 * target: the 0 it keeps would make the second jump too (a chain of "and"
 * falls through every link once its first is false).  OP_OR likewise.
 * Targets only lie ahead, so each chain ends.
 */
static void thread_jumps(struct model_code *c)
{
	for (int pc = 0; pc < c->nops; pc++) {
		int code = c->ops[pc].code, t = c->ops[pc].arg;

		if (code != OP_AND && code != OP_OR)
			continue;
		while (t > pc && t < c->nops && c->ops[t].code == code)
			t = c->ops[t].arg;
		c->ops[pc].arg = t;
	}
}

int model_compile(struct tma_model *m)
{
	struct model_code *c = &m->code;
	struct compiler k = { .m = m, .c = c };
	int *torder_pos;
	bool *looped;

	c->helper_pc = calloc(m->nhelpers + 1, sizeof(int));
	c->node_pc = calloc(m->nnodes + 1, sizeof(int));
	c->thresh_pc = calloc(m->nnodes + 1, sizeof(int));
	if (!c->helper_pc || !c->node_pc || !c->thresh_pc)
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
		int links[MAX_LINKS], own = own_links(m, i, torder_pos, looped, links);

		c->node_pc[i] = block(&k, m->nodes[i].formula);
		c->thresh_pc[i] = own ? parent_flag_block(&k, i, links, own) :
				  m->nodes[i].threshold >= 0 ? block(&k, m->nodes[i].threshold) :
							       -1;
	}
	free(torder_pos);
	free(looped);
	if (!k.rc && !model_compile_plain)
		thread_jumps(c);
	return k.rc;
}

void model_code_free(struct model_code *c)
{
	free(c->ops);
	free(c->num);
	free(c->helper_pc);
	free(c->node_pc);
	free(c->thresh_pc);
	memset(c, 0, sizeof(*c));
}
