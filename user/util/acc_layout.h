/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * Where the fields of an accumulator are (include/tmacg.h, struct tmacg_acc):
 * runtime_ns, the plan's nevents counters, then its ngroups {enabled,
 * running} pairs, TMACG_ACC_BYTES(nevents, ngroups) in all.  The one place
 * userspace computes those positions: everything else asks here, so the
 * BPF maps, the snapshots and the per-cgroup sums all follow the plan.  In
 * util/, under every stage that handles accumulators (pmu's group health,
 * collect, cgroups' sums, output's report).
 */
#ifndef TMACG_ACC_LAYOUT_H
#define TMACG_ACC_LAYOUT_H

#include <linux/types.h>
#include <stddef.h>
#include <stdlib.h>

#include "tmacg.h"

struct acc_layout {
	int nevents; /* counters */
	int ngroups; /* perf groups, each with its enabled and running times */
};

static inline struct acc_layout acc_layout_of(int nevents, int ngroups)
{
	struct acc_layout l = { nevents, ngroups };

	return l;
}

/* Bytes of one accumulator of layout l. */
static inline size_t acc_bytes(const struct acc_layout *l)
{
	return (size_t)TMACG_ACC_BYTES(l->nevents, l->ngroups);
}

/* Words after runtime_ns: the counters and the times, adjacent. */
static inline int acc_fields(const struct acc_layout *l)
{
	return TMACG_ACC_WORDS(l->nevents, l->ngroups) - 1;
}

/*
 * Counter e, group g's enabled and running time of a.  Like strchr, they take
 * a const accumulator and give a pointer one may write through when a is not.
 */
static inline __u64 *acc_counter(const struct tmacg_acc *a, int e)
{
	return (__u64 *)&a->field[TMACG_ACC_COUNTER(e) - 1];
}

static inline __u64 *acc_enabled(const struct acc_layout *l, const struct tmacg_acc *a, int g)
{
	return (__u64 *)&a->field[TMACG_ACC_ENABLED(l->nevents, g) - 1];
}

static inline __u64 *acc_running(const struct acc_layout *l, const struct tmacg_acc *a, int g)
{
	return (__u64 *)&a->field[TMACG_ACC_RUNNING(l->nevents, g) - 1];
}

/* A zeroed accumulator of layout l (free() it); NULL: no memory. */
static inline struct tmacg_acc *acc_new(const struct acc_layout *l)
{
	return calloc(1, acc_bytes(l));
}

/*
 * Room for an accumulator of any layout where a fixed size is wanted (a
 * stack scratch in tests and tools): use .acc.
 */
union acc_room {
	struct tmacg_acc acc;
	__u64 words[TMACG_ACC_MAX_WORDS];
};

#endif
