/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Arithmetic on accumulators: BPF entries only grow; userspace subtracts snapshots. */
#ifndef TMACG_ACC_DELTA_H
#define TMACG_ACC_DELTA_H

#include <linux/types.h>
#include <stdbool.h>
#include <stdint.h>

#include "util/acc_layout.h"

/*
 * out = now - before over every field of layout l.  A field that went
 * backwards is clamped to 0 and counted.  Returns that count.
 */
int acc_delta(const struct acc_layout *l, const struct tmacg_acc *now,
	      const struct tmacg_acc *before, struct tmacg_acc *out);

/* sum += d over every field of layout l. */
void acc_add(const struct acc_layout *l, struct tmacg_acc *sum, const struct tmacg_acc *d);

/*
 * sum = 0: each interval's reset, a few cache lines per cgroup now that an
 * accumulator is the plan's size (10,000 cgroups reported every second).
 */
void acc_clear(const struct acc_layout *l, struct tmacg_acc *sum);

/* True when nothing counted: no runtime and no time enabled in any group. */
bool acc_is_empty(const struct acc_layout *l, const struct tmacg_acc *a);

/*
 * Counter e scaled for multiplexing: count * enabled / running of its group.
 * NAN when the group never ran (the event was not measured at all).
 */
double acc_scaled(const struct acc_layout *l, const struct tmacg_acc *a, int event, int group);

/*
 * Every group's enabled/running at once (scale[0..ngroups)), so a sum's
 * events are scaled with one division per group, not per event:
 * count * scale[g] is acc_scaled's value.
 */
void acc_group_scales(const struct acc_layout *l, const struct tmacg_acc *a, double *scale);

/*
 * Where every group carries its own cycles (cycles_of[g]: that copy's index,
 * -1: none), the interval's cycles: the mean of the groups' copies, each
 * scaled for multiplexing.  NAN when no such group ran.
 */
double acc_cycles_total(const struct acc_layout *l, const struct tmacg_acc *a,
			const int *cycles_of);

/*
 * Counter e taken against its own group's cycles (index cycles): count *
 * total / cycles.  Over the time a group was on the PMU its events and its
 * cycles were counted together, so a ratio of the two is exact whatever the
 * multiplexing; total puts the groups on one scale.  NAN when that group
 * counted no cycles.
 */
double acc_scaled_by_cycles(const struct tmacg_acc *a, int event, int cycles, double total);

/*
 * The fraction of the interval the groups of mask groups (bit g: group g) were
 * all measured, as far as one can tell: the smallest running/enabled among
 * them (a multiplexed group's enabled is the whole time, its running its turns).
 * NAN when none of them was enabled (nothing ran).
 */
double acc_measured(const struct acc_layout *l, const struct tmacg_acc *a, uint64_t groups);

/*
 * acc_measured in two steps, for many masks on one sum (every node of a
 * line): each group's running/enabled once (share[0..ngroups), NAN where it
 * was not enabled), then the least among a mask's groups (< ngroups).
 */
void acc_running_shares(const struct acc_layout *l, const struct tmacg_acc *a, double *share);
double acc_least_share(const double *share, uint64_t groups);

/* The smallest running/enabled over groups that were enabled; NAN if none. */
double acc_running_min(const struct acc_layout *l, const struct tmacg_acc *a);

#endif
