// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Each family writes into its own buffer (prom_buf.h) while the lines
 * arrive (a line touches many families), and the buffers are joined at the
 * end, each under its HELP and TYPE lines, as the format requires.  The
 * buffers are rewound at each interval: they keep their size.
 * The node families (ratios, measured shares, node slots), most of a deep
 * level's samples, are kept as numbers instead (prom_rows.h) and made into
 * text as a scrape sends them.
 */
#include "prom/prom_expo.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "output/output_json.h"
#include "prom/prom_events.h"
#include "prom/prom_label.h"
#include "prom/prom_nodes.h"
#include "prom/prom_rows.h"
#include "prom/prom_text.h"
#include "util/double_text.h"
#include "util/int_text.h"
#include "util/u64map.h"
#include "util/version.h"

enum family {
	F_BUILD_INFO,
	F_INTERVAL,
	F_INTERVAL_END,
	F_DROPPED,
	F_REPORTED,
	F_ON_CPU,
	F_CPU_CLOCK,
	F_CONTEXT_SWITCHES,
	F_CPU_MIGRATIONS,
	F_PAGE_FAULTS,
	F_CYCLES,
	F_INSTRUCTIONS,
	F_SLOTS,
	F_EVENTS,
	F_RUNNING_MIN,
	F_TOPDOWN_SLOTS,
	F_TMA_NODE_SLOTS,
	F_TMA_RATIO,
	F_TMA_MEASURED,
	F_TMA_INFO,
	F_BOTTLENECK,
	F_COUNT
};

struct family_def {
	const char *name;
	const char *type;
	const char *help;
	const char *count; /* a counter summed across intervals from this count */
};

static const struct family_def defs[F_COUNT] = {
	[F_BUILD_INFO] = { "tmacg_build_info", "gauge",
			   "tmacg's version and the model it evaluates (value 1)", NULL },
	[F_INTERVAL] = { "tmacg_interval_seconds", "gauge",
			 "Length of the last completed interval, the one served", NULL },
	[F_INTERVAL_END] = { "tmacg_interval_end_timestamp_seconds", "gauge",
			     "End of the last completed interval, Unix time", NULL },
	[F_DROPPED] = { "tmacg_dropped_total", "counter",
			"Counter deltas lost on this host (failed reads, full maps, lost cgroup "
			"events, unnamed cgroups)",
			NULL },
	[F_REPORTED] = { "tmacg_reported_cgroups", "gauge",
			 "Cgroups (or pods, containers) with series in this scrape", NULL },
	[F_ON_CPU] = { "tmacg_on_cpu_seconds_total", "counter",
		       "CPU time of the cgroup's tasks from the scheduler, as cpu.stat usage_usec",
		       "on_cpu_s" },
	[F_CPU_CLOCK] = { "tmacg_cpu_clock_seconds_total", "counter",
			  "cpu-clock software event: on-CPU wall time, steal time included",
			  "cpu_clock_s" },
	[F_CONTEXT_SWITCHES] = { "tmacg_context_switches_total", "counter",
				 "Context switches of the cgroup's tasks", "context_switches" },
	[F_CPU_MIGRATIONS] = { "tmacg_cpu_migrations_total", "counter",
			       "Migrations of the cgroup's tasks to another CPU",
			       "cpu_migrations" },
	[F_PAGE_FAULTS] = { "tmacg_page_faults_total", "counter",
			    "Page faults taken by the cgroup's tasks", "page_faults" },
	[F_CYCLES] = { "tmacg_cycles_total", "counter",
		       "Core cycles (CPU_CLK_UNHALTED.THREAD), scaled for multiplexing", "cycles" },
	[F_INSTRUCTIONS] = { "tmacg_instructions_total", "counter",
			     "Instructions retired (INST_RETIRED.ANY), scaled for multiplexing",
			     "instructions" },
	[F_SLOTS] = { "tmacg_slots_total", "counter",
		      "Pipeline slots (TOPDOWN.SLOTS), scaled for multiplexing", "slots" },
	[F_EVENTS] = { PROM_EVENTS_FAMILY, "counter",
		       "A count the model reads (--prom-counts), named as JSON counts names it, "
		       "scaled for multiplexing, summed over intervals",
		       NULL },
	[F_RUNNING_MIN] = { "tmacg_running_ratio_min", "gauge",
			    "Smallest running/enabled share of the cgroup's perf groups in the "
			    "interval: below 1 the counts are multiplexed estimates",
			    NULL },
	[F_TOPDOWN_SLOTS] = { "tmacg_topdown_slots_total", "counter",
			      "Top-down slots of the cgroup (the model's SLOTS, the level-1 and "
			      "level-2 shares' denominator)",
			      NULL },
	[F_TMA_NODE_SLOTS] = { "tmacg_tma_node_slots_total", "counter",
			       "Slots of a level-1 or level-2 TMA node (share times slots, summed "
			       "over intervals): rate() over tmacg_topdown_slots_total's is its "
			       "share in any window",
			       NULL },
	[F_TMA_RATIO] = { "tmacg_tma_ratio", "gauge",
			  "TMA node value in the last interval, a fraction of its domain "
			  "(tma_node: path from level 1)",
			  NULL },
	[F_TMA_MEASURED] = { "tmacg_tma_measured_ratio", "gauge",
			     "Fraction of the last interval the perf groups tma_groups were all "
			     "measured, their events taking turns on the PMU (--level 4-6); the "
			     "tmacg_tma_ratio of each node labelled with those groups is scaled from "
			     "that share",
			     NULL },
	[F_TMA_INFO] = { "tmacg_tma_info_value", "gauge",
			 "TMA Info metric (--info) in its own unit", NULL },
	[F_BOTTLENECK] = { "tmacg_bottleneck_info", "gauge",
			   "The cgroup's bottleneck path in the interval (value 1)", NULL },
};

const char *prom_expo_family(int i)
{
	return i >= 0 && i < F_COUNT ? defs[i].name : NULL;
}

/* A reported cgroup's counters, summed over the intervals it was reported in. */
struct series_state {
	uint64_t generation; /* the last interval it was reported in */
	double total[F_COUNT];
	bool have[F_COUNT];
	/* by node index: slots of the level-1 and level-2 nodes, NAN until first measured */
	double *node_slots;
	int nnode_slots;
	struct prom_events_totals events; /* --prom-counts */
};

struct prom_expo {
	bool k8s;
	bool counts;			   /* --prom-counts: tmacg_events_total */
	struct prom_events_map events_map; /* which of the counts are events */
	uint64_t generation;
	struct u64map state; /* cgroup id (UINT64_MAX: "(other)") -> series_state */
	struct u64map seen;  /* this interval's label sets, by hash */
	uint64_t dropped;    /* tmacg_dropped_total */
	size_t lines;
	struct prom_buf f[F_COUNT]; /* this interval's samples of each family */
	size_t name_len[F_COUNT];   /* strlen(defs[].name) */
	bool open;		    /* between begin and end: lines are taken */
	bool label_failed; /* a label value or a node sample was left out (out of memory) */
	/*
	 * The line being added's own labels (line_labels): the host's, written
	 * once an interval, the line's own after them, written over by the next line's.
	 */
	struct prom_buf labels;		/* NUL-terminated */
	size_t labels_len, labels_host; /* without the NUL; the host's */
	/* count index -> family, for the count names last seen */
	const char *const *count_names;
	int ncounts;
	int *count_family;
	/* A node sample's own labels, for the model and plan last seen. */
	struct prom_nodes nodes;
	/*
	 * This interval's node samples, as numbers (their buffers stay empty);
	 * NULL while the text last ended still holds them (a scrape sending it):
	 * prom_expo_recycle gives them back, else the next begin makes new ones.
	 */
	struct prom_rows *rows;
	/* A line's samples of one node family, handed to the rows together. */
	int *batch_index;
	double *batch_v;
	int nbatch, batch_cap;
};

/* The node families, by their rows' family. */
static const enum family row_family[PROM_ROWS_FAMILIES] = {
	[PROM_ROWS_NODE_SLOTS] = F_TMA_NODE_SLOTS,
	[PROM_ROWS_RATIO] = F_TMA_RATIO,
	[PROM_ROWS_MEASURED] = F_TMA_MEASURED,
};

/* `,name="value"`; one that could not be written fails the interval's text, never mislabels it. */
static void label(struct prom_expo *e, struct prom_buf *b, const char *name, const char *value)
{
	prom_buf_putc(b, ',');
	if (prom_label(b, name, value))
		e->label_failed = true;
}

struct prom_expo *prom_expo_new(bool k8s)
{
	struct prom_expo *e = calloc(1, sizeof(*e));

	if (!e)
		return NULL;
	e->k8s = k8s;
	for (int i = 0; i < F_COUNT; i++)
		e->name_len[i] = strlen(defs[i].name);
	u64map_init(&e->state);
	u64map_init(&e->seen);
	return e;
}

static void free_buffers(struct prom_expo *e)
{
	for (int i = 0; i < F_COUNT; i++)
		prom_buf_free(&e->f[i]);
	prom_buf_free(&e->labels);
}

/*
 * A cgroup's totals, kept while it is reported in the interval ctx ends:
 * a cgroup not reported loses them, its series are gone.  ctx NULL: freed.
 */
static bool keep_series(uint64_t key, void *val, void *ctx)
{
	struct series_state *s = val;
	const struct prom_expo *e = ctx;

	(void)key;
	if (e && s->generation == e->generation)
		return true;
	free(s->node_slots);
	prom_events_totals_free(&s->events);
	free(s);
	return false;
}

void prom_expo_free(struct prom_expo *e)
{
	if (!e)
		return;
	free_buffers(e);
	u64map_retain(&e->state, keep_series, NULL);
	u64map_free(&e->state);
	u64map_free(&e->seen);
	prom_nodes_free(&e->nodes);
	prom_events_map_free(&e->events_map);
	prom_rows_free(e->rows);
	free(e->count_family);
	free(e->batch_index);
	free(e->batch_v);
	free(e);
}

/*
 * " <value>\n": the value as Prometheus parses it, by text(): the shortest
 * text that reads back exactly, or a ratio's RATIO_DIGITS (docs/output.md
 * "Numbers"), written in place.  Finite values only: every caller leaves
 * out a sample it has no value for.
 */
static void put_value(struct prom_buf *b, double v, size_t (*text)(double, char *))
{
	if (!prom_buf_room(b, DOUBLE_TEXT_MAX + 2))
		return;
	b->p[b->len++] = ' ';
	b->len += text(v, b->p + b->len);
	b->p[b->len++] = '\n';
}

/* " <n>\n" */
static void put_count(struct prom_buf *b, uint64_t n)
{
	if (!prom_buf_room(b, INT_TEXT_MAX + 2))
		return;
	b->p[b->len++] = ' ';
	b->len += uint_text(n, b->p + b->len);
	b->p[b->len++] = '\n';
}

/*
 * `name{<labels>`: the start of a sample in family fam, its labels the first
 * len bytes of e->labels: the host's (labels_host), or the line's (labels_len).
 */
static void series_head(struct prom_expo *e, enum family fam, size_t len)
{
	struct prom_buf *b = &e->f[fam];

	if (!prom_buf_room(b, e->name_len[fam] + 1 + len))
		return;
	memcpy(b->p + b->len, defs[fam].name, e->name_len[fam]);
	b->len += e->name_len[fam];
	b->p[b->len++] = '{';
	memcpy(b->p + b->len, e->labels.p, len);
	b->len += len;
}

/*
 * The inputs the model's formulas read besides the counts (docs/model-format.md:
 * the flags and the PMU's slot width), so that sums across hosts never mix
 * counts whose formulas differ.  Unknown before the first interval: left out.
 */
static void formula_state_labels(struct prom_expo *e, const struct report_line *head)
{
	struct prom_buf *b = &e->f[F_BUILD_INFO];

	label(e, b, "smt", head->smt ? "true" : "false");
	label(e, b, "topdown_fixed", head->topdown_fixed ? "true" : "false");
	if (head->pmu_slots) {
		char width[INT_TEXT_MAX];

		width[uint_text(head->pmu_slots, width)] = '\0';
		label(e, b, "pmu_slots", width);
	}
}

/* An interval's text (measured), or the one before the first interval. */
static int begin(struct prom_expo *e, const struct report_line *head, bool measured)
{
	e->open = false;
	if (!e->rows) {
		const char *names[PROM_ROWS_FAMILIES];

		for (int f = 0; f < PROM_ROWS_FAMILIES; f++)
			names[f] = defs[row_family[f]].name;
		e->rows = prom_rows_new(names);
		if (!e->rows)
			return -ENOMEM;
	}
	prom_rows_reset(e->rows);
	for (int i = 0; i < F_COUNT; i++)
		prom_buf_rewind(&e->f[i]);
	e->open = true;
	e->generation++;
	e->lines = 0;
	e->label_failed = false;
	u64map_free(&e->seen);
	u64map_init(&e->seen);
	e->dropped += head->dropped;
	prom_buf_rewind(&e->labels);
	if (prom_label(&e->labels, "host", head->host ? head->host : ""))
		e->label_failed = true;
	if (e->labels.failed) {
		e->open = false; /* no line is taken without its labels */
		return -ENOMEM;
	}
	e->labels_host = e->labels.len;

	series_head(e, F_BUILD_INFO, e->labels_host);
	label(e, &e->f[F_BUILD_INFO], "version", TMACG_VERSION);
	label(e, &e->f[F_BUILD_INFO], "model", head->model ? head->model : "");
	label(e, &e->f[F_BUILD_INFO], "tma_version", head->tma_version ? head->tma_version : "");
	if (measured)
		formula_state_labels(e, head);
	prom_buf_puts(&e->f[F_BUILD_INFO], "} 1\n");
	if (measured) {
		double end = head->time.tv_sec + head->time.tv_nsec / 1e9;

		series_head(e, F_INTERVAL, e->labels_host);
		prom_buf_putc(&e->f[F_INTERVAL], '}');
		put_value(&e->f[F_INTERVAL], head->interval_s, shortest_double);
		series_head(e, F_INTERVAL_END, e->labels_host);
		prom_buf_putc(&e->f[F_INTERVAL_END], '}');
		put_value(&e->f[F_INTERVAL_END], end, shortest_double);
	}
	return 0;
}

void prom_expo_set_counts(struct prom_expo *e, bool on)
{
	e->counts = on;
}

int prom_expo_begin(struct prom_expo *e, const struct report_line *head)
{
	return begin(e, head, true);
}

int prom_expo_begin_unmeasured(struct prom_expo *e, const char *host, const char *model,
			       const char *tma_version)
{
	struct report_line head = { .host = host, .model = model, .tma_version = tma_version };

	return begin(e, &head, false);
}

/* Which counter family each of the line's counts feeds (-1: none). */
static int map_counts(struct prom_expo *e, const struct report_line *l)
{
	if (l->count_names == e->count_names && l->ncounts == e->ncounts)
		return 0;
	free(e->count_family);
	e->count_family = calloc(l->ncounts ? l->ncounts : 1, sizeof(*e->count_family));
	if (!e->count_family) {
		e->count_names = NULL;
		return -ENOMEM;
	}
	for (int c = 0; c < l->ncounts; c++) {
		e->count_family[c] = -1;
		for (int f = 0; f < F_COUNT; f++)
			if (defs[f].count && !strcmp(defs[f].count, l->count_names[c]))
				e->count_family[c] = f;
	}
	e->count_names = l->count_names;
	e->ncounts = l->ncounts;
	return 0;
}

/* Node labels from the model's paths and the line's groups, made again only when they change. */
static int map_nodes(struct prom_expo *e, const struct report_line *l)
{
	if (prom_nodes_map(&e->nodes, l->tma, l->measured ? l->measured_groups : NULL))
		return -ENOMEM;
	/* A family's samples of a line: at most one a node (or set, fewer). */
	if (e->nodes.n > e->batch_cap) {
		int *index = realloc(e->batch_index, (size_t)e->nodes.n * sizeof(*index));
		double *v = index ? realloc(e->batch_v, (size_t)e->nodes.n * sizeof(*v)) : NULL;

		if (index)
			e->batch_index = index;
		if (!v)
			return -ENOMEM;
		e->batch_v = v;
		e->batch_cap = e->nodes.n;
	}
	return prom_rows_labels(e->rows, &e->nodes);
}

static struct series_state *state_of(struct prom_expo *e, uint64_t cgroup_id)
{
	uint64_t key = cgroup_id ? cgroup_id : UINT64_MAX;
	struct series_state *s = u64map_get(&e->state, key);

	if (s)
		return s;
	s = calloc(1, sizeof(*s));
	if (s && u64map_put(&e->state, key, s)) {
		free(s);
		return NULL;
	}
	return s;
}

/*
 * The labels naming this line's cgroup: host, then with --k8s the
 * namespace, pod and container it belongs to, and the cgroup path whenever
 * those do not tell it apart: outside --k8s, a cgroup that is no named pod,
 * a container known only by its id (it would share its pod's labels), and
 * a label set already used in this interval (a pod recreated under the
 * same name while the old one's last interval is reported).  Pods and
 * containers thus keep their series across container restarts, and the
 * long path is not repeated on every one of their samples.  The text is
 * e->labels, written over by the next line's after the host's (begin):
 * one buffer for every line.  NULL: out of memory, or a cgroup reported twice.
 */
static const char *line_labels(struct prom_expo *e, const struct report_line *l)
{
	const struct resource *res = e->k8s ? l->resource : NULL;
	bool named = res && res->k8s_namespace && res->k8s_pod &&
		     (res->k8s_container || !res->container_id);

	for (int attempt = 0; attempt < 2; attempt++) {
		struct prom_buf *b = &e->labels;
		uint64_t h;

		b->len = e->labels_host;
		b->failed = false;
		if (res && res->k8s_namespace)
			label(e, b, "namespace", res->k8s_namespace);
		if (res && res->k8s_pod)
			label(e, b, "pod", res->k8s_pod);
		if (res && res->k8s_container)
			label(e, b, "container", res->k8s_container);
		if (!named || attempt)
			label(e, b, "cgroup", l->cgroup ? l->cgroup : "");
		prom_buf_putc(b, '\0'); /* a string too: hashed, and the rows' copy's source */
		if (b->failed)
			return NULL;
		e->labels_len = b->len - 1;
		h = u64map_key(b->p, strlen(b->p)); /* the label set's identity this interval */
		if (!u64map_get(&e->seen, h))
			return u64map_put(&e->seen, h, e) ? NULL : b->p;
		if (!named || attempt)
			return NULL; /* a cgroup reported twice: never expected */
	}
	return NULL;
}

/* A sample of the line in family fam: its own labels, value v. */
static void sample(struct prom_expo *e, enum family fam, double v)
{
	series_head(e, fam, e->labels_len);
	prom_buf_putc(&e->f[fam], '}');
	put_value(&e->f[fam], v, shortest_double);
}

/* A node sample (rows.h) of the family being written: kept until node_samples_end. */
static void node_sample(struct prom_expo *e, int index, double v)
{
	if (e->nbatch == e->batch_cap) {
		e->label_failed = true; /* more than one a node: never expected */
		return;
	}
	e->batch_index[e->nbatch] = index;
	e->batch_v[e->nbatch++] = v;
}

/* The node samples since the last call, family fam's; the interval failed if they cannot be kept. */
static void node_samples_end(struct prom_expo *e, enum prom_rows_family fam)
{
	if (prom_rows_samples(e->rows, fam, e->batch_index, e->batch_v, (size_t)e->nbatch))
		e->label_failed = true;
	e->nbatch = 0;
}

/*
 * Counters of slots: the SLOTS total and, for each level-1 and level-2 node
 * in slots, its share times SLOTS, summed over intervals.  rate() of a node's
 * over rate() of the total is then the node's share over any window (the
 * slot-weighted mean of the interval shares), however the scrapes fall.  A
 * share below 0 (TMA's formulas can give -0.01) counts as 0: a counter never
 * decreases.  A node's total is written in whole slots, summed exactly and
 * rounded when written (a rounded sum that never decreases never does
 * either): a slot is a whole unit, its fraction only the share's rounding,
 * and writing that took 16 or 17 digits, the formatter's slow path (a
 * tenth of a level-3 scrape's instructions).  Models without SLOTS (srf,
 * cwf, generic, software) have none.
 */
static int slot_counters(struct prom_expo *e, struct series_state *s, const struct report_line *l)
{
	const struct model_result *r = l->result;
	int n = e->nodes.n < r->nnodes ? e->nodes.n : r->nnodes, ntree;
	bool measured = isfinite(r->slots) && r->slots >= 0;
	const int *tree;

	if (s->nnode_slots != n) {
		/* The model changed (or first seen): its nodes' totals start again. */
		free(s->node_slots);
		s->node_slots = malloc((n ? n : 1) * sizeof(*s->node_slots));
		if (!s->node_slots) {
			s->nnode_slots = 0;
			return -ENOMEM;
		}
		s->nnode_slots = n;
		for (int i = 0; i < n; i++)
			s->node_slots[i] = NAN;
		s->have[F_TOPDOWN_SLOTS] = false;
		s->total[F_TOPDOWN_SLOTS] = 0;
	}
	if (measured) {
		s->total[F_TOPDOWN_SLOTS] += r->slots;
		s->have[F_TOPDOWN_SLOTS] = true;
	}
	if (!s->have[F_TOPDOWN_SLOTS])
		return 0;
	sample(e, F_TOPDOWN_SLOTS, s->total[F_TOPDOWN_SLOTS]);
	/* The tree's first two levels (no Info metric): the nodes that can be in slots. */
	tree = model_shown_nodes(l->tma, l->level < 2 ? l->level : 2, false, &ntree);
	for (int k = 0; k < ntree; k++) {
		int i = tree[k];
		if (i >= n || !e->nodes.in_slots[i])
			continue;
		if (measured && isfinite(r->value[i])) {
			if (isnan(s->node_slots[i]))
				s->node_slots[i] = 0;
			s->node_slots[i] += r->value[i] > 0 ? r->value[i] * r->slots : 0;
		}
		if (!isnan(s->node_slots[i]))
			node_sample(e, i, nearbyint(s->node_slots[i]));
	}
	node_samples_end(e, PROM_ROWS_NODE_SLOTS);
	return 0;
}

/*
 * quality.measured of a rotating run: a sample per set of perf groups
 * (tma_groups, prom_nodes.h) among the nodes the line reports whose events
 * take turns (levels 4-6, and those above whose groups rotate with them),
 * in the order of each set's first node.  Its value is the smallest
 * running/enabled of those groups, every node of the set's quality.measured:
 * a set holds some five nodes, so a sample a set, not a node.
 */
static void measured_samples(struct prom_expo *e, const struct report_line *l)
{
	const struct prom_nodes *pn = &e->nodes;

	for (int s = 0; s < pn->nsets; s++) {
		int k = pn->set_node[s]; /* reported if any of the set is */

		/* a tree node (not Info, not a count) of the line's levels */
		if (k >= 0 && isfinite(l->measured[k]) && pn->tree_level[k] >= 1 &&
		    pn->tree_level[k] <= l->level)
			node_sample(e, s, l->measured[k]);
	}
	node_samples_end(e, PROM_ROWS_MEASURED);
}

static void model_samples(struct prom_expo *e, const struct report_line *l)
{
	const struct model_result *r = l->result;
	const char *path = model_bottleneck_path(l->tma, r, l->level);
	int nshown;
	/* The line's own nodes: its tree, and the Info metrics with --info. */
	const int *shown = model_shown_nodes(l->tma, l->level, l->info, &nshown);

	/*
	 * Read into locals: the stores of the samples gathered (int and double)
	 * could alias e's fields, which would then be loaded again for each of
	 * the line's hundred-odd nodes.
	 */
	const int *tree_level = e->nodes.tree_level;
	const double *value = r->value;
	int n = e->nodes.n < r->nnodes ? e->nodes.n : r->nnodes, level = l->level;
	int *index = e->batch_index, nb = 0;
	double *v = e->batch_v;

	for (int k = 0; k < nshown; k++) {
		int i = shown[k];
		/* not computed: no sample, never a made-up 0 */
		if (i >= n || !isfinite(value[i]))
			continue;
		if (tree_level[i] == PROM_NODES_INFO) {
			series_head(e, F_TMA_INFO, e->labels_len);
			label(e, &e->f[F_TMA_INFO], "metric", model_node(l->tma, i)->name);
			prom_buf_putc(&e->f[F_TMA_INFO], '}');
			put_value(&e->f[F_TMA_INFO], r->value[i], ratio_text);
		} else if (tree_level[i] >= 1 && tree_level[i] <= level) {
			/* Counts (level 0, e.g. the software model's) are counters, never ratios. */
			if (nb == e->batch_cap) { /* shown lists each node once: never */
				e->label_failed = true;
				break;
			}
			index[nb] = i;
			v[nb++] = value[i];
		}
	}
	e->nbatch = nb;
	node_samples_end(e, PROM_ROWS_RATIO);
	if (l->measured)
		measured_samples(e, l);
	if (path) {
		series_head(e, F_BOTTLENECK, e->labels_len);
		label(e, &e->f[F_BOTTLENECK], "bottleneck", path);
		prom_buf_put(&e->f[F_BOTTLENECK], "} 1\n", 4);
	}
}

int prom_expo_line(struct prom_expo *e, const struct report_line *l)
{
	struct series_state *s;
	const char *labels;

	if (l->task || !e->open)
		return 0;
	if (map_counts(e, l) || (l->tma && l->result && map_nodes(e, l)))
		return -ENOMEM;
	s = state_of(e, l->cgroup_id);
	labels = line_labels(e, l);
	if (!s || !labels)
		return s ? -EEXIST : -ENOMEM;
	/*
	 * Reported twice in one interval (an id shared by two lines, never
	 * expected): the second line's counts are still added, once.
	 */
	if (l->tma && l->result && prom_rows_line(e->rows, labels, e->labels_len))
		return -ENOMEM;
	s->generation = e->generation;
	for (int c = 0; c < l->ncounts; c++) {
		int fam = e->count_family[c];

		if (fam < 0)
			continue;
		if (isfinite(l->count_values[c])) {
			s->total[fam] += l->count_values[c];
			s->have[fam] = true;
		}
		if (s->have[fam])
			sample(e, fam, s->total[fam]);
	}
	if (e->counts && prom_events_line(&e->events_map, &s->events, &e->f[F_EVENTS], labels, l,
					  &e->label_failed))
		return -ENOMEM;
	if (isfinite(l->running_min))
		sample(e, F_RUNNING_MIN, l->running_min);
	if (l->tma && l->result) {
		model_samples(e, l);
		if (slot_counters(e, s, l))
			return -ENOMEM;
	}
	e->lines++;
	return 0;
}

/* Family i's HELP and TYPE lines, then its buffer's samples, onto b. */
static void family_text(const struct prom_expo *e, int i, struct prom_buf *b)
{
	const struct family_def *d = &defs[i];
	const char *parts[] = { "# HELP ", d->name, " ",     d->help, "\n# TYPE ",
				d->name,   " ",	    d->type, "\n" };

	for (size_t k = 0; k < sizeof(parts) / sizeof(parts[0]); k++)
		prom_buf_puts(b, parts[k]);
	prom_buf_put(b, e->f[i].p, e->f[i].len);
}

/* Family i's rows family, or -1: not a node family. */
static int rows_of(int i)
{
	for (int f = 0; f < PROM_ROWS_FAMILIES; f++)
		if (row_family[f] == (enum family)i)
			return f;
	return -1;
}

/* The bytes of b as a piece of t: b's memory is t's from here. */
static void copied_piece(struct prom_text *t, struct prom_buf *b)
{
	t->piece[t->n++] =
		(struct prom_piece){ .buf = b->p, .len = b->len, .cap = b->cap, .rows_family = -1 };
	*b = (struct prom_buf){ 0 };
}

/*
 * The families in order: what their buffers hold copied into pieces of
 * their own (a few series per cgroup), each node family's samples a piece
 * of the rows, made into text as they are sent; the rows go with the text.
 */
static bool pieces(struct prom_expo *e, struct prom_text *t)
{
	struct prom_buf copy = { 0 };

	for (int i = 0; i < F_COUNT; i++) {
		int f = rows_of(i);
		bool rows = f >= 0 && prom_rows_count(e->rows, f);

		if (!e->f[i].len && !rows)
			continue;
		family_text(e, i, &copy);
		if (copy.failed)
			break;
		if (!rows)
			continue;
		/* Three node families, with a copied piece before each: always room. */
		copied_piece(t, &copy);
		t->piece[t->n++] = (struct prom_piece){ .rows_family = f };
	}
	if (copy.failed) {
		prom_buf_free(&copy);
		return false;
	}
	if (copy.len)
		copied_piece(t, &copy);
	t->rows = e->rows;
	e->rows = NULL;
	return true;
}

int prom_expo_end_text(struct prom_expo *e, struct prom_text *t)
{
	bool ok = e->open;

	t->n = 0;
	t->rows = NULL;
	if (ok) {
		series_head(e, F_DROPPED, e->labels_host);
		prom_buf_putc(&e->f[F_DROPPED], '}');
		put_count(&e->f[F_DROPPED], e->dropped);
		series_head(e, F_REPORTED, e->labels_host);
		prom_buf_putc(&e->f[F_REPORTED], '}');
		put_count(&e->f[F_REPORTED], e->lines);
	}
	e->open = false;
	u64map_retain(&e->state, keep_series, e);
	for (int i = 0; ok && i < F_COUNT; i++)
		if (e->f[i].failed)
			ok = false;
	if (!ok || e->label_failed || !pieces(e, t)) {
		prom_text_free(t);
		free_buffers(e); /* out of memory: start afresh */
		return -ENOMEM;
	}
	return 0;
}

void prom_expo_recycle(struct prom_expo *e, struct prom_text *t)
{
	/* The rows back, to be written again: no regrowing, no fresh pages. */
	if (t->rows && !e->rows) {
		e->rows = t->rows;
		t->rows = NULL;
	}
	prom_text_free(t);
}

char *prom_expo_end(struct prom_expo *e, size_t *len)
{
	struct prom_text t;
	char *text;

	if (prom_expo_end_text(e, &t))
		return NULL;
	text = prom_text_join(&t, len);
	prom_expo_recycle(e, &t);
	return text;
}
