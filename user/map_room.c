// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "map_room.h"

#include <stdio.h>
#include <stdlib.h>

#include "collect/collector.h"
#include "util/run_error.h"

uint64_t map_room_available(void)
{
	const char *root = getenv("TMACG_SYSFS_ROOT");
	unsigned long long kib = 0;
	char path[4096], line[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/proc/meminfo", root ? root : "");
	f = fopen(path, "re");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "MemAvailable: %llu kB", &kib) == 1)
			break;
	fclose(f);
	return (uint64_t)kib * 1024;
}

int map_room_check(const struct collector_map_bytes *b, uint64_t available, uint32_t max_cgroups,
		   uint32_t max_tasks, struct run_error *e)
{
	uint64_t total = b->cgroups + b->tasks + b->other;
	const double mib = 1024.0 * 1024.0;
	char tasks[128] = "";

	if (!available || total <= available)
		return 0;
	if (b->tasks)
		snprintf(tasks, sizeof(tasks), ", the task map --max-tasks %u (%.1f MiB)",
			 max_tasks, b->tasks / mib);
	return run_fail(e, RUN_USAGE,
			"the BPF maps would take %.1f MiB of kernel memory, more than the %.1f MiB "
			"available here (MemAvailable): the cgroup map holds --max-cgroups %u "
			"entries of %llu bytes at this plan (%.1f MiB)%s; lower --max-cgroups%s, "
			"or --level",
			total / mib, available / mib, max_cgroups,
			(unsigned long long)b->cgroup_entry, b->cgroups / mib, tasks,
			b->tasks ? " or --max-tasks" : "");
}
