/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Arithmetic on accumulators: BPF entries only grow; userspace subtracts snapshots. */
#ifndef TMACG_ACC_DELTA_H
#define TMACG_ACC_DELTA_H

#include <linux/types.h>
#include <stdbool.h>

#include "tmacg.h"

/*
 * out = now - before over the first nevents counters and ngroups times.  A
 * field that went backwards is clamped to 0 and counted.  Returns that count.
 */
int acc_delta(const struct tmacg_acc *now, const struct tmacg_acc *before, int nevents, int ngroups,
	      struct tmacg_acc *out);

/* sum += d over the first nevents counters and ngroups times. */
void acc_add(struct tmacg_acc *sum, const struct tmacg_acc *d, int nevents, int ngroups);

/* True when nothing counted: no runtime and no time enabled in any group. */
bool acc_is_empty(const struct tmacg_acc *a, int ngroups);

/*
 * Counter e scaled for multiplexing: count * enabled / running of its group.
 * NAN when the group never ran (the event was not measured at all).
 */
double acc_scaled(const struct tmacg_acc *a, int event, int group);

/* The smallest running/enabled over groups that were enabled; NAN if none. */
double acc_running_min(const struct tmacg_acc *a, int ngroups);

#endif
