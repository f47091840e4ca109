/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* JSON lines, schema tmacg/1 (docs/output.md), one object per cgroup per interval. */
#ifndef TMACG_OUTPUT_JSON_H
#define TMACG_OUTPUT_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "output/cgroup_record.h"

/*
 * The JSON printer of one run: what it works out once from the facts every
 * line shares (report_line of report_new): the keys of the counts and of
 * the shown nodes, each made into its text once.  NULL: out of memory.
 */
struct json_printer;
struct json_printer *json_printer_new(const struct report_line *facts);
void json_printer_free(struct json_printer *p);

/*
 * One line, kept with those before it and handed to f 64 KiB at a time:
 * json_printer_flush writes the rest (each interval's end).  0, -ENOMEM,
 * or -EPIPE/-EIO when the stream failed.  A line with other count names
 * than p's facts' (p NULL too): written at once by a printer of its own,
 * after the lines kept.
 */
int json_printer_line(struct json_printer *p, FILE *f, const struct report_line *r);
/*
 * A new interval: interval holds what its lines share, the run's facts
 * with the interval's time, length, host, losses and instance (every
 * member but the cgroup's own).  The members they make (docs/output.md's
 * head, quality's from smt_shared, the tail) are made into one text here
 * and copied into each line until the next call.  A printer never told of
 * an interval, or out of memory making that text, writes each line's own.
 */
void json_printer_begin_interval(struct json_printer *p, const struct report_line *interval);
int json_printer_flush(struct json_printer *p, FILE *f);
/* A line on its own, written at once (a replay's). */
int output_json_line(FILE *f, const struct report_line *r);

#endif
