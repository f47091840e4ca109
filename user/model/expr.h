/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * Formula expressions of the model format (docs/model-format.md): a lexer
 * (expr_lex.c) and a recursive-descent parser (expr.c) to an AST held in one
 * flat array (struct expr_pool, expr_pool.c), children referenced by index.  The loader resolves names in
 * place; the evaluator walks the same array, so evaluating needs no
 * allocation and touches little memory.
 */
#ifndef TMACG_EXPR_H
#define TMACG_EXPR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum expr_kind {
	EXPR_NUM,	  /* num */
	EXPR_NAME,	  /* unresolved name: a = string offset */
	EXPR_EVNAME,	  /* unresolved event text: a = string offset */
	EXPR_OVERNAME,	  /* unresolved "NAME over threshold" / self.NAME.thresh: a = string */
	EXPR_CONST,	  /* a = constant index (value folded into num) */
	EXPR_FLAG,	  /* a = enum model_flag bit */
	EXPR_EVENT,	  /* a = event index */
	EXPR_LATENCY,	  /* a = retire-latency input index (EVENT:retire_latency) */
	EXPR_INTERVAL,	  /* interval-s */
	EXPR_PMU_SLOTS,	  /* pmu_slots: the host's slot width, 0 when unknown */
	EXPR_HELPER,	  /* a = helper index */
	EXPR_NODE,	  /* a = node index: its value, NAN read as 0 */
	EXPR_SELF,	  /* threshold: the node's own value */
	EXPR_OVER,	  /* threshold: node a is flagged */
	EXPR_PARENT_OVER, /* threshold: the parent is flagged (resolved to EXPR_OVER) */
	EXPR_NEG,	  /* -a */
	EXPR_NOT,
	EXPR_ADD,
	EXPR_SUB,
	EXPR_MUL,
	EXPR_DIV,
	EXPR_LT,
	EXPR_LE,
	EXPR_GT,
	EXPR_GE,
	EXPR_EQ,
	EXPR_NE,
	EXPR_AND,
	EXPR_OR,   /* Python value semantics, short-circuit */
	EXPR_COND, /* a if b else c, lazy */
	EXPR_MIN,
	EXPR_MAX,
};

struct expr {
	uint8_t kind;
	uint16_t depth;	 /* height of this subtree, bounded by the parser */
	int32_t a, b, c; /* operands (pool indices) or an index, by kind */
	double num;
	int line, col; /* where it was written, for resolve errors */
};

struct expr_pool {
	struct expr *e;
	int n, cap;
	char *str; /* NUL-separated names of unresolved nodes */
	size_t slen, scap;
};

/*
 * Where each part of a logical line (physical lines joined at a trailing
 * backslash) came from, so errors name the physical line and column.
 */
struct expr_seg {
	size_t off; /* offset in the logical text where this physical line starts */
	int line;
	int col; /* column of that offset in its physical line, 1-based */
};

struct expr_src {
	const char *text;
	size_t len;
	const struct expr_seg *segs;
	int nsegs;
};

enum expr_mode {
	EXPR_MODE_FORMULA,
	EXPR_MODE_THRESHOLD, /* leading comparison, over threshold, self.X.thresh */
};

struct expr_error {
	int line, col;
	char msg[160];
};

void expr_pool_init(struct expr_pool *p);
void expr_pool_free(struct expr_pool *p);
const char *expr_str(const struct expr_pool *p, int32_t off);

/* Parses src into p; *root is the top expression.  0 or -EINVAL/-ENOMEM with err set. */
int expr_parse(struct expr_pool *p, const struct expr_src *src, enum expr_mode mode, int *root,
	       struct expr_error *err);

/* The physical line and column of offset off in src. */
void expr_src_pos(const struct expr_src *src, size_t off, int *line, int *col);

/*
 * The one list of which kinds have operands: stores e's operands in kids in
 * the order a, b, c and returns how many (0 for a leaf, whose a is an index
 * or a string, never an operand).  Every walk of a tree goes through it.
 */
int expr_operands(const struct expr_pool *p, int e, int kids[3]);

/*
 * The operators' arithmetic, for every place that computes one (constant
 * folding, the flags-only branches, the evaluator), so they cannot disagree.
 * Comparisons give 1 or 0, as Python's True and False count.
 */
static inline double expr_unary(int kind, double a) /* EXPR_NEG, EXPR_NOT */
{
	return kind == EXPR_NEG ? -a : a == 0;
}

/*
 * EXPR_ADD .. EXPR_NE, EXPR_MIN, EXPR_MAX (and/or/if are lazy: their callers
 * decide which operand counts).  A division by exactly 0.0 sets *div0 and
 * gives 0; each caller decides what that means.
 */
static inline double expr_binary(int kind, double a, double b, bool *div0)
{
	switch (kind) {
	case EXPR_ADD:
		return a + b;
	case EXPR_SUB:
		return a - b;
	case EXPR_MUL:
		return a * b;
	case EXPR_DIV:
		if (b == 0.0) {
			*div0 = true;
			return 0;
		}
		return a / b;
	case EXPR_LT:
		return a < b;
	case EXPR_LE:
		return a <= b;
	case EXPR_GT:
		return a > b;
	case EXPR_GE:
		return a >= b;
	case EXPR_EQ:
		return a == b;
	case EXPR_NE:
		return a != b;
	case EXPR_MIN: /* Python's min and max keep the first of equal values */
		return b < a ? b : a;
	default: /* EXPR_MAX */
		return b > a ? b : a;
	}
}

#endif /* TMACG_EXPR_H */
