/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * What an HTML report (--format html) holds, gathered interval by interval
 * from the same cgroup lines the other printers print, live or --replay:
 * per cgroup a level-1 time series (for the chart), its quality over the run,
 * and its result over the whole run.
 *
 * The result over the run is not computed here from the intervals' ratios: the
 * caller sums each cgroup's counts over the run and evaluates the model once on
 * the sums (html_report_set_total), so a share is summed slots over summed
 * slots, thresholds and the bottleneck path those of the sums, never a mean of
 * ratios.  The chart's points are downsampled the same way (a point's share is
 * its intervals' slots over their slots), numbers never are.
 */
#ifndef TMACG_HTML_DATA_H
#define TMACG_HTML_DATA_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct html_report;
struct model_result;
struct report_line;
struct tma_model;

/* The chart's points at most: a long recording is downsampled to this many. */
#define HTML_CHART_POINTS 120

/* NULL: no memory.  level: the recorded level, the depth of the trees shown. */
struct html_report *html_report_new(const struct tma_model *m, int level);
void html_report_free(struct html_report *h);
/* The host's kernel (uname -r), live; a replay does not know it. */
int html_report_set_kernel(struct html_report *h, const char *kernel);

/*
 * One interval of one cgroup: its chart point, quality and CPU time.  Task
 * lines are left out (the report is per container).  The cgroup's index
 * (the same for every line of its path), or -ENOMEM.
 */
int html_report_add(struct html_report *h, const struct report_line *line);
/* The index of cgroup path, or -1. */
int html_report_find(const struct html_report *h, const char *cgroup);
int html_report_count(const struct html_report *h);
/* Seconds the cgroup's lines covered (their intervals summed): the sums' interval. */
double html_report_span_s(const struct html_report *h, int idx);
/* Cgroup idx's result over the run, evaluated on its summed counts (copied). */
int html_report_set_total(struct html_report *h, int idx, const struct model_result *total);

/* The value of node over the run, as set (NAN: none); for tests. */
double html_report_total(const struct html_report *h, int idx, int node);

/* The whole document (output_html.c): 0, -ENOMEM, -EPIPE or -EIO. */
int html_report_write(const struct html_report *h, FILE *f);

#endif
