// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The recursive-descent parser of model formulas, on the lexer's tokens
 * (model/expr_lex.c), into the expression pool (model/expr_pool.c).  The
 * grammar is the Python subset the TMA seed writes (docs/model-format.md,
 * "Expressions"), plus event names with dots and ':' modifiers, which Python
 * would not parse.
 */
#include "model/expr.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/expr_lex.h"

/* Deep enough for any real formula, shallow enough that hostile input cannot exhaust the stack. */
#define EXPR_MAX_DEPTH 200
/* Depth of the tree the evaluator recurses through (a+b+c+... nests one level per term). */
#define EXPR_MAX_TREE 1000

/* One level deeper in the parser's recursion: bounded so hostile input cannot exhaust the stack. */
static int enter(struct parser *ps, size_t off)
{
	if (++ps->depth > EXPR_MAX_DEPTH)
		return expr_fail(ps, off, "expression nested too deeply");
	return 0;
}

static void leave(struct parser *ps)
{
	ps->depth--;
}

static int pool_add(struct parser *ps, int kind, size_t off)
{
	struct expr_pool *p = ps->p;
	struct expr *e;

	if (p->n == p->cap) {
		int cap = p->cap ? p->cap * 2 : 256;
		struct expr *ne = realloc(p->e, cap * sizeof(*ne));

		if (!ne) {
			expr_fail(ps, off, "out of memory");
			ps->rc = -ENOMEM;
			return -1;
		}
		p->e = ne;
		p->cap = cap;
	}
	e = &p->e[p->n];
	memset(e, 0, sizeof(*e));
	e->kind = kind;
	e->a = e->b = e->c = -1;
	expr_src_pos(ps->src, off, &e->line, &e->col);
	return p->n++;
}

static int32_t pool_str(struct parser *ps, const char *s, size_t len)
{
	struct expr_pool *p = ps->p;
	int32_t off;

	if (p->slen + len + 1 > p->scap) {
		size_t cap = p->scap ? p->scap * 2 : 4096;
		char *ns;

		while (cap < p->slen + len + 1)
			cap *= 2;
		ns = realloc(p->str, cap);
		if (!ns) {
			ps->rc = -ENOMEM;
			return -1;
		}
		p->str = ns;
		p->scap = cap;
	}
	off = (int32_t)p->slen;
	memcpy(p->str + off, s, len);
	p->str[off + len] = '\0';
	p->slen += len + 1;
	return off;
}

static bool is_cmp(const struct parser *ps)
{
	return ps->t.kind == T_OP && ps->t.op >= EXPR_LT && ps->t.op <= EXPR_NE;
}

/*
 * The height of e's subtree, from its operands'.  Long operator chains
 * (a + b + c ...) nest without parser recursion: bound them for the walks
 * that recurse through the tree (resolve, compile).
 */
static int set_height(struct parser *ps, int e, size_t off)
{
	int kids[3], n = expr_operands(ps->p, e, kids), h = 0;

	for (int i = 0; i < n; i++)
		if (ps->p->e[kids[i]].depth > h)
			h = ps->p->e[kids[i]].depth;
	ps->p->e[e].depth = h + 1;
	if (h + 1 > EXPR_MAX_TREE)
		return expr_fail(ps, off, "expression too long: split it with helpers");
	return 0;
}

static int binary(struct parser *ps, int kind, size_t off, int a, int b)
{
	int e;

	if (a < 0 || b < 0)
		return -1;
	e = pool_add(ps, kind, off);
	if (e < 0)
		return -1;
	ps->p->e[e].a = a;
	ps->p->e[e].b = b;
	return set_height(ps, e, off) ? -1 : e;
}

static int unary(struct parser *ps, int kind, size_t off, int a)
{
	int e;

	if (a < 0)
		return -1;
	e = pool_add(ps, kind, off);
	if (e < 0)
		return -1;
	ps->p->e[e].a = a;
	return set_height(ps, e, off) ? -1 : e;
}

static int parse_cond(struct parser *ps);
static int parse_add(struct parser *ps);

static int expect(struct parser *ps, enum tok_kind kind, const char *what)
{
	char buf[64];

	if (ps->t.kind != kind)
		return expr_fail(ps, ps->t.off, "syntax error: expected %s, found %s", what,
				 expr_tok_text(ps, buf, sizeof(buf)));
	return expr_next(ps);
}

static bool is_keyword(const struct parser *ps)
{
	static const char *const words[] = { "and", "or", "not", "if", "else" };

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (expr_tok_is(ps, words[i]))
			return true;
	return false;
}

/* min(a, b, ...) / max(...): folded into a left-leaning chain of binary nodes. */
static int parse_minmax(struct parser *ps, int kind, size_t off)
{
	int e, nargs = 1;

	if (expr_next(ps) || expect(ps, T_LP, "'(' after min/max"))
		return -1;
	e = parse_cond(ps);
	while (e >= 0 && ps->t.kind == T_COMMA) {
		if (expr_next(ps))
			return -1;
		e = binary(ps, kind, off, e, parse_cond(ps));
		nargs++;
	}
	if (e < 0)
		return -1;
	if (nargs < 2)
		return expr_fail(ps, off, "min/max need at least two arguments");
	if (expect(ps, T_RP, "')' or ','"))
		return -1;
	return e;
}

/* "over threshold" after a name in a threshold. */
static bool over_threshold(struct parser *ps)
{
	struct parser save = *ps;

	if (ps->mode != EXPR_MODE_THRESHOLD || expr_next(ps) || !expr_tok_is(ps, "over"))
		goto no;
	if (expr_next(ps) || !expr_tok_is(ps, "threshold")) {
		if (!ps->rc)
			expr_fail(ps, ps->t.off, "syntax error: expected 'threshold' after 'over'");
		return false;
	}
	expr_next(ps);
	return true;
no:
	if (ps->rc)
		return false;
	*ps = save;
	return false;
}

static int parse_name(struct parser *ps)
{
	const char *s = ps->src->text + ps->t.off;
	size_t off = ps->t.off, len = ps->t.len;
	char buf[64];
	int e;

	if (expr_tok_is(ps, "min") || expr_tok_is(ps, "max")) {
		size_t save = ps->pos;

		while (save < ps->src->len && isspace((unsigned char)ps->src->text[save]))
			save++;
		if (save < ps->src->len && ps->src->text[save] == '(')
			return parse_minmax(ps, expr_tok_is(ps, "min") ? EXPR_MIN : EXPR_MAX, off);
	}
	if (is_keyword(ps))
		return expr_fail(ps, off, "syntax error: unexpected %s",
				 expr_tok_text(ps, buf, sizeof(buf)));
	if (expr_tok_is(ps, "True") || expr_tok_is(ps, "False")) {
		e = pool_add(ps, EXPR_NUM, off);
		if (e >= 0)
			ps->p->e[e].num = *s == 'T';
		return expr_next(ps) ? -1 : e;
	}
	if (ps->mode == EXPR_MODE_THRESHOLD && expr_tok_is(ps, "self")) {
		e = pool_add(ps, EXPR_SELF, off);
		return expr_next(ps) ? -1 : e;
	}
	if (ps->mode == EXPR_MODE_THRESHOLD && expr_tok_is(ps, "parent")) {
		if (!over_threshold(ps))
			return expr_fail(
				ps, off,
				"syntax error: 'parent' must be followed by 'over threshold'");
		return pool_add(ps, EXPR_PARENT_OVER, off);
	}
	{
		int32_t str = pool_str(ps, s, len);

		if (str < 0)
			return -1;
		if (over_threshold(ps)) {
			e = pool_add(ps, EXPR_OVERNAME, off);
		} else {
			if (ps->rc)
				return -1;
			e = pool_add(ps, EXPR_NAME, off);
			if (e >= 0 && expr_next(ps))
				return -1;
		}
		if (e >= 0)
			ps->p->e[e].a = str;
		if (e >= 0 && ps->t.kind == T_LP)
			return expr_fail(ps, off, "unknown function '%.*s' (only min and max)",
					 (int)len, s);
		return e;
	}
}

static int parse_event(struct parser *ps)
{
	const char *s = ps->src->text + ps->t.off;
	size_t off = ps->t.off, len = ps->t.len;
	int kind = EXPR_EVNAME;
	int32_t str;
	int e;

	/* self.NAME.thresh: the seed's spelling of "NAME over threshold" */
	if (ps->mode == EXPR_MODE_THRESHOLD && len > 12 && !memcmp(s, "self.", 5) &&
	    !memcmp(s + len - 7, ".thresh", 7)) {
		kind = EXPR_OVERNAME;
		s += 5;
		len -= 12;
		if (memchr(s, '.', len) || memchr(s, ':', len))
			return expr_fail(ps, off,
					 "bad threshold reference: write self.NAME.thresh");
	}
	str = pool_str(ps, s, len);
	if (str < 0)
		return -1;
	e = pool_add(ps, kind, off);
	if (e < 0)
		return -1;
	ps->p->e[e].a = str;
	return expr_next(ps) ? -1 : e;
}

static int parse_primary(struct parser *ps)
{
	size_t off = ps->t.off;
	char buf[64];
	int e;

	if (enter(ps, off))
		return -1;
	switch (ps->t.kind) {
	case T_NUM:
		e = pool_add(ps, EXPR_NUM, off);
		if (e >= 0)
			ps->p->e[e].num = ps->t.num;
		if (expr_next(ps))
			return -1;
		break;
	case T_INTERVAL:
		e = pool_add(ps, EXPR_INTERVAL, off);
		if (expr_next(ps))
			return -1;
		break;
	case T_EVENT:
		e = parse_event(ps);
		break;
	case T_NAME:
		e = parse_name(ps);
		break;
	case T_LP:
		if (expr_next(ps))
			return -1;
		e = parse_cond(ps);
		if (e >= 0 && expect(ps, T_RP, "')'"))
			return -1;
		break;
	case T_OP:
		/* A threshold may start with a comparison: "> 0.1" means "self > 0.1". */
		if (ps->mode == EXPR_MODE_THRESHOLD && is_cmp(ps) && ps->ntok == 1) {
			int op = ps->t.op, self = pool_add(ps, EXPR_SELF, off);

			if (expr_next(ps))
				return -1;
			e = binary(ps, op, off, self, parse_add(ps));
			break;
		}
		/* fall through */
	default:
		return expr_fail(ps, off, "syntax error: unexpected %s",
				 expr_tok_text(ps, buf, sizeof(buf)));
	}
	leave(ps);
	return e;
}

static int parse_unary(struct parser *ps)
{
	size_t off = ps->t.off;
	int e;

	if (ps->t.kind == T_OP && (ps->t.op == EXPR_SUB || ps->t.op == EXPR_ADD)) {
		bool neg = ps->t.op == EXPR_SUB;

		if (enter(ps, off) || expr_next(ps))
			return -1;
		e = parse_unary(ps);
		leave(ps);
		if (e < 0 || !neg)
			return e;
		return unary(ps, EXPR_NEG, off, e);
	}
	return parse_primary(ps);
}

/*
 * Operands joined left to right by the operator op1 or op2 (of one
 * precedence), or, word not NULL, by the keyword word (op1).
 */
static int parse_left(struct parser *ps, const char *word, int op1, int op2,
		      int (*operand)(struct parser *))
{
	int e = operand(ps);

	while (e >= 0 && (word ? expr_tok_is(ps, word) :
				 ps->t.kind == T_OP && (ps->t.op == op1 || ps->t.op == op2))) {
		int op = word ? op1 : ps->t.op;
		size_t off = ps->t.off;

		if (expr_next(ps))
			return -1;
		e = binary(ps, op, off, e, operand(ps));
	}
	return e;
}

static int parse_mul(struct parser *ps)
{
	return parse_left(ps, NULL, EXPR_MUL, EXPR_DIV, parse_unary);
}

static int parse_add(struct parser *ps)
{
	return parse_left(ps, NULL, EXPR_ADD, EXPR_SUB, parse_mul);
}

static int parse_cmp(struct parser *ps)
{
	int e = parse_add(ps);

	if (e >= 0 && is_cmp(ps)) {
		int op = ps->t.op;
		size_t off = ps->t.off;

		if (expr_next(ps))
			return -1;
		e = binary(ps, op, off, e, parse_add(ps));
		if (e >= 0 && is_cmp(ps))
			return expr_fail(
				ps, ps->t.off,
				"chained comparison is not supported: join them with 'and'");
	}
	return e;
}

static int parse_not(struct parser *ps)
{
	size_t off = ps->t.off;
	int e;

	if (!expr_tok_is(ps, "not"))
		return parse_cmp(ps);
	if (enter(ps, off) || expr_next(ps))
		return -1;
	e = parse_not(ps);
	leave(ps);
	return unary(ps, EXPR_NOT, off, e);
}

static int parse_and(struct parser *ps)
{
	return parse_left(ps, "and", EXPR_AND, EXPR_AND, parse_not);
}

static int parse_or(struct parser *ps)
{
	return parse_left(ps, "or", EXPR_OR, EXPR_OR, parse_and);
}

/* X if C else Y: lowest precedence, right-associative, as in Python. */
static int parse_cond(struct parser *ps)
{
	int then, cond, other, e;
	size_t off;

	if (enter(ps, ps->t.off))
		return -1;
	then = parse_or(ps);
	if (then < 0 || !expr_tok_is(ps, "if")) {
		leave(ps);
		return then;
	}
	off = ps->t.off;
	if (expr_next(ps))
		return -1;
	cond = parse_or(ps);
	if (cond < 0)
		return -1;
	if (!expr_tok_is(ps, "else")) {
		char buf[64];

		return expr_fail(ps, ps->t.off, "syntax error: expected 'else', found %s",
				 expr_tok_text(ps, buf, sizeof(buf)));
	}
	if (expr_next(ps))
		return -1;
	other = parse_cond(ps);
	if (other < 0)
		return -1;
	e = pool_add(ps, EXPR_COND, off);
	if (e < 0)
		return -1;
	ps->p->e[e].a = cond;
	ps->p->e[e].b = then;
	ps->p->e[e].c = other;
	if (set_height(ps, e, off))
		return -1;
	leave(ps);
	return e;
}

int expr_parse(struct expr_pool *p, const struct expr_src *src, enum expr_mode mode, int *root,
	       struct expr_error *err)
{
	struct parser ps = { .p = p, .src = src, .mode = mode, .err = err };
	char buf[64];
	int e;

	if (expr_next(&ps))
		return ps.rc;
	if (ps.t.kind == T_END) {
		expr_fail(&ps, ps.t.off, "empty expression");
		return ps.rc;
	}
	e = parse_cond(&ps);
	if (e < 0)
		return ps.rc ? ps.rc : -EINVAL;
	if (ps.t.kind != T_END) {
		expr_fail(&ps, ps.t.off, "syntax error: unexpected %s",
			  expr_tok_text(&ps, buf, sizeof(buf)));
		return ps.rc;
	}
	*root = e;
	return 0;
}
