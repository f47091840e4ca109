/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * What is measured: the perf events opened on every CPU, and how one
 * cgroup's interval sum becomes counts (and TMA metrics).  Software mode and
 * the hardware TMA model path are two implementations of it.
 */
#ifndef TMACG_MEASURE_H
#define TMACG_MEASURE_H

#include <linux/types.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "pmu/pmu.h"
#include "tmacg.h"

struct options;
struct tma_model;
struct model_result;

struct measure {
	int nevents;
	int ngroups;
	struct pmu_event events[TMACG_MAX_EVENTS];
	const char *model_name;		/* "software", or the TMA model's id */
	const char *tma_version;	/* NULL in software mode */
	int ncounts;
	const char *const *count_names;
	const struct tma_model *tma;	/* NULL in software mode */
	int level;
	bool info;
	bool smt_shared;		/* core-wide inputs while SMT is on */
	/* counts[ncounts] and, with a model, result from a cgroup's interval sum. */
	void (*evaluate)(struct measure *ms, const struct tmacg_acc *sum, double interval_s,
			 double *counts, struct model_result *result);
	/* The plain table, when there is no model tree to print. */
	void (*table_header)(FILE *f);
	void (*table_row)(FILE *f, const char *name, const double *counts, bool task);
	void (*close)(struct measure *ms);
};

/* Chooses and prepares the measurement the options ask for.  0 or -errno with err. */
int measure_open(struct measure **out, const struct options *o, char *err, size_t errlen);
void measure_close(struct measure *ms);

int measure_software_open(struct measure **out, char *err, size_t errlen);
int measure_hardware_open(struct measure **out, const struct options *o, char *err,
			  size_t errlen);

#endif
