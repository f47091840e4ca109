/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * docs/output.md, "Software mode": the counts --pmu software has always
 * written, in this order, first.  Written from the document, never from the
 * code under test, for the unit and integration tests that hold it to it.
 */
#ifndef TMACG_SOFTWARE_COUNTS_H
#define TMACG_SOFTWARE_COUNTS_H

extern const char *const software_documented_counts[];
extern const int software_ndocumented;

#endif
