// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "output/report.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cgroups/cgroup_tree.h"
#include "collect/acc_delta.h"
#include "model/model.h"
#include "output/html_data.h"
#include "output/output_json.h"
#include "output/output_top.h"
#include "output/output_tree.h"
#include "util/name_escape.h"
#include "util/rfc3339.h"
#include "util/out_stream.h"

/* r->tasks holds them r->task_bytes apart: each with the plan's accumulator. */
struct report_task_entry {
	const struct cgroup_node *target;
	uint32_t tid, tgid;
	char comm[16];
	struct tmacg_acc delta;
};

struct report {
	struct report_config cfg;
	struct report_line facts; /* cfg.facts, copied: what every line shares */
	FILE *out;
	/* The live view, when it may show; top_auto: not yet (a table until enough rows) */
	struct top *top;
	bool top_auto, top_now, top_drawn_ansi;
	char host[256];
	/* "<pid>@<start time>": tells apart the lines of two tmacg running at once. */
	char instance[64];
	double *counts;
	struct model_result *result;
	char *tasks; /* ntasks entries of task_bytes each */
	size_t ntasks, cap_tasks, task_bytes;
	report_identify_fn identify; /* NULL: no Kubernetes identity */
	void *identify_ctx;
	const struct report_sink *sink; /* NULL: none */
	/* REPORT_HTML: the run's report, and each of its cgroups' counts summed over the run */
	struct html_report *html;
	struct json_printer *json; /* REPORT_JSON */
	char *totals;		   /* ntotals sums of the plan's size (acc_bytes) */
	int ntotals;
	struct tmacg_acc *other, *empty; /* "(other)"'s sum; a zero one for a cgroup without */
	struct cgroup_node **lines;	 /* the cgroups reported, room for every node of the tree */
	size_t cap_lines;
};

static struct report_task_entry *task_at(const struct report *r, size_t i)
{
	return (struct report_task_entry *)(r->tasks + i * r->task_bytes);
}

static struct tmacg_acc *total_at(const struct report *r, int i)
{
	return (struct tmacg_acc *)(r->totals + (size_t)i * acc_bytes(&r->cfg.layout));
}

static void report_instance_name(char *buf, size_t len);

struct report *report_new(const struct report_config *cfg, FILE *out)
{
	struct report *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->cfg = *cfg;
	r->facts = *cfg->facts;
	r->cfg.facts = &r->facts;
	r->out = out;
	snprintf(r->host, sizeof(r->host), "%s", cfg->host ? cfg->host : "");
	r->cfg.host = r->host;
	report_instance_name(r->instance, sizeof(r->instance));
	if (cfg->format == REPORT_TOP || cfg->top_auto) {
		r->top = top_new(r->facts.tma, r->facts.level, r->facts.ncounts,
				 r->facts.count_names);
		if (!r->top)
			goto fail;
		r->top_auto = cfg->top_auto;
	}
	if (cfg->format == REPORT_HTML &&
	    !(r->html = html_report_new(r->facts.tma, r->facts.level)))
		goto fail;
	if (cfg->format == REPORT_JSON && !(r->json = json_printer_new(&r->facts)))
		goto fail;
	r->counts = calloc(r->facts.ncounts ? r->facts.ncounts : 1, sizeof(*r->counts));
	r->result = model_result_new(r->facts.tma);
	r->other = acc_new(&cfg->layout);
	r->empty = acc_new(&cfg->layout);
	/* Rounded up so every entry's pointers stay aligned. */
	r->task_bytes = (offsetof(struct report_task_entry, delta) + acc_bytes(&cfg->layout) +
			 _Alignof(struct report_task_entry) - 1) &
			~(_Alignof(struct report_task_entry) - 1);
	if (!r->counts || !r->result || !r->other || !r->empty)
		goto fail;
	return r;
fail:
	report_free(r);
	return NULL;
}

void report_set_sink(struct report *r, const struct report_sink *sink)
{
	r->sink = sink;
}

void report_set_identify(struct report *r, report_identify_fn identify, void *ctx)
{
	r->identify = identify;
	r->identify_ctx = ctx;
}

bool report_has_live_view(const struct report *r)
{
	return r->top != NULL;
}

void report_free(struct report *r)
{
	if (!r)
		return;
	/* The live view's last line has no newline: the shell's prompt goes below it. */
	if (r->top_drawn_ansi)
		fputc('\n', r->out);
	top_free(r->top);
	free(r->counts);
	if (r->result)
		model_result_free(r->result);
	free(r->tasks);
	html_report_free(r->html);
	json_printer_free(r->json);
	free(r->totals);
	free(r->other);
	free(r->empty);
	free(r->lines);
	free(r);
}

static void clear_sums(const struct report *r, struct cgroup_tree *t)
{
	struct cgroup_node *n;
	size_t cur = 0;

	while ((n = cgroup_tree_next(t, &cur)))
		if (n->sum)
			acc_clear(&r->cfg.layout, n->sum);
}

void report_reset(struct report *r, struct cgroup_tree *t)
{
	clear_sums(r, t);
	r->ntasks = 0;
}

void report_add_task(struct report *r, const struct cgroup_node *target, uint32_t tid,
		     uint32_t tgid, const char *comm, const struct tmacg_acc *delta)
{
	struct report_task_entry *e;

	if (r->ntasks == r->cap_tasks) {
		size_t cap = r->cap_tasks ? r->cap_tasks * 2 : 64;
		char *grown = realloc(r->tasks, cap * r->task_bytes);

		if (!grown)
			return;
		r->tasks = grown;
		r->cap_tasks = cap;
	}
	e = task_at(r, r->ntasks++);
	e->target = target;
	e->tid = tid;
	e->tgid = tgid;
	memcpy(e->comm, comm, sizeof(e->comm));
	memcpy(&e->delta, delta, acc_bytes(&r->cfg.layout));
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

/* Room for every node of t in r->lines; 0 or -ENOMEM. */
static int lines_room(struct report *r, const struct cgroup_tree *t)
{
	size_t cap = cgroup_tree_len(t) + 1;
	struct cgroup_node **grown;

	if (cap <= r->cap_lines)
		return 0;
	grown = realloc(r->lines, cap * sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	r->lines = grown;
	r->cap_lines = cap;
	return 0;
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
	uint64_t map_full;
};

static void table_header(struct report *r, const struct line_ctx *lc)
{
	char *host = name_term_text(r->host), text[1024];
	struct top_title title = { lc->now,	   lc->interval_s, host ? host : "?",
				   r->facts.model, lc->dropped,	   lc->map_full };

	top_title_text(&title, NULL, text, sizeof(text));
	fprintf(r->out, "\n%s\n", text);
	free(host);
}

/* The line's chart point and quality, and its counts into the cgroup's sums over the run. */
static int html_add(struct report *r, const struct report_line *line, const struct tmacg_acc *sum)
{
	int idx = html_report_add(r->html, line);

	if (idx < 0)
		return idx;
	if (idx >= r->ntotals) {
		int n = r->ntotals ? 2 * r->ntotals : 64;
		size_t bytes = acc_bytes(&r->cfg.layout);
		char *grown = realloc(r->totals, n * bytes);

		if (!grown)
			return -ENOMEM;
		memset(grown + r->ntotals * bytes, 0, (n - r->ntotals) * bytes);
		r->totals = grown;
		r->ntotals = n;
	}
	acc_add(&r->cfg.layout, total_at(r, idx), sum);
	return 0;
}

int report_write_html(struct report *r, const char *kernel, FILE *f)
{
	int n = html_report_count(r->html), err = html_report_set_kernel(r->html, kernel);

	/* Summed counts over summed seconds: a share over the run is its slots over its slots. */
	for (int i = 0; !err && i < n; i++) {
		r->cfg.evaluate(r->cfg.evaluate_ctx, total_at(r, i), html_report_span_s(r->html, i),
				r->counts, r->result);
		err = html_report_set_total(r->html, i, r->result);
	}
	return err ? err : html_report_write(r->html, f);
}

/* What every line of the interval shares: the run's facts, the interval's time, host and losses. */
static void interval_line(const struct report *r, const struct line_ctx *lc,
			  struct report_line *line)
{
	*line = r->facts;
	line->time = lc->now;
	line->interval_s = lc->interval_s;
	line->host = r->host;
	line->dropped = lc->dropped;
	line->map_full = lc->map_full;
	line->instance = r->instance;
}

static int emit(struct report *r, const struct line_ctx *lc, const char *name, uint64_t id,
		const struct cgroup_node *node, const struct report_task_entry *task,
		const struct tmacg_acc *sum)
{
	struct resource res = { .host = r->host };
	const struct resource *ident =
		node && r->identify ? r->identify(node, r->identify_ctx) : NULL;
	struct report_task rt;
	struct report_line line;

	r->cfg.evaluate(r->cfg.evaluate_ctx, sum, lc->interval_s, r->counts, r->result);
	if (ident) {
		res = *ident;
		res.host = r->host;
	}
	interval_line(r, lc, &line);
	line.cgroup = name;
	line.cgroup_id = id;
	line.resource = &res;
	if (task) {
		rt.tid = task->tid;
		rt.tgid = task->tgid;
		rt.comm = task->comm;
		line.task = &rt;
	}
	line.count_values = r->counts;
	line.running_min = acc_running_min(&r->cfg.layout, sum);
	line.result = r->result;
	if (r->sink && !task)
		r->sink->line(r->sink->ctx, &line);
	if (r->html)
		return task ? 0 : html_add(r, &line, sum);
	if (r->top_now)
		return task ? 0 : top_add(r->top, &line, !node);
	if (r->cfg.format == REPORT_JSON)
		return json_printer_line(r->json, r->out, &line);
	if (r->cfg.format == REPORT_NONE)
		return 0;
	output_tree(r->out, &line, r->cfg.color);
	return ferror(r->out) ? out_stream_error(r->out) : 0;
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
	struct top_title title = { lc->now,	   lc->interval_s, r->host,
				   r->facts.model, lc->dropped,	   lc->map_full };
	struct top_screen scr;

	top_screen_size(out_stream_fd(r->out), &scr);
	scr.ansi = isatty(out_stream_fd(r->out));
	scr.color = r->cfg.color;
	r->top_drawn_ansi = scr.ansi;
	return top_draw(r->top, r->out, &scr, &title);
}

/* The first of n's tasks: they are sorted by target (task_order), so a lower bound. */
static size_t first_task_of(const struct report *r, const struct cgroup_node *n)
{
	size_t lo = 0, hi = r->ntasks;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if ((uintptr_t)task_at(r, mid)->target < (uintptr_t)n)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int emit_tasks(struct report *r, const struct line_ctx *lc, const struct cgroup_node *n)
{
	int shown = 0, err = 0;

	for (size_t i = first_task_of(r, n); i < r->ntasks && task_at(r, i)->target == n; i++) {
		const struct report_task_entry *e = task_at(r, i);

		if (r->cfg.top && shown >= r->cfg.top)
			continue;
		err = emit(r, lc, n->path, n->id, n, e, &e->delta);
		if (err)
			return err;
		shown++;
	}
	return 0;
}

int report_interval(struct report *r, struct cgroup_tree *t, double interval_s, uint64_t dropped,
		    uint64_t map_full)
{
	struct cgroup_node **lines;
	struct cgroup_node *node;
	struct line_ctx lc = { .interval_s = interval_s, .dropped = dropped, .map_full = map_full };
	struct report_line interval;
	size_t n = 0, cur = 0, shown;
	bool any_other = false;
	int err = 0;

	if (lines_room(r, t))
		return -ENOMEM;
	lines = r->lines;
	clock_gettime(CLOCK_REALTIME, &lc.now);
	interval_line(r, &lc, &interval);
	json_printer_begin_interval(r->json, &interval);
	if (r->sink)
		r->sink->begin(r->sink->ctx, &interval);
	while ((node = cgroup_tree_next(t, &cur)))
		if (cgroup_node_reported(node))
			lines[n++] = node;
	/* --top: the busiest N, the rest summed so totals still add up. */
	shown = n;
	acc_clear(&r->cfg.layout, r->other);
	if (r->cfg.top && (size_t)r->cfg.top < n) {
		qsort(lines, n, sizeof(*lines), by_on_cpu_desc);
		shown = r->cfg.top;
		for (size_t i = shown; i < n; i++) {
			if (lines[i]->sum) {
				acc_add(&r->cfg.layout, r->other, lines[i]->sum);
				any_other = true;
			}
		}
		any_other = any_other || shown < n;
	}
	qsort(lines, shown, sizeof(*lines), by_path);
	if (r->ntasks) /* qsort(NULL, 0, ...) is undefined */
		qsort(r->tasks, r->ntasks, r->task_bytes, task_order);
	/* auto: the live view once more than a handful show, and from then on */
	if (r->top_auto && n > TOP_AUTO_MIN_ROWS)
		r->top_auto = false;
	r->top_now = r->top && !r->top_auto;
	if (r->cfg.format == REPORT_TABLE && !r->top_now)
		table_header(r, &lc);
	for (size_t i = 0; i < shown && !err; i++) {
		const struct tmacg_acc *sum = lines[i]->sum ? lines[i]->sum : r->empty;

		err = emit(r, &lc, lines[i]->path, lines[i]->id, lines[i], NULL, sum);
		if (!err && !r->top_now) /* the live view has a row per cgroup */
			err = emit_tasks(r, &lc, lines[i]);
	}
	if (!err && any_other)
		err = emit(r, &lc, "(other)", 0, NULL, NULL, r->other);
	if (!err && r->top_now)
		err = draw_top(r, &lc);
	if (!err)
		err = json_printer_flush(r->json, r->out);
	if (!err && !r->html && fflush(r->out))
		err = out_stream_error(r->out);
	if (r->sink)
		r->sink->end(r->sink->ctx);
	report_reset(r, t);
	return err;
}

/*
 * Which tmacg wrote a line.  Two instances on one node (a DaemonSet and an
 * engineer's shell) measure independently, but their lines look alike in one
 * log pipeline: pid and start time tell them apart, also across pid reuse.
 */
static void report_instance_name(char *buf, size_t len)
{
	struct timespec ts;
	char date[RFC3339_MAX];

	clock_gettime(CLOCK_REALTIME, &ts);
	rfc3339_text(&ts, date);
	snprintf(buf, len, "%d@%s", (int)getpid(), date);
}
