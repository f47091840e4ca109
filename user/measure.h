/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * What is measured: a model (icx, spr, software, a --model-file) planned
 * into the perf events opened on every CPU, and how one cgroup's interval
 * sum becomes its counts and metrics.  Every model, hardware or software,
 * takes this one path.
 */
#ifndef TMACG_MEASURE_H
#define TMACG_MEASURE_H

#include <linux/types.h>
#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>

#include "util/acc_layout.h"
#include "output/cgroup_record.h"
#include "pmu/pmu.h"
#include "tmacg.h"

struct tma_model;
struct model_result;
struct run_error;

/* What to measure: the model and how deep; the command line's, or a test's. */
struct measure_config {
	const char *model;	    /* a model id; NULL: the one that fits this CPU */
	const char *model_file;	    /* a .tma file instead of model */
	const char *tma_version;    /* another TMA version of model; NULL: its default */
	const char *retire_latency; /* a file of measured retire latencies, Intel's format */
	int level;		    /* 1..6: nodes up to this level */
	bool info;		    /* Info metrics too */
	int verbose;		    /* the CPU's facts on stderr */
};

/*
 * Counts come in this order: these two from the scheduler, then the
 * model's own counts (the table shows these first nsummary), then
 * cycles, instructions and slots when the model reads them, then every
 * opened event by the name the model's formulas use (re-playable).
 */
enum { MEASURE_ON_CPU_S, MEASURE_CPU_UTILIZATION, MEASURE_NFIXED };

struct measure {
	int nevents;
	int ngroups;
	struct acc_layout layout; /* the accumulators': nevents counters, ngroups times */
	struct pmu_event events[TMACG_MAX_EVENTS];
	/*
	 * What every line of this measurement shares, filled by measure_open():
	 * the model and its version, the counts' names (nsummary of them shown
	 * in the table), the level and Info metrics, the model's flags and slot
	 * width, and the quality facts (perf groups, missing events, smt_shared,
	 * where retire latencies come from).  A line's own fields are left zero.
	 */
	struct report_line facts;
};

/*
 * The perf groups the kernel refused to open (bit g: group g; why[g]: its
 * reason, copied): their events read null, even for a cgroup that did not
 * run, and each node reading them carries the reason (report_line.unmeasured,
 * quality.unmeasured).  0 or -ENOMEM.
 */
int measure_groups_unopened(struct measure *ms, uint64_t groups, char *const *why);

/*
 * The model cfg names (--pmu software is the built-in model "software"),
 * planned for this host.  0, or -errno with e: RUN_USAGE when what was asked
 * cannot be planned (a --level the model lacks, a plan too large, an event
 * no counter can take), RUN_FAILED otherwise (no PMU, a file unreadable).
 */
int measure_open(struct measure **out, const struct measure_config *cfg, struct run_error *e);
/* counts[ncounts] and result (model_result_new(ms->tma)) from a cgroup's interval sum. */
void measure_evaluate(struct measure *ms, const struct tmacg_acc *sum, double interval_s,
		      double *counts, struct model_result *result);
/* The same, for struct report_config's evaluate: ctx is the struct measure. */
void measure_evaluate_cb(void *ctx, const struct tmacg_acc *sum, double interval_s, double *counts,
			 struct model_result *result);
/* What every line of ms shares (model, counts' names, quality): the report's facts. */
const struct report_line *measure_facts(const struct measure *ms);
/*
 * Whether event e opens a new perf group (the plan's grouping): the
 * collector's read order and the group leader's fd.
 */
bool measure_event_is_leader(const struct measure *ms, int e);
void measure_close(struct measure *ms);

#endif
