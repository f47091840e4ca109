/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* One interval's output: a line per reported cgroup (and task), JSON or table. */
#ifndef TMACG_REPORT_H
#define TMACG_REPORT_H

#include <linux/types.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "tmacg.h"

struct options;
struct measure;
struct cgroup_tree;
struct cgroup_node;
struct collector_task;
struct model_result;
struct resource;
struct report_line;

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

struct report_task_entry {
	const struct cgroup_node *target;
	uint32_t tid, tgid;
	char comm[16];
	struct tmacg_acc delta;
};

struct report {
	const struct options *o;
	struct measure *ms;
	FILE *out;
	bool json;
	bool quiet; /* --format none: nothing on stdout */
	bool color;
	/* --format top (or auto on a terminal): the live view; auto until over TOP_AUTO_MIN_ROWS */
	struct top *top;
	bool top_auto, top_now, top_drawn_ansi;
	char host[256];
	/* "<pid>@<start time>": tells apart the lines of two tmacg running at once. */
	char instance[64];
	uint64_t map_full; /* this interval's deltas lost to a full cgroup map */
	double *counts;
	struct model_result *result;
	struct report_task_entry *tasks;
	size_t ntasks, cap_tasks;
	/* Optional: Kubernetes identity of a cgroup (NULL: none). */
	const struct resource *(*identify)(const struct cgroup_node *n, void *ctx);
	void *identify_ctx;
	const struct report_sink *sink; /* NULL: none */
};

/* "<pid>@<RFC 3339 start time>" of this process, for quality.instance. */
void report_instance_name(char *buf, size_t len);
int report_init(struct report *r, const struct options *o, struct measure *ms, FILE *out);
void report_free(struct report *r);
/* Forgets the sums and tasks gathered so far (after the baseline read). */
void report_reset(struct report *r, struct cgroup_tree *t);
void report_add_task(struct report *r, const struct cgroup_node *target,
		     const struct collector_task *t, const struct tmacg_acc *delta);
/*
 * A key typed in the live view (output_top.h: top_key): *quit set for q; the
 * screen redrawn at once when a key changed it.  0, -EPIPE or -EIO.
 */
int report_key(struct report *r, int key, bool *quit);
/* Prints every reported cgroup's line, then clears the sums.  0, -EPIPE or -EIO. */
int report_interval(struct report *r, struct cgroup_tree *t, double interval_s, uint64_t dropped);

#endif
