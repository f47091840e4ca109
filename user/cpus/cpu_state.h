/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * One CPU's perf events as a state machine, apart from the system calls
 * that carry it out (cpus/cpu_events.c), so every transition is testable.
 *
 * A CPU that goes offline takes its perf events with it: the kernel turns
 * them off for good, and a flush there fails until it is back.  So at each
 * look (between waits and before each interval's flush) a CPU's state and
 * what is seen now (the online list, the hotplug steps BPF counted on the
 * kernel's cpuhp_enter tracepoint, its events' enabled time) give one
 * action; its outcome gives the next state:
 *
 *   OFFLINE  --online, settled-->         REOPEN --ok--> COUNTING
 *                                                --fails--> FAILED
 *   COUNTING --offline-->                 CLOSE  -->     OFFLINE
 *   COUNTING --hotplugged / time still--> REOPEN (as above)
 *   COUNTING --flush finds it offline-->  LOST (events dead, not yet closed)
 *   LOST     --offline--> CLOSE --> OFFLINE;  --online--> REOPEN
 *   FAILED   --offline--> OFFLINE;  --online--> REOPEN (at the next interval's end)
 *   any state to reopen, mid-hotplug:     WAIT (looked at again between waits)
 */
#ifndef TMACG_CPUS_CPU_STATE_H
#define TMACG_CPUS_CPU_STATE_H

#include <stdbool.h>
#include <stdint.h>

enum cpu_state {
	CPU_OFFLINE,  /* gone (or offline at start): no events */
	CPU_COUNTING, /* its groups open, handed to BPF, every one enabled */
	CPU_LOST,     /* a flush found it offline: its events dead, closed at the next look */
	CPU_FAILED,   /* online, but its events could not be opened: tried again later */
};

enum cpu_action {
	CPU_KEEP,   /* as it is */
	CPU_REOPEN, /* new events: flush, open, hand to BPF, read once, enable */
	CPU_CLOSE,  /* offline with events open: close them */
	CPU_WAIT,   /* to reopen, but mid-hotplug: at a later look, once it settled */
};

/* What is seen of one CPU at a look. */
struct cpu_seen {
	bool online;	      /* in the online list now */
	bool hotplugged;      /* went through CPU hotplug since the last look (BPF's cpuhp_enter) */
	bool settling;	      /* mid-hotplug: its hotplug state is not yet its target */
	bool enabled_known;   /* the events' enabled time was read, before and now */
	uint64_t enabled_was; /* the clock group's enabled time at the last look */
	uint64_t enabled_now;
};

/* What a CPU in state st needs, from what is seen now. */
enum cpu_action cpu_state_action(enum cpu_state st, const struct cpu_seen *s);

/*
 * The state after action a was carried out on a CPU in state st (ok: a
 * reopen succeeded); seen_online: the online list's word on it.
 */
enum cpu_state cpu_state_after(enum cpu_state st, enum cpu_action a, bool ok, bool seen_online);

/*
 * Whether cpu is mid-hotplug: its cpuN/hotplug/state, beside online_path
 * (PMU_ONLINE_PATH), is not yet its hotplug/target.  The kernel lists a CPU
 * coming up as online before the rest of its steps run, and one going down
 * until late in its steps: reopened then, it was reopened again as those
 * steps went on, or its new events died with it.  False when unknown.
 */
bool cpu_state_settling(const char *online_path, int cpu);

#endif
