/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * CPU hotplug.  A CPU that goes offline takes its perf events with it: the
 * kernel turns them off for good, and a flush there fails until it is back.
 * Between waits (cpu_follow_due()) and before each interval's flush, tmacg
 * compares the online CPUs with what it has open: a CPU gone offline has its
 * events closed; one back online (or offline when tmacg started and online
 * now, or that went and came back within an interval: BPF counts each CPU's
 * hotplug steps on the kernel's cpuhp_enter tracepoint, and failing that its
 * events' enabled time stands still) is flushed, gets new events, and the BPF
 * side takes its next reading there as a fresh baseline.  What could not be
 * counted meanwhile is counted as dropped (read errors, flush errors).
 */
#ifndef TMACG_CPU_FOLLOW_H
#define TMACG_CPU_FOLLOW_H

#include <stdbool.h>
#include <stdint.h>

struct collector;
struct pmu_set;

enum cpu_action {
	CPU_KEEP,   /* as it was: online and counting, or offline and closed */
	CPU_REOPEN, /* online with no live events: flush, new events, fresh baseline */
	CPU_CLOSE,  /* offline with events open: close them */
	CPU_WAIT,   /* to reopen, but mid-hotplug: at a later look, once it settled */
};

/* What one CPU needs, from what tmacg knew and what it sees now. */
struct cpu_seen {
	bool counting;	      /* events open and the CPU flushed each interval */
	bool online;	      /* in the online list now */
	bool hotplugged;      /* went through CPU hotplug since the last look (BPF's cpuhp_enter) */
	bool settling;	      /* mid-hotplug: its hotplug state is not yet its target */
	bool enabled_known;   /* the events' enabled time was read, before and now */
	uint64_t enabled_was; /* its groups' enabled time (summed) at the last look */
	uint64_t enabled_now;
};

enum cpu_action cpu_follow_decide(const struct cpu_seen *s);

/*
 * Whether cpu is mid-hotplug: its cpuN/hotplug/state, beside online_path
 * (PMU_ONLINE_PATH), is not yet its hotplug/target.  The kernel lists a CPU
 * coming up as online before the rest of its steps run, and one going down
 * until late in its steps: reopened then, it was reopened again as those
 * steps went on, or its new events died with it.  False when unknown.
 */
bool cpu_follow_settling(const char *online_path, int cpu);

/*
 * Brings c and pmu in line with the online list at online_path
 * (PMU_ONLINE_PATH).  Returns how many CPUs were reopened; errors to reopen
 * one are counted as flush errors and tried again next interval.
 */
int cpu_follow(struct collector *c, struct pmu_set *pmu, const char *online_path);

/*
 * Whether cpu_follow() has something to do now, at the cost of one small file
 * read and one map lookup: the online list differs from what is open, or BPF
 * saw a hotplug step since the last look.  The live loop asks between waits,
 * so a CPU that comes back counts again within a fraction of a second, not
 * only from the end of a long interval.
 */
bool cpu_follow_due(struct collector *c, const char *online_path);

#endif
