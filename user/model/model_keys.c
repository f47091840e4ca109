// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * What a line writes of the model's nodes, made once when the model loads:
 * each node's JSON key ("Name":) in one table (util/key_table.h), and for
 * each depth the nodes a line shows.  A level-6 line looked at all ~300
 * nodes twice to find the 105 it shows, reading each node's record (issue
 * 27: most of the line's first-level cache misses, callgrind).
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
	size_t bytes = 0;

	for (int i = 0; i < m->nnodes; i++)
		bytes += m->nodes[i].info.name_len;
	if (key_table_make(&m->json_keys, m->nnodes, bytes))
		return -ENOMEM;
	/* model_load admits [A-Za-z0-9_] in names only: none needs an escape */
	for (int i = 0; i < m->nnodes; i++)
		key_table_set(&m->json_keys, i, m->nodes[i].info.name, m->nodes[i].info.name_len);
	for (int info = 0; info < 2; info++)
		for (int l = 0; l <= MODEL_MAX_LEVEL; l++)
			if (make_shown(m, info, l))
				return -ENOMEM;
	return 0;
}

void model_keys_free(struct tma_model *m)
{
	key_table_free(&m->json_keys);
	for (int info = 0; info < 2; info++)
		for (int l = 0; l <= MODEL_MAX_LEVEL; l++)
			free(m->shown[info][l].node);
}

const struct key_table *model_json_keys(const struct tma_model *m)
{
	return &m->json_keys;
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
