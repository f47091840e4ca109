// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The live view's rows: which columns a model gets (level-1 shares and a bar
 * for TMA, value columns for perf's generic events and rates), and each
 * report line turned into a row.  Drawing them is output_top.c's; their
 * order and the keys, top_order.c's.
 */
#include "output/output_top.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "output/cgroup_record.h"
#include "output/top_impl.h"
#include "pmu/plan_model.h"

struct top *top_new(const struct tma_model *m, int level, int ncounts,
		    const char *const *count_names)
{
	struct top *t = calloc(1, sizeof(*t));
	bool generic;

	if (!t)
		return NULL;
	t->m = m;
	t->level = level;
	t->show_level = level;
	t->on_cpu = -1;
	for (int i = 0; m && i < model_node_count(m) && t->nl1 < TOP_MAX_L1; i++) {
		const struct model_node_info *n = model_node(m, i);

		if (!n->is_info && n->level == 1)
			t->l1[t->nl1++] = i;
	}
	/*
	 * A TMA model's level 1 splits the pipeline's slots into shares that add
	 * up; a lone level-1 node (the software model's CPU_Share) splits nothing.
	 */
	if (t->nl1 < 2)
		t->nl1 = 0;
	/*
	 * A model of perf's generic events (generic) has level-1 metrics that are
	 * no shares of anything (IPC, CPI...): value columns, not shares and a bar.
	 */
	if (t->nl1 && model_needs_no_description(m, &generic) && generic) {
		for (int i = 0; i < t->nl1 && t->nextra < TOP_MAX_EXTRA; i++) {
			snprintf(t->extra_head[t->nextra], sizeof(t->extra_head[0]), "%.30s",
				 model_node(m, t->l1[i])->name);
			t->extra_node[t->nextra] = true;
			t->extra[t->nextra++] = t->l1[i];
		}
		t->nl1 = 0;
	}
	/*
	 * A path to walk: TMA's level-1 split, or any tree below one level-1 node
	 * (the rotation test model's).  Not generic's or software's lone level.
	 */
	t->paths = t->nl1 > 0;
	for (int i = 0; m && !t->nl1 && !t->nextra && i < model_node_count(m); i++)
		t->paths |=
			!model_node(m, i)->is_info && model_node(m, i)->level == 2 && level >= 2;
	for (int i = 0; i < ncounts; i++) {
		const char *name = count_names[i];
		int node = m ? model_node_index(m, name) : -1;
		size_t len = strlen(name);

		if (!strcmp(name, "on_cpu_s"))
			t->on_cpu = i;
		else if (node >= 0 && model_node(m, node)->per_interval &&
			 t->nextra < TOP_MAX_EXTRA) {
			/* the model's rates: "page_faults_per_s" headed "page_faults/s" */
			if (len > 6 && !strcmp(name + len - 6, "_per_s"))
				len -= 6;
			snprintf(t->extra_head[t->nextra], sizeof(t->extra_head[0]), "%.*s%s",
				 (int)(len > 30 ? 30 : len), name, name[len] ? "/s" : "");
			t->extra[t->nextra++] = i;
		}
	}
	return t;
}

void top_free(struct top *t)
{
	if (!t)
		return;
	free(t->rows);
	free(t);
}

int top_add(struct top *t, const struct report_line *line, bool other)
{
	const struct resource *res = line->resource;
	struct top_row *row;

	if (t->frame_done) { /* the last frame's rows were kept for redraws until now */
		t->n = 0;
		t->pods = false;
		t->frame_done = false;
	}
	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 32;
		struct top_row *grown = realloc(t->rows, cap * sizeof(*grown));

		if (!grown)
			return -ENOMEM;
		t->rows = grown;
		t->cap = cap;
	}
	row = &t->rows[t->n++];
	memset(row, 0, sizeof(*row));
	row->other = other;
	if (!other && res && res->k8s_pod) {
		/* Kept apart: the namespace is never cut, a container shows under its pod. */
		snprintf(row->ns, sizeof(row->ns), "%s",
			 res->k8s_namespace ? res->k8s_namespace : "?");
		snprintf(row->pod, sizeof(row->pod), "%s", res->k8s_pod);
		row->container = res->k8s_container != NULL;
		snprintf(row->name, sizeof(row->name), "%s",
			 row->container ? res->k8s_container : res->k8s_pod);
		t->pods = true;
	} else {
		const char *name = line->cgroup ? line->cgroup : "?";
		size_t len = strlen(name);

		/* A path longer than the row keeps its end: that is what the column shows. */
		if (len >= sizeof(row->name))
			name += len - (sizeof(row->name) - 1);
		snprintf(row->name, sizeof(row->name), "%s", name);
	}
	row->cpu = NAN;
	if (t->on_cpu >= 0 && line->count_values && line->interval_s > 0)
		row->cpu = 100 * line->count_values[t->on_cpu] / line->interval_s;
	row->run = 100 * line->running_min;
	for (int i = 0; i < t->nl1; i++)
		row->l1[i] = line->result ? line->result->value[t->l1[i]] : NAN;
	for (int i = 0; i < t->nextra; i++)
		row->extra[i] = t->extra_node[i] ?
					(line->result ? line->result->value[t->extra[i]] : NAN) :
				line->count_values ? line->count_values[t->extra[i]] :
						     NAN;
	top_path_add(t, line, row);
	t->rotating |= line->measured != NULL;
	return 0;
}
