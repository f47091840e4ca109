/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Opens an ordered list of perf event groups on every online CPU. */
#ifndef TMACG_PMU_H
#define TMACG_PMU_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pmu_event {
	const char *name; /* as the user or model knows it */
	struct perf_event_attr attr;
	int group; /* events of a group are contiguous, leader first */
};

struct pmu_set {
	int nevents;
	int ngroups;
	int ncpus;    /* possible CPUs: indexes of fds */
	bool *online; /* [ncpus] */
	bool *leader; /* [nevents]: leads its group */
	int *fds;     /* [event * ncpus + cpu]; -1 where not opened */
};

/* Parses a CPU list ("0-3,8,10-11") into mask[max]; 0 or -EINVAL. */
int pmu_parse_cpu_list(const char *list, bool *mask, int max);

/*
 * Opens events[] (grouped, leaders first) on every online CPU, counting and
 * disabled.  On failure closes everything and explains in err (which event,
 * which CPU, and what to do).  0 or -errno.
 */
int pmu_open(struct pmu_set *s, const struct pmu_event *events, int nevents, int ncpus, char *err,
	     size_t errlen);
/* Enables every group with one ioctl on its leader. */
int pmu_enable(struct pmu_set *s);
/*
 * Enables the groups of on and disables those of off (bit g: group g) on
 * every CPU, one ioctl per group leader: tmacg's own rotation (user/rotate.c).
 */
int pmu_switch_groups(struct pmu_set *s, uint64_t on, uint64_t off);
void pmu_close(struct pmu_set *s);

/*
 * Four software events in one group, cpu-clock leading: a PMU-free stand-in
 * for a model's events in the collector's limit test and the BPF-time bench
 * (--pmu software itself plans the model "software" like any model).
 */
int pmu_software_events(struct pmu_event *out, int max);

/*
 * Whether the kernel opens attr (counting, on the first online CPU): 0, or
 * -errno (-ENOENT: the PMU has no such event).  For perf's generic events,
 * which a PMU may lack.
 */
int pmu_probe(const struct perf_event_attr *attr);

/* The explanation for an errno from perf_event_open(). */
const char *pmu_errno_hint(int err);

#endif
