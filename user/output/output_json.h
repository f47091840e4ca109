/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* JSON lines, schema tmacg/1 (docs/output.md), one object per cgroup per interval. */
#ifndef TMACG_OUTPUT_JSON_H
#define TMACG_OUTPUT_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "output/cgroup_record.h"

/* Writes one line; 0, -ENOMEM, or -EPIPE/-EIO when the stream failed. */
int output_json_line(FILE *f, const struct report_line *r);

#endif
