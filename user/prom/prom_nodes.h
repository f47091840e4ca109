/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * The labels a node's samples end with, made once per model and plan, not
 * per sample: `,tma_node="<path>",level="N"}` and, on tmacg_tma_ratio of a
 * node whose events take turns (--level 4-6), `,tma_groups="G"` before the
 * brace.  G names the perf groups the node's measured share is the smallest
 * of, as `tmacg --list-events` numbers them ("0+5"): the nodes of one set of
 * groups share one share, so tmacg_tma_measured_ratio is written once per
 * set and line (some 19 series a level-6 line, not one per node's 88), and
 * a query joins it to the ratios on tma_groups (docs/prometheus.md).
 */
#ifndef TMACG_PROM_NODES_H
#define TMACG_PROM_NODES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct tma_model;

struct prom_nodes {
	uint64_t tma_serial; /* model_serial of the model mapped; 0: none */
	/*
	 * Which making of the labels these are, unique in the process (0: none):
	 * what a copy of them (prom_rows_labels) checks it is still the same.
	 */
	uint64_t build;
	uint64_t *groups; /* a copy of the groups mapped, per node; NULL: none */
	int n;
	char **plain; /* per node: `,tma_node="..",level="N"}` */
	size_t *plain_len;
	char **ratio; /* per node: as plain, with its tma_groups when it has a set */
	size_t *ratio_len;
	int *set_of; /* per node: its set's index; -1: none (on at every switch) */
	int nsets;
	char **set_label; /* per set, in the order of its first node: `,tma_groups="G"}` */
	size_t *set_label_len;
	/*
	 * per set: its shallowest tree node (not Info, not a count), whose
	 * quality.measured is the set's wherever a line reports any of its
	 * nodes; -1: Info metrics' only
	 */
	int *set_node;
	/*
	 * per node: its level when it is a tree node (not Info, not a count,
	 * level >= 1), PROM_NODES_INFO for an Info metric, else 0; read for
	 * every node of every line, where model_node() would be a call each
	 */
	int *tree_level;
	bool *in_slots; /* per node: a level-1 or level-2 tree node in the Slots domain */
};

#define PROM_NODES_INFO (-1)

/*
 * Labels of tma's nodes; groups (per node, the bit mask of the perf groups
 * its measured share is taken over: report_line.measured_groups) or NULL,
 * no rotation.  Nothing is made again while both are what was last mapped.
 * 0 or -ENOMEM (then nothing is mapped).
 */
int prom_nodes_map(struct prom_nodes *pn, const struct tma_model *tma, const uint64_t *groups);
void prom_nodes_free(struct prom_nodes *pn);

#endif
