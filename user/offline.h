/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* The modes that need no BPF: --list-metrics, --list-events, --replay, --explain. */
#ifndef TMACG_OFFLINE_H
#define TMACG_OFFLINE_H

#include <stdio.h>

struct options;
struct tma_model;

/* Runs --list-metrics, --list-events, --replay or --explain; returns the exit code. */
int offline_run(const struct options *o);

/*
 * --explain (explain.c): what node (a tree node, Info metric or count of m)
 * means: where it sits (number, level, parent, children), the vendor's
 * description, its formula and threshold as the model writes them and the
 * helpers they read, and the threshold's issue tags.  Every text is escaped
 * for the terminal.  0, or 2 with a message on errf when m has no such node.
 */
int explain_print(FILE *f, FILE *errf, const struct tma_model *m, const char *node);

#endif
