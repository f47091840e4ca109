// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "replay/replay_group.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "pmu/cpu_desc.h"
#include "replay/replay_group_key.h"
#include "replay/replay_read.h"
#include "replay/replay_run.h"
#include "replay/replay_source.h"
#include "replay/replay_sum.h"
#include "util/name_escape.h"
#include "util/u64map.h"

/* A model lines are evaluated with, loaded once, with its evaluation and printer. */
struct model_slot {
	char *id, *version; /* as the lines asked for it; version NULL: the default */
	struct tma_model *m;
	bool owned;
	struct replay_evaluator *ev;
	struct replay_printer pr;
};

struct group {
	uint64_t hash;
	char *key; /* what the lines agree on, encoded (group_key) */
	size_t keylen;
	struct group *next; /* with the same hash */
	struct model_slot *model;
	struct replay_sum sum;
	struct u64map cgroups; /* the hashes of host and path of the cgroups summed */
	char *values[GROUP_KEYS_MAX];
	struct report_group report;
};

/* The groups of one interval of --interval (of the whole input without it). */
struct window {
	bool open;
	__int128 index; /* the interval's start / DUR */
	struct u64map map;
	struct group **groups; /* in the order they began: the order they are written */
	int n, cap;
};

struct grouper {
	const struct replay_group_config *c;
	struct replay_source *src;
	struct group_keys by;	    /* --group-by */
	struct model_slot **models; /* each its own allocation: groups point at them */
	int nmodels;
	struct window win[2]; /* the newest interval and the one before it */
};

static void put_field(FILE *f, const char *s)
{
	if (s)
		fprintf(f, "s%zu:%s", strlen(s), s);
	else
		fputc('-', f);
}

/*
 * What decides a line's group, as one string: what its formulas read
 * besides counts (the model and TMA version that measured it, which pick
 * the model evaluating it, PERF_METRICS, SMT, the slot width, its own retire latencies
 * in name order) and its value of each key.  Each field says its length:
 * no value can pass for another.
 */
static int group_key(const struct replay_record *rec, const char *const *values, int nkeys,
		     char **out, size_t *len)
{
	const struct replay_origin *g = rec->origin;
	const struct rl_table *rl = &rec->retire_latency;
	const char *last = NULL;
	FILE *f = open_memstream(out, len);

	if (!f)
		return -ENOMEM;
	put_field(f, g ? g->model : NULL);
	put_field(f, g ? g->tma_version : NULL);
	fprintf(f, "%d%d%u;", rec->topdown_fixed, rec->smt, rec->pmu_slots);
	for (int k = 0; k < rl->n; k++) {
		const struct retire_latency *next = NULL;

		for (int i = 0; i < rl->n; i++)
			if ((!last || strcmp(rl->v[i].event, last) > 0) &&
			    (!next || strcmp(rl->v[i].event, next->event) < 0))
				next = &rl->v[i];
		put_field(f, next->event);
		fprintf(f, "%a;", next->cycles);
		last = next->event;
	}
	fputc('|', f);
	for (int i = 0; i < nkeys; i++)
		put_field(f, values[i]);
	return fclose(f) ? -ENOMEM : 0;
}

/* rec refused, a bad line: "NAME:LINE: " and what is wrong. */
__attribute__((format(printf, 3, 4))) static void
reject(struct grouper *g, const struct replay_record *rec, const char *fmt, ...)
{
	char why[1024];
	int n = snprintf(why, sizeof(why), "%s:%d: ", rec->input ? rec->input : g->src->name,
			 rec->line);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why + n, sizeof(why) - (size_t)n, fmt, ap);
	va_end(ap);
	term_escape_message(why, sizeof(why)); /* it quotes the file */
	replay_source_reject(g->src, why);
}

/* m as a slot (owned: freed with the slots, or here when there is no room): NULL: out of memory. */
static struct model_slot *add_slot(struct grouper *g, const char *id, const char *version,
				   struct tma_model *m, bool owned)
{
	struct model_slot **all = realloc(g->models, (size_t)(g->nmodels + 1) * sizeof(*all));
	struct model_slot *s = all ? calloc(1, sizeof(*s)) : NULL;

	if (all)
		g->models = all;
	if (!s) {
		if (owned)
			model_free(m);
		return NULL;
	}
	*s = (struct model_slot){
		.id = strdup(id),
		.version = version ? strdup(version) : NULL,
		.m = m,
		.owned = owned,
		.ev = replay_evaluator_new(m, g->c->level, g->c->info,
					   cpu_desc_latency_defaults(model_id(m))),
		.pr = { .m = m,
			.level = g->c->level,
			.json = g->c->json,
			.color = g->c->color,
			.info = g->c->info,
			.out = g->c->out },
	};
	g->models[g->nmodels++] = s;
	if (!s->id || (version && !s->version) || !s->ev)
		return NULL; /* freed with the others */
	return s;
}

static bool same(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/*
 * The model rec is evaluated with: the run's, or the one it names (loaded
 * the first time).  NULL: out of memory (*oom), or a model that does not
 * load, rec rejected as a bad line.
 */
static struct model_slot *model_of(struct grouper *g, const struct replay_record *rec, bool *oom)
{
	const char *id, *version;
	struct model_slot *s;
	struct tma_model *m;
	char err[512];

	*oom = false;
	if (g->c->fixed_model || !rec->origin || !rec->origin->model)
		return g->models[0];
	id = rec->origin->model;
	version = g->c->tma_version ? g->c->tma_version : rec->origin->tma_version;
	for (int i = 0; i < g->nmodels; i++)
		if (!strcmp(g->models[i]->id, id) && same(g->models[i]->version, version))
			return g->models[i];
	m = model_load_version(id, version, err, sizeof(err));
	if (!m) {
		reject(g, rec, "%s (name the model to replay these lines with --model ID)", err);
		return NULL;
	}
	s = add_slot(g, id, version, m, true);
	*oom = !s;
	return s;
}

static void group_free(struct group *gr)
{
	free(gr->key);
	replay_sum_free(&gr->sum);
	u64map_free(&gr->cgroups);
	for (int i = 0; i < GROUP_KEYS_MAX; i++)
		free(gr->values[i]);
	free(gr);
}

/* The cgroup of rec counted once per group: the same path on two hosts is two cgroups. */
static int count_cgroup(struct group *gr, const struct replay_record *rec)
{
	const char *host = rec->origin && rec->origin->host ? rec->origin->host : "";
	size_t hl = strlen(host), cl = strlen(rec->cgroup);
	char *both = malloc(hl + cl + 2);
	uint64_t h;

	if (!both)
		return -ENOMEM;
	memcpy(both, host, hl + 1);
	memcpy(both + hl + 1, rec->cgroup, cl + 1);
	/* 64 bits: two of a group's cgroups share a hash about once in 2^64 / n^2 */
	h = u64map_key(both, hl + cl + 2);
	free(both);
	return u64map_get(&gr->cgroups, h) ? 0 : u64map_put(&gr->cgroups, h, gr);
}

/* A new group in w for rec: NULL when out of memory. */
static struct group *group_new(struct grouper *g, struct window *w, struct model_slot *slot,
			       const struct replay_record *rec, const char *const *values,
			       char *key, size_t keylen, uint64_t h)
{
	struct group *gr = calloc(1, sizeof(*gr)), **ng;

	if (!gr) {
		free(key);
		return NULL;
	}
	*gr = (struct group){ .hash = h, .key = key, .keylen = keylen, .model = slot };
	u64map_init(&gr->cgroups);
	for (int i = 0; i < g->by.n; i++)
		if (values[i] && !(gr->values[i] = strdup(values[i])))
			goto nomem;
	if (replay_sum_init(&gr->sum, slot->m, rec))
		goto nomem;
	if (w->n == w->cap) {
		int cap = w->cap ? 2 * w->cap : 16;

		if (!(ng = realloc(w->groups, (size_t)cap * sizeof(*ng))))
			goto nomem;
		w->groups = ng;
		w->cap = cap;
	}
	gr->next = u64map_get(&w->map, h);
	if (u64map_put(&w->map, h, gr))
		goto nomem;
	w->groups[w->n++] = gr;
	return gr;
nomem:
	group_free(gr);
	return NULL;
}

/* rec added to its group of w: 0 or -ENOMEM. */
static int add_line(struct grouper *g, struct window *w, struct model_slot *slot,
		    const struct replay_record *rec)
{
	const char *values[GROUP_KEYS_MAX];
	struct group *gr;
	char *key;
	size_t keylen;
	uint64_t h;

	for (int i = 0; i < g->by.n; i++)
		values[i] = group_key_value(&g->by, i, rec, model_id(slot->m));
	if (group_key(rec, values, g->by.n, &key, &keylen))
		return -ENOMEM;
	h = u64map_key(key, keylen);
	for (gr = u64map_get(&w->map, h); gr; gr = gr->next)
		if (gr->keylen == keylen && !memcmp(gr->key, key, keylen))
			break;
	if (gr) {
		free(key);
		if (replay_sum_add(&gr->sum, rec))
			return -ENOMEM;
	} else if (!(gr = group_new(g, w, slot, rec, values, key, keylen, h))) {
		return -ENOMEM;
	}
	return count_cgroup(gr, rec);
}

static void window_free(struct window *w)
{
	for (int i = 0; i < w->n; i++)
		group_free(w->groups[i]);
	u64map_free(&w->map);
	free(w->groups);
	*w = (struct window){ 0 };
}

/* Each group of w evaluated and printed, in the order they began; w emptied. */
static int flush(struct grouper *g, struct window *w)
{
	int rc = 0;

	for (int i = 0; !rc && i < w->n; i++) {
		struct group *gr = w->groups[i];
		struct replay_record rec;

		gr->report = (struct report_group){ .nkeys = g->by.n,
						    .key_names = (const char *const *)g->by.names,
						    .values = (const char *const *)gr->values,
						    .lines = gr->sum.lines,
						    .cgroups = u64map_len(&gr->cgroups) };
		rc = replay_sum_record(&gr->sum, &gr->report, &rec);
		if (!rc)
			rc = replay_evaluator_feed(gr->model->ev, &rec, g->src, replay_print_record,
						   &gr->model->pr, g->c->err);
		replay_sum_record_free(&rec);
	}
	window_free(w);
	return rc;
}

/* floor(time / DUR): the interval a line's time falls in. */
static __int128 interval_of(const struct timespec *t, uint64_t dur_ns)
{
	__int128 ns = (__int128)t->tv_sec * 1000000000 + t->tv_nsec, d = dur_ns;

	return ns >= 0 ? ns / d : -((-ns + d - 1) / d);
}

/*
 * The window of rec: the newest interval, or the one before it.  A line of
 * a later interval writes every interval before the one before it; a line
 * of an interval already written is a bad line.  NULL: rec rejected, or
 * (*rc) an output error.
 */
static struct window *window_of(struct grouper *g, const struct replay_record *rec, int *rc)
{
	struct window *newest = &g->win[1], *before = &g->win[0];
	__int128 i;

	*rc = 0;
	if (!g->c->interval_ns) {
		newest->open = true;
		return newest;
	}
	if (!rec->origin) {
		reject(g, rec,
		       "no \"time\": --interval sums lines by their time, which only tmacg's own "
		       "lines (tmacg/1) say");
		return NULL;
	}
	i = interval_of(&rec->origin->time, g->c->interval_ns);
	if (newest->open && i > newest->index) {
		if (before->open)
			*rc = flush(g, before);
		if (!*rc && i > newest->index + 1)
			*rc = flush(g, newest);
		else
			*before = *newest;
		*newest = (struct window){ .open = true, .index = i };
		u64map_init(&newest->map);
		return *rc ? NULL : newest;
	}
	if (!newest->open) {
		*newest = (struct window){ .open = true, .index = i };
		u64map_init(&newest->map);
	}
	if (i == newest->index)
		return newest;
	if (i == newest->index - 1) {
		if (!before->open) {
			*before = (struct window){ .open = true, .index = i };
			u64map_init(&before->map);
		}
		return before;
	}
	reject(g, rec,
	       "its time is in an interval of --interval already written (a line two intervals "
	       "later came first): sort the lines by time");
	return NULL;
}

static int run(struct grouper *g)
{
	const struct replay_record *rec;
	int rc = 0;

	while (!rc && (rec = replay_source_next(g->src))) {
		bool oom;
		struct model_slot *slot = model_of(g, rec, &oom);
		struct window *w;

		if (!slot) {
			rc = oom ? -ENOMEM : 0;
			continue;
		}
		w = window_of(g, rec, &rc);
		if (w)
			rc = add_line(g, w, slot, rec);
	}
	if (!rc && g->win[0].open)
		rc = flush(g, &g->win[0]);
	if (!rc && g->win[1].open)
		rc = flush(g, &g->win[1]);
	return rc;
}

int replay_group_run(struct replay_source *src, const struct replay_group_config *c)
{
	struct grouper g = { .c = c, .src = src };
	char err[512];
	int rc = group_keys_parse(&g.by, c->group_by, err, sizeof(err));

	if (rc == -EINVAL) {
		fprintf(c->err, "tmacg: %s\n", err);
		return 1;
	}
	if (!rc &&
	    !add_slot(&g, model_id(c->m), model_tma_version(c->m), (struct tma_model *)c->m, false))
		rc = -ENOMEM;
	for (int i = 0; i < 2; i++)
		u64map_init(&g.win[i].map);
	if (!rc)
		rc = run(&g);
	for (int i = 0; i < 2; i++)
		window_free(&g.win[i]);
	if (!rc) {
		group_keys_report(&g.by, src->label, c->err);
		for (int i = 0; i < g.nmodels; i++)
			replay_evaluator_report(g.models[i]->ev, src->label, c->err);
	}
	for (int i = 0; i < g.nmodels; i++) {
		replay_evaluator_free(g.models[i]->ev);
		if (g.models[i]->owned)
			model_free(g.models[i]->m);
		free(g.models[i]->id);
		free(g.models[i]->version);
		free(g.models[i]);
	}
	free(g.models);
	group_keys_free(&g.by);
	if (!rc && fflush(c->out))
		rc = -errno;
	/* A closed pipe (| head) ends the replay quietly, as it ends live mode. */
	if (rc == -EPIPE)
		return 0;
	if (rc == -ENOMEM)
		fprintf(c->err, "tmacg: out of memory\n");
	else if (rc < 0)
		fprintf(c->err, "tmacg: cannot write the output: %s\n", strerror(-rc));
	return rc ? 1 : 0;
}
