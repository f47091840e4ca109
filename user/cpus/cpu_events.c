// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "cpus/cpu_events.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collect/collector.h"

int cpu_events_open(struct cpu_events *ev, struct collector *col, const struct pmu_event *events,
		    int nevents, const uint64_t *plan_slices, int plan_nslices, char *err,
		    size_t errlen)
{
	int ret;

	memset(ev, 0, sizeof(*ev));
	ev->col = col;
	ev->online_path = PMU_ONLINE_PATH;
	ev->ncpus = col->ncpus;
	ev->clock = -1;
	ev->turns.plan = plan_slices;
	ev->turns.plan_nslices = plan_nslices;
	ev->cpu = calloc(ev->ncpus, sizeof(*ev->cpu));
	ev->seen = calloc(ev->ncpus, sizeof(*ev->seen));
	if (!ev->cpu || !ev->seen) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	ret = pmu_open(&ev->pmu, events, nevents, ev->ncpus, err, errlen);
	if (ret)
		return ret;
	ev->refused_untold = ev->pmu.unopened;
	/* Before anything is attached: a switch never reads a group that did not open. */
	collector_set_unopened(col, ev->pmu.unopened);
	collector_set_active(col, pmu_open_groups(&ev->pmu));
	for (int cpu = 0; cpu < ev->ncpus; cpu++) {
		if (!ev->pmu.online[cpu])
			continue;
		ret = collector_put_cpu_events(col, &ev->pmu, cpu, err, errlen);
		if (ret)
			return ret;
		ev->cpu[cpu].state = CPU_COUNTING;
	}
	return 0;
}

/* On cpu, when it counts: the groups of on enabled, those of off disabled. */
static int switch_cpu(struct cpu_events *ev, int cpu, uint64_t on, uint64_t off)
{
	return ev->cpu[cpu].state == CPU_COUNTING ? pmu_switch_cpu(&ev->pmu, cpu, on, off) : 0;
}

/*
 * The live slices made for the groups open now, from slice 0: its groups on
 * on every counting CPU, the others off; the BPF side told what it reads.
 */
static int apply_turns(struct cpu_events *ev)
{
	uint64_t opened = pmu_open_groups(&ev->pmu), on;

	turns_rebuild(&ev->turns, opened);
	on = turns_on(&ev->turns, 0);
	ev->pmu.clock_group = turns_clock_group(&ev->turns);
	collector_set_unopened(ev->col, ev->pmu.unopened);
	collector_set_active(ev->col, on);
	for (int cpu = 0; cpu < ev->ncpus; cpu++) {
		int ret = switch_cpu(ev, cpu, on, opened & ~on);

		if (ret)
			return ret;
	}
	return 0;
}

int cpu_events_start(struct cpu_events *ev)
{
	/*
	 * Every group read once before any is enabled: its baseline (zeros), so
	 * a later slice's group counts from its enable, not from its first
	 * reading (as for a CPU back online).
	 */
	collector_set_active(ev->col, pmu_open_groups(&ev->pmu));
	cpu_events_flush(ev);
	return apply_turns(ev);
}

uint64_t cpu_events_take_refused(struct cpu_events *ev)
{
	uint64_t groups = ev->refused_untold;

	ev->refused_untold = 0;
	return groups;
}

char *const *cpu_events_refusals(const struct cpu_events *ev)
{
	return ev->pmu.unopened_why;
}

void cpu_events_flush(struct cpu_events *ev)
{
	for (int cpu = 0; cpu < ev->ncpus; cpu++)
		if (ev->cpu[cpu].state == CPU_COUNTING &&
		    collector_flush_cpu(ev->col, cpu) == -ENXIO)
			ev->cpu[cpu].state = CPU_LOST; /* went offline: stop asking */
}

/*
 * In this order: out of the BPF array first, so the flush's reads there fail
 * and drop the old baselines (its CPU time and pending slots are charged);
 * then the new events go in and every group is read once before any is
 * enabled: its baseline, so each group counts from its enable.  (Rotating,
 * a group's first reading came at its slice's flush, as its baseline: on
 * Debian 5.10 under QEMU's TCG that flush came ~100 ms after the enable, and
 * hp-rot's shares added up to 0.76.)  Only the current slice's groups go on:
 * the others wait for their turn as on every other CPU.  0, -ENXIO (gone
 * again: its flush counted what it strands), or -errno (the CPU's counts are
 * lost this interval, and it is tried again at the next).  Failed, it has no
 * events left.
 */
static int reopen(struct cpu_events *ev, int cpu)
{
	uint64_t unopened = ev->pmu.unopened, opened;
	char err[512];
	int ret;

	collector_drop_cpu_events(ev->col, cpu);
	ret = collector_flush_cpu(ev->col, cpu);
	if (ret != -ENXIO)
		ret = pmu_open_cpu(&ev->pmu, cpu, err, sizeof(err));
	if (!ret && ev->pmu.unopened != unopened) {
		/* A group refused here only: out everywhere, named by the caller. */
		ev->refused_untold |= ev->pmu.unopened & ~unopened;
		collector_leave_out(ev->col, ev->pmu.unopened & ~unopened, ev->pmu.unopened);
	}
	opened = pmu_open_groups(&ev->pmu);
	if (!ret)
		ret = collector_put_cpu_events(ev->col, &ev->pmu, cpu, err, sizeof(err));
	if (!ret)
		ret = collector_baseline_cpu(ev->col, cpu, opened);
	if (!ret)
		ret = pmu_switch_cpu(&ev->pmu, cpu, turns_on(&ev->turns, ev->turns.now), 0);
	if (!ret)
		return 0;
	pmu_close_cpu(&ev->pmu, cpu);
	collector_drop_cpu_events(ev->col, cpu);
	return ret;
}

/*
 * Whether cpu went through hotplug since the last look (*n: its count now).
 * Each CPU's count is read only when the total moved, or a CPU was
 * mid-hotplug at the last look: one lookup an interval, normally.
 */
static bool hotplugged(struct cpu_events *ev, int cpu, bool total_moved, uint64_t *n)
{
	if (!total_moved && !ev->settling)
		return false;
	return !collector_hotplug_count(ev->col, cpu, n) && *n != ev->cpu[cpu].hotplug_seen;
}

/* The clock group's enabled time on cpu, for the next look's comparison (0: unknown). */
static uint64_t enabled_now(const struct cpu_events *ev, int cpu)
{
	uint64_t ns;

	return ev->cpu[cpu].state == CPU_COUNTING && !pmu_cpu_enabled_ns(&ev->pmu, cpu, &ns) ? ns :
											       0;
}

/* One CPU's look: what it needs, carried out.  True when it was reopened. */
static bool look_at(struct cpu_events *ev, int cpu, bool total_moved)
{
	struct cpu_slot *slot = &ev->cpu[cpu];
	uint64_t steps = 0;
	struct cpu_seen s = {
		.online = ev->seen[cpu],
		.hotplugged = hotplugged(ev, cpu, total_moved, &steps),
		.enabled_was = slot->enabled_ns,
	};
	bool counting = slot->state == CPU_COUNTING, ok = false;
	enum cpu_action action;
	int ret;

	s.enabled_known =
		counting && s.enabled_was && !pmu_cpu_enabled_ns(&ev->pmu, cpu, &s.enabled_now);
	action = cpu_state_action(slot->state, &s);
	/* Its hotplug state is read only for a CPU to reopen: rarely. */
	if (action == CPU_REOPEN) {
		s.settling = cpu_state_settling(ev->online_path, cpu);
		action = cpu_state_action(slot->state, &s);
	}
	/* Mid-hotplug: its steps stay unseen, so the next look sees them. */
	if (action != CPU_WAIT && s.hotplugged)
		slot->hotplug_seen = steps;
	switch (action) {
	case CPU_WAIT:
		/* As it was, its enabled time too: the next look compares against it again. */
		ev->settling++;
		return false;
	case CPU_REOPEN:
		/*
		 * Counting with stopped events: it went and came back unseen, and
		 * the BPF side read still events since (groups not running): lost.
		 */
		ev->lost += counting;
		ret = reopen(ev, cpu);
		ok = !ret;
		ev->back += ok;
		/* This interval's counts there; next time again (gone again: said by its flush). */
		ev->lost += !ok && ret != -ENXIO;
		break;
	case CPU_CLOSE:
		collector_drop_cpu_events(ev->col, cpu);
		pmu_close_cpu(&ev->pmu, cpu);
		ev->gone++;
		break;
	case CPU_KEEP:
		break;
	}
	slot->state = cpu_state_after(slot->state, action, ok, s.online);
	/* Reopened: known from the next look. */
	if (action != CPU_KEEP)
		slot->enabled_ns = 0;
	else
		slot->enabled_ns = s.enabled_known ? s.enabled_now : enabled_now(ev, cpu);
	return action == CPU_REOPEN && ok;
}

int cpu_events_follow(struct cpu_events *ev)
{
	uint64_t total, refused = ev->refused_untold;
	bool total_moved;
	int reopened = 0;

	/*
	 * Turns rebuilt (a group left out) with another clock group: one
	 * leader's time against another's, or a sum's, would look like a CPU
	 * whose events stopped.  Unknown until the next look instead.
	 */
	if (ev->clock != ev->pmu.clock_group) {
		for (int cpu = 0; cpu < ev->ncpus; cpu++)
			ev->cpu[cpu].enabled_ns = 0;
		ev->clock = ev->pmu.clock_group;
	}
	if (pmu_read_online(ev->online_path, ev->seen, ev->ncpus))
		return 0; /* no list: nothing to follow */
	for (int cpu = 0; cpu < ev->ncpus; cpu++)
		ev->cpu[cpu].listed = ev->seen[cpu];
	total_moved = !collector_hotplug_count(ev->col, -1, &total) && total != ev->hotplug_total;
	if (total_moved)
		ev->hotplug_total = total;
	ev->looked = true;
	ev->settling = 0;
	for (int cpu = 0; cpu < ev->ncpus; cpu++)
		reopened += look_at(ev, cpu, total_moved);
	/*
	 * A group refused by a CPU back (closed everywhere): left out as one
	 * refused at start, not tried again at every interval, and the slices
	 * made again without it.
	 */
	if (ev->refused_untold != refused)
		apply_turns(ev);
	return reopened;
}

bool cpu_events_due(struct cpu_events *ev)
{
	uint64_t total;

	if (!ev->looked)
		return false; /* cpu_events_follow() has not looked yet: the interval's end will */
	if (ev->settling)
		return true; /* mid-hotplug at the last look: until it settles */
	if (!collector_hotplug_count(ev->col, -1, &total) && total != ev->hotplug_total)
		return true;
	/*
	 * Against the list of the last look, not what is open: a CPU whose
	 * events failed to reopen is tried again at the interval's end, not at
	 * every wait (each try loses that interval's counts there).
	 */
	if (pmu_read_online(ev->online_path, ev->seen, ev->ncpus))
		return false;
	for (int cpu = 0; cpu < ev->ncpus; cpu++)
		if (ev->seen[cpu] != ev->cpu[cpu].listed)
			return true;
	return false;
}

int cpu_events_nslices(const struct cpu_events *ev)
{
	return ev->turns.nslices;
}

int cpu_events_turn(struct cpu_events *ev, int s)
{
	uint64_t was, next;
	int ret = 0;

	/* Turns made again (a group refused) may have fewer slices: the interval goes on in 0. */
	if (s < 0 || s >= ev->turns.nslices)
		s = 0;
	if (s == ev->turns.now)
		return 0;
	was = turns_on(&ev->turns, ev->turns.now);
	next = turns_on(&ev->turns, s);
	/*
	 * Both slices read while the switch happens: a group going on counts
	 * from its enable, one going off up to its disable, and no switch in
	 * between misses either.
	 */
	collector_set_active(ev->col, was | next);
	for (int cpu = 0; !ret && cpu < ev->ncpus; cpu++)
		ret = switch_cpu(ev, cpu, next & ~was, was & ~next);
	/* Charges the old groups' last counts to what runs now, before they are skipped. */
	if (!ret)
		cpu_events_flush(ev);
	collector_set_active(ev->col, next);
	ev->turns.now = s;
	return ret;
}

const struct pmu_set *cpu_events_pmu(const struct cpu_events *ev)
{
	return &ev->pmu;
}

void cpu_events_close(struct cpu_events *ev)
{
	pmu_close(&ev->pmu);
	free(ev->cpu);
	free(ev->seen);
	memset(ev, 0, sizeof(*ev));
}
