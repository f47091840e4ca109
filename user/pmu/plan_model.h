/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * The plan for one model on this host: the glue `tmacg --list-events` and the
 * collector share, from a loaded model, a --level and cpu_detect's facts.
 */
#ifndef TMACG_PLAN_MODEL_H
#define TMACG_PLAN_MODEL_H

#include <stdbool.h>
#include <stddef.h>

#include "pmu/cpu_detect.h"
#include "pmu/planner.h"

struct tma_model;

struct plan_request {
	const struct tma_model *model;
	int level;	/* 1..6: nodes up to this level */
	bool with_info; /* Info metrics too */
	/*
	 * The host; NULL or without a PMU: plan as on the model's own CPU with a
	 * current kernel (for --list-events on another machine).
	 */
	const struct cpu_info *cpu;
	/* Away from a host: plan as if kernel.nmi_watchdog=1 held one counter. */
	bool watchdog;
	/*
	 * Asks the kernel whether it can open a generic hardware event (cycles,
	 * branch-misses...) on this host: 0, or -errno.  NULL: assume it can.
	 * One it cannot is left out of the plan (plan.missing), and the nodes
	 * reading it are null; so is an event of what the host's PMU lacks of
	 * its core (cpu_info: fewer fixed counters, no PERF_METRICS) that no
	 * twin counts.  The general-purpose counters planned for are the
	 * host's (cpu_info.gp_usable), not the description's.
	 */
	int (*probe)(const struct perf_event_attr *attr);
};

/*
 * General-purpose counters assumed for perf's generic events where the host
 * does not say how many it has (no CPUID count, no description): two, so
 * every group is cycles and one other event, which any PMU schedules.
 */
#define PLAN_GENERIC_GP 2

/*
 * Levels read whole at every switch; deeper ones rotate (plan.nslices), and a
 * --level deeper than this must exist in the model.
 */
#define PLAN_LEVELS_ALWAYS 3

/* The deepest level of m's tree (1-6). */
int plan_model_depth(const struct tma_model *m);

/* The model flags (enum model_flag) the formulas see on this host. */
unsigned int plan_model_flags(const struct plan_request *r);

/*
 * Whether m reads only perf's generic hardware events and software events
 * (no CPU description needed); *generic: some of them hardware (the model
 * generic: its level-1 nodes are measures of their own, not shares of slots).
 */
bool model_needs_no_description(const struct tma_model *m, bool *generic);

/*
 * For each node of m whose events take turns (some of its groups are not on
 * in every slice of a rotating plan), the groups of p holding the events it
 * reads itself in the branch flags select (bit g: group g), into groups[model_node_count(m)]: what
 * quality.measured is taken over.  0 for a node read at every switch (every
 * node of a plan that does not rotate) or reading no planned event.  0, or
 * -ENOMEM.
 */
int plan_node_groups(const struct plan *p, const struct tma_model *m, unsigned flags,
		     uint64_t *groups);

/* The same for every node, on at every switch or not: the groups its events are in. */
int plan_node_all_groups(const struct plan *p, const struct tma_model *m, unsigned flags,
			 uint64_t *groups);

/*
 * 0, or -errno with the reason in err: unknown model, bad level (-EINVAL), a
 * level deeper than the model's tree (-EDOM), limits (-E2BIG, -ENOSPC).
 */
int plan_for_model(const struct plan_request *r, struct plan *out, char *err, size_t errlen);

/*
 * The model to run: model_file, else the built-in model_id, else the one
 * that fits this CPU (ci may be NULL when not detected).  NULL with err.
 */
struct tma_model *tma_model_open(const char *model_file, const char *model_id, const char *version,
				 const struct cpu_info *ci, char *err, size_t errlen);

#endif /* TMACG_PLAN_MODEL_H */
