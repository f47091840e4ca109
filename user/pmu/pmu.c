// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "pmu/pmu.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

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

static int read_online(bool *mask, int max)
{
	return pmu_read_online(PMU_ONLINE_PATH, mask, max);
}

int pmu_probe(const struct perf_event_attr *attr)
{
	struct perf_event_attr a = *attr;
	bool online[1024] = { false };
	int cpu = 0, fd;

	/* The first online CPU: CPU 0 may be offline. */
	if (!read_online(online, 1024))
		while (cpu < 1023 && !online[cpu])
			cpu++;
	a.disabled = 1;
	fd = (int)syscall(SYS_perf_event_open, &a, -1, cpu, -1, 0);
	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

const char *pmu_errno_hint(int err)
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

void pmu_close_cpu(struct pmu_set *s, int cpu)
{
	for (int e = 0; e < s->nevents; e++) {
		int *fd = &s->fds[e * s->ncpus + cpu];

		if (*fd >= 0)
			close(*fd);
		*fd = -1;
	}
}

int pmu_open_cpu(struct pmu_set *s, int cpu, char *err, size_t errlen)
{
	int leader_fd = -1;

	pmu_close_cpu(s, cpu);
	for (int e = 0; e < s->nevents; e++) {
		struct perf_event_attr attr = s->events[e].attr;
		bool leader = s->leader[e];
		int fd;

		attr.size = sizeof(attr);
		attr.disabled = leader; /* the group starts with its leader */
		attr.inherit = 0;	/* BPF cannot read inherited events */
		fd = syscall(SYS_perf_event_open, &attr, -1, cpu, leader ? -1 : leader_fd,
			     PERF_FLAG_FD_CLOEXEC);
		if (fd < 0) {
			int e_no = errno;

			snprintf(err, errlen, "cannot open event %s on CPU %d: %s: %s",
				 s->events[e].name, cpu, strerror(e_no), pmu_errno_hint(e_no));
			pmu_close_cpu(s, cpu);
			return -e_no;
		}
		if (leader)
			leader_fd = fd;
		s->fds[e * s->ncpus + cpu] = fd;
	}
	return 0;
}

int pmu_open(struct pmu_set *s, const struct pmu_event *events, int nevents, int ncpus, char *err,
	     size_t errlen)
{
	memset(s, 0, sizeof(*s));
	s->events = events;
	s->nevents = nevents;
	s->ncpus = ncpus;
	s->ngroups = nevents ? events[nevents - 1].group + 1 : 0;
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
	if (read_online(s->online, ncpus)) {
		/* No sysfs: assume every possible CPU is online. */
		for (int cpu = 0; cpu < ncpus; cpu++)
			s->online[cpu] = true;
	}
	for (int cpu = 0; cpu < ncpus; cpu++) {
		int ret = s->online[cpu] ? pmu_open_cpu(s, cpu, err, errlen) : 0;

		if (ret) {
			pmu_close(s);
			return ret;
		}
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

int pmu_enable(struct pmu_set *s)
{
	for (int cpu = 0; cpu < s->ncpus; cpu++) {
		int ret = pmu_enable_cpu(s, cpu);

		if (ret)
			return ret;
	}
	return 0;
}

int pmu_switch_groups(struct pmu_set *s, uint64_t on, uint64_t off)
{
	int g = -1;

	/*
	 * The leader only, without PERF_IOC_FLAG_GROUP: a disabled leader takes
	 * its group off the PMU while the members stay enabled, so enabling it
	 * brings the whole group back.  Disabling the members too (the flag) left
	 * them off after the group's next enable on 6.18: they never counted again.
	 */
	for (int e = 0; e < s->nevents; e++) {
		unsigned long req;

		g += s->leader[e];
		if (!s->leader[e] || g >= 64 || !(((on | off) >> g) & 1))
			continue;
		req = (on >> g) & 1 ? PERF_EVENT_IOC_ENABLE : PERF_EVENT_IOC_DISABLE;
		for (int cpu = 0; cpu < s->ncpus; cpu++) {
			int fd = s->fds[e * s->ncpus + cpu];

			if (fd >= 0 && ioctl(fd, req, 0))
				return -errno;
		}
	}
	return 0;
}

int pmu_cpu_enabled_ns(const struct pmu_set *s, int cpu, uint64_t *ns)
{
	uint64_t v[3];				/* count, time enabled, time running */
	int fd = s->nevents ? s->fds[cpu] : -1; /* event 0 leads the first group */

	if (fd < 0 || (s->events[0].attr.read_format & PERF_FORMAT_TOTAL_TIME_ENABLED) == 0 ||
	    (s->events[0].attr.read_format & PERF_FORMAT_GROUP))
		return -EOPNOTSUPP;
	if (read(fd, v, sizeof(v)) < (ssize_t)(2 * sizeof(uint64_t)))
		return -EIO;
	*ns = v[1];
	return 0;
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
	memset(s, 0, sizeof(*s));
}

int pmu_software_events(struct pmu_event *out, int max)
{
	static const struct {
		const char *name;
		unsigned long long config;
	} sw[] = {
		{ "cpu-clock", PERF_COUNT_SW_CPU_CLOCK },
		{ "context-switches", PERF_COUNT_SW_CONTEXT_SWITCHES },
		{ "cpu-migrations", PERF_COUNT_SW_CPU_MIGRATIONS },
		{ "page-faults", PERF_COUNT_SW_PAGE_FAULTS },
	};
	int n = sizeof(sw) / sizeof(sw[0]);

	if (max < n)
		return -ENOSPC;
	for (int i = 0; i < n; i++) {
		memset(&out[i], 0, sizeof(out[i]));
		out[i].name = sw[i].name;
		out[i].attr.type = PERF_TYPE_SOFTWARE;
		out[i].attr.config = sw[i].config;
		out[i].group = 0;
	}
	return n;
}
