/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * cgroup v1 beside or instead of cgroup2.  tmacg reads cgroup2 only (the BPF
 * side charges each task's cgroup2 cgroup): on a host whose containers are in
 * v1 hierarchies (RHEL 8, Amazon Linux 2, older Bottlerocket; a hybrid
 * systemd layout) they are not seen, and their time lands on the cgroup2
 * cgroup their tasks are in, usually the root.  tmacg says so at start.
 */
#ifndef TMACG_CGROUP_V1_H
#define TMACG_CGROUP_V1_H

#include <stddef.h>

#include "cgroups/cgroup_fs.h"

struct cgroup_v1 {
	int hierarchies; /* mounted v1 hierarchies with a controller (not name=systemd alone) */
	char controllers[256];	   /* theirs, comma-separated: "cpu,cpuacct,memory" */
	char dir[CGROUP_PATH_MAX]; /* where the cpu controller's is mounted (else the first's) */
};

/* The v1 hierarchies of a mountinfo file; 0 or -errno. */
int cgroup_v1_scan(const char *mountinfo, struct cgroup_v1 *out);

/* Why tmacg cannot run where no cgroup2 is mounted: v1 only, or no cgroups at all. */
void cgroup_v1_no_v2_message(const struct cgroup_v1 *v1, char *buf, size_t len);

/* The note for a hybrid host (v1 hierarchies and cgroup2 at v2_dir); "" when there is no v1. */
void cgroup_v1_hybrid_note(const struct cgroup_v1 *v1, const char *v2_dir, char *buf, size_t len);

#endif
