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
#include <stdint.h>
#include <stdio.h>

#include "pmu/events.h"
#include "tmacg.h"

/* The events one TMA node reads: the planner keeps them in one group where it can. */
struct plan_node {
	const char *name;
	const char *const *events;
	int nevents;
	/*
	 * Its TMA level (0: counts, Info metrics 7).  At levels 4-6, the GP
	 * events of levels 1-2 join the topdown group, pinned, where they are
	 * few (PLAN_TOP_GP_SHARE).
	 */
	int level;
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
	/*
	 * Levels 4-6: more events than the PMU holds are planned (up to
	 * PLAN_MAX_EVENTS in PLAN_MAX_GROUPS groups), for the kernel to rotate
	 * (plan.nslices, user/pmu/rotation.c).  nodes[0..nbase_nodes) are the
	 * nodes of levels 1-3, whose groups are pinned where they fit.
	 */
	bool rotate;
	int nbase_nodes;
	/*
	 * Software events take a general-purpose counter each, as if they were
	 * hardware events: stand-ins that make a plan multiplex on a machine
	 * without a PMU (a CPU description's `software_counters yes`, tests).
	 */
	bool software_takes_counters;
};

/*
 * At levels 4-6, levels 1-2's GP events are pinned beside the topdown group
 * while they take at most 1/PLAN_TOP_GP_SHARE of the counters (spr's and
 * icx's INT_MISC.UOP_DROPPING: one of eight); more would cost every
 * multiplexed group room.
 */
#define PLAN_TOP_GP_SHARE 4
#define PLAN_MAX_PSEUDO 8
#define PLAN_MAX_MISSING 16
/*
 * A plan read whole at every switch (levels 1-3) keeps to these, so a switch
 * costs what it always has; a multiplexed plan (levels 4-6, gnr's level 6
 * reads 146 events) may use all the BPF side holds.
 */
#define PLAN_UNROTATED_EVENTS 64
#define PLAN_UNROTATED_GROUPS 16
#define PLAN_MAX_EVENTS TMACG_MAX_EVENTS
#define PLAN_MAX_GROUPS TMACG_MAX_GROUPS
#define PLAN_MAX_SLICES PLAN_MAX_GROUPS

struct plan {
	int nevents;
	struct event_enc ev[PLAN_MAX_EVENTS];
	int ngroups;
	int first[PLAN_MAX_GROUPS + 1];
	int npseudo; /* inputs not opened (msr/tsc/) */
	char pseudo[PLAN_MAX_PSEUDO][EVENT_NAME_MAX];
	int gp_counters; /* what the plan was built for */
	/* Events this PMU cannot count (plan_model.h): not opened, their nodes null */
	int nmissing;
	char missing[PLAN_MAX_MISSING][EVENT_NAME_MAX];
	/* group_cycles: its index in each group (-1: that group has none, e.g. software). */
	int cycles_of_group[PLAN_MAX_GROUPS];
	bool has_group_cycles;
	/*
	 * Levels 4-6 multiplexed by the kernel (user/pmu/rotation.c): every
	 * group is enabled all the time; always_on are pinned (their leaders'
	 * attr.pinned), the others rotated by the kernel.  slice_groups[s] (bit
	 * g: group g): the sets of groups the PMU holds at once, each with the
	 * pinned ones.  One slice: every group fits at once, nothing pinned, and
	 * the kernel multiplexes only what other perf users crowd out.
	 */
	int nslices;
	uint64_t always_on;
	int top_levels; /* levels 4-6: levels 1..top_levels read from group 0 alone (0: none) */
	uint64_t slice_groups[PLAN_MAX_SLICES];
	int reads_per_switch; /* the most events one set of slice_groups holds */
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

/* Whether any event needs the hardware PMU (anything opened but software events). */
bool plan_uses_pmu(const struct plan *p);

/* Whether group g opens an event on the hardware PMU. */
bool plan_group_uses_pmu(const struct plan *p, int g);

/* For `tmacg --list-events`: groups, names, type/config/config1 and counter kind. */
void plan_print(FILE *f, const struct plan *p);

/*
 * Plans the multiplexing of a plan too large for the PMU (rotation.c): the
 * groups needing no general-purpose counter, and those reading base events
 * (base[i]: event i serves a node of levels 1-3) when they leave room for
 * every other group, pinned (always_on, their leaders' attr.pinned); the
 * others in sets that fit beside them.  0, or -ENOSPC (a group that fits
 * beside the pinned ones in no set: it would never count) / -E2BIG with the
 * reason in err.
 */
int plan_rotate(struct plan *p, const bool *base, bool software_takes_counters, char *err,
		size_t errlen);

/* Every group on the PMU at once: nothing pinned, nothing multiplexed. */
void plan_one_slice(struct plan *p);

/* For --list-events: how the kernel multiplexes the groups, the pinned ones, the sets. */
void plan_print_rotation(FILE *f, const struct plan *p);

/* Whether group g is in set s (slice_groups[s]). */
static inline bool plan_group_on(const struct plan *p, int g, int s)
{
	return (p->slice_groups[s] >> g) & 1;
}

#endif /* TMACG_PLANNER_H */
