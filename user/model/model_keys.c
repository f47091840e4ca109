// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The nodes a line shows at each depth, made once when the model loads: a
 * level-6 line would otherwise look at all ~300 nodes to find the 105 it
 * shows, reading each node's record.
 */
#include <errno.h>
#include <stdlib.h>

#include "model/model_impl.h"

static int make_shown(struct tma_model *m, bool info, int level)
{
	struct model_shown *s = &m->shown[info][level];

	s->node = calloc((size_t)m->nnodes + 1, sizeof(*s->node));
	if (!s->node)
		return -ENOMEM;
	for (int i = 0; i < m->nnodes; i++)
		if (model_node_shown(&m->nodes[i].info, level, info))
			s->node[s->n++] = i;
	return 0;
}

int model_keys_make(struct tma_model *m)
{
	for (int info = 0; info < 2; info++)
		for (int l = 0; l <= MODEL_MAX_LEVEL; l++)
			if (make_shown(m, info, l))
				return -ENOMEM;
	return 0;
}

void model_keys_free(struct tma_model *m)
{
	for (int info = 0; info < 2; info++)
		for (int l = 0; l <= MODEL_MAX_LEVEL; l++)
			free(m->shown[info][l].node);
}

const int *model_shown_nodes(const struct tma_model *m, int level, bool info, int *n)
{
	const struct model_shown *s;

	if (level < 0)
		level = 0;
	if (level > MODEL_MAX_LEVEL)
		level = MODEL_MAX_LEVEL;
	s = &m->shown[info][level];
	*n = s->n;
	return s->node;
}
