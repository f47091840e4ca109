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
	if (node_gt_num(k, x))
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

_Static_assert(OP_NE - OP_ADD == EXPR_NE - EXPR_ADD,
	       "arithmetic and comparison opcodes follow the expr kinds");

static int block(struct compiler *k, int root)
{
	int pc = k->c->nops;

	k->depth = k->max_depth = 0;
	compile(k, root);
	emit(k, OP_RET, 0);
	/* helpers called from this block stack their values above it: sum the blocks */
	k->c->stack += k->max_depth + 1;
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
	for (int i = 0; i < m->nnodes; i++) {
		c->node_pc[i] = block(&k, m->nodes[i].formula);
		c->thresh_pc[i] =
			m->nodes[i].threshold >= 0 ? block(&k, m->nodes[i].threshold) : -1;
	}
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
