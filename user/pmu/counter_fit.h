/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * Whether perf events can count on one logical CPU's PMU at the same time:
 * the one check behind the planner (events into a perf group, which never
 * counts unless all its members get a counter at once) and levels 4-6's
 * multiplexing plan (groups into the sets the PMU holds at once).  Every limit of the PMU
 * is here:
 *   - a fixed-counter event takes its fixed counter; where an event added
 *     before holds it, it takes a general-purpose counter instead, as the
 *     kernel schedules it (none if its counter mask allows none);
 *   - each general-purpose event takes a counter its counter mask allows,
 *     one event a counter, up to the counters usable;
 *   - config1 is the value of an extra MSR: Intel's cores have two
 *     offcore-response MSRs per thread (MSR_OFFCORE_RSP_0/1, which Intel's
 *     lists give as "0x1a6,0x1a7"), any other such MSR (MSR_PEBS_FRONTEND
 *     0x3f7, load latency 0x3f6) holds one value at a time.  config1 without
 *     a known MSR (libpfm4's encodings) is offcore response.
 * Events are added one at a time; the ones added first keep what they took.
 */
#ifndef TMACG_COUNTER_FIT_H
#define TMACG_COUNTER_FIT_H

#include <stdbool.h>
#include <stdint.h>

#include "pmu/events.h"

#define COUNTER_FIT_MAX_GP 32
#define COUNTER_FIT_OCR_MSRS 2
#define COUNTER_FIT_MSR_OFFCORE_RSP_0 0x1a6
#define COUNTER_FIT_OTHER_MSRS 8

struct counter_fit {
	int gp;		  /* general-purpose counters usable, at most COUNTER_FIT_MAX_GP */
	bool software_gp; /* software events take one each (stand-ins: plan_input) */
	bool fits;	  /* false from the first event that found no room */
	/* Events on general-purpose counters, those that found none included. */
	int ngp;
	uint32_t fixed;			   /* fixed counters taken (bit n: counter n) */
	uint32_t mask[COUNTER_FIT_MAX_GP]; /* counter masks of the GP events placed */
	int owner[COUNTER_FIT_MAX_GP];	   /* counter c holds event mask[owner[c]]; -1: free */
	int nocr;
	uint64_t ocr[COUNTER_FIT_OCR_MSRS];
	int nother;
	uint32_t other_msr[COUNTER_FIT_OTHER_MSRS];
	uint64_t other_val[COUNTER_FIT_OTHER_MSRS];
};

/* An empty PMU of gp general-purpose counters (more than COUNTER_FIT_MAX_GP: that many). */
void counter_fit_init(struct counter_fit *f, int gp, bool software_takes_counters);

/* Adds e beside the events added before; returns f->fits. */
bool counter_fit_add(struct counter_fit *f, const struct event_enc *e);

#endif /* TMACG_COUNTER_FIT_H */
