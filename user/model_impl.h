/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* The model's insides, shared by the loader, the evaluator and the listings only. */
#ifndef TMACG_MODEL_IMPL_H
#define TMACG_MODEL_IMPL_H

#include "expr.h"
#include "model.h"

/* Node numbers deeper than this do not occur in any TMA version. */
#define MODEL_MAX_LEVEL 8

struct model_const {
	char *name;
	double value;
	int line;
};

struct model_helper {
	char *name;
	int root;		/* expression */
	int line, col;
};

struct model_entry {
	struct model_node_info info;	/* what model_node() returns */
	int formula;		/* expression root, -1 until read */
	int threshold;		/* expression root, -1: never flagged */
	double cap;		/* INFINITY: none */
	char *area, *sample, *scope;
	int line, col;		/* of the name on the node/info line */
	int fline, tline;	/* lines of formula and threshold */
};

struct tma_model {
	char *id, *title, *tma_version, *source, *filename;
	char **cpus;
	int ncpus;
	struct model_const *consts;
	int nconsts;
	struct model_helper *helpers;
	int nhelpers;
	struct model_entry *nodes;	/* tree nodes and Info metrics, in file order */
	int nnodes;
	char **events;
	int nevents;
	int *order;		/* node indices in dependency order (evaluate in this order) */
	struct expr_pool pool;
};

/* model_resolve.c: names to indices, dependency order, cycle detection. */
int model_resolve(struct tma_model *m, char *err, size_t errlen);

/* Node or Info metric by name, -1 if none. */
int model_entry_find(const struct tma_model *m, const char *name);
/* The same for a name read in a formula: G4K_Aliasing finds 4K_Aliasing. */
int model_entry_lookup(const struct tma_model *m, const char *name);

/* Value of e when it depends only on numbers, constants and flags (model_events.c). */
bool model_expr_static(const struct tma_model *m, int e, unsigned flags, double *v);

#endif /* TMACG_MODEL_IMPL_H */
