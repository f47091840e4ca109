// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "cpus/cpu_state.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

enum cpu_action cpu_state_action(enum cpu_state st, const struct cpu_seen *s)
{
	bool counting = st == CPU_COUNTING;

	if (!s->online)
		return st == CPU_COUNTING || st == CPU_LOST ? CPU_CLOSE : CPU_KEEP;
	/* Back, offline when tmacg started, or off and on since. */
	if (!counting || s->hotplugged ||
	    /* Enabled time stands still only for events the kernel turned off. */
	    (s->enabled_known && s->enabled_now <= s->enabled_was))
		return s->settling ? CPU_WAIT : CPU_REOPEN;
	return CPU_KEEP;
}

enum cpu_state cpu_state_after(enum cpu_state st, enum cpu_action a, bool ok, bool seen_online)
{
	switch (a) {
	case CPU_REOPEN:
		return ok ? CPU_COUNTING : CPU_FAILED;
	case CPU_CLOSE:
		return CPU_OFFLINE;
	case CPU_WAIT:
		return st;
	case CPU_KEEP:
	default:
		/* Nothing open to close: a CPU without events that went is simply gone. */
		return !seen_online && st == CPU_FAILED ? CPU_OFFLINE : st;
	}
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

bool cpu_state_settling(const char *online_path, int cpu)
{
	long state = hotplug_file(online_path, cpu, "state");
	long target = hotplug_file(online_path, cpu, "target");

	return state >= 0 && target >= 0 && state != target;
}
