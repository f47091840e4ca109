/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* One cgroup's deltas out of collector_read_cgroups(), for the BPF-path tests. */
#ifndef TMACG_TESTS_ITEST_COLLECT_H
#define TMACG_TESTS_ITEST_COLLECT_H

#include <linux/types.h>
#include <stdint.h>

#include "tmacg.h"

struct itest_found {
	uint64_t want;	      /* the cgroup id looked for */
	struct tmacg_acc sum; /* its deltas, summed */
	int seen;	      /* how many deltas it had */
};

/* collector_read_cgroups()'s callback: ctx is a struct itest_found. */
void itest_collect_one(uint64_t id, const struct tmacg_acc *d, void *ctx);

#endif
