/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* tmacg --list-models and --list-metrics. */
#ifndef TMACG_MODEL_LIST_H
#define TMACG_MODEL_LIST_H

#include <stdio.h>

struct tma_model;

/*
 * One line per built-in model: id, title, "TMA <version>" ("-" without one),
 * CPUs ("any CPU" without a cpu line), tab-separated.
 */
void model_list_print(FILE *f);
/*
 * One line per node, tree nodes then Info metrics and counts (in file order):
 * name, level (0: not a tree node), parent ("-" at level 1 and for the
 * others), the events it reads (comma-separated, "-" when none), tab-separated.
 */
void model_metrics_print(FILE *f, const struct tma_model *m);

#endif /* TMACG_MODEL_LIST_H */
