/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* The terminal table: one block per cgroup, the TMA tree with the bottleneck marked. */
#ifndef TMACG_OUTPUT_TREE_H
#define TMACG_OUTPUT_TREE_H

#include <stdbool.h>
#include <stdio.h>

struct report_line;

/*
 * One line's block: "cgroup PATH[  task TID (COMM)], interval N s", the tree
 * nodes of level <= line->level, indented by level, values in %, "-" for
 * null, "*" after a node over its threshold, "<" after the nodes of the
 * bottleneck path; then the summary counts (line->nsummary of them: CPU time
 * and the model's counts) and the path itself.  color adds ANSI bold red for
 * the bottleneck path and yellow for other flagged nodes.
 */
void output_tree(FILE *f, const struct report_line *line, bool color);

#endif /* TMACG_OUTPUT_TREE_H */
