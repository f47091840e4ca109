/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * One interval's output: a line per reported cgroup (and task), JSON, table
 * or live view, and the same cgroup lines to an optional sink (--listen).
 * The report knows nothing of the command line or of how a model is
 * measured: its caller hands it a struct report_config, as collector_config.
 */
#ifndef TMACG_REPORT_H
#define TMACG_REPORT_H

#include <linux/types.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "util/acc_layout.h"
#include "output/cgroup_record.h"
#include "tmacg.h"

struct cgroup_tree;
struct cgroup_node;
struct report;

/*
 * Receives each interval's cgroup lines besides what is printed (--listen):
 * begin with the interval's facts (a line without a cgroup), every cgroup
 * line (and "(other)"; no task lines), then end.  Lines point into the
 * report's buffers: a sink copies what it keeps.
 */
struct report_sink {
	void (*begin)(void *ctx, const struct report_line *head);
	void (*line)(void *ctx, const struct report_line *line);
	void (*end)(void *ctx);
	void *ctx;
};

/* What a cgroup's interval sum becomes: counts[facts->ncounts] and the model's result. */
typedef void (*report_evaluate_fn)(void *ctx, const struct tmacg_acc *sum, double interval_s,
				   double *counts, struct model_result *result);

/* Kubernetes identity of a cgroup, or NULL (none). */
typedef const struct resource *(*report_identify_fn)(const struct cgroup_node *n, void *ctx);

/* REPORT_HTML: nothing per interval; report_write_html() writes the run's report at the end. */
enum report_format { REPORT_TABLE, REPORT_JSON, REPORT_TOP, REPORT_NONE, REPORT_HTML };

struct report_config {
	enum report_format format;
	/* With REPORT_TABLE: the live view instead once more than TOP_AUTO_MIN_ROWS cgroups show. */
	bool top_auto;
	bool color; /* ANSI colour in tables */
	int top;    /* the busiest N cgroups (and N tasks of each), the rest summed; 0: all */
	const char *host;
	/*
	 * What is measured, the same on every line: model, tma_version, tma,
	 * level, info, ncounts, count_names, nsummary, pmu_groups, missing,
	 * smt_shared, topdown_fixed, smt, retire_latency.  The struct is copied
	 * at report_new(); what it points to must outlive the report.
	 */
	const struct report_line *facts;
	struct acc_layout layout; /* the sums' (struct tmacg_acc) */
	report_evaluate_fn evaluate;
	void *evaluate_ctx;
};

/* NULL: no memory. */
struct report *report_new(const struct report_config *cfg, FILE *out);
void report_free(struct report *r);
/* The sink that also receives every cgroup line (NULL: none). */
void report_set_sink(struct report *r, const struct report_sink *sink);
/* Who names a cgroup's Kubernetes identity (NULL: nobody). */
void report_set_identify(struct report *r, report_identify_fn identify, void *ctx);
/* Whether the live view may show (--format top, or auto on a terminal): it takes keys. */
bool report_has_live_view(const struct report *r);
/* Forgets the sums and tasks gathered so far (after the baseline read). */
void report_reset(struct report *r, struct cgroup_tree *t);
/* One task's interval delta, listed under target (comm: 16 bytes, as the kernel's). */
void report_add_task(struct report *r, const struct cgroup_node *target, uint32_t tid,
		     uint32_t tgid, const char *comm, const struct tmacg_acc *delta);
/*
 * A key typed in the live view (output_top.h: top_key): *quit set for q; the
 * screen redrawn at once when a key changed it.  0, -EPIPE or -EIO.
 */
int report_key(struct report *r, int key, bool *quit);
/*
 * Prints every reported cgroup's line, then clears the sums.  dropped: the
 * interval's lost deltas, map_full: those of them the full cgroup map had no
 * room for (both in every line's quality).  0, -ENOMEM, -EPIPE or -EIO.
 */
int report_interval(struct report *r, struct cgroup_tree *t, double interval_s, uint64_t dropped,
		    uint64_t map_full);

/*
 * REPORT_HTML: the report of the run so far (output/html_data.h) to f, each
 * cgroup's numbers the model evaluated on its counts summed over the run.
 * kernel: the host's, for the summary.  0, -ENOMEM, -EPIPE or -EIO.
 */
int report_write_html(struct report *r, const char *kernel, FILE *f);

#endif
