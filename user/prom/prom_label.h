/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * Label values in the Prometheus text exposition format (0.0.4): a value is
 * UTF-8 between double quotes, with backslash, double quote and line feed
 * escaped.  Cgroup names are bytes chosen by whoever ran mkdir: anything.
 */
#ifndef TMACG_PROM_LABEL_H
#define TMACG_PROM_LABEL_H

#include "prom/prom_buf.h"

/*
 * Appends `name="value"` to b, value escaped.  A value that is not valid
 * UTF-8 is first mapped as the JSON output maps it (name_escape.h: each
 * invalid byte becomes U+EF00 + byte), so the output always parses and two
 * different names keep two different values.  0, or -ENOMEM when that
 * mapping could not be allocated (the value is then left empty).
 */
int prom_label(struct prom_buf *b, const char *name, const char *value);

#endif
