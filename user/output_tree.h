/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* The terminal table: one block per cgroup, the TMA tree with the bottleneck marked. */
#ifndef TMACG_OUTPUT_TREE_H
#define TMACG_OUTPUT_TREE_H

#include <stdbool.h>
#include <stdio.h>

struct tma_model;
struct model_result;

/*
 * Prints the tree nodes of level <= level, indented by level, values in %,
 * "-" for null, "*" after a node over its threshold, "<" after the nodes of
 * the bottleneck path, then the path itself.  color adds ANSI bold red for
 * the bottleneck path and yellow for other flagged nodes.
 */
void output_tree(FILE *f, const char *cgroup, double interval_s, const struct tma_model *m,
		 const struct model_result *r, int level, bool color);

#endif /* TMACG_OUTPUT_TREE_H */
