/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * A model's formulas as the trees the loader resolved (model/expr.h), read
 * only: for a translator into another language (the PromQL of
 * tmacg --prometheus-rules), which must follow the evaluator's rules
 * (model_eval.c) on every node.
 */
#ifndef TMACG_MODEL_VIEW_H
#define TMACG_MODEL_VIEW_H

#include "model/expr.h"
#include "model/model.h"

/* Expression e of the model's pool (a root below, or an operand from expr_operands). */
const struct expr_pool *model_view_pool(const struct tma_model *m);
/* Node i's formula and threshold roots (-1: no threshold), and its cap (INFINITY: none). */
int model_view_formula(const struct tma_model *m, int i);
int model_view_threshold(const struct tma_model *m, int i);
double model_view_cap(const struct tma_model *m, int i);
int model_view_helper(const struct tma_model *m, int h);
/* The helper SLOTS, the top-down denominator; -1: the model has none. */
int model_view_slots_helper(const struct tma_model *m);
/* Every node and Info metric in an order where each comes after those its formula reads. */
const int *model_view_order(const struct tma_model *m, int *n);
/* Node parent's children (parent -1: the level-1 nodes), in file order. */
const int *model_view_kids(const struct tma_model *m, int parent, int *n);
/* Every node with the flags its threshold reads first. */
const int *model_view_threshold_order(const struct tma_model *m, int *n);

#endif
