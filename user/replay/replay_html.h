/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* tmacg --replay FILE --format html: the recording as one HTML report (output/html_data.h). */
#ifndef TMACG_REPLAY_HTML_H
#define TMACG_REPLAY_HTML_H

#include <stdio.h>

struct html_report;
struct replay_data;
struct replay_source;
struct tma_model;

/*
 * Gathers every record of d into a new report *out: each interval's chart
 * point and quality, each cgroup's result over the recording.  0, 1 (said on
 * err) or -ENOMEM.
 */
int replay_html_gather(const struct replay_data *d, const struct tma_model *m, int level,
		       struct html_report **out, FILE *err);

/*
 * The report of src written to out once the input ends: 0, or 1 with the
 * reason on err; the input's own end is the caller's (replay_source_end).
 */
int replay_html_from(struct replay_source *src, const struct tma_model *m, int level, FILE *out,
		     FILE *err);
/* The same on records already read. */
int replay_html_data(const struct replay_data *d, const struct tma_model *m, int level, FILE *out,
		     FILE *err);

#endif
