// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "collect/measured_sets.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "collect/acc_delta.h"
#include "model/model.h"
#include "pmu/plan_model.h"

void measured_sets_free(struct measured_sets *s)
{
	free(s->mask);
	free(s->first);
	free(s->share);
	free(s->node);
	free(s->set);
	free(s->shown_set);
	free(s->shown_node);
	memset(s, 0, sizeof(*s));
}

/* The set of groups, added when new; its index. */
static int set_of(struct measured_sets *s, uint64_t groups, int node)
{
	for (int i = 0; i < s->nsets; i++)
		if (s->mask[i] == groups)
			return i;
	s->mask[s->nsets] = groups;
	s->first[s->nsets] = node;
	return s->nsets++;
}

int measured_sets_make(struct measured_sets *s, const struct tma_model *m,
		       const uint64_t *node_groups, int level, bool info)
{
	int n = model_node_count(m);

	memset(s, 0, sizeof(*s));
	s->level = level;
	s->info = info;
	if (level <= PLAN_LEVELS_ALWAYS)
		return 0;
	/* n + 1: room even for a model without nodes. */
	s->mask = calloc((size_t)n + 1, sizeof(*s->mask));
	s->first = calloc((size_t)n + 1, sizeof(*s->first));
	s->share = calloc((size_t)n + 1, sizeof(*s->share));
	s->node = calloc((size_t)n + 1, sizeof(*s->node));
	s->set = calloc((size_t)n + 1, sizeof(*s->set));
	s->shown_set = calloc((size_t)n + 1, sizeof(*s->shown_set));
	s->shown_node = calloc((size_t)n + 1, sizeof(*s->shown_node));
	if (!s->mask || !s->first || !s->share || !s->node || !s->set || !s->shown_set ||
	    !s->shown_node) {
		measured_sets_free(s);
		return -ENOMEM;
	}
	for (int k = 0; k < n; k++) {
		const struct model_node_info *node = model_node(m, k);

		/*
		 * A share for each node reading multiplexed groups, down to the level:
		 * Info metrics too (level 0), which a line shows with --info only.
		 */
		if (node->level > level || !node_groups[k])
			continue;
		s->node[s->nnodes] = k;
		s->set[s->nnodes] = set_of(s, node_groups[k], k);
		/* What the line shows (model_shown_nodes). */
		if (model_node_shown(node, level, info)) {
			s->shown_set[s->nshown] = s->set[s->nnodes];
			s->shown_node[s->nshown++] = k;
		}
		s->nnodes++;
	}
	return 0;
}

void measured_sets_fill(struct measured_sets *s, const double *group_share, double *measured)
{
	for (int i = 0; i < s->nsets; i++)
		s->share[i] = acc_least_share(group_share, s->mask[i]);
	for (int i = 0; i < s->nnodes; i++)
		measured[s->node[i]] = s->share[s->set[i]];
}
