/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * Label values in the Prometheus text exposition format (0.0.4): a value is
 * UTF-8 between double quotes, with backslash, double quote and line feed
 * escaped.  Cgroup names are bytes chosen by whoever ran mkdir: anything.
 */
#ifndef TMACG_PROM_LABEL_H
#define TMACG_PROM_LABEL_H

#include <stdio.h>

/*
 * Writes `name="value"` to f, value escaped; a byte sequence that is not
 * valid UTF-8 becomes U+FFFD, one per invalid byte, so the output is always
 * parseable (two invalid names may then share a value: documented).
 */
void prom_label(FILE *f, const char *name, const char *value);

/* Only the escaped value, without the quotes. */
void prom_label_value(FILE *f, const char *value);

#endif
