// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "cgroups/cgroup_v1.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The v1 controllers (Documentation/admin-guide/cgroup-v1); other options are not. */
static bool is_controller(const char *opt)
{
	static const char *const known[] = { "cpu",	"cpuacct",    "cpuset",	 "memory",
					     "devices", "freezer",    "net_cls", "net_prio",
					     "blkio",	"perf_event", "hugetlb", "pids",
					     "rdma",	"misc" };

	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (!strcmp(opt, known[i]))
			return true;
	return false;
}

/* Adds the controllers among a mount's super options to out; whether it has cpu. */
static int add_controllers(char *opts, struct cgroup_v1 *out, bool *has_cpu)
{
	int n = 0;

	*has_cpu = false;
	for (char *save = NULL, *o = strtok_r(opts, ",", &save); o;
	     o = strtok_r(NULL, ",", &save)) {
		size_t len = strlen(out->controllers);

		if (!is_controller(o))
			continue;
		n++;
		*has_cpu |= !strcmp(o, "cpu");
		snprintf(out->controllers + len, sizeof(out->controllers) - len, "%s%s",
			 len ? "," : "", o);
	}
	return n;
}

int cgroup_v1_scan(const char *mountinfo, struct cgroup_v1 *out)
{
	FILE *f = fopen(mountinfo, "re");
	char *line = NULL;
	size_t cap = 0;

	memset(out, 0, sizeof(*out));
	if (!f)
		return -errno;
	/* "32 31 0:29 / /sys/fs/cgroup/cpu,cpuacct rw,relatime - cgroup cgroup rw,cpu,cpuacct" */
	while (getline(&line, &cap, f) > 0) {
		char dir[CGROUP_PATH_MAX], fstype[64], opts[1024];
		char *sep = strstr(line, " - ");
		bool has_cpu;

		if (!sep || sscanf(sep + 3, "%63s %*s %1023s", fstype, opts) != 2 ||
		    strcmp(fstype, "cgroup") || sscanf(line, "%*s %*s %*s %*s %4095s", dir) != 1)
			continue;
		if (!add_controllers(opts, out, &has_cpu))
			continue; /* name=systemd alone: no controller, no containers */
		if (!out->hierarchies++ || has_cpu)
			snprintf(out->dir, sizeof(out->dir), "%s", dir);
	}
	free(line);
	fclose(f);
	return 0;
}

void cgroup_v1_no_v2_message(const struct cgroup_v1 *v1, char *buf, size_t len)
{
	if (!v1->hierarchies) {
		snprintf(buf, len,
			 "no cgroup2 filesystem is mounted: tmacg needs cgroup v2 (mount -t "
			 "cgroup2 none /sys/fs/cgroup)");
		return;
	}
	snprintf(buf, len,
		 "this host has cgroup v1 only (the cpu controller's at %s; controllers %s)\n"
		 "  and no cgroup2 mount: tmacg reads cgroup v2 only, and would see no container.\n"
		 "  Boot with systemd.unified_cgroup_hierarchy=1, or use a release that runs\n"
		 "  cgroup v2 (RHEL 9, Amazon Linux 2023, Bottlerocket 1.13 and later)",
		 v1->dir, v1->controllers);
}

void cgroup_v1_hybrid_note(const struct cgroup_v1 *v1, const char *v2_dir, char *buf, size_t len)
{
	if (!v1->hierarchies) {
		snprintf(buf, len, "%s", "");
		return;
	}
	snprintf(buf, len,
		 "tmacg: note: reading cgroup2 at %s.  This host also has cgroup v1\n"
		 "  (the cpu controller's at %s; controllers %s):\n"
		 "  containers placed in cgroup v1 are not seen, their time counts in the cgroup2\n"
		 "  cgroup their tasks are in (usually the root)",
		 v2_dir, v1->dir, v1->controllers);
}
