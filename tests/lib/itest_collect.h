/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* One cgroup's deltas out of collector_read_cgroups(), for the BPF-path tests. */
#ifndef TMACG_TESTS_ITEST_COLLECT_H
#define TMACG_TESTS_ITEST_COLLECT_H

#include <linux/types.h>
#include <stdint.h>

#include "util/acc_layout.h"
#include "tmacg.h"

struct itest_found {
	uint64_t want;		  /* the cgroup id looked for */
	struct acc_layout layout; /* the collector's (col.layout): set before reading */
	union acc_room sum;	  /* its deltas, summed */
	int seen;		  /* how many deltas it had */
};

/* The sum's runtime, counter e, group g's enabled and running. */
#define itest_runtime(f) ((f)->sum.acc.runtime_ns)
#define itest_counter(f, e) (*acc_counter(&(f)->sum.acc, e))
#define itest_enabled(f, g) (*acc_enabled(&(f)->layout, &(f)->sum.acc, g))
#define itest_running(f, g) (*acc_running(&(f)->layout, &(f)->sum.acc, g))

/* collector_read_cgroups()'s callback: ctx is a struct itest_found. */
void itest_collect_one(uint64_t id, const struct tmacg_acc *d, void *ctx);

#endif
