// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The live view's bottleneck path and how much of it was seen.  At --level
 * 4-6 the deep nodes' events take turns on the PMU, so a path such as
 * Backend_Bound.Memory_Bound.L3_Miss_Bound.DRAM_Bound may rest on a node seen
 * for 5 % of the interval: the path marks its nodes measured less than half
 * the interval "~" (as the table does), MEAS% gives the share of its deepest
 * node shown, and a walk that stopped because a child was never measured (a
 * null node, not one under its threshold) ends in "?" with MEAS% 0: the
 * bottleneck may lie below, unseen.  Levels 1-3 carry no quality.measured,
 * so their paths show as the model writes them.
 */
#include <math.h>
#include <stdio.h>

#include "model/model.h"
#include "output/cgroup_record.h"
#include "output/top_impl.h"

/* A null child of node parent (-1: the root) that was never on the PMU, within level. */
static bool unseen_child(const struct tma_model *m, const struct report_line *line, int parent,
			 int level)
{
	for (int i = 0; i < model_node_count(m); i++) {
		const struct model_node_info *n = model_node(m, i);
		bool never = (line->measured && line->measured[i] == 0) ||
			     (line->unmeasured && line->unmeasured[i]);

		if (!n->is_info && n->level >= 1 && n->level <= level && n->parent == parent &&
		    isnan(line->result->value[i]) && never)
			return true;
	}
	return false;
}

void top_path_add(const struct top *t, const struct report_line *line, struct top_row *r)
{
	int level = t->level < TOP_MAX_PATH ? t->level : TOP_MAX_PATH;
	int end = t->m ? model_bottleneck_end(t->m, line->result, level) : -1;

	r->path_len = end >= 0 ? model_node(t->m, end)->level : 0;
	/* The walk goes from a node to one of its children: walk back up from its end. */
	for (int node = end, l = r->path_len; l >= 1; node = model_node(t->m, node)->parent, l--) {
		r->path_node[l] = node;
		r->path_seen[l] = line->measured ? line->measured[node] : NAN;
	}
	r->unseen_below = t->m && line->result && !line->result->no_tree && r->path_len < level &&
			  unseen_child(t->m, line, end, r->path_len + 1);
}

const char *top_path_text(const struct top *t, const struct top_row *r, char *buf, size_t len)
{
	int shown = r->path_len < t->show_level ? r->path_len : t->show_level;
	size_t used = 0;

	buf[0] = '\0';
	for (int l = 1; l <= shown && used < len; l++)
		used += snprintf(buf + used, len - used, "%s%s%s", l > 1 ? "." : "",
				 r->path_seen[l] < REPORT_MEASURED_LOW ? "~" : "",
				 model_node(t->m, r->path_node[l])->name);
	if (r->unseen_below && t->show_level > r->path_len && used < len)
		snprintf(buf + used, len - used, "%s?", shown ? "." : "");
	return buf;
}

double top_path_measured(const struct top *t, const struct top_row *r)
{
	int shown = r->path_len < t->show_level ? r->path_len : t->show_level;

	if (r->unseen_below && t->show_level > r->path_len)
		return 0;
	return shown ? r->path_seen[shown] : NAN;
}
