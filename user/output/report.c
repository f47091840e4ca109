// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "output/report.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "collect/acc_delta.h"
#include "cgroups/cgroup_tree.h"
#include "collect/collector.h"
#include "measure.h"
#include "model/model.h"
#include "util/name_escape.h"
#include "options.h"
#include "output/output_json.h"
#include "output/output_top.h"
#include "output/output_tree.h"

int report_init(struct report *r, const struct options *o, struct measure *ms, FILE *out)
{
	memset(r, 0, sizeof(*r));
	r->o = o;
	r->ms = ms;
	r->out = out;
	/* Decided by options_resolve(). */
	r->json = o->format == FORMAT_JSON;
	r->color = o->color;
	snprintf(r->host, sizeof(r->host), "%s", o->host);
	r->quiet = o->format == FORMAT_NONE;
	report_instance_name(r->instance, sizeof(r->instance));
	if (o->format == FORMAT_TOP || o->top_auto) {
		r->top = top_new(ms->tma, ms->level, ms->ncounts, ms->count_names);
		if (!r->top)
			return -ENOMEM;
		r->top_auto = o->top_auto;
	}
	r->counts = calloc(ms->ncounts ? ms->ncounts : 1, sizeof(*r->counts));
	r->result = model_result_new(ms->tma);
	if (!r->counts || !r->result)
		return -ENOMEM;
	return 0;
}

void report_free(struct report *r)
{
	/* The live view's last line has no newline: the shell's prompt goes below it. */
	if (r->top_drawn_ansi)
		fputc('\n', r->out);
	top_free(r->top);
	r->top = NULL;
	r->top_drawn_ansi = false;
	free(r->counts);
	if (r->result)
		model_result_free(r->result);
	free(r->tasks);
	r->counts = NULL;
	r->result = NULL;
	r->tasks = NULL;
}

static void clear_sums(struct cgroup_tree *t)
{
	struct cgroup_node *n;
	size_t cur = 0;

	while ((n = cgroup_tree_next(t, &cur)))
		if (n->sum)
			memset(n->sum, 0, sizeof(*n->sum));
}

void report_reset(struct report *r, struct cgroup_tree *t)
{
	clear_sums(t);
	r->ntasks = 0;
}

void report_add_task(struct report *r, const struct cgroup_node *target,
		     const struct collector_task *t, const struct tmacg_acc *delta)
{
	struct report_task_entry *e;

	if (r->ntasks == r->cap_tasks) {
		size_t cap = r->cap_tasks ? r->cap_tasks * 2 : 64;
		struct report_task_entry *grown = realloc(r->tasks, cap * sizeof(*grown));

		if (!grown)
			return;
		r->tasks = grown;
		r->cap_tasks = cap;
	}
	e = &r->tasks[r->ntasks++];
	e->target = target;
	e->tid = t->tid;
	e->tgid = t->tgid;
	memcpy(e->comm, t->comm, sizeof(e->comm));
	e->delta = *delta;
}

static __u64 on_cpu_ns(const struct tmacg_acc *a)
{
	return a->runtime_ns;
}

static int by_path(const void *a, const void *b)
{
	const struct cgroup_node *x = *(const struct cgroup_node *const *)a;
	const struct cgroup_node *y = *(const struct cgroup_node *const *)b;

	return strcmp(x->path, y->path);
}

static int by_on_cpu_desc(const void *a, const void *b)
{
	const struct cgroup_node *x = *(const struct cgroup_node *const *)a;
	const struct cgroup_node *y = *(const struct cgroup_node *const *)b;
	__u64 tx = x->sum ? on_cpu_ns(x->sum) : 0, ty = y->sum ? on_cpu_ns(y->sum) : 0;

	if (tx != ty)
		return tx > ty ? -1 : 1;
	return strcmp(x->path, y->path);
}

static int task_order(const void *a, const void *b)
{
	const struct report_task_entry *x = a, *y = b;
	__u64 tx = on_cpu_ns(&x->delta), ty = on_cpu_ns(&y->delta);

	if (x->target != y->target)
		return (uintptr_t)x->target < (uintptr_t)y->target ? -1 : 1;
	if (tx != ty)
		return tx > ty ? -1 : 1;
	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

struct line_ctx {
	struct timespec now;
	double interval_s;
	uint64_t dropped;
};

static void table_header(struct report *r, const struct line_ctx *lc)
{
	char when[32], *host = name_term_text(r->host);
	struct tm tm;

	localtime_r(&lc->now.tv_sec, &tm);
	strftime(when, sizeof(when), "%H:%M:%S", &tm);
	fprintf(r->out, "\n%s  interval %.2fs  host %s  model %s%s", when, lc->interval_s,
		host ? host : "?", r->ms->model_name,
		lc->dropped ? "  (samples dropped: see stderr)" : "");
	if (r->map_full)
		fprintf(r->out, "  map full: %llu dropped, raise --max-cgroups",
			(unsigned long long)r->map_full);
	fputc('\n', r->out);
	free(host);
}

static int emit(struct report *r, const struct line_ctx *lc, const char *name, uint64_t id,
		const struct cgroup_node *node, const struct report_task_entry *task,
		const struct tmacg_acc *sum)
{
	struct resource res = { .host = r->host };
	const struct resource *ident =
		node && r->identify ? r->identify(node, r->identify_ctx) : NULL;
	struct report_task rt;
	struct report_line line = { 0 };

	measure_evaluate(r->ms, sum, lc->interval_s, r->counts, r->result);
	if (ident) {
		res = *ident;
		res.host = r->host;
	}
	line.time = lc->now;
	line.interval_s = lc->interval_s;
	line.host = r->host;
	line.model = r->ms->model_name;
	line.tma_version = r->ms->tma_version;
	line.cgroup = name;
	line.cgroup_id = id;
	line.resource = &res;
	if (task) {
		rt.tid = task->tid;
		rt.tgid = task->tgid;
		rt.comm = task->comm;
		line.task = &rt;
	}
	line.ncounts = r->ms->ncounts;
	line.count_names = r->ms->count_names;
	line.count_values = r->counts;
	line.nsummary = r->ms->nsummary;
	line.running_min = acc_running_min(sum, r->ms->ngroups);
	line.smt_shared = r->ms->smt_shared;
	line.topdown_fixed = r->ms->topdown_fixed;
	line.smt = r->ms->smt;
	line.pmu_groups = r->ms->pmu_groups;
	line.nmissing = r->ms->nmissing;
	line.missing = r->ms->missing;
	line.dropped = lc->dropped;
	line.map_full = r->map_full;
	line.instance = r->instance;
	line.retire_latency = r->ms->retire_latency;
	line.tma = r->ms->tma;
	line.result = r->result;
	line.level = r->ms->level;
	line.info = r->ms->info;
	if (r->sink && !task)
		r->sink->line(r->sink->ctx, &line);
	if (r->top_now)
		return task ? 0 : top_add(r->top, &line, !node);
	if (r->json)
		return output_json_line(r->out, &line);
	if (r->quiet)
		return 0;
	output_tree(r->out, &line, r->color);
	return ferror(r->out) ? (errno == EPIPE ? -EPIPE : -EIO) : 0;
}

int report_key(struct report *r, int key, bool *quit)
{
	enum top_key_action a = r->top ? top_key(r->top, key) : TOP_KEY_IGNORED;

	/* q quits whatever shows (the table before auto's switch to the live view too). */
	*quit = a == TOP_KEY_QUIT || (!r->top && (key == 'q' || key == 'Q'));
	if (a != TOP_KEY_REDRAW || !r->top_now)
		return 0;
	return top_redraw(r->top, r->out);
}

static int draw_top(struct report *r, const struct line_ctx *lc)
{
	struct top_title title = { lc->now, lc->interval_s, r->host, r->ms->model_name,
				   lc->dropped };
	struct top_screen scr;

	top_screen_size(fileno(r->out), &scr);
	scr.ansi = isatty(fileno(r->out));
	scr.color = r->color;
	r->top_drawn_ansi = scr.ansi;
	return top_draw(r->top, r->out, &scr, &title);
}

/* The first of n's tasks: they are sorted by target (task_order), so a lower bound. */
static size_t first_task_of(const struct report *r, const struct cgroup_node *n)
{
	size_t lo = 0, hi = r->ntasks;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if ((uintptr_t)r->tasks[mid].target < (uintptr_t)n)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int emit_tasks(struct report *r, const struct line_ctx *lc, const struct cgroup_node *n)
{
	int shown = 0, err = 0;

	for (size_t i = first_task_of(r, n); i < r->ntasks && r->tasks[i].target == n; i++) {
		const struct report_task_entry *e = &r->tasks[i];

		if (r->o->top && shown >= r->o->top)
			continue;
		err = emit(r, lc, n->path, n->id, n, e, &e->delta);
		if (err)
			return err;
		shown++;
	}
	return 0;
}

int report_interval(struct report *r, struct cgroup_tree *t, double interval_s, uint64_t dropped)
{
	struct cgroup_node **lines = calloc(cgroup_tree_len(t) + 1, sizeof(*lines));
	struct cgroup_node *node;
	struct tmacg_acc other = { 0 };
	struct line_ctx lc = { .interval_s = interval_s, .dropped = dropped };
	size_t n = 0, cur = 0, shown;
	bool any_other = false;
	int err = 0;

	if (!lines)
		return -ENOMEM;
	clock_gettime(CLOCK_REALTIME, &lc.now);
	if (r->sink) {
		struct report_line head = { .time = lc.now,
					    .interval_s = interval_s,
					    .host = r->host,
					    .model = r->ms->model_name,
					    .tma_version = r->ms->tma_version,
					    .dropped = dropped };

		r->sink->begin(r->sink->ctx, &head);
	}
	while ((node = cgroup_tree_next(t, &cur)))
		if (cgroup_node_reported(node))
			lines[n++] = node;
	/* --top: the busiest N, the rest summed so totals still add up. */
	shown = n;
	if (r->o->top && (size_t)r->o->top < n) {
		qsort(lines, n, sizeof(*lines), by_on_cpu_desc);
		shown = r->o->top;
		for (size_t i = shown; i < n; i++) {
			if (lines[i]->sum) {
				acc_add(&other, lines[i]->sum, r->ms->nevents, r->ms->ngroups);
				any_other = true;
			}
		}
		any_other = any_other || shown < n;
	}
	qsort(lines, shown, sizeof(*lines), by_path);
	if (r->ntasks) /* qsort(NULL, 0, ...) is undefined */
		qsort(r->tasks, r->ntasks, sizeof(*r->tasks), task_order);
	/* auto: the live view once more than a handful show, and from then on */
	if (r->top_auto && n > TOP_AUTO_MIN_ROWS)
		r->top_auto = false;
	r->top_now = r->top && !r->top_auto;
	if (!r->json && !r->quiet && !r->top_now)
		table_header(r, &lc);
	for (size_t i = 0; i < shown && !err; i++) {
		static const struct tmacg_acc empty;
		const struct tmacg_acc *sum = lines[i]->sum ? lines[i]->sum : &empty;

		err = emit(r, &lc, lines[i]->path, lines[i]->id, lines[i], NULL, sum);
		if (!err && !r->top_now) /* the live view has a row per cgroup */
			err = emit_tasks(r, &lc, lines[i]);
	}
	if (!err && any_other)
		err = emit(r, &lc, "(other)", 0, NULL, NULL, &other);
	if (!err && r->top_now)
		err = draw_top(r, &lc);
	if (!err && fflush(r->out))
		err = errno == EPIPE ? -EPIPE : -EIO;
	if (r->sink)
		r->sink->end(r->sink->ctx);
	free(lines);
	report_reset(r, t);
	return err;
}

/*
 * Which tmacg wrote a line.  Two instances on one node (a DaemonSet and an
 * engineer's shell) measure independently, but their lines look alike in one
 * log pipeline: pid and start time tell them apart, also across pid reuse.
 */
void report_instance_name(char *buf, size_t len)
{
	struct timespec ts;
	struct tm tm;
	char date[32];

	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf, len, "%d@%s.%09ldZ", (int)getpid(), date, ts.tv_nsec);
}
