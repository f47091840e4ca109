/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* A cgroup's own CPU accounting, which the tests hold tmacg's CPU time against. */
#ifndef TMACG_TESTS_CGROUP_CPU_STAT_H
#define TMACG_TESTS_CGROUP_CPU_STAT_H

#include <stdint.h>

#include "cgroups/cgroup_fs.h"

/* Reads a key of cpu.stat ("usage_usec"); 0 or -errno. */
int cgroup_read_cpu_stat(const struct cgroup_mount *mnt, const char *path, const char *key,
			 uint64_t *value);

#endif
