// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * JSON lines through a streaming writer (util/json_writer.h): each value is
 * appended in the schema's key order as it is known, so a line allocates
 * nothing; it used to build and free a json-c object tree, and to find each
 * number's shortest text by printf and strtod, most of tmacg's CPU time at
 * 10,000 cgroups (issue 21).  The tests still read every line back with json-c.
 */
#include "output/output_json.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "collect/measured_sets.h"
#include "model/model.h"
#include "model/retire_latency.h"
#include "util/key_table.h"
#include "util/share_memo.h"
#include "util/short_copy.h"
#include "util/json_writer.h"
#include "util/rfc3339.h"
#include "util/double_text.h"

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

/*
 * The objects of many members ("counts", "metrics", quality.measured) are
 * written in runs (util/json_writer.h), keys without the escape scan: a
 * model's node names are identifiers (model_load admits [A-Za-z0-9_] only),
 * a count's name is one where measure.c gives its length (jw_plain_length).
 */

/* d's text by text() at o, or null where it is not finite; its length (at most DOUBLE_TEXT_MAX). */
static size_t value_text(double d, char *o, size_t (*text)(double, char *))
{
	if (isfinite(d))
		return text(d, o);
	memcpy(o, "null", 4);
	return 4;
}

_Static_assert(JW_QUOTED_COPY <= KEY_TABLE_PAD, "a key table has the bytes a key's copy reads");

/*
 * Key i of a table (a node's, model_json_keys; a count's) at run->at, with
 * room for it and a value of at most `most` bytes; NULL: out of memory.
 * Inline: as a call it was 41 instructions for each of a level-6 line's
 * 350 keys, 8 % of the line (callgrind, outpath).
 */
static inline char *table_key(struct jw_run *run, const struct key_table *keys, int i, size_t most)
{
	if (!jw_run_room(run, 1 + JW_QUOTED_COPY + keys->len[i] + most))
		return NULL;
	return jw_run_quoted_key(run, keys->text + keys->at[i], keys->len[i]);
}

/* Key i of a table as a string, its colon left off ("flagged"'s names); NULL as above. */
static inline char *table_name(struct jw_run *run, const struct key_table *keys, int i)
{
	if (!jw_run_room(run, 1 + JW_QUOTED_COPY + keys->len[i]))
		return NULL;
	return jw_run_quoted_key(run, keys->text + keys->at[i], keys->len[i] - 1);
}

/* "metrics", "flagged" and "bottleneck" from the model's result. */
static void add_model_result(struct json_writer *w, const struct report_line *r)
{
	struct jw_run run;
	bool has = r->tma && r->result;
	int n = 0;
	/* The tree down to --level, Info metrics with --info, no counts. */
	const int *shown = has ? model_shown_nodes(r->tma, r->level, r->info, &n) : NULL;
	const struct key_table *keys = has ? model_json_keys(r->tma) : NULL;

	JW_KEY(w, "metrics");
	jw_begin_object(w);
	jw_run_begin(w, &run);
	for (int j = 0; j < n; j++) {
		char *o = table_key(&run, keys, shown[j], DOUBLE_TEXT_MAX);

		if (!o)
			break;
		run.at = o + value_text(r->result->value[shown[j]], o, ratio_text);
	}
	jw_run_end(&run);
	jw_end_object(w);
	JW_KEY(w, "flagged");
	jw_begin_array(w);
	jw_run_begin(w, &run);
	for (int j = 0; j < n; j++) {
		int i = shown[j];
		char *end;

		if (!r->result->flagged[i] || (r->info && model_node(r->tma, i)->is_info))
			continue;
		end = table_name(&run, keys, i);
		if (!end)
			break;
		run.at = end;
	}
	jw_run_end(&run);
	jw_end_array(w);
	JW_KEY(w, "bottleneck");
	jw_string(w, model_bottleneck_path(r->tma, r->result, r->level));
}

/* Texts of at most this many sets of groups on the stack; a plan with more takes the general way. */
#define MEASURED_SET_TEXTS 128
/* A set whose text is not made yet (a text is at most DOUBLE_TEXT_MAX long). */
#define MEASURED_UNMADE UINT8_MAX

/*
 * quality.measured by the run's sets of groups (collect/measured_sets.h): each
 * set's text made once, at its first shown node, and each value's once: a
 * level-6 icx line's 43 sets hold some 19 shares (sets whose groups were on
 * in the same slices share one), and the digits are the dear part.  The same
 * members as add_measured_by_node writes.
 */
static void add_measured_by_set(struct jw_run *run, const struct report_line *r)
{
	const struct measured_sets *s = r->measured_sets;
	const struct key_table *keys = model_json_keys(r->tma);
	char text[MEASURED_SET_TEXTS][DOUBLE_TEXT_MAX];
	uint8_t len[MEASURED_SET_TEXTS];
	struct share_memo memo;

	share_memo_init(&memo);
	memset(len, MEASURED_UNMADE, (size_t)s->nsets);
	for (int j = 0; j < s->nshown; j++) {
		int set = s->shown_set[j];
		char *o;

		if (len[set] == MEASURED_UNMADE) {
			double v = r->measured[s->first[set]];
			size_t n = 0;

			if (isfinite(v))
				n = share_memo_write(&memo, v, text[set]);
			else if (!isnan(v))
				n = value_text(v, text[set], share_text);
			len[set] = (uint8_t)n;
		}
		if (!len[set]) /* never enabled: not reported, as a NAN node */
			continue;
		o = table_key(run, keys, s->shown_node[j], len[set]);
		if (!o)
			return;
		short_copy(o, text[set], len[set]);
		run->at = o + len[set];
	}
}

/*
 * quality.measured node by node, for lines without the sets (a replay's):
 * the nodes of one perf group share their fraction, so its text is made
 * once per line (util/share_memo.h).
 */
static void add_measured_by_node(struct jw_run *run, const struct report_line *r)
{
	struct share_memo memo;
	int n;
	/* The line's own nodes only: an Info metric without --info reads rotating events too */
	const int *shown = model_shown_nodes(r->tma, r->level, r->info, &n);
	const struct key_table *keys = model_json_keys(r->tma);

	share_memo_init(&memo);
	for (int j = 0; j < n; j++) {
		int k = shown[j];
		const char *text = "null";
		size_t len = 4;
		char *o;

		if (isnan(r->measured[k]))
			continue;
		if (isfinite(r->measured[k]))
			text = share_memo_text(&memo, r->measured[k], &len);
		o = table_key(run, keys, k, len);
		if (!o)
			return;
		short_copy(o, text, len);
		run->at = o + len;
	}
}

/*
 * At levels 4-6 groups are measured in turns: each node whose events take
 * turns with the fraction of the interval they were on the PMU
 * (docs/output.md).
 */
static void add_measured(struct json_writer *w, const struct report_line *r)
{
	const struct measured_sets *s = r->measured_sets;
	struct jw_run run;

	if (!r->measured || !r->tma)
		return;
	JW_KEY(w, "measured");
	jw_begin_object(w);
	jw_run_begin(w, &run);
	if (s && s->level == r->level && s->info == r->info && s->nsets <= MEASURED_SET_TEXTS)
		add_measured_by_set(&run, r);
	else
		add_measured_by_node(&run, r);
	jw_run_end(&run);
	jw_end_object(w);
}

/* The nodes null whatever ran, each with why: a perf group the kernel refused to open. */
static void add_unmeasured(struct json_writer *w, const struct report_line *r)
{
	int n, k;

	if (!r->unmeasured || !r->tma)
		return;
	n = model_node_count(r->tma);
	for (k = 0; k < n && !r->unmeasured[k]; k++)
		;
	if (k == n)
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

static void add_quality(struct json_writer *w, const struct report_line *r)
{
	JW_KEY(w, "quality");
	jw_begin_object(w);
	JW_KEY(w, "running_min");
	jw_double(w, r->running_min);
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
	JW_KEY(w, "no_top_down");
	jw_string(w, r->result ? r->result->no_tree : NULL);
	add_measured(w, r);
	add_unmeasured(w, r);
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

int output_json_line(FILE *f, const struct report_line *r)
{
	struct json_writer w;
	struct jw_run run;
	char when[RFC3339_MAX];
	const char *text;
	size_t len;
	int err = 0;

	json_writer_init(&w);
	rfc3339_text(&r->time, when);
	jw_begin_object(&w);
	JW_KEY(&w, "schema");
	jw_string(&w, "tmacg/1");
	JW_KEY(&w, "time");
	jw_string(&w, when);
	JW_KEY(&w, "interval_s");
	jw_double(&w, r->interval_s);
	JW_KEY(&w, "host");
	jw_string(&w, r->host);
	JW_KEY(&w, "model");
	jw_string(&w, r->model);
	JW_KEY(&w, "tma_version");
	jw_string(&w, r->tma_version);
	JW_KEY(&w, "cgroup");
	jw_string(&w, r->cgroup);
	JW_KEY(&w, "cgroup_id");
	if (r->cgroup_id)
		jw_uint(&w, r->cgroup_id);
	else
		jw_null(&w);
	if (r->task) {
		JW_KEY(&w, "task");
		jw_begin_object(&w);
		JW_KEY(&w, "tid");
		jw_uint(&w, r->task->tid);
		JW_KEY(&w, "tgid");
		jw_uint(&w, r->task->tgid);
		JW_KEY(&w, "comm");
		jw_string(&w, r->task->comm);
		jw_end_object(&w);
	}
	JW_KEY(&w, "resource");
	resource_object(&w, r->resource);
	JW_KEY(&w, "counts");
	jw_begin_object(&w);
	jw_run_begin(&w, &run);
	for (int i = 0; i < r->ncounts; i++) {
		char *o;

		if (!r->count_keys || !r->count_keys->len[i]) {
			/* a name to escape: the writer's own calls, between runs */
			jw_run_end(&run);
			jw_key(&w, r->count_names[i]);
			jw_double(&w, r->count_values[i]);
			jw_run_begin(&w, &run);
			continue;
		}
		o = table_key(&run, r->count_keys, i, DOUBLE_TEXT_MAX);
		if (!o)
			break;
		run.at = o + value_text(r->count_values[i], o, shortest_double);
	}
	jw_run_end(&run);
	jw_end_object(&w);
	add_quality(&w, r);
	add_model_result(&w, r);
	JW_KEY(&w, "topdown_fixed");
	jw_bool(&w, r->topdown_fixed);
	JW_KEY(&w, "smt");
	jw_bool(&w, r->smt);
	/* Only where the PMU says its slot width (Arm): the models' pmu_slots input. */
	if (r->pmu_slots) {
		JW_KEY(&w, "pmu_slots");
		jw_uint(&w, r->pmu_slots);
	}
	add_latencies_given(&w, r);
	jw_end_object(&w);
	jw_raw(&w, "\n", 1);

	text = json_writer_text(&w, &len);
	if (json_writer_failed(&w))
		err = -ENOMEM;
	else if (fwrite(text, 1, len, f) != len || ferror(f))
		err = errno == EPIPE ? -EPIPE : -EIO; /* glibc: a line-buffered fwrite says len */
	json_writer_release(&w);
	return err;
}
