/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* The HTML report's data (html_data.c), shared with the document writer (output_html.c) only. */
#ifndef TMACG_HTML_IMPL_H
#define TMACG_HTML_IMPL_H

#include <stdbool.h>
#include <stdint.h>

#include "output/html_data.h"

struct html_cgroup {
	char *path;		    /* the line's cgroup */
	char *ns, *pod, *container; /* Kubernetes identity, NULL: none */
	int npoints, cap;
	double *time;	/* per interval: its end, seconds since the epoch */
	double *weight; /* per interval: its slots (else its seconds), a chart point's weight */
	double *l1;	/* per interval, nl1 level-1 shares each; NAN: none */
	double span_s;	/* the intervals' seconds summed */
	double start;	/* where the first interval began, seconds since the epoch */
	double cpu_s;	/* on_cpu_s summed; NAN: the lines have none */
	uint64_t dropped, map_full;
	double running_min; /* the least over the run: multiplexing; NAN: never given */
	bool smt_shared;
	int no_tree;  /* intervals without a tree (no slots counted) */
	int nmissing; /* events the PMU lacked (the first line's list) */
	char **missing;
	int pmu_groups; /* -1: not known (replay) */
	char *retire_latency;
	char **unmeasured; /* per node: why it was never measured (the first line's); NULL: measured */
	/* Over the run (html_report_set_total); has_total false: not set. */
	bool has_total;
	double *value;
	bool *flagged;
	int *bneck, bneck_len; /* the bottleneck path, level 1 first, cut at the level */
	char *total_no_tree;
};

struct html_report {
	const struct tma_model *m;
	int level;
	int nl1, *l1; /* the level-1 nodes' indices */
	char *host, *model, *tma_version, *kernel;
	double first_time, last_time, interval_s; /* NAN until a line is added */
	struct html_cgroup *cg;
	int n, cap;
	int *slot; /* open addressing by path: index + 1, 0 empty; nslots a power of 2 */
	int nslots;
};

#endif
