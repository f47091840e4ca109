// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "pmu_drive.h"

#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>

int pmu_enable(struct pmu_set *s)
{
	for (int cpu = 0; cpu < s->ncpus; cpu++) {
		int ret = pmu_enable_cpu(s, cpu);

		if (ret)
			return ret;
	}
	return 0;
}

/* One ioctl (req) on cpu's leader of each group of groups. */
static int leaders_ioctl(struct pmu_set *s, int cpu, uint64_t groups, unsigned long req)
{
	int g = -1;

	for (int e = 0; e < s->nevents; e++) {
		int fd = s->fds[e * s->ncpus + cpu];

		g += s->leader[e];
		if (!s->leader[e] || g >= 64 || !((groups >> g) & 1))
			continue;
		if (fd >= 0 && ioctl(fd, req, 0))
			return -errno;
	}
	return 0;
}

int pmu_switch_cpu(struct pmu_set *s, int cpu, uint64_t on, uint64_t off)
{
	/*
	 * The leader only, without PERF_IOC_FLAG_GROUP: a disabled leader takes
	 * its group off the PMU while the members stay enabled, so enabling it
	 * brings the whole group back.  Disabling the members too (the flag) left
	 * them off after the group's next enable on 6.18: they never counted again.
	 * On then off: the CPU always has a group enabled.
	 */
	int ret = leaders_ioctl(s, cpu, on, PERF_EVENT_IOC_ENABLE);

	return ret ? ret : leaders_ioctl(s, cpu, off & ~on, PERF_EVENT_IOC_DISABLE);
}

int pmu_switch_groups(struct pmu_set *s, uint64_t on, uint64_t off)
{
	/* CPU by CPU: each has a group enabled throughout (pmu_switch_cpu). */
	for (int cpu = 0; cpu < s->ncpus; cpu++) {
		int ret = pmu_switch_cpu(s, cpu, on, off);

		if (ret)
			return ret;
	}
	return 0;
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

int collector_set_events(struct collector *c, const struct pmu_set *pmu, char *err, size_t errlen)
{
	for (int cpu = 0; cpu < c->ncpus && cpu < pmu->ncpus; cpu++) {
		int ret = pmu->online[cpu] ? collector_put_cpu_events(c, pmu, cpu, err, errlen) : 0;

		if (ret)
			return ret;
	}
	return 0;
}

void collector_flush(struct collector *c, const bool *cpus)
{
	for (int cpu = 0; cpu < c->ncpus; cpu++)
		if (cpus[cpu])
			collector_flush_cpu(c, cpu);
}
