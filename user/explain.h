/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* tmacg --explain NODE. */
#ifndef TMACG_EXPLAIN_H
#define TMACG_EXPLAIN_H

#include <stdio.h>

struct tma_model;

/*
 * Prints what node (a tree node, Info metric or count of m) means: where it
 * sits (number, level, parent, children), the vendor's description, its
 * formula and threshold as the model writes them and the helpers they read,
 * and the threshold's issue tags.  Every text is escaped for the terminal.
 * 0, or 2 with a message on errf when m has no such node.
 */
int explain_print(FILE *f, FILE *errf, const struct tma_model *m, const char *node);

#endif /* TMACG_EXPLAIN_H */
