/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * --pmu software: four software events through the same BPF path, reported
 * as CPU seconds, utilisation and rates.  Shows the pipeline working on
 * machines without a hardware PMU.
 */
#ifndef TMACG_SOFTWARE_H
#define TMACG_SOFTWARE_H

#include <linux/types.h>
#include <stdbool.h>
#include <stdio.h>

#include "tmacg.h"

/* The event order pmu_software_events() opens them in. */
enum software_event { SW_CPU_CLOCK, SW_CONTEXT_SWITCHES, SW_CPU_MIGRATIONS, SW_PAGE_FAULTS,
		      SW_NEVENTS };

#define SOFTWARE_NCOUNTS 9
extern const char *const software_count_names[SOFTWARE_NCOUNTS];

/* counts[SOFTWARE_NCOUNTS] from one cgroup's interval sum (one group). */
void software_counts(const struct tmacg_acc *sum, double interval_s, double *counts);

/* The table: a header, then a row per cgroup (indented for a task). */
void software_table_header(FILE *f);
void software_table_row(FILE *f, const char *name, const double *counts, bool task);

#endif
