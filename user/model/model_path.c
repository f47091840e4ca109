// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The bottleneck path's text, made once per model: each node's path from
 * level 1 ("Backend_Bound.Memory_Bound.DRAM_Bound") is built when the model
 * loads, so every printer (JSON, Prometheus, the table, the live view, the
 * HTML report) names a bottleneck by the same string, with no formatting
 * per line.  The bottleneck walk only goes from a node to one of its
 * children, so the path of a result's deepest bottleneck node shown is the
 * whole bottleneck path shown.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "model/model_impl.h"

int model_paths(struct tma_model *m)
{
	for (int i = 0; i < m->nnodes; i++) {
		struct model_node_info *node = &m->nodes[i].info;
		int p = node->parent;
		char *path;
		int ret;

		/* The loader finds a parent among the nodes before: its path is made. */
		if (p >= 0 && p < i)
			ret = asprintf(&path, "%s.%s", m->nodes[p].info.path, node->name);
		else
			ret = asprintf(&path, "%s", node->name);
		if (ret < 0)
			return -ENOMEM;
		node->path = path;
	}
	return 0;
}

int model_bottleneck_end(const struct tma_model *m, const struct model_result *r, int level)
{
	int last = -1;

	for (int i = 0; r && i < r->bottleneck_len; i++) {
		int node = r->bottleneck[i];

		if (node < 0 || node >= m->nnodes || m->nodes[node].info.level > level)
			break;
		last = node;
	}
	return last;
}

const char *model_bottleneck_path(const struct tma_model *m, const struct model_result *r,
				  int level)
{
	int last = m ? model_bottleneck_end(m, r, level) : -1;

	return last >= 0 ? m->nodes[last].info.path : NULL;
}
