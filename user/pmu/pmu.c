// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "pmu/pmu.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "util/group_mask.h"
#include "util/privileges.h"

int pmu_parse_cpu_list(const char *list, bool *mask, int max)
{
	const char *p = list;

	memset(mask, 0, max * sizeof(*mask));
	while (*p && *p != '\n') {
		char *end;
		long a = strtol(p, &end, 10), b = a;

		if (end == p || a < 0)
			return -EINVAL;
		p = end;
		if (*p == '-') {
			b = strtol(p + 1, &end, 10);
			if (end == p + 1 || b < a)
				return -EINVAL;
			p = end;
		}
		for (long c = a; c <= b && c < max; c++)
			mask[c] = true;
		if (*p == ',')
			p++;
		else if (*p && *p != '\n')
			return -EINVAL;
	}
	return 0;
}

int pmu_read_online(const char *path, bool *mask, int max)
{
	char buf[4096];
	FILE *f = fopen(path, "re");
	int err;

	if (!f)
		return -errno;
	err = fgets(buf, sizeof(buf), f) ? pmu_parse_cpu_list(buf, mask, max) : -EIO;
	fclose(f);
	return err;
}

/* Linux's largest NR_CPUS (x86's MAXSMP). */
#define PMU_MAX_CPU_IDS 8192

int pmu_count_cpus(const char *path)
{
	bool *mask = calloc(PMU_MAX_CPU_IDS, sizeof(*mask));
	int ret = mask ? pmu_read_online(path, mask, PMU_MAX_CPU_IDS) : -ENOMEM, n = 0;

	for (int c = 0; !ret && c < PMU_MAX_CPU_IDS; c++)
		n += mask[c];
	free(mask);
	return ret ? ret : n ? n : -EINVAL;
}

int pmu_probe(const struct perf_event_attr *attr)
{
	struct perf_event_attr a = *attr;
	bool online[1024] = { false };
	int cpu = 0, fd;

	/* The first online CPU: CPU 0 may be offline. */
	if (!pmu_read_online(PMU_ONLINE_PATH, online, 1024))
		while (cpu < 1023 && !online[cpu])
			cpu++;
	a.disabled = 1;
	fd = (int)syscall(SYS_perf_event_open, &a, -1, cpu, -1, 0);
	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

/* The explanation for an errno from perf_event_open(). */
static const char *pmu_errno_hint(int err)
{
	switch (err) {
	case EACCES:
	case EPERM:
		/* privileges_check() passed: the capabilities are there. */
		return privileges_denied_hint();
	case ENOENT:
	case EOPNOTSUPP:
		return "the kernel does not support this event here (no hardware PMU on a "
		       "virtual machine? use --pmu software or --replay FILE)";
	case EINVAL:
		return "the kernel rejected the event's encoding (wrong model for this CPU? "
		       "try --model, or see --list-events)";
	case EMFILE:
	case ENFILE:
		return "too many open files: raise the limit (ulimit -n)";
	case EBUSY:
		return "the counters are in use by another tool";
	default:
		return "perf_event_open failed";
	}
}

/* Group g's events on cpu closed (one that failed to open); g -1: every group's. */
static void close_group_cpu(struct pmu_set *s, int g, int cpu)
{
	for (int e = 0; e < s->nevents; e++) {
		int *fd = &s->fds[e * s->ncpus + cpu];

		if ((g < 0 || s->events[e].group == g) && *fd >= 0) {
			close(*fd);
			*fd = -1;
		}
	}
}

void pmu_close_cpu(struct pmu_set *s, int cpu)
{
	s->online[cpu] = false;
	close_group_cpu(s, -1, cpu);
}

/* The events of groups (bit g: group g) closed on every CPU. */
static void close_groups(struct pmu_set *s, uint64_t groups)
{
	for (int cpu = 0; groups && cpu < s->ncpus; cpu++)
		for (int g = 0; g < s->ngroups && g < 64; g++)
			if ((groups >> g) & 1)
				close_group_cpu(s, g, cpu);
}

/* Whether group g is left out: refused at pmu_open() or by a CPU coming back. */
static bool unopened(const struct pmu_set *s, int g)
{
	return g >= 0 && g < 64 && ((s->unopened >> g) & 1);
}

/*
 * Event e on cpu, disabled if it leads its group (which then starts with its
 * leader), into the set; *leader_fd: its group's leader there.  0, or
 * -errno with err naming the event, the CPU and what to do.
 */
static int open_event(struct pmu_set *s, int e, int cpu, int *leader_fd, char *err, size_t errlen)
{
	struct perf_event_attr attr = s->events[e].attr;
	int fd, e_no;

	attr.size = sizeof(attr);
	attr.disabled = s->leader[e];
	attr.inherit = 0; /* BPF cannot read inherited events */
	fd = syscall(SYS_perf_event_open, &attr, -1, cpu, s->leader[e] ? -1 : *leader_fd,
		     PERF_FLAG_FD_CLOEXEC);
	if (fd >= 0) {
		if (s->leader[e])
			*leader_fd = fd;
		s->fds[e * s->ncpus + cpu] = fd;
		return 0;
	}
	e_no = errno;
	snprintf(err, errlen, "cannot open event %s on CPU %d: %s: %s", s->events[e].name, cpu,
		 strerror(e_no), pmu_errno_hint(e_no));
	return -e_no;
}

/*
 * Refusals that are no group's own (no permission, no file descriptor or
 * memory left): every group would meet them, so tmacg stops as before.
 */
static bool refuses_all(int e_no)
{
	return e_no == EACCES || e_no == EPERM || e_no == EMFILE || e_no == ENFILE ||
	       e_no == ENOMEM;
}

/*
 * Opens cpu's events group by group: a group the kernel refuses is closed
 * there, its reason kept (the first), and the others opened.  0, or -errno
 * (with err) for a refusal every group would meet, or when out of memory.
 */
static int open_groups_cpu(struct pmu_set *s, int cpu, int *last_err, char *err, size_t errlen)
{
	int leader_fd = -1;

	for (int e = 0; e < s->nevents; e++) {
		int g = s->events[e].group, ret;

		if (unopened(s, g))
			continue;
		ret = open_event(s, e, cpu, &leader_fd, err, errlen);
		if (!ret)
			continue;
		*last_err = -ret;
		if (refuses_all(-ret) || g < 0 || g >= 64)
			return ret;
		close_group_cpu(s, g, cpu);
		s->unopened |= 1ull << g;
		s->unopened_why[g] = strdup(err);
		if (!s->unopened_why[g]) {
			snprintf(err, errlen, "out of memory");
			return -ENOMEM;
		}
	}
	return 0;
}

uint64_t pmu_open_groups(const struct pmu_set *s)
{
	return group_mask_first(s->ngroups) & ~s->unopened;
}

/*
 * Back to unopened, groups: refused by a CPU coming back that refused every
 * group, which is that CPU's trouble, not theirs.
 */
static void forget_refusals(struct pmu_set *s, uint64_t groups)
{
	for (int g = 0; g < 64; g++) {
		if (!((groups >> g) & 1))
			continue;
		free(s->unopened_why[g]);
		s->unopened_why[g] = NULL;
	}
	s->unopened &= ~groups;
}

int pmu_open_cpu(struct pmu_set *s, int cpu, char *err, size_t errlen)
{
	uint64_t was = s->unopened, refused;
	int last_err = 0, ret;

	pmu_close_cpu(s, cpu);
	ret = open_groups_cpu(s, cpu, &last_err, err, errlen);
	refused = s->unopened & ~was;
	if (!ret && refused && !pmu_open_groups(s))
		ret = -last_err;
	if (ret) {
		forget_refusals(s, refused);
		pmu_close_cpu(s, cpu);
		return ret;
	}
	/* Refused here only: left out on every CPU, as a group refused at start. */
	close_groups(s, refused);
	s->online[cpu] = true;
	return 0;
}

int pmu_open(struct pmu_set *s, const struct pmu_event *events, int nevents, int ncpus, char *err,
	     size_t errlen)
{
	int last_err = 0;

	memset(s, 0, sizeof(*s));
	s->events = events;
	s->nevents = nevents;
	s->ncpus = ncpus;
	s->ngroups = nevents ? events[nevents - 1].group + 1 : 0;
	s->clock_group = -1;
	s->online = calloc(ncpus, sizeof(*s->online));
	s->leader = calloc(nevents ? nevents : 1, sizeof(*s->leader));
	s->fds = malloc(sizeof(*s->fds) * (nevents ? nevents : 1) * ncpus);
	if (!s->online || !s->leader || !s->fds) {
		pmu_close(s);
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	for (int i = 0; i < nevents * ncpus; i++)
		s->fds[i] = -1;
	for (int e = 0; e < nevents; e++)
		s->leader[e] = e == 0 || events[e - 1].group != events[e].group;
	if (pmu_read_online(PMU_ONLINE_PATH, s->online, ncpus)) {
		/* No sysfs: assume every possible CPU is online. */
		for (int cpu = 0; cpu < ncpus; cpu++)
			s->online[cpu] = true;
	}
	for (int cpu = 0; cpu < ncpus; cpu++) {
		int ret = s->online[cpu] ? open_groups_cpu(s, cpu, &last_err, err, errlen) : 0;

		if (ret) {
			pmu_close(s);
			return ret;
		}
	}
	/* Refused on one CPU: left out on all, so every CPU counts the same groups. */
	close_groups(s, s->unopened);
	/* Nothing left to measure (no permission, no PMU): the last refusal says why. */
	if (s->ngroups && !pmu_open_groups(s)) {
		pmu_close(s);
		return -last_err;
	}
	return 0;
}

int pmu_enable_cpu(struct pmu_set *s, int cpu)
{
	for (int e = 0; e < s->nevents; e++) {
		int fd = s->fds[e * s->ncpus + cpu];

		/* One ioctl per group: the leader's, with PERF_IOC_FLAG_GROUP. */
		if (fd < 0 || !s->leader[e])
			continue;
		if (ioctl(fd, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP))
			return -errno;
	}
	return 0;
}

/*
 * Event e's times on cpu, as the kernel keeps them (its read_format's
 * PERF_FORMAT_TOTAL_TIME_ENABLED and _RUNNING, which events.c always sets):
 * 0, -EBADF (not open there), -EOPNOTSUPP (times not read that way), -ENODATA
 * (a pinned event the kernel put in its error state) or -EIO.
 */
static int event_times(const struct pmu_set *s, int e, int cpu, uint64_t *enabled,
		       uint64_t *running)
{
	const uint64_t want = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	uint64_t v[3]; /* count, time enabled, time running */
	int fd = s->fds[e * s->ncpus + cpu];
	ssize_t n;

	if ((s->events[e].attr.read_format & want) != want ||
	    (s->events[e].attr.read_format & PERF_FORMAT_GROUP))
		return -EOPNOTSUPP;
	if (fd < 0)
		return -EBADF;
	n = read(fd, v, sizeof(v));
	if (n == 0)
		return -ENODATA; /* end of file: the kernel's error state (a pinned group with no room) */
	if (n != (ssize_t)sizeof(v))
		return -EIO;
	*enabled = v[1];
	*running = v[2];
	return 0;
}

/* Group g's leader (its first event), or -1. */
static int group_leader(const struct pmu_set *s, int g)
{
	for (int e = 0; e < s->nevents; e++)
		if (s->events[e].group == g)
			return e;
	return -1;
}

int pmu_cpu_enabled_ns(const struct pmu_set *s, int cpu, uint64_t *ns)
{
	int ret = -EOPNOTSUPP, clock = -1;
	uint64_t running;

	/* One read, not one per group: every interval, for every CPU (256 CPUs x 20 groups). */
	if (s->clock_group >= 0 && cpu >= 0 && cpu < s->ncpus)
		clock = group_leader(s, s->clock_group);
	if (clock >= 0 && s->fds[clock * s->ncpus + cpu] >= 0)
		return event_times(s, clock, cpu, ns, &running);

	/*
	 * Every open leader's, summed: without a clock group, a group someone
	 * disabled stands still as one the kernel turned off does, and one
	 * group's time alone would make a CPU look unplugged.
	 */
	*ns = 0;
	for (int e = 0; e < s->nevents; e++) {
		uint64_t enabled, running;
		int r;

		if (!s->leader[e])
			continue;
		r = event_times(s, e, cpu, &enabled, &running);
		if (r == -EBADF)
			continue; /* not open there: a refused group */
		if (r)
			return r;
		*ns += enabled;
		ret = 0;
	}
	return ret;
}

/*
 * Leader e's times on every CPU it is open on: 1 on the first that ran (or,
 * off_pmu, that the kernel holds in its error state), else 0 when some CPU
 * was read, -EOPNOTSUPP when none was, or -errno.
 */
static int leader_times_say(const struct pmu_set *s, int e, bool off_pmu)
{
	int seen = 0;

	for (int cpu = 0; cpu < s->ncpus; cpu++) {
		uint64_t enabled, running;
		int ret = event_times(s, e, cpu, &enabled, &running);

		if (ret == -EBADF)
			continue;
		if (off_pmu ? ret == -ENODATA : !ret && running)
			return 1;
		if (ret)
			return ret;
		seen++;
	}
	return seen ? 0 : -EOPNOTSUPP;
}

int pmu_group_ran(const struct pmu_set *s, int g)
{
	int e = group_leader(s, g);

	return e < 0 ? -EOPNOTSUPP : leader_times_say(s, e, false);
}

int pmu_group_off_pmu(const struct pmu_set *s, int g)
{
	int e = group_leader(s, g);

	return e < 0 || !s->events[e].attr.pinned ? 0 : leader_times_say(s, e, true);
}

void pmu_close(struct pmu_set *s)
{
	if (s->fds)
		for (int i = 0; i < s->nevents * s->ncpus; i++)
			if (s->fds[i] >= 0)
				close(s->fds[i]);
	free(s->fds);
	free(s->online);
	free(s->leader);
	for (int g = 0; g < 64; g++)
		free(s->unopened_why[g]);
	memset(s, 0, sizeof(*s));
}
