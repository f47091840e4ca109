/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * The one owner of the perf events on every CPU, from open to close: which
 * CPUs count (CPU hotplug, cpus/cpu_state.h) and which groups are left out
 * (the kernel refused them, at start or on a CPU coming back).  It drives the
 * PMU (pmu/pmu.h: the file descriptors and their ioctls) and the BPF side
 * (collect/collector.h: the event array, what a switch reads, the flush);
 * neither keeps any of this state.
 *
 * Group states, the same on every CPU that counts: on (enabled from start to
 * close; where the PMU cannot hold every group, the kernel multiplexes them,
 * docs/architecture.md "Multiplexing (levels 4-6)"), or refused (closed on
 * every CPU, out of the BPF array, its nodes null with the reason).
 */
#ifndef TMACG_CPUS_CPU_EVENTS_H
#define TMACG_CPUS_CPU_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cpus/cpu_state.h"
#include "pmu/pmu.h"

struct collector;

/* One CPU as the owner knows it. */
struct cpu_slot {
	enum cpu_state state;
	uint64_t enabled_ns;   /* the clock group's enabled time at the last look; 0: unknown */
	uint64_t hotplug_seen; /* its hotplug steps (collector_hotplug_count) at the last look */
	bool listed;	       /* in the online list at the last look */
};

struct cpu_events {
	struct pmu_set pmu;
	struct collector *col;
	const char *online_path; /* PMU_ONLINE_PATH, or a test's */
	int ncpus;		 /* possible CPUs */
	struct cpu_slot *cpu;	 /* [ncpus] */
	bool *seen;		 /* [ncpus] scratch: the online list at a look */
	bool looked;		 /* cpu_events_follow() looked once: the list is known */
	uint64_t hotplug_total;	 /* every CPU's hotplug steps at the last look */
	int settling;		 /* CPUs mid-hotplug at that look: looked at between waits */
	int clock;		 /* the clock group the enabled times were read under */
	uint64_t refused_untold; /* refused groups the caller has not taken yet */
	uint64_t back;		 /* CPUs found online again (or late), their events reopened */
	uint64_t gone;		 /* CPUs found offline, their events closed */
	uint64_t lost;		 /* intervals of a CPU's counts lost to hotplug (as flush errors) */
};

/*
 * Opens events[nevents] (the plan's groups, leaders first, pinned where the
 * plan pins them) on every online CPU, disabled, and hands them to col
 * (loaded, not yet attached); the BPF side reads none of the groups the
 * kernel refused.  0 or -errno with err (which event, which CPU, what to do).
 */
int cpu_events_open(struct cpu_events *ev, struct collector *col, const struct pmu_event *events,
		    int nevents, char *err, size_t errlen);

/*
 * Once col is attached: every group read once (its baseline, zeros), then
 * every group enabled on every CPU that counts, one ioctl per leader and
 * CPU, for good.  0 or -errno.
 */
int cpu_events_start(struct cpu_events *ev);

/*
 * The groups refused since the last call (bit g: group g), at start or by a
 * CPU coming back: for the caller to name once and null; their reasons in
 * cpu_events_refusals().
 */
uint64_t cpu_events_take_refused(struct cpu_events *ev);
char *const *cpu_events_refusals(const struct cpu_events *ev);

/*
 * Charges every counting CPU's pending delta to what runs there (the
 * interval's end, before the read).  A CPU found offline is lost until the
 * next look.
 */
void cpu_events_flush(struct cpu_events *ev);

/*
 * Brings every CPU in line with the online list: closes the events of CPUs
 * gone, reopens those of CPUs back (flushed first, read once, every group
 * enabled), leaves a group out everywhere when a CPU coming back refused it.
 * Returns how many CPUs were reopened.
 */
int cpu_events_follow(struct cpu_events *ev);

/*
 * Whether cpu_events_follow() has something to do now, at the cost of one
 * small file read and one map lookup: the online list changed since its last
 * look, BPF saw a hotplug step, or a CPU was mid-hotplug then.  The live loop
 * asks between waits, so a CPU that comes back counts again within a fraction
 * of a second, not only from the end of a long interval.
 */
bool cpu_events_due(struct cpu_events *ev);

/* The PMU's view, for questions (pmu_group_ran): owned here. */
const struct pmu_set *cpu_events_pmu(const struct cpu_events *ev);

/* Every event closed (the BPF side detached first, by the caller). */
void cpu_events_close(struct cpu_events *ev);

#endif
