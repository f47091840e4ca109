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
 * Writes one line; 0, -ENOMEM, or -EPIPE/-EIO when the stream failed.  p
 * NULL, or lines with other count names than its facts': a printer made
 * for the line alone.
 */
int json_printer_line(const struct json_printer *p, FILE *f, const struct report_line *r);
/* json_printer_line without a printer: a line on its own (a replay's). */
int output_json_line(FILE *f, const struct report_line *r);

#endif
