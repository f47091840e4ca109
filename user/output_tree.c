// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* The TMA tree as a table; live mode and replay print through the same function. */
#include "output_tree.h"

#include <math.h>
#include <string.h>

#include "model/model.h"

/* Column where values start: fits the deepest ICX/SPR names at level 6. */
#define TREE_VALUE_COL 44

#define ANSI_BOTTLENECK "\033[1;31m"
#define ANSI_FLAGGED "\033[33m"
#define ANSI_RESET "\033[0m"

static bool on_path(const struct model_result *r, int node)
{
	for (int i = 0; i < r->bottleneck_len; i++)
		if (r->bottleneck[i] == node)
			return true;
	return false;
}

static void print_node(FILE *f, const struct model_node_info *n, double v, bool flagged,
		       bool bottleneck, bool color)
{
	int indent = 2 * n->level, width = TREE_VALUE_COL - indent - 1;
	const char *on = !color ? "" : bottleneck ? ANSI_BOTTLENECK : flagged ? ANSI_FLAGGED : "";

	fprintf(f, "%s%*s%-*s ", on, indent, "", width > 0 ? width : 0, n->name);
	if (isnan(v))
		fprintf(f, "%7s", "-");
	else
		fprintf(f, "%6.1f%%", v * 100);
	fprintf(f, "%s%s%s\n",
		flagged	     ? " *"
		: bottleneck ? "  "
			     : "",
		bottleneck ? " <" : "", *on ? ANSI_RESET : "");
}

void output_tree(FILE *f, const char *cgroup, double interval_s, const struct tma_model *m,
		 const struct model_result *r, int level, bool color)
{
	int n = model_node_count(m), shown = 0;

	fprintf(f, "cgroup %s, interval %.3f s\n", cgroup, interval_s);
	for (int i = 0; i < n; i++) {
		const struct model_node_info *node = model_node(m, i);

		if (node->level == 0 || node->level > level)	/* Info metrics, counts */
			continue;
		print_node(f, node, r->value[i], r->flagged[i], on_path(r, i), color);
	}
	fprintf(f, "  bottleneck: ");
	for (int i = 0; i < r->bottleneck_len; i++) {
		const struct model_node_info *node = model_node(m, r->bottleneck[i]);

		if (node->level > level)
			break;
		fprintf(f, "%s%s", shown++ ? "." : "", node->name);
	}
	fprintf(f, "%s\n\n", shown ? "" : "none");
}
