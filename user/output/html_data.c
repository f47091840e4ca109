// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "output/html_data.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "output/cgroup_record.h"
#include "output/html_impl.h"
#include "util/u64map.h"

static char *dup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

struct html_report *html_report_new(const struct tma_model *m, int level)
{
	struct html_report *h = calloc(1, sizeof(*h));
	int n = model_node_count(m);

	if (!h)
		return NULL;
	h->m = m;
	h->level = level;
	h->first_time = h->last_time = h->interval_s = NAN;
	h->l1 = calloc(n + 1, sizeof(*h->l1));
	h->model = strdup(model_id(m));
	h->tma_version = dup_or_null(model_tma_version(m));
	if (!h->l1 || !h->model) {
		html_report_free(h);
		return NULL;
	}
	for (int i = 0; i < n; i++)
		if (model_node(m, i)->level == 1)
			h->l1[h->nl1++] = i;
	return h;
}

static void cgroup_free(struct html_cgroup *c, int nodes)
{
	for (int k = 0; c->unmeasured && k < nodes; k++)
		free(c->unmeasured[k]);
	free(c->unmeasured);
	free(c->path);
	free(c->ns);
	free(c->pod);
	free(c->container);
	free(c->time);
	free(c->weight);
	free(c->l1);
	for (int i = 0; i < c->nmissing; i++)
		free(c->missing[i]);
	free(c->missing);
	free(c->retire_latency);
	free(c->value);
	free(c->flagged);
	free(c->bneck);
	free(c->total_no_tree);
}

void html_report_free(struct html_report *h)
{
	if (!h)
		return;
	for (int i = 0; i < h->n; i++)
		cgroup_free(&h->cg[i], model_node_count(h->m));
	free(h->cg);
	free(h->slot);
	free(h->l1);
	free(h->host);
	free(h->model);
	free(h->tma_version);
	free(h->kernel);
	free(h);
}

int html_report_set_kernel(struct html_report *h, const char *kernel)
{
	free(h->kernel);
	h->kernel = dup_or_null(kernel);
	return !kernel || h->kernel ? 0 : -ENOMEM;
}

int html_report_find(const struct html_report *h, const char *cgroup)
{
	if (!h->nslots)
		return -1;
	for (uint32_t i = u64map_key(cgroup, strlen(cgroup)) & (h->nslots - 1);;
	     i = (i + 1) & (h->nslots - 1)) {
		int k = h->slot[i];

		if (!k)
			return -1;
		if (!strcmp(h->cg[k - 1].path, cgroup))
			return k - 1;
	}
}

static void slot_put(int *slot, int nslots, const char *path, int idx)
{
	uint32_t i = u64map_key(path, strlen(path)) & (nslots - 1);

	while (slot[i])
		i = (i + 1) & (nslots - 1);
	slot[i] = idx + 1;
}

/* Room for one more cgroup, the table kept at most half full. */
static int grow(struct html_report *h)
{
	if (h->n == h->cap) {
		int cap = h->cap ? 2 * h->cap : 64;
		struct html_cgroup *cg = realloc(h->cg, cap * sizeof(*cg));

		if (!cg)
			return -ENOMEM;
		h->cg = cg;
		h->cap = cap;
	}
	if (2 * (h->n + 1) > h->nslots) {
		int nslots = h->nslots ? 2 * h->nslots : 128;
		int *slot = calloc(nslots, sizeof(*slot));

		if (!slot)
			return -ENOMEM;
		for (int i = 0; i < h->n; i++)
			slot_put(slot, nslots, h->cg[i].path, i);
		free(h->slot);
		h->slot = slot;
		h->nslots = nslots;
	}
	return 0;
}

static int new_cgroup(struct html_report *h, const struct report_line *line)
{
	const struct resource *res = line->resource;
	struct html_cgroup *c;
	int nodes = model_node_count(h->m);

	if (grow(h))
		return -ENOMEM;
	c = &h->cg[h->n];
	memset(c, 0, sizeof(*c));
	c->cpu_s = c->running_min = NAN;
	c->pmu_groups = line->pmu_groups;
	c->path = strdup(line->cgroup ? line->cgroup : "?");
	c->value = calloc(nodes + 1, sizeof(*c->value));
	c->flagged = calloc(nodes + 1, sizeof(*c->flagged));
	c->bneck = calloc(nodes + 1, sizeof(*c->bneck));
	c->missing = calloc(line->nmissing + 1, sizeof(*c->missing));
	c->unmeasured = calloc(nodes + 1, sizeof(*c->unmeasured));
	if (res && res->k8s_pod) {
		c->ns = dup_or_null(res->k8s_namespace);
		c->pod = strdup(res->k8s_pod);
		c->container = dup_or_null(res->k8s_container);
	}
	c->retire_latency = dup_or_null(line->retire_latency);
	if (!c->path || !c->value || !c->flagged || !c->bneck || !c->missing || !c->unmeasured) {
		cgroup_free(c, nodes);
		return -ENOMEM;
	}
	for (int i = 0; i < line->nmissing; i++)
		if ((c->missing[c->nmissing] = strdup(line->missing[i])))
			c->nmissing++;
	for (int k = 0; line->unmeasured && k < nodes; k++)
		c->unmeasured[k] = dup_or_null(line->unmeasured[k]);
	slot_put(h->slot, h->nslots, c->path, h->n);
	return h->n++;
}

static int add_point(struct html_report *h, struct html_cgroup *c, const struct report_line *line)
{
	const struct model_result *r = line->result;
	double *l1;

	if (c->npoints == c->cap) {
		int cap = c->cap ? 2 * c->cap : 16;
		double *t = realloc(c->time, cap * sizeof(*t));

		if (t)
			c->time = t;
		double *w = t ? realloc(c->weight, cap * sizeof(*w)) : NULL;

		if (w)
			c->weight = w;
		l1 = w ? realloc(c->l1, (size_t)cap * (h->nl1 ? h->nl1 : 1) * sizeof(*l1)) : NULL;
		if (!l1)
			return -ENOMEM;
		c->l1 = l1;
		c->cap = cap;
	}
	c->time[c->npoints] = line->time.tv_sec + line->time.tv_nsec / 1e9;
	if (!c->npoints)
		c->start = c->time[0] - line->interval_s;
	/* A point's weight: its slots, so a chart point over intervals is slots over slots. */
	c->weight[c->npoints] = r && isfinite(r->slots) && r->slots > 0 ? r->slots :
				r && r->no_tree				? 0 :
									  line->interval_s;
	l1 = c->l1 + (size_t)c->npoints * h->nl1;
	for (int k = 0; k < h->nl1; k++)
		l1[k] = r ? r->value[h->l1[k]] : NAN;
	c->npoints++;
	return 0;
}

static double count_named(const struct report_line *line, const char *name)
{
	for (int i = 0; i < line->ncounts; i++)
		if (!strcmp(line->count_names[i], name))
			return line->count_values ? line->count_values[i] : NAN;
	return NAN;
}

static void add_quality(struct html_cgroup *c, const struct report_line *line)
{
	double cpu = count_named(line, "on_cpu_s");

	c->span_s += line->interval_s;
	if (isfinite(cpu))
		c->cpu_s = isnan(c->cpu_s) ? cpu : c->cpu_s + cpu;
	c->dropped += line->dropped;
	c->map_full += line->map_full;
	if (!isnan(line->running_min) &&
	    (isnan(c->running_min) || line->running_min < c->running_min))
		c->running_min = line->running_min;
	c->smt_shared |= line->smt_shared;
	if (line->result && line->result->no_tree)
		c->no_tree++;
}

static int set_host(struct html_report *h, const struct report_line *line)
{
	double t = line->time.tv_sec + line->time.tv_nsec / 1e9;

	if (!h->host && line->host && !(h->host = strdup(line->host)))
		return -ENOMEM;
	/* The span starts where the first interval began. */
	if (isnan(h->first_time) || t - line->interval_s < h->first_time)
		h->first_time = t - line->interval_s;
	if (isnan(h->last_time) || t > h->last_time)
		h->last_time = t;
	if (isnan(h->interval_s))
		h->interval_s = line->interval_s;
	return 0;
}

int html_report_add(struct html_report *h, const struct report_line *line)
{
	int idx;

	if (line->task)
		return 0; /* per container: tasks are in the JSON lines */
	if (set_host(h, line))
		return -ENOMEM;
	idx = html_report_find(h, line->cgroup ? line->cgroup : "?");
	if (idx < 0)
		idx = new_cgroup(h, line);
	if (idx < 0)
		return idx;
	if (add_point(h, &h->cg[idx], line))
		return -ENOMEM;
	add_quality(&h->cg[idx], line);
	return idx;
}

int html_report_count(const struct html_report *h)
{
	return h->n;
}

double html_report_span_s(const struct html_report *h, int idx)
{
	return h->cg[idx].span_s;
}

/*
 * The bottleneck path as every printer shows it (model_bottleneck_end: the
 * model's one builder), as node indices from level 1 down: the one place the
 * HTML report reads it.
 */
static int bottleneck_path(const struct html_report *h, const struct model_result *r, int *out)
{
	int end = model_bottleneck_end(h->m, r, h->level), n = 0;

	for (int i = end; i >= 0; i = model_node(h->m, i)->parent)
		n++;
	for (int i = end, k = n - 1; i >= 0; i = model_node(h->m, i)->parent)
		out[k--] = i;
	return n;
}

int html_report_set_total(struct html_report *h, int idx, const struct model_result *total)
{
	struct html_cgroup *c = &h->cg[idx];
	int n = model_node_count(h->m);

	memcpy(c->value, total->value, n * sizeof(*c->value));
	memcpy(c->flagged, total->flagged, n * sizeof(*c->flagged));
	c->bneck_len = bottleneck_path(h, total, c->bneck);
	free(c->total_no_tree);
	c->total_no_tree = dup_or_null(total->no_tree);
	if (total->no_tree && !c->total_no_tree)
		return -ENOMEM;
	c->has_total = true;
	return 0;
}

double html_report_total(const struct html_report *h, int idx, int node)
{
	const struct html_cgroup *c = &h->cg[idx];

	return c->has_total ? c->value[node] : NAN;
}
