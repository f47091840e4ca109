/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * Kernel memory for the BPF maps: the cgroup map is preallocated to
 * --max-cgroups entries of the plan's size (1,480 bytes each at icx's level
 * 6), so a --max-cgroups the host cannot hold is refused before anything is
 * loaded, naming the maps' size and the fix, rather than failing the load
 * with ENOMEM or pushing the host into reclaim.
 */
#ifndef TMACG_MAP_ROOM_H
#define TMACG_MAP_ROOM_H

#include <stdint.h>

struct collector_map_bytes;
struct run_error;

/* MemAvailable of /proc/meminfo (under TMACG_SYSFS_ROOT when set), in bytes; 0 when unknown. */
uint64_t map_room_available(void);

/*
 * 0 when the maps (b, for max_cgroups and max_tasks) fit in available bytes
 * (0: unknown, not checked); else -1 with e (RUN_USAGE) naming their size,
 * what is available and what to lower.
 */
int map_room_check(const struct collector_map_bytes *b, uint64_t available, uint32_t max_cgroups,
		   uint32_t max_tasks, struct run_error *e);

#endif
