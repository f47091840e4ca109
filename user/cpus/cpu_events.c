// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "cpus/cpu_events.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collect/collector.h"

/*
 * Every opened group is enabled whenever its CPU counts, and a group waiting
 * for its turn in the kernel's multiplexing still gains enabled time: the
 * lowest opened group's leader alone tells whether a CPU's events still count
 * (one read per CPU, not one per group).
 */
static void set_clock_group(struct cpu_events *ev)
{
	uint64_t opened = pmu_open_groups(&ev->pmu);

	ev->pmu.clock_group = opened ? __builtin_ctzll(opened) : -1;
}

int cpu_events_open(struct cpu_events *ev, struct collector *col, const struct pmu_event *events,
		    int nevents, char *err, size_t errlen)
{
	int ret;

	memset(ev, 0, sizeof(*ev));
	ev->col = col;
	ev->online_path = PMU_ONLINE_PATH;
	ev->ncpus = col->ncpus;
	ev->clock = -1;
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
	collector_set_active(col, pmu_open_groups(&ev->pmu));
	set_clock_group(ev);
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

int cpu_events_start(struct cpu_events *ev)
{
	/*
	 * Every group read once before any is enabled: its baseline (zeros), so
	 * it counts from its enable, not from its first reading (as for a CPU
	 * back online).
	 */
	cpu_events_flush(ev);
	for (int cpu = 0; cpu < ev->ncpus; cpu++) {
		int ret = ev->cpu[cpu].state == CPU_COUNTING ? pmu_enable_cpu(&ev->pmu, cpu) : 0;

		if (ret)
			return ret;
	}
	return 0;
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
 * enabled: its baseline, so each group counts from its enable, not from a
 * first reading that may come long after it (a switch on a busy CPU).  Then
 * every group goes on, as on every other CPU.  0, -ENXIO (gone again: its
 * flush counted what it strands), or -errno (the CPU's counts are lost this
 * interval, and it is tried again at the next).  Failed, it has no events
 * left.
 */
static int reopen(struct cpu_events *ev, int cpu)
{
	uint64_t unopened = ev->pmu.unopened;
	char err[512];
	int ret;

	collector_drop_cpu_events(ev->col, cpu);
	ret = collector_flush_cpu(ev->col, cpu);
	if (ret != -ENXIO)
		ret = pmu_open_cpu(&ev->pmu, cpu, err, sizeof(err));
	if (!ret && ev->pmu.unopened != unopened) {
		/* A group refused here only: out everywhere, named by the caller. */
		ev->refused_untold |= ev->pmu.unopened & ~unopened;
		collector_leave_out(ev->col, ev->pmu.unopened & ~unopened);
	}
	if (!ret)
		ret = collector_put_cpu_events(ev->col, &ev->pmu, cpu, err, sizeof(err));
	if (!ret)
		ret = collector_flush_cpu(ev->col, cpu);
	if (!ret)
		ret = pmu_enable_cpu(&ev->pmu, cpu);
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
	 * A group left out (the clock group among them) moves the clock to
	 * another group: one leader's time against another's would look like a
	 * CPU whose events stopped.  Unknown until the next look instead.
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
	 * refused at start, not tried again at every interval; the clock moves
	 * off it.
	 */
	if (ev->refused_untold != refused)
		set_clock_group(ev);
	return reopened;
}

bool cpu_events_due(struct cpu_events *ev)
{
	uint64_t total = 0;

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
