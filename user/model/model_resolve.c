// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * After the whole file is read: names become indices (constant, helper, flag,
 * node or Info metric, in that lookup order), events are interned, and nodes
 * are put in dependency order, refusing cycles through helpers and nodes.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model_impl.h"

/* Longest chain of helpers and nodes reading one another; bounds the recursion below. */
#define MODEL_MAX_CHAIN 1000

struct resolver {
	struct tma_model *m;
	char *err;
	size_t errlen;
	int owner; /* node owning the expression, -1 for helpers */
	/* dependency walk */
	unsigned char *state; /* per entity: 0 new, 1 on the stack, 2 done */
	int *stack;
	int depth;
	int norder;
};

static int rerr(struct resolver *r, const struct expr *x, const char *fmt, const char *a)
{
	int n = snprintf(r->err, r->errlen, "%s:%d:%d: ", r->m->filename, x->line, x->col);

	if (n >= 0 && (size_t)n < r->errlen)
		snprintf(r->err + n, r->errlen - n, fmt, a);
	return -EINVAL;
}

static int intern_event(struct tma_model *m, const char *name)
{
	int i = model_event_index(m, name);
	char **ne;

	if (i >= 0)
		return i;
	ne = realloc(m->events, (m->nevents + 1) * sizeof(*ne));
	if (!ne)
		return -ENOMEM;
	m->events = ne;
	ne[m->nevents] = strdup(name);
	if (!ne[m->nevents])
		return -ENOMEM;
	return m->nevents++;
}

/* x resolved: kind k, index a.  0, or a (negative: the error). */
static int resolved(struct expr *x, enum expr_kind k, int a)
{
	if (a < 0)
		return a;
	x->kind = k;
	x->a = a;
	return 0;
}

#define LATENCY_SUFFIX ":retire_latency"

static bool is_latency(const char *name)
{
	size_t n = strlen(name), s = strlen(LATENCY_SUFFIX);

	return n > s && !strcmp(name + n - s, LATENCY_SUFFIX);
}

/* EVENT:retire_latency is an input of its own (model_latency_*), not a counter. */
static int resolve_latency(struct resolver *r, struct expr *x)
{
	struct tma_model *m = r->m;
	const char *name = expr_str(&m->pool, x->a);
	size_t len = strlen(name) - strlen(LATENCY_SUFFIX);
	char **nl, *base;
	int i;

	if (memchr(name, ':', len))
		return rerr(r, x,
			    "'%s': a retire latency takes no other modifier (write "
			    "EVENT.UMASK:retire_latency)",
			    name);
	base = strndup(name, len);
	if (!base)
		return -ENOMEM;
	i = model_latency_index(m, base);
	if (i < 0) {
		nl = realloc(m->latencies, (m->nlatencies + 1) * sizeof(*nl));
		if (!nl) {
			free(base);
			return -ENOMEM;
		}
		m->latencies = nl;
		nl[m->nlatencies] = base;
		i = m->nlatencies++;
	} else {
		free(base);
	}
	return resolved(x, EXPR_LATENCY, i);
}

static int resolve_name(struct resolver *r, struct expr *x)
{
	struct tma_model *m = r->m;
	const char *name = expr_str(&m->pool, x->a);
	int i;

	for (i = 0; i < m->nconsts; i++) {
		if (!strcmp(m->consts[i].name, name)) {
			x->num = m->consts[i].value;
			return resolved(x, EXPR_CONST, i);
		}
	}
	for (i = 0; i < m->nhelpers; i++)
		if (!strcmp(m->helpers[i].name, name))
			return resolved(x, EXPR_HELPER, i);
	if (!strcmp(name, "pmu_slots")) {
		x->kind = EXPR_PMU_SLOTS;
		return 0;
	}
	if (!strcmp(name, "topdown_use_fixed") || !strcmp(name, "smt_enabled"))
		return resolved(x, EXPR_FLAG,
				name[0] == 't' ? MODEL_FLAG_TOPDOWN_FIXED : MODEL_FLAG_SMT);
	for (i = 0; i < m->ndecls; i++)
		if (!strcmp(m->decls[i].name, name))
			return resolved(x, EXPR_EVENT, intern_event(m, m->decls[i].counter));
	i = model_entry_lookup(m, name);
	if (i < 0)
		return rerr(r, x,
			    "unknown name '%s' (not a constant, helper, flag, node or info metric; "
			    "events are written EVENT.UMASK, or declared with 'event NAME')",
			    name);
	return resolved(x, EXPR_NODE, i);
}

static int resolve_expr(struct resolver *r, int e)
{
	struct expr *x = &r->m->pool.e[e];
	int kids[3], rc = 0, i, n;

	switch (x->kind) {
	case EXPR_NAME:
		return resolve_name(r, x);
	case EXPR_EVNAME:
		if (is_latency(expr_str(&r->m->pool, x->a)))
			return resolve_latency(r, x);
		return resolved(x, EXPR_EVENT, intern_event(r->m, expr_str(&r->m->pool, x->a)));
	case EXPR_OVERNAME:
		i = model_entry_lookup(r->m, expr_str(&r->m->pool, x->a));
		if (i < 0)
			return rerr(r, x, "unknown node '%s' in a threshold",
				    expr_str(&r->m->pool, x->a));
		return resolved(x, EXPR_OVER, i);
	case EXPR_PARENT_OVER:
		i = r->owner >= 0 ? r->m->nodes[r->owner].info.parent : -1;
		if (i < 0)
			return rerr(r, x, "'parent over threshold' in %s, which has no parent",
				    r->owner >= 0 ? r->m->nodes[r->owner].info.name : "a helper");
		return resolved(x, EXPR_OVER, i);
	default:
		break;
	}
	/* operands in a, b, c order: events are numbered in the order met */
	n = expr_operands(&r->m->pool, e, kids);
	for (i = 0; i < n && !rc; i++)
		rc = resolve_expr(r, kids[i]);
	return rc;
}

static const char *entity_name(const struct tma_model *m, int ent)
{
	return ent < m->nhelpers ? m->helpers[ent].name : m->nodes[ent - m->nhelpers].info.name;
}

static int cycle_error(struct resolver *r, const struct expr *x, int ent)
{
	struct tma_model *m = r->m;
	size_t n = (size_t)snprintf(r->err, r->errlen, "%s:%d:%d: cycle: ", m->filename, x->line,
				    x->col);
	int from = r->depth - 1;

	while (from > 0 && r->stack[from] != ent)
		from--;
	for (int i = from; i < r->depth && n < r->errlen; i++)
		n += snprintf(r->err + n, r->errlen - n, "%s -> ", entity_name(m, r->stack[i]));
	if (n < r->errlen)
		snprintf(r->err + n, r->errlen - n, "%s", entity_name(m, ent));
	return -EINVAL;
}

static int visit(struct resolver *r, int ent);

/* Follows every helper and node that expression e reads (both branches of everything). */
static int visit_expr(struct resolver *r, int e)
{
	const struct expr *x = &r->m->pool.e[e];
	int kids[3], rc = 0, ent, n;

	switch (x->kind) {
	case EXPR_HELPER:
		ent = x->a;
		break;
	case EXPR_NODE:
		ent = r->m->nhelpers + x->a;
		break;
	default:
		n = expr_operands(&r->m->pool, e, kids);
		for (int i = 0; i < n && !rc; i++)
			rc = visit_expr(r, kids[i]);
		return rc;
	}
	if (r->state[ent] == 1)
		return cycle_error(r, x, ent);
	return r->state[ent] ? 0 : visit(r, ent);
}

static int visit(struct resolver *r, int ent)
{
	struct tma_model *m = r->m;
	int rc;

	if (r->depth == MODEL_MAX_CHAIN) {
		snprintf(r->err, r->errlen,
			 "%s: more than %d helpers and nodes read one another in a chain",
			 m->filename, MODEL_MAX_CHAIN);
		return -EINVAL;
	}
	r->state[ent] = 1;
	r->stack[r->depth++] = ent;
	rc = visit_expr(r, ent < m->nhelpers ? m->helpers[ent].root :
					       m->nodes[ent - m->nhelpers].formula);
	if (rc)
		return rc;
	r->depth--;
	r->state[ent] = 2;
	if (ent >= m->nhelpers)
		m->order[r->norder++] = ent - m->nhelpers;
	return 0;
}

/*
 * Threshold order: a node after every node whose flag its threshold reads
 * (its parent, Heavy_Operations for Retiring), so one pass settles the flags.
 * Flags that read one another in a cycle (Retiring and Heavy_Operations,
 * which reads its parent Retiring) and every flag reading those, transitively,
 * are listed in tloop: the evaluator repeats only these until none changes.
 */
struct tsort {
	struct tma_model *m;
	unsigned char *state; /* 0 new, 1 on the stack, 2 done */
	int *stack;
	int depth, n;
	bool *loop;
};

static void threshold_visit(struct tsort *t, int node);

static void over_refs_first(struct tsort *t, int e)
{
	const struct expr *x = &t->m->pool.e[e];
	int kids[3], n;

	if (x->kind == EXPR_OVER) {
		threshold_visit(t, x->a);
		return;
	}
	n = expr_operands(&t->m->pool, e, kids);
	for (int i = 0; i < n; i++)
		over_refs_first(t, kids[i]);
}

static void threshold_visit(struct tsort *t, int node)
{
	struct tma_model *m = t->m;

	if (t->state[node] == 1) { /* a cycle: everything on the stack from node */
		for (int i = t->depth - 1; i >= 0 && t->stack[i] != node; i--)
			t->loop[t->stack[i]] = true;
		t->loop[node] = true;
		return;
	}
	if (t->state[node] == 2 || t->depth == MODEL_MAX_CHAIN)
		return;
	t->state[node] = 1;
	t->stack[t->depth++] = node;
	if (m->nodes[node].threshold >= 0)
		over_refs_first(t, m->nodes[node].threshold);
	t->depth--;
	t->state[node] = 2;
	m->torder[t->n++] = node;
}

static bool reads_loop_flag(const struct tma_model *m, int e, const bool *loop)
{
	const struct expr *x = &m->pool.e[e];
	int kids[3], n;

	if (x->kind == EXPR_OVER)
		return loop[x->a];
	n = expr_operands(&m->pool, e, kids);
	for (int i = 0; i < n; i++)
		if (reads_loop_flag(m, kids[i], loop))
			return true;
	return false;
}

/* Whether expression e reads interval-s itself (not through a node or helper it reads). */
static bool reads_interval(const struct tma_model *m, int e)
{
	int kids[3], n;

	if (m->pool.e[e].kind == EXPR_INTERVAL)
		return true;
	n = expr_operands(&m->pool, e, kids);
	for (int i = 0; i < n; i++)
		if (reads_interval(m, kids[i]))
			return true;
	return false;
}

static int threshold_order(struct tma_model *m)
{
	struct tsort t = { .m = m };
	bool changed = true;
	int rc = -ENOMEM;

	t.state = calloc(m->nnodes + 1, 1);
	t.stack = calloc(m->nnodes + 1, sizeof(int));
	t.loop = calloc(m->nnodes + 1, sizeof(bool));
	m->torder = calloc(m->nnodes + 1, sizeof(int));
	m->tloop = calloc(m->nnodes + 1, sizeof(int));
	if (!t.state || !t.stack || !t.loop || !m->torder || !m->tloop)
		goto out;
	for (int i = 0; i < m->nnodes; i++)
		threshold_visit(&t, i);
	while (changed) { /* load time only: at most one round per node */
		changed = false;
		for (int i = 0; i < m->nnodes; i++) {
			if (t.loop[i] || m->nodes[i].threshold < 0 ||
			    !reads_loop_flag(m, m->nodes[i].threshold, t.loop))
				continue;
			t.loop[i] = changed = true;
		}
	}
	for (int k = 0; k < m->nnodes; k++)
		if (t.loop[m->torder[k]])
			m->tloop[m->ntloop++] = m->torder[k];
	rc = 0;
out:
	free(t.state);
	free(t.stack);
	free(t.loop);
	return rc;
}

/* Children of each node in file order, for the bottleneck walk: kids[kid_start[p + 1]...]. */
static int children(struct tma_model *m)
{
	int n = 0;

	m->kid_start = calloc(m->nnodes + 2, sizeof(int));
	m->kids = calloc(m->nnodes + 1, sizeof(int));
	if (!m->kid_start || !m->kids)
		return -ENOMEM;
	for (int p = -1; p < m->nnodes; p++) {
		m->kid_start[p + 1] = n;
		for (int i = 0; i < m->nnodes; i++)
			if (m->nodes[i].info.level > 0 && m->nodes[i].info.parent == p)
				m->kids[n++] = i;
	}
	m->kid_start[m->nnodes + 1] = n;
	return 0;
}

int model_resolve(struct tma_model *m, char *err, size_t errlen)
{
	struct resolver r = { .m = m, .err = err, .errlen = errlen, .owner = -1 };
	int nent = m->nhelpers + m->nnodes, rc = 0;

	for (int i = 0; i < m->nhelpers && !rc; i++)
		rc = resolve_expr(&r, m->helpers[i].root);
	for (int i = 0; i < m->nnodes && !rc; i++) {
		r.owner = i;
		rc = resolve_expr(&r, m->nodes[i].formula);
		if (!rc && m->nodes[i].threshold >= 0)
			rc = resolve_expr(&r, m->nodes[i].threshold);
	}
	if (rc)
		return rc;
	for (int i = 0; i < m->nnodes; i++)
		m->nodes[i].info.per_interval =
			m->nodes[i].info.is_count && reads_interval(m, m->nodes[i].formula);
	m->order = calloc(m->nnodes + 1, sizeof(*m->order));
	r.state = calloc(nent + 1, 1);
	r.stack = calloc(nent + 1, sizeof(*r.stack));
	if (!m->order || !r.state || !r.stack) {
		snprintf(err, errlen, "%s: out of memory", m->filename);
		rc = -ENOMEM;
	}
	/* nodes first, in file order, so a cycle is reported from the first node in it */
	for (int i = 0; i < m->nnodes && !rc; i++)
		if (!r.state[m->nhelpers + i])
			rc = visit(&r, m->nhelpers + i);
	for (int i = 0; i < m->nhelpers && !rc; i++)
		if (!r.state[i])
			rc = visit(&r, i);
	free(r.state);
	free(r.stack);
	if (!rc && (threshold_order(m) || children(m))) {
		snprintf(err, errlen, "%s: out of memory", m->filename);
		rc = -ENOMEM;
	}
	return rc;
}
