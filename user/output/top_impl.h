/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * The live view's state, shared by its rows (top_rows.c), its drawing
 * (output_top.c) and its order and keys (top_order.c).  Private to user/output/.
 */
#ifndef TMACG_TOP_IMPL_H
#define TMACG_TOP_IMPL_H

#include <stdbool.h>
#include <stddef.h>

#include "output/output_top.h"

#define TOP_MAX_L1 8
#define TOP_MAX_EXTRA 8
#define TOP_NAME_BYTES 512
#define TOP_NS_BYTES 256 /* a namespace is at most 63 bytes, escapes aside */
#define TOP_MAX_PATH 8	 /* bottleneck path levels kept: deeper than any model */

struct top_row {
	char name[TOP_NAME_BYTES]; /* cgroup path; pod name; container name */
	char ns[TOP_NS_BYTES];	   /* Kubernetes namespace; "" for a cgroup */
	char pod[TOP_NAME_BYTES];  /* pod and container rows: the pod's name (their group) */
	bool container;		   /* a container row: shown under its pod */
	bool under_pod;		   /* placed right below its pod's row in this frame */
	bool other;
	double cpu; /* % of one CPU; NAN: unknown */
	double run; /* running_min, %; NAN: unknown */
	double l1[TOP_MAX_L1];
	double extra[TOP_MAX_EXTRA];
	/* The bottleneck path within --level (top_path.c): path_node[l] is its node at level l. */
	int path_len;
	int path_node[TOP_MAX_PATH + 1];
	double path_seen[TOP_MAX_PATH + 1]; /* [l]: path_node[l]'s quality.measured; NAN: none */
	/*
	 * The walk stopped at path_len because a child of its last node was never
	 * on the PMU (measured 0, or its group refused): the level below is unknown.
	 */
	bool unseen_below;
};

/* What the rows are sorted by: CPU, a level-1 share, a rate, or the name. */
enum top_sort_kind { TOP_SORT_CPU, TOP_SORT_L1, TOP_SORT_EXTRA, TOP_SORT_NAME, TOP_SORT_MEAS };

struct top {
	const struct tma_model *m;
	int level;
	int nl1, l1[TOP_MAX_L1];	  /* level-1 node indices, model order */
	int on_cpu;			  /* index of the "on_cpu_s" count; -1: none */
	int nextra, extra[TOP_MAX_EXTRA]; /* the model's rates (per_interval counts) */
	/* extra[i] is a level-1 node of a model that is not TMA (generic: IPC, CPI...). */
	bool extra_node[TOP_MAX_EXTRA];
	char extra_head[TOP_MAX_EXTRA][40];
	bool pods; /* rows are named by Kubernetes identity */
	/* The model has a bottleneck path to show: a TMA level 1, or a tree below level 1. */
	bool paths;
	/* A line carried quality.measured (--level 4-6, in turns): the MEAS% column shows. */
	bool rotating;
	/* The widest name and path so far: columns do not jump from frame to frame. */
	int name_nat, path_nat;
	struct top_row *rows;
	size_t n, cap;
	bool drawn;
	bool frame_done; /* the rows are the last frame's: the next top_add starts anew */
	/* What keys change (top_key): */
	int sort;	/* 0: CPU, 1..nl1: level-1 share, then the rates, then the name */
	bool reverse;	/* the sort's order turned around */
	int show_level; /* the bottleneck path's depth shown, 1..level */
	/* The last frame's screen and title, for a redraw on a key. */
	struct top_screen last_scr;
	struct top_title last_title;
};

/* The name's sort key (the rows' first column). */
int top_sort_name_key(const struct top *t);
/* The sort key k's kind and, for a share or a rate, its index. */
enum top_sort_kind top_sort_kind(const struct top *t, int k, int *index);
/*
 * Orders the rows for drawing: by the sort key ("(other)" last, unknown
 * values after known ones), and each container right below its pod's row
 * when that row is there (marked under_pod).  0 or -ENOMEM.
 */
int top_order(struct top *t);

/*
 * The bottleneck path of a row (top_path.c): filled from its line by
 * top_path_add; shown at t->show_level by top_path_text, its nodes measured
 * less than half the interval marked "~" ("Backend_Bound.~Memory_Bound"), a
 * level below that was never measured as "?"; top_path_measured is the
 * share of the interval its deepest node shown was measured (MEAS%, 0..1),
 * NAN when that node does not take turns or there is no path.
 */
void top_path_add(const struct top *t, const struct report_line *line, struct top_row *r);
const char *top_path_text(const struct top *t, const struct top_row *r, char *buf, size_t len);
double top_path_measured(const struct top *t, const struct top_row *r);

#endif /* TMACG_TOP_IMPL_H */
