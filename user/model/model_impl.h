/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* The model's insides, shared by the loader, the evaluator and the listings only. */
#ifndef TMACG_MODEL_IMPL_H
#define TMACG_MODEL_IMPL_H

#include <stdint.h>

#include "model/expr.h"
#include "model/model.h"
#include "util/u64map.h"

/* Node numbers deeper than this do not occur in any TMA version. */
#define MODEL_MAX_LEVEL 8

struct model_const {
	char *name;
	double value;
};

struct model_helper {
	char *name;
	int root;   /* expression */
	char *text; /* as written, continuation lines joined */
};

struct model_entry {
	struct model_node_info info; /* what model_node() returns */
	int formula;		     /* expression root, -1 until read */
	int threshold;		     /* expression root, -1: never flagged */
	double cap;		     /* INFINITY: none */
	char *area, *sample, *scope; /* kept as written; set_text() refuses a second one */
	/* The vendor's words beyond info.description: NULL when the file gives none. */
	char *brief, *long_text, *issues;
	char *formula_text, *threshold_text; /* as written; NULL: none */
	int line, col; /* of the name on the node/info line: duplicate errors */
};

/*
 * Formulas compiled to postfix code for a value stack (model_compile.c),
 * which model_eval runs with one switch over 8-byte ops.  An op's code is
 * an expression kind: a leaf pushes its value (EXPR_NUM: num[arg], the
 * others as the tree reads them, arg their index), an operator replaces the
 * values on top with its result; EXPR_AND (EXPR_OR) keeps a top of 0 (not 0),
 * which decides, and jumps to arg, else drops it.  Or one of these:
 */
enum model_opcode {
	OP_JZ = EXPR_MAX + 1, /* pop; 0: jump to arg */
	OP_JMP,
	OP_RET,
};

struct model_op {
	int32_t code;
	int32_t arg;
};

struct model_code {
	struct model_op *ops;
	int nops;
	double *num;
	int nnum;
	int *helper_pc; /* entry of helper h */
	int *node_pc;	/* entry of node i's formula */
	int *thresh_pc; /* entry of node i's threshold, -1: none */
	/*
	 * Node i's threshold where it is one comparison, the value of node
	 * above_node[i] (its own or another's) > above_num[i] >= 0, and the
	 * flag of its parent above_parent[i] (-1: none), as most are: model_eval
	 * compares them without running code.  above_node[i] -1: run thresh_pc[i].
	 */
	int *above_node, *above_parent;
	double *above_num;
	int stack; /* values the deepest evaluation holds at once, helpers included */
};

/* The nodes to evaluate for one output depth, in the orders model_eval uses. */
struct model_subset {
	int *order, norder;   /* values, dependency order */
	int *torder, ntorder; /* thresholds */
	int *tloop, ntloop;   /* thresholds repeated until stable */
};

/* `event NAME [COUNTER]`: a formula's NAME reads the event COUNTER (perf's spelling). */
struct model_event_decl {
	char *name, *counter;
};

struct tma_model {
	char *id, *title, *tma_version, *source, *filename;
	uint64_t serial;		/* model_serial() */
	struct model_event_decl *decls; /* events named without a dot */
	int ndecls;
	struct model_const *consts;
	int nconsts;
	struct model_helper *helpers;
	int nhelpers;
	int slots_helper; /* helper SLOTS, the top-down denominator; -1: the model has none */
	struct model_entry *nodes; /* tree nodes and Info metrics, in file order */
	int nnodes;
	/* Hash of a node's name and of its number -> index + 1: loading finds names in O(1). */
	struct u64map by_name, by_number;
	bool key_collision; /* two keys alike: a miss in the maps is checked by a scan */
	char **events;
	int nevents;
	char **latencies; /* base event names read as EVENT:retire_latency */
	int nlatencies;
	int *order;  /* node indices in dependency order (evaluate in this order) */
	int *torder; /* node indices with flags they read first (thresholds in one pass) */
	int *tloop;  /* nodes whose flags depend on a cycle of flags, in torder */
	int ntloop;
	int *kids;	/* children of node p: kids[kid_start[p + 1] .. kid_start[p + 2]) */
	int *kid_start; /* [0]: level-1 nodes */
	struct expr_pool pool;
	struct model_code code; /* what model_eval runs */
	/* [with_info][max_level]: what an output of that depth reads, dependencies included */
	struct model_subset subset[2][MODEL_MAX_LEVEL + 1];
	/* [with_info][level]: the nodes a line shows (model_shown_nodes; model_events.c) */
	struct model_shown {
		int *node, n;
	} shown[2][MODEL_MAX_LEVEL + 1];
};

/* model_resolve.c: names to indices, dependency order, cycle detection. */
int model_resolve(struct tma_model *m, char *err, size_t errlen);

/*
 * model_compile.c: code for every formula and threshold; 0 or -ENOMEM.
 * plain: the code as the trees read, none of the rewrites that save ops
 * (test_golden holds the two to the same results, node for node).
 */
int model_compile(struct tma_model *m, bool plain);
void model_code_free(struct model_code *c);

/* model_path.c: every node's path from level 1 (model_node_info.path); 0 or -ENOMEM. */
int model_paths(struct tma_model *m);

/* model_events.c: the subsets and the nodes shown of every depth; 0 or -ENOMEM. */
int model_subsets(struct tma_model *m);

/*
 * The files of the model engine and what each calls; the calls go one way,
 * so each file can be read knowing only those below it:
 *   model_builtin.c  which file an id names   -> model_load.c
 *   model_load.c     the text's directives    -> model_resolve.c, model_compile.c,
 *                                                model_events.c, model_path.c,
 *                                                model_index.c, model.c
 *   model_resolve.c  names to indices, order  -> model_index.c, model.c
 *   model.c          accessors, model_free    -> model_index.c, model_compile.c
 *   model_index.c    the name hash            -> nothing of the model
 */

/* model_load.c: base is the name the id must equal (a file's, without .tma); NULL: any id. */
struct tma_model *model_load_named(const char *text, size_t len, const char *filename,
				   const char *base, char *err, size_t errlen);

/* model_index.c: node or Info metric by name, -1 if none. */
int model_entry_find(const struct tma_model *m, const char *name);
/* The same for a name read in a formula: G4K_Aliasing finds 4K_Aliasing. */
int model_entry_lookup(const struct tma_model *m, const char *name);
/* By name (number false) or node number (true) of n bytes, -1 if none. */
int model_entry_find_n(const struct tma_model *m, bool number, const char *s, size_t n);
/* Indexes the entry last added to m->nodes: 0 or -ENOMEM. */
int model_entry_index_last(struct tma_model *m);

#endif /* TMACG_MODEL_IMPL_H */
