// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * PromQL text of a model's trees (rules_expr.h).  Each operand is made once
 * as text and spliced where the operator needs it; `min`, `max` and the lazy
 * operators of two vectors repeat an operand (PromQL has no element-wise
 * min or conditional), which Prometheus evaluates again: the cost of a rule
 * is in docs/prometheus.md.
 */
#include "prom/rules_expr.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model_view.h"
#include "util/double_text.h"

struct tr {
	const struct rules_state *s;
	const char *self; /* a threshold's node value, NULL in formulas */
};

static struct pq translate(struct tr *t, int e);

/* The generator runs on one thread (tmacg --prometheus-rules), start to end. */
static bool out_of_memory;

void rules_out_of_memory(void)
{
	out_of_memory = true;
}

bool rules_take_out_of_memory(void)
{
	bool was = out_of_memory;

	out_of_memory = false;
	return was;
}

FILE *rules_stream(char **text, size_t *len)
{
	FILE *f = open_memstream(text, len);

	if (!f)
		rules_out_of_memory();
	return f;
}

char *rules_stream_end(FILE *f, char **text)
{
	if (fclose(f)) {
		rules_out_of_memory();
		free(*text);
		*text = NULL;
	}
	return *text;
}

char *rules_fmt(const char *f, ...)
{
	va_list ap;
	char *out;

	va_start(ap, f);
	if (vasprintf(&out, f, ap) < 0) {
		out = NULL;
		rules_out_of_memory();
	}
	va_end(ap);
	return out;
}

static struct pq number(double v)
{
	return (struct pq){ .num = v };
}

static struct pq vec(char *text)
{
	return (struct pq){ .text = text, .absent = !text };
}

static const struct pq absent = { .absent = true };

static void pq_free(struct pq *p)
{
	free(p->text);
	p->text = NULL;
}

/* fmt, its one %s a's text, as a vector; a freed. */
__attribute__((format(printf, 1, 0))) static struct pq around(const char *fmt, struct pq a)
{
	struct pq out = vec(rules_fmt(fmt, a.text));

	pq_free(&a);
	return out;
}

/* A number as PromQL reads it back exactly. */
static char *num_text(double v)
{
	char buf[DOUBLE_TEXT_MAX];

	shortest_double(v, buf);
	return rules_fmt("%s", buf);
}

/* text with PromQL's string escapes (\\ and "), malloc'ed. */
static char *quote(const char *text)
{
	size_t n = strlen(text);
	char *out = malloc(2 * n + 1), *p = out;

	if (!out) {
		rules_out_of_memory();
		return NULL;
	}
	for (; *text; text++) {
		if (*text == '\\' || *text == '"')
			*p++ = '\\';
		*p++ = *text;
	}
	*p = '\0';
	return out;
}

char *rules_recorded(const struct rules_state *s, const char *name, int node)
{
	char *path = quote(model_node(s->m, node)->path);
	char *out = path ? rules_fmt("sum without (tma_node, level) (%s%s{%s,tma_node=\"%s\"})",
				     name, s->window, s->sel, path) :
			   NULL;

	free(path);
	return out;
}

/* A vector of 0 for every workload of the state. */
static char *zero_vector(const struct rules_state *s)
{
	return rules_fmt("(0 * %s%s{%s})", RULES_EVENT_SUMS, s->window, s->sel);
}

/* A number where a vector is needed: that number for every workload of the state. */
static char *as_vector(const struct rules_state *s, struct pq p)
{
	char *base, *num, *out;

	if (p.text)
		return p.text;
	base = zero_vector(s);
	num = num_text(p.num);
	out = base && num ? rules_fmt("(%s + %s)", base, num) : NULL;
	free(base);
	free(num);
	return out;
}

/* Text of an operand: a vector's, or the number's. */
static char *operand(struct pq *p)
{
	if (!p->text)
		p->text = num_text(p->num);
	return p->text;
}

/* Marks the events node i's value reads, its helpers and the nodes it reads included. */
static void mark_events(const struct rules_state *s, int e, bool *events, bool *seen_node)
{
	const struct expr_pool *pool = model_view_pool(s->m);
	const struct expr *x = &pool->e[e];
	int kids[3], n;

	if (x->kind == EXPR_EVENT) {
		events[x->a] = true;
		return;
	}
	if (x->kind == EXPR_HELPER) {
		mark_events(s, model_view_helper(s->m, x->a), events, seen_node);
		return;
	}
	if (x->kind == EXPR_NODE) {
		if (!seen_node[x->a]) {
			seen_node[x->a] = true;
			mark_events(s, model_view_formula(s->m, x->a), events, seen_node);
		}
		return;
	}
	/* b if a else c: a branch the flags decide, only the one taken */
	if (x->kind == EXPR_COND) {
		struct tr t = { .s = s };
		struct pq c = translate(&t, x->a);

		if (!c.text && !c.absent) {
			mark_events(s, c.num != 0 ? x->b : x->c, events, seen_node);
			return;
		}
		pq_free(&c);
	}
	n = expr_operands(pool, e, kids);
	for (int k = 0; k < n; k++)
		mark_events(s, kids[k], events, seen_node);
}

/* 0 for every workload that has every count node i reads: where its nulls read as 0. */
static char *events_present(const struct rules_state *s, int i)
{
	int nev = model_event_count(s->m), k = 0;
	bool *events = calloc(nev + 1, sizeof(bool));
	bool *seen = calloc(model_node_count(s->m) + 1, sizeof(bool));
	char *re = NULL, *out = NULL;
	size_t len = 0;
	FILE *f = events && seen ? rules_stream(&re, &len) : NULL;

	if (!events || !seen)
		rules_out_of_memory();
	if (!f)
		goto done;
	mark_events(s, model_view_formula(s->m, i), events, seen);
	for (int e = 0; e < nev; e++) {
		if (!events[e])
			continue;
		if (k++)
			fputc('|', f);
		/* a regular expression in a PromQL string: its metacharacters escaped twice */
		for (const char *c = model_event_name(s->m, e); *c; c++) {
			if (strchr(".+*?()[]{}|^$\\", *c))
				fputs("\\\\", f);
			if (*c == '"')
				fputc('\\', f);
			fputc(*c, f);
		}
	}
	if (rules_stream_end(f, &re))
		out = k ? rules_fmt("(0 * (count without (event) (%s%s{%s,event=~\"%s\"}) == %d))",
				    RULES_EVENTS, s->window, s->sel, re, k) :
			  zero_vector(s);
done:
	free(re);
	free(events);
	free(seen);
	return out;
}

/*
 * A node read by a formula: its value, or 0 where it is null for a division by
 * zero.  A threshold reads 0 wherever the node is null, a count missing
 * included (the evaluator's thresholds fail on a division by zero only).
 */
static struct pq node_read(struct tr *t, int i)
{
	const struct model_node_info *n = model_node(t->s->m, i);
	char *v = n->level >= 1 && n->level <= t->s->level && !n->is_info && !n->is_count ?
			  rules_recorded(t->s, RULES_RATIO, i) :
			  rules_node_value(t->s, i);
	char *present = t->self ? zero_vector(t->s) : events_present(t->s, i);
	struct pq out =
		vec(present ? (v ? rules_fmt("(%s or %s)", v, present) : rules_fmt("%s", present)) :
			      NULL);

	free(v);
	free(present);
	return out;
}

/* Node i's flag read by a threshold: 1 or 0, 0 while it has no value. */
static struct pq flag_read(struct tr *t, int i)
{
	const struct model_node_info *n = model_node(t->s->m, i);
	char *f, *base;
	struct pq out;

	if (model_view_threshold(t->s->m, i) < 0)
		return number(0);
	f = n->level >= 1 && n->level <= t->s->level ? rules_recorded(t->s, RULES_FLAGGED, i) :
						       rules_node_flag(t->s, i);
	if (!f)
		return number(0);
	base = zero_vector(t->s);
	out = vec(base ? rules_fmt("(%s or %s)", f, base) : NULL);
	free(f);
	free(base);
	return out;
}

static struct pq event_read(struct tr *t, int e)
{
	char *name = quote(model_event_name(t->s->m, e));
	struct pq out = vec(name ? rules_fmt("sum without (event) (%s%s{%s,event=\"%s\"})",
					     RULES_EVENTS, t->s->window, t->s->sel, name) :
				   NULL);

	free(name);
	return out;
}

/* The PromQL operator of each arithmetic and comparison kind. */
static const char *const op_text[] = {
	[EXPR_ADD] = "+", [EXPR_SUB] = "-", [EXPR_MUL] = "*", [EXPR_DIV] = "/", [EXPR_LT] = "<",
	[EXPR_LE] = "<=", [EXPR_GT] = ">",  [EXPR_GE] = ">=", [EXPR_EQ] = "==", [EXPR_NE] = "!=",
};

/* min or max of two operands, one of them at least a vector (Python keeps the first of equals). */
static char *min_max(bool min, struct pq *a, struct pq *b)
{
	if (!a->text)
		return rules_fmt("%s(%s, %s)", min ? "clamp_max" : "clamp_min", b->text,
				 operand(a));
	if (!b->text)
		return rules_fmt("%s(%s, %s)", min ? "clamp_max" : "clamp_min", a->text,
				 operand(b));
	return rules_fmt("((%s %s %s) or (%s %s %s))", a->text, min ? "<=" : ">=", b->text, b->text,
			 min ? "<" : ">", a->text);
}

static struct pq binary(int kind, struct pq a, struct pq b)
{
	struct pq out;
	bool div0 = false;

	if (a.absent || b.absent) {
		pq_free(&a);
		pq_free(&b);
		return absent;
	}
	if (!a.text && !b.text) {
		double v = expr_binary(kind, a.num, b.num, &div0);

		return div0 ? absent : number(v);
	}
	if (kind == EXPR_DIV && !b.text && b.num == 0) {
		pq_free(&a);
		return absent;
	}
	if (kind == EXPR_MIN || kind == EXPR_MAX)
		out = vec(min_max(kind == EXPR_MIN, &a, &b));
	else if (kind == EXPR_DIV && b.text)
		out = vec(rules_fmt("(%s / (%s != 0))", operand(&a), b.text));
	else if (kind >= EXPR_LT && kind <= EXPR_NE)
		out = vec(rules_fmt("(%s %s bool %s)", operand(&a), op_text[kind], operand(&b)));
	else
		out = vec(rules_fmt("(%s %s %s)", operand(&a), op_text[kind], operand(&b)));
	pq_free(&a);
	pq_free(&b);
	return out;
}

/* x if c else y, c a vector: each branch where c decides it. */
static struct pq choose(struct tr *t, struct pq c, struct pq x, struct pq y)
{
	char *xv = x.absent ? NULL : as_vector(t->s, x), *yv = y.absent ? NULL : as_vector(t->s, y);
	struct pq out;

	if (xv && yv)
		out = vec(rules_fmt("((%s and (%s != 0)) or (%s and (%s == 0)))", xv, c.text, yv,
				    c.text));
	else if (xv)
		out = vec(rules_fmt("(%s and (%s != 0))", xv, c.text));
	else if (yv)
		out = vec(rules_fmt("(%s and (%s == 0))", yv, c.text));
	else
		out = absent;
	free(xv);
	free(yv);
	pq_free(&c);
	return out;
}

static struct pq lazy(struct tr *t, const struct expr *x)
{
	struct pq a, b, c;
	char *keep;

	if (x->kind == EXPR_COND) { /* x->b if x->a else x->c: the branch not taken is no matter */
		c = translate(t, x->a);
		if (c.absent || !c.text)
			return c.absent ? c : translate(t, c.num != 0 ? x->b : x->c);
		a = translate(t, x->b);
		return choose(t, c, a, translate(t, x->c));
	}
	/* Python: a and b is a when a is 0, else b; a or b is a when a is not 0, else b */
	a = translate(t, x->a);
	if (a.absent)
		return a;
	if (!a.text)
		return (x->kind == EXPR_AND) == (a.num == 0) ? a : translate(t, x->b);
	b = translate(t, x->b);
	keep = rules_fmt("(%s %s 0)", a.text, x->kind == EXPR_AND ? "==" : "!=");
	if (x->kind == EXPR_AND)
		return choose(t, a, b, vec(keep));
	return choose(t, a, vec(keep), b);
}

static struct pq translate(struct tr *t, int e)
{
	const struct rules_state *s = t->s;
	const struct expr *x = &model_view_pool(s->m)->e[e];
	struct pq a;

	switch (x->kind) {
	case EXPR_NUM:
	case EXPR_CONST:
		return number(x->num);
	case EXPR_FLAG:
		return number((s->flags & (unsigned)x->a) != 0);
	case EXPR_PMU_SLOTS: /* a state without the label: 0, the model's documented width */
		return s->pmu_slots ?
			       vec(rules_fmt("%s%s{%s}", RULES_PMU_SLOTS, s->window, s->sel)) :
			       number(0);
	case EXPR_INTERVAL:
		return number(s->window_s);
	case EXPR_LATENCY:
		return s->latency && isfinite(s->latency[x->a]) ? number(s->latency[x->a]) : absent;
	case EXPR_EVENT:
		return event_read(t, x->a);
	case EXPR_HELPER:
		return translate(t, model_view_helper(s->m, x->a));
	case EXPR_NODE:
		return node_read(t, x->a);
	case EXPR_SELF:
		return t->self ? vec(rules_fmt("%s", t->self)) : absent;
	case EXPR_OVER:
		return flag_read(t, x->a);
	case EXPR_NEG:
	case EXPR_NOT:
		a = translate(t, x->a);
		if (a.absent || !a.text)
			return a.absent ? a : number(expr_unary(x->kind, a.num));
		return around(x->kind == EXPR_NEG ? "(-(%s))" : "(%s == bool 0)", a);
	case EXPR_AND:
	case EXPR_OR:
	case EXPR_COND:
		return lazy(t, x);
	default:
		a = translate(t, x->a);
		return binary(x->kind, a, translate(t, x->b));
	}
}

/*
 * Whether threshold expression e can have no sample where its node has one:
 * a division by a value that may be 0, a count or a retire latency that may
 * be missing.  Nodes and flags it reads cannot (a null reads as 0), nor can
 * the node's own value.
 */
static bool may_fail(struct tr *t, int e)
{
	const struct expr_pool *pool = model_view_pool(t->s->m);
	const struct expr *x = &pool->e[e];
	int kids[3], n;

	switch (x->kind) {
	case EXPR_EVENT:
	case EXPR_LATENCY:
		return true;
	case EXPR_NODE:
	case EXPR_OVER:
	case EXPR_SELF:
		return false;
	case EXPR_HELPER:
		return may_fail(t, model_view_helper(t->s->m, x->a));
	case EXPR_DIV: {
		struct pq d = translate(t, x->b);
		bool varies = d.absent || d.text || d.num == 0;

		pq_free(&d);
		if (varies)
			return true;
		break;
	}
	default:
		break;
	}
	n = expr_operands(pool, e, kids);
	for (int k = 0; k < n; k++)
		if (may_fail(t, kids[k]))
			return true;
	return false;
}

/*
 * Truth of e as 0 or 1, for a threshold, where only whether it holds counts:
 * `a and b` is then a product and reads each operand once, where its value
 * (the deciding operand, lazily) would read a three times and a chain of n
 * thresholds' `and`s 3^n times.  A product is absent where b is, a
 * threshold whose b divides by zero after a false a: the flag is absent,
 * which every reader takes as not flagged, as the evaluator has it.
 */
static struct pq truth(struct tr *t, int e)
{
	const struct expr *x = &model_view_pool(t->s->m)->e[e];
	struct pq a, b, out;

	if (x->kind != EXPR_AND && x->kind != EXPR_OR && x->kind != EXPR_NOT) {
		a = translate(t, e);
		if (a.absent || !a.text)
			return a.absent ? a : number(a.num != 0);
		if (x->kind >= EXPR_LT && x->kind <= EXPR_NE)
			return a; /* 0 or 1 already */
		return around("(%s != bool 0)", a);
	}
	a = truth(t, x->a);
	if (x->kind == EXPR_NOT) {
		if (a.absent || !a.text)
			return a.absent ? a : number(a.num == 0);
		return around("(1 - %s)", a);
	}
	if (a.absent)
		return a;
	if (!a.text) /* decided by a, or b decides */
		return (x->kind == EXPR_AND) == (a.num == 0) ? a : truth(t, x->b);
	b = truth(t, x->b);
	if (b.absent) /* a alone: where a decides */
		out = vec(rules_fmt("(%s %s 0)", a.text, x->kind == EXPR_AND ? "==" : ">"));
	else if (!b.text)
		out = (x->kind == EXPR_AND) == (b.num != 0) ?
			      a :
			      vec(rules_fmt("(0 * %s + %g)", a.text, b.num));
	else if (x->kind == EXPR_AND && may_fail(t, x->b)) /* b is not read where a is 0 */
		out = vec(rules_fmt("((%s * %s) or (%s == 0))", a.text, b.text, a.text));
	else if (x->kind == EXPR_AND)
		out = vec(rules_fmt("(%s * %s)", a.text, b.text));
	else
		out = vec(rules_fmt("(((%s + %s) > bool 0) or (%s > 0))", a.text, b.text, a.text));
	if (out.text != a.text)
		pq_free(&a);
	pq_free(&b);
	return out;
}

bool rules_threshold_may_fail(const struct rules_state *s, int i)
{
	struct tr t = { .s = s, .self = "" };
	int root = model_view_threshold(s->m, i);

	return root >= 0 && may_fail(&t, root);
}

/*
 * The nodes whose values are being made, innermost last: a threshold reading
 * the flag of a node whose threshold reads this one's is a cycle of flags,
 * which the evaluator repeats until stable and the rules cannot; the inner
 * node is then taken without its threshold's test.
 */
static int making[16], nmaking;

static bool being_made(int i)
{
	for (int k = 0; k < nmaking; k++)
		if (making[k] == i)
			return true;
	return nmaking == (int)(sizeof(making) / sizeof(making[0]));
}

/* value where node i's threshold has a truth value: null where it divides by zero. */
static char *threshold_holds(const struct rules_state *s, int i, char *value)
{
	struct tr t = { .s = s, .self = value };
	struct pq th;
	char *out;

	if (!value || being_made(i) || !rules_threshold_may_fail(s, i))
		return value;
	making[nmaking++] = i;
	th = truth(&t, model_view_threshold(s->m, i));
	nmaking--;
	out = th.absent ? NULL : th.text ? rules_fmt("(%s and %s)", value, th.text) : value;
	if (out != value)
		free(value);
	pq_free(&th);
	return out;
}

char *rules_node_value(const struct rules_state *s, int i)
{
	struct tr t = { .s = s };
	struct pq v = translate(&t, model_view_formula(s->m, i));
	double cap = model_view_cap(s->m, i);
	char *text;

	if (v.absent)
		return NULL;
	if (!v.text)
		v.num = v.num > cap ? cap : v.num;
	text = as_vector(s, v);
	if (text && v.text && isfinite(cap)) {
		char *c = num_text(cap),
		     *capped = c ? rules_fmt("clamp_max(%s, %s)", text, c) : NULL;

		free(c);
		free(text);
		text = capped;
	}
	return threshold_holds(s, i, text);
}

char *rules_node_flag(const struct rules_state *s, int i)
{
	int root = model_view_threshold(s->m, i);
	const struct model_node_info *n = model_node(s->m, i);
	/* a deeper node's flag (read by a shallower threshold): its value inline */
	char *self = n->level >= 1 && n->level <= s->level ? rules_recorded(s, RULES_RATIO, i) :
							     rules_node_value(s, i);
	struct tr t = { .s = s, .self = self };
	struct pq th;
	char *out = NULL;

	if (root < 0 || !self) {
		free(self);
		return NULL;
	}
	th = truth(&t, root);
	if (!th.absent)
		out = th.text ? rules_fmt("(%s and %s)", th.text, self) :
				rules_fmt("(0 * %s + %d)", self, th.num != 0);
	pq_free(&th);
	free(self);
	return out;
}

struct pq rules_slots(const struct rules_state *s)
{
	struct tr t = { .s = s };
	int h = model_view_slots_helper(s->m);

	return h < 0 ? absent : translate(&t, model_view_helper(s->m, h));
}
