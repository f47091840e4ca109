// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * --format html: one self-contained document.  The page is the style sheet and
 * script under user/output/html/ (embedded at build time, html_assets[]), and
 * the report's data as one JSON object in a <script type="application/json">
 * block, which the script reads and renders with textContent only: a cgroup's
 * name is data, never markup.  The JSON is escaped for its block
 * (util/html_escape.h), and the page's Content-Security-Policy allows no
 * fetch of any kind: it opens from file:// with no network.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/embedded.h"
#include "model/model.h"
#include "output/html_data.h"
#include "output/html_impl.h"
#include "util/html_escape.h"
#include "util/json_writer.h"
#include "util/out_stream.h"

extern const struct embedded_file html_assets[];

static const char *asset(const char *id)
{
	for (const struct embedded_file *f = html_assets; f->id; f++)
		if (!strcmp(f->id, id))
			return f->text;
	return "";
}

/*
 * The node's description in the vendor's words (Intel's BriefDescription,
 * AMD's or Arm's text; model_node_description()), the one place the report
 * reads it.  "" when the model has none.
 */
static const char *node_description(const struct tma_model *m, int i)
{
	struct model_node_text t;

	if (!model_node_description(m, i, &t))
		return "";
	return t.brief ? t.brief : t.one_line ? t.one_line : "";
}

/* Shown to a precision the page displays and a little more, not 17 digits. */
static void put_rounded(struct json_writer *w, double v, double scale)
{
	jw_double(w, isfinite(v) ? round(v * scale) / scale : NAN);
}

/* The tree's nodes (level 1 to the report's level) in model order; pos[i]: their position. */
static void put_nodes(struct json_writer *w, const struct html_report *h, int *pos)
{
	int n = model_node_count(h->m), k = 0;

	JW_KEY(w, "nodes");
	jw_begin_array(w);
	for (int i = 0; i < n; i++) {
		const struct model_node_info *node = model_node(h->m, i);

		pos[i] = -1;
		if (node->level < 1 || node->level > h->level || node->is_info || node->is_count)
			continue;
		pos[i] = k++;
		jw_begin_object(w);
		JW_KEY(w, "name");
		jw_string(w, node->name);
		JW_KEY(w, "level");
		jw_int(w, node->level);
		JW_KEY(w, "parent");
		jw_int(w, node->parent >= 0 ? pos[node->parent] : -1);
		JW_KEY(w, "domain");
		jw_string(w, node->domain);
		JW_KEY(w, "desc");
		jw_string(w, node_description(h->m, i));
		jw_end_object(w);
	}
	jw_end_array(w);
}

/* "key": "value" pairs in order (NULL: null), the page's names of things. */
struct text_field {
	const char *key, *value;
};

static void put_texts(struct json_writer *w, const struct text_field *f, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		jw_key(w, f[i].key);
		jw_string(w, f[i].value);
	}
}

/* "key": number pairs in order, each rounded to 1/scale (NAN: null). */
struct number_field {
	const char *key;
	double value, scale;
};

static void put_numbers(struct json_writer *w, const struct number_field *f, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		jw_key(w, f[i].key);
		put_rounded(w, f[i].value, f[i].scale);
	}
}

#define put_fields(put, w, fields) put(w, fields, sizeof(fields) / sizeof(fields[0]))

/* "unmeasured": {node: why} when a perf group failed to open; absent otherwise. */
static void put_unmeasured(struct json_writer *w, const struct html_report *h,
			   const struct html_cgroup *c)
{
	int n = model_node_count(h->m), k;

	for (k = 0; k < n && !c->unmeasured[k]; k++)
		;
	if (k == n)
		return;
	JW_KEY(w, "unmeasured");
	jw_begin_object(w);
	for (; k < n; k++)
		if (c->unmeasured[k] && model_node(h->m, k)->level <= h->level &&
		    model_node(h->m, k)->level > 0) {
			jw_key(w, model_node(h->m, k)->name);
			jw_string(w, c->unmeasured[k]);
		}
	jw_end_object(w);
}

static void put_quality(struct json_writer *w, const struct html_report *h,
			const struct html_cgroup *c)
{
	/* Counts of intervals and deltas: exact as doubles far past what a run reaches. */
	const struct number_field numbers[] = {
		{ "running_min", c->running_min, 1e4 },
		{ "dropped", (double)c->dropped, 1 },
		{ "map_full", (double)c->map_full, 1 },
		{ "no_tree_intervals", c->no_tree, 1 },
		{ "pmu_groups", c->pmu_groups >= 0 ? c->pmu_groups : NAN, 1 },
	};

	JW_KEY(w, "q");
	jw_begin_object(w);
	put_fields(put_numbers, w, numbers);
	JW_KEY(w, "smt_shared");
	jw_bool(w, c->smt_shared);
	JW_KEY(w, "missing");
	jw_begin_array(w);
	for (int i = 0; i < c->nmissing; i++)
		jw_string(w, c->missing[i]);
	jw_end_array(w);
	JW_KEY(w, "retire_latency");
	jw_string(w, c->retire_latency);
	put_unmeasured(w, h, c);
	jw_end_object(w);
}

/*
 * The level-1 chart: at most HTML_CHART_POINTS points, each over a run of
 * intervals, its share their slots over their slots (the weights), as the
 * totals are: a downsampled point is the share of its time, not a mean.
 */
static void put_chart(struct json_writer *w, const struct html_report *h,
		      const struct html_cgroup *c)
{
	int n = c->npoints, points = n < HTML_CHART_POINTS ? n : HTML_CHART_POINTS;

	JW_KEY(w, "t0");
	put_rounded(w, c->start - h->first_time, 1e3);
	JW_KEY(w, "t");
	jw_begin_array(w);
	for (int b = 0; b < points; b++) {
		int last = (int)((long)(b + 1) * n / points) - 1;

		put_rounded(w, c->time[last] - h->first_time, 1e3);
	}
	jw_end_array(w);
	JW_KEY(w, "s");
	jw_begin_array(w);
	for (int b = 0; b < points; b++) {
		int from = (int)((long)b * n / points), to = (int)((long)(b + 1) * n / points);

		jw_begin_array(w);
		for (int k = 0; k < h->nl1; k++) {
			double sum = 0, weight = 0;

			for (int i = from; i < to; i++) {
				double v = c->l1[(size_t)i * h->nl1 + k];

				if (isfinite(v) && c->weight[i] > 0) {
					sum += v * c->weight[i];
					weight += c->weight[i];
				}
			}
			put_rounded(w, weight > 0 ? sum / weight : NAN, 1e4);
		}
		jw_end_array(w);
	}
	jw_end_array(w);
}

static void put_total(struct json_writer *w, const struct html_report *h,
		      const struct html_cgroup *c, const int *pos)
{
	int n = model_node_count(h->m);

	JW_KEY(w, "v");
	jw_begin_array(w);
	for (int i = 0; i < n; i++)
		if (pos[i] >= 0)
			put_rounded(w, c->has_total ? c->value[i] : NAN, 1e6);
	jw_end_array(w);
	JW_KEY(w, "f");
	jw_begin_array(w);
	for (int i = 0; c->has_total && i < n; i++)
		if (pos[i] >= 0 && c->flagged[i])
			jw_int(w, pos[i]);
	jw_end_array(w);
	JW_KEY(w, "b");
	jw_begin_array(w);
	for (int i = 0; c->has_total && i < c->bneck_len; i++)
		jw_int(w, pos[c->bneck[i]]);
	jw_end_array(w);
	JW_KEY(w, "no_tree");
	jw_string(w, c->total_no_tree);
}

static void put_cgroup(struct json_writer *w, const struct html_report *h,
		       const struct html_cgroup *c, const int *pos)
{
	const struct text_field names[] = { { "path", c->path },
					    { "ns", c->ns },
					    { "pod", c->pod },
					    { "container", c->container } };

	const struct number_field numbers[] = {
		{ "cpu_s", c->cpu_s, 1e4 },
		{ "span_s", c->span_s, 1e3 },
		{ "intervals", c->npoints, 1 },
	};

	jw_begin_object(w);
	put_fields(put_texts, w, names);
	put_fields(put_numbers, w, numbers);
	put_total(w, h, c, pos);
	put_quality(w, h, c);
	put_chart(w, h, c);
	jw_end_object(w);
}

static void put_report(struct json_writer *w, const struct html_report *h, int *pos)
{
	const struct text_field host[] = {
		{ "schema", "tmacg-html/1" },
		{ "host", h->host },
		{ "model", h->model },
		{ "title", model_title(h->m) },
		{ "tma_version", h->tma_version },
		{ "kernel", h->kernel },
	};

	const struct number_field numbers[] = {
		{ "interval_s", h->interval_s, 1e6 },
		{ "start", h->first_time, 1e3 },
		{ "end", h->last_time, 1e3 },
		{ "level", h->level, 1 },
	};

	jw_begin_object(w);
	put_fields(put_texts, w, host);
	put_fields(put_numbers, w, numbers);
	put_nodes(w, h, pos);
	JW_KEY(w, "cgroups");
	jw_begin_array(w);
	for (int i = 0; i < h->n; i++)
		put_cgroup(w, h, &h->cg[i], pos);
	jw_end_array(w);
	jw_end_object(w);
}

int html_report_write(const struct html_report *h, FILE *f)
{
	int *pos = calloc(model_node_count(h->m) + 1, sizeof(*pos));
	struct json_writer w;
	const char *text;
	size_t len;
	int err;

	if (!pos)
		return -ENOMEM;
	json_writer_init(&w);
	put_report(&w, h, pos);
	free(pos);
	text = json_writer_text(&w, &len);
	if (json_writer_failed(&w)) {
		json_writer_release(&w);
		return -ENOMEM;
	}
	/* No fetch of any kind: the page is whole in itself, and a name could not load one. */
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
	      "style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<title>tmacg report</title>\n<style>\n",
	      f);
	fputs(asset("report.css"), f);
	fputs("</style>\n</head>\n<body>\n<div id=\"app\"><noscript>This report draws its tables "
	      "and charts with JavaScript: allow it for this file.</noscript></div>\n"
	      "<script type=\"application/json\" id=\"tmacg-data\">",
	      f);
	err = html_script_json_write(f, text, len);
	json_writer_release(&w);
	fputs("</script>\n<script>\n", f);
	fputs(asset("report.js"), f);
	fputs("</script>\n</body>\n</html>\n", f);
	if (!err && (fflush(f) || ferror(f)))
		err = out_stream_error(f);
	return err;
}
