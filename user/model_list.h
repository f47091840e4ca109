/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* tmacg --list-models and --list-metrics. */
#ifndef TMACG_MODEL_LIST_H
#define TMACG_MODEL_LIST_H

#include <stdbool.h>
#include <stdio.h>

struct tma_model;

/*
 * One line per model (built-in and $TMACG_MODEL_DIR's): id, title, TMA
 * version with the model's other versions ("TMA 5.2 (also 4.5)"), and the
 * CPUs whose descriptions run it ("gnr: ..."), tab-separated.  0, or 1 when a model or description does not load (said on
 * f or errf).
 */
int model_list_print(FILE *f, FILE *errf);

/* Every model id, sorted, each once; the caller frees each and the array.  -1: no memory. */
int model_list_ids(char ***ids);
/*
 * One line per node, tree nodes then Info metrics and counts (in file order):
 * name, level (0: not a tree node), parent ("-" at level 1 and for the
 * others), the events it reads (comma-separated, "-" when none), tab-separated.
 * json (--list-metrics --format json): the same, a JSON object per line, with
 * the model's id and TMA version, the node's number, kind, domain, formula and
 * threshold as written, and the vendor's words (description, brief, long,
 * issues; null where the model gives none), escaped as every JSON string.
 */
void model_metrics_print(FILE *f, const struct tma_model *m, bool json);

#endif /* TMACG_MODEL_LIST_H */
