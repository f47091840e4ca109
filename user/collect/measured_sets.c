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
	free(s->share);
	free(s->node);
	free(s->set);
	memset(s, 0, sizeof(*s));
}

/* The set of groups, added when new; its index. */
static int set_of(struct measured_sets *s, uint64_t groups)
{
	for (int i = 0; i < s->nsets; i++)
		if (s->mask[i] == groups)
			return i;
	s->mask[s->nsets] = groups;
	return s->nsets++;
}

int measured_sets_make(struct measured_sets *s, const struct tma_model *m,
		       const uint64_t *node_groups, int level)
{
	int n = model_node_count(m);

	memset(s, 0, sizeof(*s));
	if (level <= PLAN_LEVELS_ALWAYS)
		return 0;
	/* n + 1: room even for a model without nodes. */
	s->mask = calloc((size_t)n + 1, sizeof(*s->mask));
	s->share = calloc((size_t)n + 1, sizeof(*s->share));
	s->node = calloc((size_t)n + 1, sizeof(*s->node));
	s->set = calloc((size_t)n + 1, sizeof(*s->set));
	if (!s->mask || !s->share || !s->node || !s->set) {
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
		s->set[s->nnodes++] = set_of(s, node_groups[k]);
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
