// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "collect/cpu_follow.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collect/collector.h"
#include "pmu/pmu.h"

enum cpu_action cpu_follow_decide(const struct cpu_seen *s)
{
	if (!s->online)
		return s->counting ? CPU_CLOSE : CPU_KEEP;
	/* Back, offline when tmacg started, or off and on since. */
	if (!s->counting || s->hotplugged ||
	    /* Enabled time stands still only for events the kernel turned off. */
	    (s->enabled_known && s->enabled_now <= s->enabled_was))
		return s->settling ? CPU_WAIT : CPU_REOPEN;
	return CPU_KEEP;
}

/* The number in cpuN/hotplug/NAME beside online_path, or -1. */
static long hotplug_file(const char *online_path, int cpu, const char *name)
{
	const char *slash = strrchr(online_path, '/');
	int dir = slash ? (int)(slash - online_path) : 0;
	char path[PATH_MAX];
	long v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "%.*s/cpu%d/hotplug/%s", dir, online_path, cpu, name);
	f = fopen(path, "re");
	if (!f)
		return -1;
	if (fscanf(f, "%ld", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

bool cpu_follow_settling(const char *online_path, int cpu)
{
	long state = hotplug_file(online_path, cpu, "state");
	long target = hotplug_file(online_path, cpu, "target");

	return state >= 0 && target >= 0 && state != target;
}

/*
 * In this order: out of the BPF array first, so the flush's reads there fail
 * and drop the old baselines (its CPU time and pending slots are charged);
 * then the new events go in and every group is read once before they are
 * enabled: its baseline, so each group counts from its enable.  (Rotating,
 * a group's first reading came at its slice's flush, as its baseline: on
 * Debian 5.10 under QEMU's TCG that flush came ~100 ms after the enable, and
 * hp-rot's shares added up to 0.76.)
 */
static int reopen(struct collector *c, struct pmu_set *pmu, int cpu)
{
	uint64_t unopened = pmu->unopened;
	char err[512];

	collector_drop_cpu_events(c, cpu);
	c->online[cpu] = true;
	if (collector_flush_cpu(c, cpu) == -ENXIO)
		return -ENXIO; /* gone again */
	if (!pmu_open_cpu(pmu, cpu, err, sizeof(err))) {
		/* A group refused here only: out everywhere; the monitor names it. */
		if (pmu->unopened != unopened)
			collector_leave_out(c, pmu->unopened & ~unopened, pmu->unopened);
		if (!collector_put_cpu_events(c, pmu, cpu, err, sizeof(err)) &&
		    !collector_baseline_cpu(c, cpu, pmu_open_groups(pmu)) &&
		    !pmu_enable_cpu(pmu, cpu)) {
			pmu->online[cpu] = true;
			c->cpus_back++;
			return 0;
		}
	}
	pmu_close_cpu(pmu, cpu);
	collector_drop_cpu_events(c, cpu);
	c->online[cpu] = false;
	c->flush_errors++; /* this interval's counts there are lost; next time again */
	return -EAGAIN;
}

static void close_cpu(struct collector *c, struct pmu_set *pmu, int cpu)
{
	collector_drop_cpu_events(c, cpu);
	pmu_close_cpu(pmu, cpu);
	pmu->online[cpu] = false;
	c->online[cpu] = false;
	c->cpus_gone++;
}

/*
 * Whether cpu went through hotplug since the last look (*n: its count now).
 * Each CPU's count is read only when the total moved, or a CPU was mid-hotplug
 * at the last look: one lookup an interval, normally.
 */
static bool hotplugged(struct collector *c, int cpu, bool total_moved, uint64_t *n)
{
	if (!total_moved && !c->cpus_settling)
		return false;
	return !collector_hotplug_count(c, cpu, n) && *n != c->hotplug_seen[cpu];
}

int cpu_follow(struct collector *c, struct pmu_set *pmu, const char *online_path)
{
	bool *online = calloc(c->ncpus, sizeof(*online));
	bool total_moved;
	int reopened = 0, settling = 0;
	uint64_t total;

	if (!c->enabled_ns)
		c->enabled_ns = calloc(c->ncpus, sizeof(*c->enabled_ns));
	if (!c->hotplug_seen)
		c->hotplug_seen = calloc(c->ncpus + 1, sizeof(*c->hotplug_seen));
	/*
	 * Rotation rebuilt (a group left out) with another clock group: one
	 * leader's time against another's, or a sum's, would look like a CPU
	 * whose events stopped.  Unknown until the next look instead.
	 */
	if (c->enabled_ns && c->enabled_clock != pmu->clock_group) {
		memset(c->enabled_ns, 0, c->ncpus * sizeof(*c->enabled_ns));
		c->enabled_clock = pmu->clock_group;
	}
	if (!online || !c->enabled_ns || !c->hotplug_seen || !c->online ||
	    pmu_read_online(online_path, online, c->ncpus)) {
		free(online); /* no list: nothing to follow */
		return 0;
	}
	if (!c->online_listed)
		c->online_listed = calloc(c->ncpus, sizeof(*c->online_listed));
	if (c->online_listed)
		memcpy(c->online_listed, online, c->ncpus * sizeof(*online));
	total_moved = !collector_hotplug_count(c, -1, &total) && total != c->hotplug_seen[c->ncpus];
	if (total_moved)
		c->hotplug_seen[c->ncpus] = total;
	for (int cpu = 0; cpu < c->ncpus && cpu < pmu->ncpus; cpu++) {
		uint64_t steps = 0;
		struct cpu_seen s = {
			/* pmu->online, not an fd: the first group may be one left out. */
			.counting = c->online[cpu] && pmu->online[cpu],
			.online = online[cpu],
			.hotplugged = hotplugged(c, cpu, total_moved, &steps),
			.enabled_was = c->enabled_ns[cpu],
		};
		enum cpu_action action;

		s.enabled_known = s.counting && s.enabled_was &&
				  !pmu_cpu_enabled_ns(pmu, cpu, &s.enabled_now);
		action = cpu_follow_decide(&s);
		/* Its hotplug state is read only for a CPU to reopen: rarely. */
		if (action == CPU_REOPEN) {
			s.settling = cpu_follow_settling(online_path, cpu);
			action = cpu_follow_decide(&s);
		}
		/* Mid-hotplug: its steps stay unseen, so the next look sees them. */
		if (action != CPU_WAIT && s.hotplugged)
			c->hotplug_seen[cpu] = steps;
		switch (action) {
		case CPU_WAIT:
			settling++;
			break;
		case CPU_REOPEN:
			/*
			 * Counting with stopped events: it went and came back unseen, and
			 * the BPF side read still events since (groups not running): lost.
			 */
			c->flush_errors += s.counting;
			reopened += !reopen(c, pmu, cpu);
			c->enabled_ns[cpu] = 0; /* known from the next look */
			break;
		case CPU_CLOSE:
			close_cpu(c, pmu, cpu);
			break;
		case CPU_KEEP:
			if (s.enabled_known)
				c->enabled_ns[cpu] = s.enabled_now;
			else if (!s.counting || pmu_cpu_enabled_ns(pmu, cpu, &c->enabled_ns[cpu]))
				c->enabled_ns[cpu] = 0;
			break;
		}
	}
	c->cpus_settling = settling;
	free(online);
	return reopened;
}

bool cpu_follow_due(struct collector *c, const char *online_path)
{
	bool *online, due = false;
	uint64_t total;

	if (!c->online_listed || !c->hotplug_seen)
		return false; /* cpu_follow() has not looked yet: the interval's end will */
	if (c->cpus_settling)
		return true; /* mid-hotplug at the last look: until it settles */
	if (!collector_hotplug_count(c, -1, &total) && total != c->hotplug_seen[c->ncpus])
		return true;
	/*
	 * Against the list cpu_follow() last saw, not what is open: a CPU whose
	 * events failed to reopen is tried again at the interval's end, not at
	 * every wait (each try counts a flush error).
	 */
	online = calloc(c->ncpus, sizeof(*online));
	if (!online || pmu_read_online(online_path, online, c->ncpus)) {
		free(online);
		return false;
	}
	due = memcmp(online, c->online_listed, c->ncpus * sizeof(*online)) != 0;
	free(online);
	return due;
}
