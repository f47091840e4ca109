/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * Events needed -> the ordered list of perf events the collector opens on
 * every CPU, split into groups: group g is events [first[g], first[g + 1]),
 * leader first.  Group 0 is the topdown group (TOPDOWN.SLOTS leading the
 * PERF_METRICS events) when the model reads any of them; software events
 * (SW.*) form the last group, which uses no hardware counter.  Where no fixed
 * counter counts cycles (AMD), every hardware group carries its own copy of
 * the cycles event (plan_input.group_cycles).
 */
#ifndef TMACG_PLANNER_H
#define TMACG_PLANNER_H

#include <stdbool.h>
#include <stdio.h>

#include "pmu/events.h"
#include "tmacg.h"

/* The events one TMA node reads: the planner keeps them in one group where it can. */
struct plan_node {
	const char *name;
	const char *const *events;
	int nevents;
};

struct plan_input {
	const struct event_target *target;
	int gp_counters;	   /* usable per logical CPU (cpu_info.gp_usable) */
	const char *const *events; /* every event needed; duplicates are ignored */
	int nevents;
	const struct plan_node *nodes; /* optional, in model order */
	int nnodes;
	/*
	 * On a PMU without a fixed cycles counter (AMD): the cycles event every
	 * hardware group carries (the CPU description's group_cycles, or perf's
	 * "cycles" for the model generic), so each group's counts are taken
	 * against cycles counted over the same time.  NULL: none.  Used only
	 * when some event needs it.
	 */
	const char *group_cycles;
	/* Events left out because this PMU lacks them: copied to plan.missing. */
	const char *const *missing;
	int nmissing;
};

#define PLAN_MAX_PSEUDO 8
#define PLAN_MAX_MISSING 16

struct plan {
	int nevents;
	struct event_enc ev[TMACG_MAX_EVENTS];
	int ngroups;
	int first[TMACG_MAX_GROUPS + 1];
	int npseudo; /* inputs not opened (msr/tsc/) */
	char pseudo[PLAN_MAX_PSEUDO][EVENT_NAME_MAX];
	int gp_counters; /* what the plan was built for */
	int nmissing;	 /* generic events this PMU lacks: not opened, read as unmeasured */
	char missing[PLAN_MAX_MISSING][EVENT_NAME_MAX];
	/* group_cycles: its index in each group (-1: that group has none, e.g. software). */
	int cycles_of_group[TMACG_MAX_GROUPS];
	bool has_group_cycles;
};

/*
 * 0, or -errno with the reason in err: an event that cannot be encoded
 * (-ENOENT, -EINVAL...), more events or groups than the BPF side holds
 * (-E2BIG, naming the limit and suggesting a lower --level), an event no
 * usable counter can take (-ENOSPC).
 */
int plan_build(const struct plan_input *in, struct plan *out, char *err, size_t errlen);

/* Index of an event in the plan, -1 when not opened (pseudo-inputs, absent). */
int plan_index(const struct plan *p, const char *name);

/* Group of event index i. */
int plan_group_of(const struct plan *p, int i);

/*
 * Whether event i is the first of its name in the plan: group_cycles repeats
 * one event in every group; its later copies are not separate counts.
 */
bool plan_is_first(const struct plan *p, int i);

/* Whether any event needs the hardware PMU (anything but software events). */
bool plan_uses_pmu(const struct plan *p);

/* For `tmacg --list-events`: groups, names, type/config/config1 and counter kind. */
void plan_print(FILE *f, const struct plan *p);

#endif /* TMACG_PLANNER_H */
