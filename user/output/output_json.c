// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * JSON lines through a streaming writer (util/json_writer.h): each value is
 * appended in the schema's key order as it is known, so a line allocates
 * nothing; it used to build and free a json-c object tree, and to find each
 * number's shortest text by printf and strtod, most of tmacg's CPU time at
 * 10,000 cgroups.  The tests still read every line back with json-c.
 */
#include "output/output_json.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "model/retire_latency.h"
#include "util/json_writer.h"
#include "util/rfc3339.h"
#include "util/out_stream.h"

/* "key":"value", left out when the value is NULL. */
#define optional_string(w, key, value)       \
	do {                                 \
		if (value) {                 \
			JW_KEY(w, key);      \
			jw_string(w, value); \
		}                            \
	} while (0)

static void resource_object(struct json_writer *w, const struct resource *res)
{
	jw_begin_object(w);
	if (res) {
		optional_string(w, "k8s.namespace.name", res->k8s_namespace);
		optional_string(w, "k8s.pod.name", res->k8s_pod);
		optional_string(w, "k8s.pod.uid", res->k8s_pod_uid);
		optional_string(w, "k8s.container.name", res->k8s_container);
		optional_string(w, "container.id", res->container_id);
		optional_string(w, "host.name", res->host);
	}
	jw_end_object(w);
}

/* "group": what a line of summed counts (--replay --group-by) summed. */
static void group_object(struct json_writer *w, const struct report_group *g)
{
	JW_KEY(w, "group");
	jw_begin_object(w);
	JW_KEY(w, "by");
	jw_begin_object(w);
	for (int i = 0; i < g->nkeys; i++) {
		jw_key(w, g->key_names[i]);
		jw_string(w, g->values[i]);
	}
	jw_end_object(w);
	JW_KEY(w, "lines");
	jw_uint(w, g->lines);
	JW_KEY(w, "cgroups");
	jw_uint(w, g->cgroups);
	jw_end_object(w);
}

/*
 * The JSON printer of a run: its own copies of what the lines' keys are
 * made from, worked out once from the facts every line shares.  The
 * objects of many members ("counts", "metrics", quality.measured) are
 * written a whole object a call (jw_number_members), their keys made
 * into text once (jw_keys): the counts' names, and the shown nodes'.
 */
struct json_printer {
	int ncounts;
	const char *const *count_names;
	struct jw_keys *count_keys;
	const bool *count_derived;
	/*
	 * Per count: JW_EXACT, a measured count read back exactly; JW_RATIO, one
	 * derived from the interval's length (count_derived), a metric's 9 digits.
	 */
	unsigned char *count_form;
	const struct tma_model *tma;
	int level;
	bool info;
	int nshown; /* the nodes a line shows (model_shown_nodes) */
	const int *shown;
	const char **node_name; /* per shown node */
	size_t *node_len;
	struct jw_keys *node_keys; /* per shown node */
	/*
	 * The lines not yet written (json_printer_line's, made on its first):
	 * handed to the stream JSON_BATCH_BYTES at a time, and at
	 * json_printer_flush.  Built here, in a buffer that stays in cache, not
	 * built elsewhere and copied into stdio's.
	 */
	struct json_writer *batch;
	/*
	 * The members every line of an interval shares, as text: made by
	 * json_printer_begin_interval from what the interval's lines share,
	 * copied into each of them.
	 */
	struct shared_text {
		bool made;
		char *text; /* head, quality's, tail's members, one after another */
		size_t head_len, quality_at, quality_len, tail_at, tail_len;
		int unmeasured_from; /* first_unmeasured of the interval's lines */
	} shared;
};

#define JSON_BATCH_BYTES (64 * 1024)

/* "metrics", "flagged" and "bottleneck" from the model's result. */
static void add_model_result(struct json_writer *w, const struct json_printer *p,
			     const struct report_line *r)
{
	int n = r->tma && r->result ? p->nshown : 0;

	JW_KEY(w, "metrics");
	jw_begin_object(w);
	jw_number_members(w, p->node_keys, n, n ? r->result->value : NULL, p->shown, JW_RATIO, NULL,
			  false);
	jw_end_object(w);
	JW_KEY(w, "flagged");
	jw_begin_array(w);
	for (int j = 0; j < n; j++)
		if (r->result->flagged[p->shown[j]] &&
		    !(r->info && model_node(r->tma, p->shown[j])->is_info))
			jw_string_plain(w, p->node_name[j], p->node_len[j]);
	jw_end_array(w);
	JW_KEY(w, "bottleneck");
	jw_string(w, model_bottleneck_path(r->tma, r->result, r->level));
}

/*
 * At levels 4-6 groups are measured in turns: each node whose events take
 * turns with the fraction of the interval they were on the PMU
 * (docs/output.md), the line's own nodes only (an Info metric without
 * --info reads rotating events too); NAN: not reported.
 */
static void add_measured(struct json_writer *w, const struct json_printer *p,
			 const struct report_line *r)
{
	if (!r->measured || !r->tma)
		return;
	JW_KEY(w, "measured");
	jw_begin_object(w);
	jw_number_members(w, p->node_keys, p->nshown, r->measured, p->shown, JW_SHARE, NULL, true);
	jw_end_object(w);
}

/* The first node r says is unmeasured; the model's node count when none is. */
static int first_unmeasured(const struct report_line *r)
{
	int n = r->tma ? model_node_count(r->tma) : 0, k = 0;

	while (r->unmeasured && k < n && !r->unmeasured[k])
		k++;
	return k;
}

/*
 * The nodes null whatever ran, each with why: a perf group the kernel
 * refused to open.  from: first_unmeasured(r), found once an interval (the
 * run's facts), not by a scan of every node on each line.
 */
static void add_unmeasured(struct json_writer *w, const struct report_line *r, int from)
{
	int n, k = from;

	if (!r->unmeasured || !r->tma)
		return;
	n = model_node_count(r->tma);
	if (k >= n)
		return;
	JW_KEY(w, "unmeasured");
	jw_begin_object(w);
	for (; k < n; k++) {
		if (!r->unmeasured[k] || model_node(r->tma, k)->level > r->level ||
		    (model_node(r->tma, k)->is_info && !r->info))
			continue;
		jw_key(w, model_node(r->tma, k)->name);
		jw_string(w, r->unmeasured[k]);
	}
	jw_end_object(w);
}

/* quality's members from smt_shared to retire_latency: the same on every line of an interval. */
static void quality_shared_members(struct json_writer *w, const struct report_line *r)
{
	JW_KEY(w, "smt_shared");
	jw_bool(w, r->smt_shared);
	JW_KEY(w, "dropped");
	jw_uint(w, r->dropped);
	JW_KEY(w, "map_full");
	jw_uint(w, r->map_full);
	JW_KEY(w, "instance");
	jw_string(w, r->instance);
	/* Added after the first tmacg/1 keys, as the schema's rules allow. */
	JW_KEY(w, "pmu_groups");
	if (r->pmu_groups >= 0)
		jw_int(w, r->pmu_groups);
	else
		jw_null(w);
	JW_KEY(w, "missing_events");
	jw_begin_array(w);
	for (int i = 0; i < r->nmissing; i++)
		jw_string(w, r->missing[i]);
	jw_end_array(w);
	JW_KEY(w, "retire_latency");
	jw_string(w, r->retire_latency);
}

/* shared: the interval's shared members as text, or NULL to write them. */
static void add_quality(struct json_writer *w, const struct json_printer *p,
			const struct report_line *r, const struct shared_text *shared)
{
	JW_KEY(w, "quality");
	jw_begin_object(w);
	JW_KEY(w, "running_min");
	jw_double(w, r->running_min);
	if (shared)
		jw_members_text(w, shared->text + shared->quality_at, shared->quality_len);
	else
		quality_shared_members(w, r);
	JW_KEY(w, "no_top_down");
	jw_string(w, r->result ? r->result->no_tree : NULL);
	add_measured(w, p, r);
	add_unmeasured(w, r, shared ? shared->unmeasured_from : first_unmeasured(r));
	jw_end_object(w);
}

/*
 * "retire_latency": {"EVENT": cycles}, the given latencies the model reads (the
 * replay input's key): left out when none was given, so Intel's published
 * defaults fill them again when the line is replayed, as they did here.
 */
static void add_latencies_given(struct json_writer *w, const struct report_line *r)
{
	int n = r->tma && r->latencies_given ? model_latency_count(r->tma) : 0;
	bool open = false;

	for (int i = 0; i < n; i++) {
		const char *ev = model_latency_name(r->tma, i);
		const double *cycles = rl_table_find(r->latencies_given, ev);

		if (!cycles)
			continue;
		if (!open) {
			JW_KEY(w, "retire_latency");
			jw_begin_object(w);
			open = true;
		}
		jw_key(w, ev);
		jw_double(w, *cycles);
	}
	if (open)
		jw_end_object(w);
}

struct json_printer *json_printer_new(const struct report_line *facts)
{
	struct json_printer *p = calloc(1, sizeof(*p));
	int n = 0;

	if (!p)
		return NULL;
	p->ncounts = facts->ncounts;
	p->count_names = facts->count_names;
	p->count_derived = facts->count_derived;
	p->tma = facts->tma;
	p->level = facts->level;
	p->info = facts->info;
	if (p->tma)
		p->shown = model_shown_nodes(p->tma, p->level, p->info, &n);
	p->nshown = n;
	p->node_name = calloc((size_t)n + 1, sizeof(*p->node_name));
	p->node_len = calloc((size_t)n + 1, sizeof(*p->node_len));
	p->count_form = calloc((size_t)p->ncounts + 1, sizeof(*p->count_form));
	if (!p->node_name || !p->node_len || !p->count_form) {
		json_printer_free(p);
		return NULL;
	}
	for (int i = 0; i < p->ncounts; i++)
		p->count_form[i] = p->count_derived && p->count_derived[i] ? JW_RATIO : JW_EXACT;
	for (int j = 0; j < n; j++) {
		p->node_name[j] = model_node(p->tma, p->shown[j])->name;
		p->node_len[j] = model_node(p->tma, p->shown[j])->name_len;
	}
	p->count_keys = jw_keys_new(p->ncounts, p->count_names);
	p->node_keys = jw_keys_new(n, p->node_name);
	if (!p->count_keys || !p->node_keys) {
		json_printer_free(p);
		return NULL;
	}
	return p;
}

void json_printer_free(struct json_printer *p)
{
	if (!p)
		return;
	jw_keys_free(p->count_keys);
	jw_keys_free(p->node_keys);
	free(p->node_name);
	free(p->node_len);
	free(p->count_form);
	free(p->shared.text);
	if (p->batch)
		json_writer_release(p->batch);
	free(p->batch);
	free(p);
}

/* "counts": every name's key made into text once, escaped where it needs to be. */
static void add_counts(struct json_writer *w, const struct json_printer *p,
		       const struct report_line *r)
{
	JW_KEY(w, "counts");
	jw_begin_object(w);
	jw_number_members(w, p->count_keys, r->ncounts, r->count_values, NULL, JW_EXACT,
			  p->count_form, false);
	jw_end_object(w);
}

/* Whether p was made from facts the line shares. */
static bool printer_fits(const struct json_printer *p, const struct report_line *r)
{
	return p && p->count_names == r->count_names && p->count_derived == r->count_derived &&
	       p->ncounts == r->ncounts && p->tma == r->tma && p->level == r->level &&
	       p->info == r->info;
}

static void line_text(const struct json_printer *p, struct json_writer *w,
		      const struct report_line *r, const struct shared_text *shared);

/* Hands f the text w holds, emptied then; 0 or why f failed. */
static int write_text(struct json_writer *w, FILE *f)
{
	size_t len;
	const char *text = json_writer_text(w, &len);
	int err = 0;

	if (json_writer_failed(w))
		err = -ENOMEM;
	else if (len && (fwrite(text, 1, len, f) != len || ferror(f)))
		err = out_stream_error(f); /* glibc: a line-buffered fwrite says len */
	json_writer_empty(w);
	return err;
}

int output_json_line(FILE *f, const struct report_line *r)
{
	struct json_printer *own = json_printer_new(r);
	struct json_writer w;
	int err;

	if (!own)
		return -ENOMEM;
	json_writer_init(&w);
	line_text(own, &w, r, NULL); /* one line: its members written, not made into a text */
	err = write_text(&w, f);
	json_writer_release(&w);
	json_printer_free(own);
	return err;
}

int json_printer_line(struct json_printer *p, FILE *f, const struct report_line *r)
{
	int err;

	if (!printer_fits(p, r)) { /* a line of its own, after those before it */
		err = json_printer_flush(p, f);
		return err ? err : output_json_line(f, r);
	}
	if (!p->batch) {
		p->batch = malloc(sizeof(*p->batch));
		if (!p->batch)
			return -ENOMEM;
		json_writer_init(p->batch);
	}
	line_text(p, p->batch, r, p->shared.made ? &p->shared : NULL);
	if (json_writer_failed(p->batch) || json_writer_length(p->batch) >= JSON_BATCH_BYTES)
		return write_text(p->batch, f);
	return 0;
}

int json_printer_flush(struct json_printer *p, FILE *f)
{
	return p && p->batch ? write_text(p->batch, f) : 0;
}

/* The line's first members, schema to tma_version. */
static void head_members(struct json_writer *w, const struct report_line *r)
{
	char when[RFC3339_MAX];

	rfc3339_text(&r->time, when);
	JW_KEY(w, "schema");
	jw_string(w, "tmacg/1");
	JW_KEY(w, "time");
	jw_string(w, when);
	JW_KEY(w, "interval_s");
	jw_double(w, r->interval_s);
	JW_KEY(w, "host");
	jw_string(w, r->host);
	JW_KEY(w, "model");
	jw_string(w, r->model);
	JW_KEY(w, "tma_version");
	jw_string(w, r->tma_version);
}

/* The line's last members, after "bottleneck": what the run measured with. */
static void tail_members(struct json_writer *w, const struct report_line *r)
{
	JW_KEY(w, "topdown_fixed");
	jw_bool(w, r->topdown_fixed);
	JW_KEY(w, "smt");
	if (r->smt_unknown)
		jw_null(w);
	else
		jw_bool(w, r->smt);
	/* Only where the PMU says its slot width (Arm): the models' pmu_slots input. */
	if (r->pmu_slots) {
		JW_KEY(w, "pmu_slots");
		jw_uint(w, r->pmu_slots);
	}
	add_latencies_given(w, r);
}

void json_printer_begin_interval(struct json_printer *p, const struct report_line *interval)
{
	struct shared_text *s = p ? &p->shared : NULL;
	struct json_writer w;
	const char *text;
	size_t len;
	char *copy;

	if (!s)
		return;
	s->made = false;
	json_writer_init(&w);
	/* "{head}{quality's}{tail}": each run of members between its braces */
	jw_begin_object(&w);
	head_members(&w, interval);
	s->head_len = json_writer_length(&w) - 1;
	jw_end_object(&w);
	jw_begin_object(&w);
	s->quality_at = json_writer_length(&w);
	quality_shared_members(&w, interval);
	s->quality_len = json_writer_length(&w) - s->quality_at;
	jw_end_object(&w);
	jw_begin_object(&w);
	s->tail_at = json_writer_length(&w);
	tail_members(&w, interval);
	s->tail_len = json_writer_length(&w) - s->tail_at;
	text = json_writer_text(&w, &len);
	copy = json_writer_failed(&w) ? NULL : malloc(len);
	if (copy) {
		memcpy(copy, text, len);
		free(s->text);
		s->text = copy;
		s->unmeasured_from = first_unmeasured(interval);
		s->made = true;
	}
	json_writer_release(&w);
}

/* The line's text, appended to w; shared: as add_quality's. */
static void line_text(const struct json_printer *p, struct json_writer *w,
		      const struct report_line *r, const struct shared_text *shared)
{
	jw_begin_object(w);
	if (shared)
		jw_members_text(w, shared->text + 1, shared->head_len);
	else
		head_members(w, r);
	JW_KEY(w, "cgroup");
	jw_string(w, r->cgroup);
	JW_KEY(w, "cgroup_id");
	if (r->cgroup_id)
		jw_uint(w, r->cgroup_id);
	else
		jw_null(w);
	if (r->task) {
		JW_KEY(w, "task");
		jw_begin_object(w);
		JW_KEY(w, "tid");
		jw_uint(w, r->task->tid);
		JW_KEY(w, "tgid");
		jw_uint(w, r->task->tgid);
		JW_KEY(w, "comm");
		jw_string(w, r->task->comm);
		jw_end_object(w);
	}
	JW_KEY(w, "resource");
	resource_object(w, r->resource);
	if (r->group)
		group_object(w, r->group);
	add_counts(w, p, r);
	add_quality(w, p, r, shared);
	add_model_result(w, p, r);
	if (shared)
		jw_members_text(w, shared->text + shared->tail_at, shared->tail_len);
	else
		tail_members(w, r);
	jw_end_object(w);
	jw_raw(w, "\n", 1);
}
