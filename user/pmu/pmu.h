/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Opens an ordered list of perf event groups on every online CPU. */
#ifndef TMACG_PMU_H
#define TMACG_PMU_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The online CPUs' list, read at start and each interval (CPU hotplug). */
#define PMU_ONLINE_PATH "/sys/devices/system/cpu/online"

struct pmu_event {
	const char *name; /* as the user or model knows it */
	struct perf_event_attr attr;
	int group; /* events of a group are contiguous, leader first */
};

struct pmu_set {
	const struct pmu_event *events; /* [nevents], the caller's: reopened on a CPU back online */
	int nevents;
	int ngroups;
	int ncpus;    /* possible CPUs: indexes of fds */
	bool *online; /* [ncpus] the CPUs with events open (pmu_open, pmu_open_cpu) */
	bool *leader; /* [nevents]: leads its group */
	int *fds;     /* [event * ncpus + cpu]; -1 where not opened */
	/*
	 * Groups the kernel refused on some CPU (bit g: group g), closed on every
	 * CPU and left out from then on: their nodes are null, the rest is
	 * measured.  unopened_why[g]: the first refusal (event, CPU, reason).
	 */
	uint64_t unopened;
	char *unopened_why[64];
	/*
	 * The group whose leader's enabled time alone tells pmu_cpu_enabled_ns
	 * whether a CPU's events still count: any group enabled whenever they
	 * are (set by their owner, cpus/cpu_events.c: every opened group is).
	 * -1 (pmu_open's): none known, every leader's time is read and summed,
	 * one read per group and CPU.
	 */
	int clock_group;
};

/* Parses a CPU list ("0-3,8,10-11") into mask[max]; 0 or -EINVAL. */
int pmu_parse_cpu_list(const char *list, bool *mask, int max);

/*
 * Opens events[] (grouped, leaders first) on every online CPU, counting and
 * disabled.  A group the kernel refuses on a CPU is closed everywhere and
 * named in s->unopened, the others kept; when it refuses every group, closes
 * everything and explains in err (which event, which CPU, and what to do).
 * 0 or -errno.
 */
int pmu_open(struct pmu_set *s, const struct pmu_event *events, int nevents, int ncpus, char *err,
	     size_t errlen);
/* The groups opened (bit g: group g): all of s's but the unopened. */
uint64_t pmu_open_groups(const struct pmu_set *s);

/*
 * One CPU's events, for CPU hotplug: the kernel leaves a CPU's events off for
 * good once it goes offline, so a CPU that comes back gets new ones.
 * pmu_open_cpu() closes the CPU's old events first and opens them disabled
 * (not the unopened groups).  A group it refuses while others open is left
 * out as at pmu_open(): added to s->unopened with its reason and closed on
 * every CPU (the caller sees s->unopened grow).  0, or -errno with err when
 * it refuses every group (that CPU's trouble: nothing is left out, the CPU
 * has no events) or a refusal every group would meet.  pmu_enable_cpu()
 * starts them.
 */
int pmu_open_cpu(struct pmu_set *s, int cpu, char *err, size_t errlen);
int pmu_enable_cpu(struct pmu_set *s, int cpu);
void pmu_close_cpu(struct pmu_set *s, int cpu);

/*
 * The time the CPU's groups have been enabled (PERF_FORMAT_TOTAL_TIME_ENABLED):
 * s->clock_group's leader's when it is open there, else summed over every
 * leader.  It stops growing when the kernel turned the events off (the CPU
 * went offline, even if it came back since), and grows while a group is
 * enabled, on the PMU or waiting for its turn in the kernel's multiplexing.
 * Two readings compare only under one clock_group.  0, -EOPNOTSUPP (not in the events' read_format, or no group
 * open there) or -errno.
 */
int pmu_cpu_enabled_ns(const struct pmu_set *s, int cpu, uint64_t *ns);

/*
 * Whether group g was ever on the PMU, by the kernel's own times: its
 * leader's PERF_FORMAT_TOTAL_TIME_RUNNING on any online CPU since it was
 * opened.  1 it ran, 0 it never did, -EOPNOTSUPP (times not in the events'
 * read_format, or no open leader) or -errno.
 */
int pmu_group_ran(const struct pmu_set *s, int g);

/*
 * Whether group g is pinned but the kernel could not put it on the PMU on some
 * online CPU (no room beside other users' pinned events: it then holds the
 * group in its error state, the leader's read(2) giving end of file, and
 * counts nothing there until it is enabled again).  1 it is, 0 it is not (or
 * not pinned), -EOPNOTSUPP (no open leader, no times) or -errno.
 */
int pmu_group_off_pmu(const struct pmu_set *s, int g);

/* Reads an online CPU list file (PMU_ONLINE_PATH) into mask[max]; 0 or -errno. */
int pmu_read_online(const char *path, bool *mask, int max);
/* How many CPUs a CPU list file names (sysfs's online, possible): >= 1, or -errno. */
int pmu_count_cpus(const char *path);
void pmu_close(struct pmu_set *s);

/*
 * Whether the kernel opens attr (counting, on the first online CPU): 0, or
 * -errno (-ENOENT: the PMU has no such event).  For perf's generic events,
 * which a PMU may lack.
 */
int pmu_probe(const struct perf_event_attr *attr);

#endif
