/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * Perf groups as bits of a uint64_t (bit g: group g), as the planner, the PMU
 * set and the accumulators share them: at most 64 groups.
 */
#ifndef TMACG_GROUP_MASK_H
#define TMACG_GROUP_MASK_H

#include <stdint.h>

/* Groups 0 to n - 1: every group of a set of n (all 64 from n = 64 on; 1 << 64 is undefined). */
static inline uint64_t group_mask_first(int n)
{
	if (n <= 0)
		return 0;
	return n >= 64 ? UINT64_MAX : (UINT64_C(1) << n) - 1;
}

#endif
