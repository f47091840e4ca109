// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The pool that holds a model's formulas: every expression node in one flat
 * array and every name in one string buffer, referenced by index, so the
 * loader resolves in place and evaluation walks memory it does not allocate.
 * The parser (model/expr.c) adds to it; resolving and compiling read it.
 */
#include "model/expr.h"

#include <stdlib.h>
#include <string.h>

void expr_pool_init(struct expr_pool *p)
{
	memset(p, 0, sizeof(*p));
}

void expr_pool_free(struct expr_pool *p)
{
	free(p->e);
	free(p->str);
	memset(p, 0, sizeof(*p));
}

const char *expr_str(const struct expr_pool *p, int32_t off)
{
	return p->str + off;
}

void expr_src_pos(const struct expr_src *src, size_t off, int *line, int *col)
{
	int i = 0;

	while (i + 1 < src->nsegs && src->segs[i + 1].off <= off)
		i++;
	*line = src->segs[i].line;
	*col = src->segs[i].col + (int)(off - src->segs[i].off);
}

int expr_operands(const struct expr_pool *p, int e, int kids[3])
{
	const struct expr *x = &p->e[e];
	int n = 0;

	switch (x->kind) {
	case EXPR_NEG:
	case EXPR_NOT:
	case EXPR_ADD ... EXPR_COND:
	case EXPR_MIN:
	case EXPR_MAX:
		/* absent operands are -1 (pool_add) */
		kids[n++] = x->a;
		if (x->b >= 0)
			kids[n++] = x->b;
		if (x->c >= 0)
			kids[n++] = x->c;
		return n;
	default:
		return 0;
	}
}
