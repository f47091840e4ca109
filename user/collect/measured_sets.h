/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * The nodes a run at --level 4-6 (groups multiplexed) gives a quality.measured,
 * grouped by the set of perf groups their share is the least of: the nodes of
 * one set share one share.  A level-6 icx line has 88 such nodes and some 19
 * sets, so per line each set's share is taken once (measured_sets_fill).
 * Made once per run, from what the plan says each node reads
 * (plan_node_groups).
 */
#ifndef TMACG_MEASURED_SETS_H
#define TMACG_MEASURED_SETS_H

#include <stddef.h>
#include <stdint.h>

struct tma_model;

struct measured_sets {
	int nsets;
	uint64_t *mask; /* per set: its perf groups */
	double *share;	/* per set: measured_sets_fill's scratch */
	/* The nodes measured[] holds a number for, in node order, and the set of each. */
	int nnodes;
	int *node;
	int *set;
};

/*
 * The sets of model m's nodes down to level (Info metrics too), node_groups
 * per node (0: read at every switch, no quality.measured).  Nothing where
 * level is 3 or less (every group is on at every switch).  0, or -ENOMEM
 * with nothing kept.
 */
int measured_sets_make(struct measured_sets *s, const struct tma_model *m,
		       const uint64_t *node_groups, int level);
void measured_sets_free(struct measured_sets *s);

/*
 * measured[k] of every node of s: the least of group_share over its set's
 * groups (acc_least_share), NAN where none of them was enabled.  Other
 * nodes' entries are left as they are (NAN from the start).
 */
void measured_sets_fill(struct measured_sets *s, const double *group_share, double *measured);

#endif
