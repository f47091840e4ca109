/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * Perf groups that never count.  A group the kernel cannot put on the PMU
 * (counters held by another tool or the NMI watchdog, more events than
 * counters, a pinned group that lost its place) returns its last value with
 * no error: only "enabled grows, running stays 0" tells.  Its events are
 * then NAN for every cgroup and the nodes reading them null; this module
 * makes sure the user also hears why, once, and what to do.
 */
#ifndef TMACG_GROUP_HEALTH_H
#define TMACG_GROUP_HEALTH_H

#include <linux/types.h>
#include <stdbool.h>
#include <stdio.h>

#include "util/acc_layout.h"
#include "pmu/pmu.h"
#include "tmacg.h"

/* Zero-initialised is ready: one per monitor. */
struct group_health {
	__u64 enabled[TMACG_MAX_GROUPS]; /* this interval, summed over every cgroup */
	__u64 running[TMACG_MAX_GROUPS];
	bool warned[TMACG_MAX_GROUPS]; /* reported once already */
	__u64 unopened_named;	       /* refused groups named already (bit g: group g) */
	/*
	 * The perf events, when they are open: multiplexed, a group's enabled
	 * time is the whole interval but it runs only in its turns, so a cgroup
	 * that ran only in the others' leaves "enabled, never running" in the
	 * sums; the kernel's own times of the group then decide.  NULL: the
	 * sums alone.
	 */
	const struct pmu_set *pmu;
};

/* Adds one cgroup's interval delta (every cgroup's, before any roll-up), of layout l. */
void group_health_add(struct group_health *h, const struct acc_layout *l,
		      const struct tmacg_acc *delta);

/*
 * Ends an interval: every group (of events[nevents], each naming its group, in
 * ngroups groups) that was enabled but never ran, in any cgroup (nor, with
 * h->pmu, ever on any CPU by the kernel's times), is reported on f (its events, and what to do) the first time it
 * happens; then the sums start again.  Returns how many groups never ran.
 */
int group_health_check(struct group_health *h, const struct pmu_event *events, int nevents,
		       int ngroups, FILE *f);

/*
 * The groups the kernel refused to open (bit g: group g of events[nevents];
 * why[g]: the refusal), each named on f with its reason: once (at start, or
 * when a CPU coming back refused it), not once per interval or CPU, nor
 * again by group_health_check.  Returns the groups named this time.
 */
__u64 group_health_unopened(struct group_health *h, const struct pmu_event *events, int nevents,
			    __u64 groups, char *const *why, FILE *f);

#endif /* TMACG_GROUP_HEALTH_H */
