// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Read-only accessors of the model's resolved trees (model_view.h). */
#include "model/model_view.h"

#include "model/model_impl.h"

const struct expr_pool *model_view_pool(const struct tma_model *m)
{
	return &m->pool;
}

int model_view_formula(const struct tma_model *m, int i)
{
	return m->nodes[i].formula;
}

int model_view_threshold(const struct tma_model *m, int i)
{
	return m->nodes[i].threshold;
}

double model_view_cap(const struct tma_model *m, int i)
{
	return m->nodes[i].cap;
}

int model_view_helper(const struct tma_model *m, int h)
{
	return m->helpers[h].root;
}

int model_view_slots_helper(const struct tma_model *m)
{
	return m->slots_helper;
}

const int *model_view_order(const struct tma_model *m, int *n)
{
	*n = m->nnodes;
	return m->order;
}

const int *model_view_kids(const struct tma_model *m, int parent, int *n)
{
	*n = m->kid_start[parent + 2] - m->kid_start[parent + 1];
	return m->kids + m->kid_start[parent + 1];
}

const int *model_view_threshold_order(const struct tma_model *m, int *n)
{
	*n = m->nnodes;
	return m->torder;
}
