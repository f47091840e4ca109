// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "pmu/group_health.h"

#include <string.h>

static int group_health_bound(int ngroups)
{
	if (ngroups < 0)
		return 0;
	return ngroups > TMACG_MAX_GROUPS ? TMACG_MAX_GROUPS : ngroups;
}

void group_health_add(struct group_health *h, const struct acc_layout *l,
		      const struct tmacg_acc *delta)
{
	int n = group_health_bound(l->ngroups);

	for (int g = 0; g < n; g++) {
		h->enabled[g] += *acc_enabled(l, delta, g);
		h->running[g] += *acc_running(l, delta, g);
	}
}

/* "tmacg: warning: perf group G (EVENT, EVENT...)": a warning's start. */
static void group_health_name(const struct pmu_event *events, int nevents, int g, FILE *f)
{
	const char *sep = "";

	fprintf(f, "tmacg: warning: perf group %d (", g);
	for (int e = 0; e < nevents; e++) {
		if (events[e].group != g)
			continue;
		fprintf(f, "%s%s", sep, events[e].name);
		sep = ", ";
	}
	fprintf(f, ")");
}

static void group_health_warn(const struct pmu_event *events, int nevents, int g, double enabled_s,
			      FILE *f)
{
	group_health_name(events, nevents, g, f);
	fprintf(f,
		" never counted: enabled %.3f s over all cgroups in the interval, running 0: the "
		"kernel could not put it on the PMU, so the nodes reading it are null.  Free the "
		"counters (stop other perf users; sysctl kernel.nmi_watchdog=0) or read fewer "
		"events (a lower --level)\n",
		enabled_s);
}

/* A pinned group (levels 4-6 keep it on all the time) the kernel found no room for. */
static void group_health_warn_pinned(const struct pmu_event *events, int nevents, int g, FILE *f)
{
	group_health_name(events, nevents, g, f);
	fprintf(f,
		" not counting: it is pinned (on all the time at levels 4-6) but the kernel could "
		"not put it on the PMU, whose counters other perf users' pinned events or the NMI "
		"watchdog hold, and will not try again: the nodes reading it are null, the other "
		"groups are measured.  Free the counters (stop other perf users; sysctl "
		"kernel.nmi_watchdog=0) and restart tmacg, or read fewer events (a lower "
		"--level)\n");
}

int group_health_check(struct group_health *h, const struct pmu_event *events, int nevents,
		       int ngroups, FILE *f)
{
	int n = group_health_bound(ngroups), dead = 0;

	for (int g = 0; g < n; g++) {
		/*
		 * Pinned, off the PMU on some CPU: the BPF side reads it there as
		 * neither enabled nor running, so only the kernel can tell.
		 */
		if (h->pmu && pmu_group_off_pmu(h->pmu, g) == 1) {
			dead++;
			if (!h->warned[g] && f)
				group_health_warn_pinned(events, nevents, g, f);
			h->warned[g] = true;
			continue;
		}
		/* Running anywhere, even multiplexed, means the group can count. */
		if (!h->enabled[g] || h->running[g])
			continue;
		/*
		 * Not by the cgroups' sums alone when the kernel can tell (1: it
		 * ran, in the kernel's multiplexing turns no cgroup used; -errno:
		 * unknown, the sums decide).  A group once named is not asked again.
		 */
		if (!h->warned[g] && h->pmu && pmu_group_ran(h->pmu, g) == 1)
			continue;
		dead++;
		if (!h->warned[g] && f)
			group_health_warn(events, nevents, g, h->enabled[g] / 1e9, f);
		h->warned[g] = true;
	}
	memset(h->enabled, 0, sizeof(h->enabled));
	memset(h->running, 0, sizeof(h->running));
	return dead;
}

__u64 group_health_unopened(struct group_health *h, const struct pmu_event *events, int nevents,
			    __u64 groups, char *const *why, FILE *f)
{
	__u64 named = 0;

	for (int g = 0; g < 64 && g < TMACG_MAX_GROUPS; g++) {
		if (!((groups >> g) & 1) || ((h->unopened_named >> g) & 1))
			continue;
		named |= 1ull << g;
		h->warned[g] = true; /* said here: not "never counted" as well */
		group_health_name(events, nevents, g, f);
		fprintf(f,
			" left out: %s; the nodes reading it are null in every interval "
			"(quality.unmeasured says why), the other groups are measured\n",
			why[g] ? why[g] : "not opened");
	}
	h->unopened_named |= named;
	return named;
}
