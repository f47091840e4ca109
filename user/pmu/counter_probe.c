// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* The counter probe (pmu/counter_probe.h). */
#include "pmu/counter_probe.h"

#include <errno.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

int counter_probe_syscall(struct perf_event_attr *attr, int group_fd)
{
	int fd = (int)syscall(SYS_perf_event_open, attr, 0, -1, group_fd, PERF_FLAG_FD_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

int counter_probe_group(counter_probe_open_fn open_event, unsigned int type,
			unsigned long long config, int max)
{
	int fds[COUNTER_PROBE_MAX], n = 0, ret = 0;
	struct perf_event_attr a;

	if (max > COUNTER_PROBE_MAX)
		max = COUNTER_PROBE_MAX;
	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = type;
	a.config = config;
	/* User space only: what perf_event_paranoid 2 lets anyone open; the count is the same. */
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	while (n < max) {
		a.disabled = n == 0; /* the leader holds the group off */
		ret = open_event(&a, n ? fds[0] : -1);
		if (ret < 0)
			break;
		fds[n++] = ret;
	}
	for (int i = n - 1; i >= 0; i--)
		close(fds[i]);
	return n ? n : ret;
}
