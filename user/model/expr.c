// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Lexer and recursive-descent parser for model formulas.  The grammar is the
 * Python subset the TMA seed writes (docs/model-format.md, "Expressions"),
 * plus event names with dots and ':' modifiers, which Python would not parse.
 */
#include "model/expr.h"

#include <ctype.h>
#include <math.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Deep enough for any real formula, shallow enough that hostile input cannot exhaust the stack. */
#define EXPR_MAX_DEPTH 200
/* Depth of the tree the evaluator recurses through (a+b+c+... nests one level per term). */
#define EXPR_MAX_TREE 1000

enum tok_kind { T_END, T_NUM, T_NAME, T_EVENT, T_INTERVAL, T_OP, T_LP, T_RP, T_COMMA };

struct tok {
	enum tok_kind kind;
	size_t off, len;
	double num;
	int op; /* T_OP: an EXPR_* operator */
};

struct parser {
	struct expr_pool *p;
	const struct expr_src *src;
	enum expr_mode mode;
	size_t pos;
	struct tok t;
	int ntok; /* tokens consumed before t: a leading comparison has 0 */
	int depth;
	struct expr_error *err;
	int rc;
};

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

/*
 * Records the first error (later ones follow from it) and returns -1, what
 * every parse and lex function returns on failure; ps->rc keeps the errno.
 */
static int fail(struct parser *ps, size_t off, const char *fmt, ...)
{
	va_list ap;

	if (ps->rc)
		return -1;
	expr_src_pos(ps->src, off, &ps->err->line, &ps->err->col);
	va_start(ap, fmt);
	vsnprintf(ps->err->msg, sizeof(ps->err->msg), fmt, ap);
	va_end(ap);
	ps->rc = -EINVAL;
	return -1;
}

/* One level deeper in the parser's recursion: bounded so hostile input cannot exhaust the stack. */
static int enter(struct parser *ps, size_t off)
{
	if (++ps->depth > EXPR_MAX_DEPTH)
		return fail(ps, off, "expression nested too deeply");
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
			fail(ps, off, "out of memory");
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

static bool is_ident(int c)
{
	return isalnum(c) || c == '_';
}

static const char *tok_text(const struct parser *ps, char *buf, size_t len)
{
	if (ps->t.kind == T_END)
		return "end of expression";
	snprintf(buf, len, "'%.*s'", (int)(ps->t.len > 40 ? 40 : ps->t.len),
		 ps->src->text + ps->t.off);
	return buf;
}

static bool tok_is(const struct parser *ps, const char *word)
{
	size_t n = strlen(word);

	return ps->t.kind == T_NAME && ps->t.len == n &&
	       !memcmp(ps->src->text + ps->t.off, word, n);
}

static int lex_number(struct parser *ps, size_t start)
{
	const char *s = ps->src->text;
	size_t i = start, end = ps->src->len;
	char buf[64];

	if (s[i] == '0' && i + 1 < end && (s[i + 1] == 'x' || s[i + 1] == 'X')) {
		unsigned long long v = 0;
		size_t digits = 0;

		for (i += 2; i < end && isxdigit((unsigned char)s[i]); i++, digits++)
			v = v * 16 + (isdigit((unsigned char)s[i]) ?
					      s[i] - '0' :
					      (tolower((unsigned char)s[i]) - 'a' + 10));
		if (!digits || digits > 16)
			return fail(ps, start, "bad hexadecimal number");
		ps->t.num = (double)v;
	} else {
		while (i < end && isdigit((unsigned char)s[i]))
			i++;
		if (i < end && s[i] == '.')
			for (i++; i < end && isdigit((unsigned char)s[i]);)
				i++;
		if (i < end && (s[i] == 'e' || s[i] == 'E')) {
			size_t j = i + 1;

			if (j < end && (s[j] == '+' || s[j] == '-'))
				j++;
			if (j >= end || !isdigit((unsigned char)s[j]))
				return fail(ps, start, "bad number: exponent without digits");
			for (i = j; i < end && isdigit((unsigned char)s[i]);)
				i++;
		}
		if (i - start >= sizeof(buf))
			return fail(ps, start, "number too long");
		memcpy(buf, s + start, i - start);
		buf[i - start] = '\0';
		ps->t.num = strtod(buf, NULL);
		/* 1e999 would be infinity: no counter ratio needs a number past a double. */
		if (!isfinite(ps->t.num))
			return fail(ps, start,
				    "number too large for a double (at most about 1.8e308)");
	}
	if (i < end && (is_ident((unsigned char)s[i]) || s[i] == '.'))
		return fail(ps, start, "bad number");
	ps->t.kind = T_NUM;
	ps->t.len = i - start;
	ps->pos = i;
	return 0;
}

/* NAME, EVENT.UMASK[:mod...], msr/tsc/, interval-s. */
static int lex_word(struct parser *ps, size_t start)
{
	const char *s = ps->src->text;
	size_t i = start, end = ps->src->len;
	bool event = false;

	while (i < end && is_ident((unsigned char)s[i]))
		i++;
	if (i - start == 3 && !memcmp(s + start, "msr", 3) && i < end && s[i] == '/') {
		for (i++; i < end && is_ident((unsigned char)s[i]);)
			i++;
		if (i >= end || s[i] != '/')
			return fail(ps, start, "bad event name: expected msr/NAME/");
		i++;
		event = true;
	} else if (i - start == 8 && !memcmp(s + start, "interval", 8) && i + 1 < end &&
		   s[i] == '-' && s[i + 1] == 's' &&
		   (i + 2 >= end || !is_ident((unsigned char)s[i + 2]))) {
		ps->t.kind = T_INTERVAL;
		ps->t.len = i + 2 - start;
		ps->pos = i + 2;
		return 0;
	} else if (i < end && s[i] == '.') {
		event = true;
		while (i < end && (is_ident((unsigned char)s[i]) || s[i] == '.'))
			i++;
		while (i + 1 < end && s[i] == ':' && is_ident((unsigned char)s[i + 1])) {
			for (i++; i < end && (is_ident((unsigned char)s[i]) || s[i] == '=');)
				i++;
		}
		if (s[i - 1] == '.')
			return fail(ps, start, "bad event name '%.*s'", (int)(i - start),
				    s + start);
	}
	if (i < end && s[i] == ':')
		return fail(ps, i, "unexpected ':' (event modifiers follow an EVENT.UMASK name)");
	ps->t.kind = event ? T_EVENT : T_NAME;
	ps->t.len = i - start;
	ps->pos = i;
	return 0;
}

static int next(struct parser *ps)
{
	const char *s = ps->src->text;
	size_t end = ps->src->len;
	char c;

	if (ps->rc)
		return -1;
	ps->ntok++;
	while (ps->pos < end && isspace((unsigned char)s[ps->pos]))
		ps->pos++;
	memset(&ps->t, 0, sizeof(ps->t));
	ps->t.off = ps->pos;
	if (ps->pos >= end)
		return 0;
	c = s[ps->pos];
	if (isdigit((unsigned char)c) ||
	    (c == '.' && ps->pos + 1 < end && isdigit((unsigned char)s[ps->pos + 1])))
		return lex_number(ps, ps->pos);
	if (isalpha((unsigned char)c) || c == '_')
		return lex_word(ps, ps->pos);
	ps->t.len = 1;
	ps->t.kind = T_OP;
	switch (c) {
	case '+':
		ps->t.op = EXPR_ADD;
		break;
	case '-':
		ps->t.op = EXPR_SUB;
		break;
	case '*':
		ps->t.op = EXPR_MUL;
		break;
	case '/':
		ps->t.op = EXPR_DIV;
		break;
	case '(':
		ps->t.kind = T_LP;
		break;
	case ')':
		ps->t.kind = T_RP;
		break;
	case ',':
		ps->t.kind = T_COMMA;
		break;
	case '<':
	case '>':
	case '=':
	case '!': {
		bool eq = ps->pos + 1 < end && s[ps->pos + 1] == '=';

		if ((c == '=' || c == '!') && !eq)
			return fail(ps, ps->pos, "unexpected '%c' (comparisons are == and !=)", c);
		ps->t.len = eq ? 2 : 1;
		ps->t.op = c == '<' ? (eq ? EXPR_LE : EXPR_LT) :
			   c == '>' ? (eq ? EXPR_GE : EXPR_GT) :
			   c == '=' ? EXPR_EQ :
				      EXPR_NE;
		break;
	}
	default:
		return fail(ps, ps->pos, "unexpected character '%c'",
			    isprint((unsigned char)c) ? c : '?');
	}
	ps->pos += ps->t.len;
	return 0;
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
		return fail(ps, off, "expression too long: split it with helpers");
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
		return fail(ps, ps->t.off, "syntax error: expected %s, found %s", what,
			    tok_text(ps, buf, sizeof(buf)));
	return next(ps);
}

static bool is_keyword(const struct parser *ps)
{
	static const char *const words[] = { "and", "or", "not", "if", "else" };

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (tok_is(ps, words[i]))
			return true;
	return false;
}

/* min(a, b, ...) / max(...): folded into a left-leaning chain of binary nodes. */
static int parse_minmax(struct parser *ps, int kind, size_t off)
{
	int e, nargs = 1;

	if (next(ps) || expect(ps, T_LP, "'(' after min/max"))
		return -1;
	e = parse_cond(ps);
	while (e >= 0 && ps->t.kind == T_COMMA) {
		if (next(ps))
			return -1;
		e = binary(ps, kind, off, e, parse_cond(ps));
		nargs++;
	}
	if (e < 0)
		return -1;
	if (nargs < 2)
		return fail(ps, off, "min/max need at least two arguments");
	if (expect(ps, T_RP, "')' or ','"))
		return -1;
	return e;
}

/* "over threshold" after a name in a threshold. */
static bool over_threshold(struct parser *ps)
{
	struct parser save = *ps;

	if (ps->mode != EXPR_MODE_THRESHOLD || next(ps) || !tok_is(ps, "over"))
		goto no;
	if (next(ps) || !tok_is(ps, "threshold")) {
		if (!ps->rc)
			fail(ps, ps->t.off, "syntax error: expected 'threshold' after 'over'");
		return false;
	}
	next(ps);
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

	if (tok_is(ps, "min") || tok_is(ps, "max")) {
		size_t save = ps->pos;

		while (save < ps->src->len && isspace((unsigned char)ps->src->text[save]))
			save++;
		if (save < ps->src->len && ps->src->text[save] == '(')
			return parse_minmax(ps, tok_is(ps, "min") ? EXPR_MIN : EXPR_MAX, off);
	}
	if (is_keyword(ps))
		return fail(ps, off, "syntax error: unexpected %s", tok_text(ps, buf, sizeof(buf)));
	if (tok_is(ps, "True") || tok_is(ps, "False")) {
		e = pool_add(ps, EXPR_NUM, off);
		if (e >= 0)
			ps->p->e[e].num = *s == 'T';
		return next(ps) ? -1 : e;
	}
	if (ps->mode == EXPR_MODE_THRESHOLD && tok_is(ps, "self")) {
		e = pool_add(ps, EXPR_SELF, off);
		return next(ps) ? -1 : e;
	}
	if (ps->mode == EXPR_MODE_THRESHOLD && tok_is(ps, "parent")) {
		if (!over_threshold(ps))
			return fail(ps, off,
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
			if (e >= 0 && next(ps))
				return -1;
		}
		if (e >= 0)
			ps->p->e[e].a = str;
		if (e >= 0 && ps->t.kind == T_LP)
			return fail(ps, off, "unknown function '%.*s' (only min and max)", (int)len,
				    s);
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
			return fail(ps, off, "bad threshold reference: write self.NAME.thresh");
	}
	str = pool_str(ps, s, len);
	if (str < 0)
		return -1;
	e = pool_add(ps, kind, off);
	if (e < 0)
		return -1;
	ps->p->e[e].a = str;
	return next(ps) ? -1 : e;
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
		if (next(ps))
			return -1;
		break;
	case T_INTERVAL:
		e = pool_add(ps, EXPR_INTERVAL, off);
		if (next(ps))
			return -1;
		break;
	case T_EVENT:
		e = parse_event(ps);
		break;
	case T_NAME:
		e = parse_name(ps);
		break;
	case T_LP:
		if (next(ps))
			return -1;
		e = parse_cond(ps);
		if (e >= 0 && expect(ps, T_RP, "')'"))
			return -1;
		break;
	case T_OP:
		/* A threshold may start with a comparison: "> 0.1" means "self > 0.1". */
		if (ps->mode == EXPR_MODE_THRESHOLD && is_cmp(ps) && ps->ntok == 1) {
			int op = ps->t.op, self = pool_add(ps, EXPR_SELF, off);

			if (next(ps))
				return -1;
			e = binary(ps, op, off, self, parse_add(ps));
			break;
		}
		/* fall through */
	default:
		return fail(ps, off, "syntax error: unexpected %s", tok_text(ps, buf, sizeof(buf)));
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

		if (enter(ps, off) || next(ps))
			return -1;
		e = parse_unary(ps);
		leave(ps);
		if (e < 0 || !neg)
			return e;
		return unary(ps, EXPR_NEG, off, e);
	}
	return parse_primary(ps);
}

static int parse_mul(struct parser *ps)
{
	int e = parse_unary(ps);

	while (e >= 0 && ps->t.kind == T_OP && (ps->t.op == EXPR_MUL || ps->t.op == EXPR_DIV)) {
		int op = ps->t.op;
		size_t off = ps->t.off;

		if (next(ps))
			return -1;
		e = binary(ps, op, off, e, parse_unary(ps));
	}
	return e;
}

static int parse_add(struct parser *ps)
{
	int e = parse_mul(ps);

	while (e >= 0 && ps->t.kind == T_OP && (ps->t.op == EXPR_ADD || ps->t.op == EXPR_SUB)) {
		int op = ps->t.op;
		size_t off = ps->t.off;

		if (next(ps))
			return -1;
		e = binary(ps, op, off, e, parse_mul(ps));
	}
	return e;
}

static int parse_cmp(struct parser *ps)
{
	int e = parse_add(ps);

	if (e >= 0 && is_cmp(ps)) {
		int op = ps->t.op;
		size_t off = ps->t.off;

		if (next(ps))
			return -1;
		e = binary(ps, op, off, e, parse_add(ps));
		if (e >= 0 && is_cmp(ps))
			return fail(ps, ps->t.off,
				    "chained comparison is not supported: join them with 'and'");
	}
	return e;
}

static int parse_not(struct parser *ps)
{
	size_t off = ps->t.off;
	int e;

	if (!tok_is(ps, "not"))
		return parse_cmp(ps);
	if (enter(ps, off) || next(ps))
		return -1;
	e = parse_not(ps);
	leave(ps);
	return unary(ps, EXPR_NOT, off, e);
}

static int parse_logic(struct parser *ps, const char *word, int kind,
		       int (*operand)(struct parser *))
{
	int e = operand(ps);

	while (e >= 0 && tok_is(ps, word)) {
		size_t off = ps->t.off;

		if (next(ps))
			return -1;
		e = binary(ps, kind, off, e, operand(ps));
	}
	return e;
}

static int parse_and(struct parser *ps)
{
	return parse_logic(ps, "and", EXPR_AND, parse_not);
}

static int parse_or(struct parser *ps)
{
	return parse_logic(ps, "or", EXPR_OR, parse_and);
}

/* X if C else Y: lowest precedence, right-associative, as in Python. */
static int parse_cond(struct parser *ps)
{
	int then, cond, other, e;
	size_t off;

	if (enter(ps, ps->t.off))
		return -1;
	then = parse_or(ps);
	if (then < 0 || !tok_is(ps, "if")) {
		leave(ps);
		return then;
	}
	off = ps->t.off;
	if (next(ps))
		return -1;
	cond = parse_or(ps);
	if (cond < 0)
		return -1;
	if (!tok_is(ps, "else")) {
		char buf[64];

		return fail(ps, ps->t.off, "syntax error: expected 'else', found %s",
			    tok_text(ps, buf, sizeof(buf)));
	}
	if (next(ps))
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

	if (next(&ps))
		return ps.rc;
	if (ps.t.kind == T_END) {
		fail(&ps, ps.t.off, "empty expression");
		return ps.rc;
	}
	e = parse_cond(&ps);
	if (e < 0)
		return ps.rc ? ps.rc : -EINVAL;
	if (ps.t.kind != T_END) {
		fail(&ps, ps.t.off, "syntax error: unexpected %s", tok_text(&ps, buf, sizeof(buf)));
		return ps.rc;
	}
	*root = e;
	return 0;
}
