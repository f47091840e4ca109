/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * Levels 4-6 measured in turns: which groups are on the PMU in which part of
 * each interval, given the plan's slices (user/pmu/rotation.c makes them) and
 * the groups that opened.  Pure bookkeeping: cpus/cpu_events.c carries it
 * out on every CPU.
 */
#ifndef TMACG_CPUS_TURNS_H
#define TMACG_CPUS_TURNS_H

#include <stdint.h>

/* A slice holds at least one group of its own: no more slices than groups (64 bits). */
#define TURNS_MAX_SLICES 64

struct turns {
	const uint64_t *plan; /* [plan_nslices] the plan's slices (bit g: group g) */
	int plan_nslices;
	int nslices;			  /* live: 1 when nothing takes turns */
	uint64_t slice[TURNS_MAX_SLICES]; /* the live slices' groups */
	int now;			  /* the current slice */
	uint64_t everywhere;		  /* groups on in every live slice */
};

/*
 * The slices a run takes turns in: the plan's nslices of slice_groups less
 * the groups that did not open (opened: bit g, group g opened), and less
 * every slice left with nothing of its own (only the groups on in every
 * slice): a refused group's turn would read nothing new, and the other
 * groups get its time.  At least one slice; returns how many, in out.
 */
int turns_live_slices(const uint64_t *slice_groups, int nslices, uint64_t opened, uint64_t *out);

/*
 * The live slices of t's plan for the groups opened now, from slice 0.  With
 * one slice (no plan of turns, or every turn refused) every opened group is
 * on all the time.
 */
void turns_rebuild(struct turns *t, uint64_t opened);

/* The groups on in slice s (with one slice: every opened group). */
uint64_t turns_on(const struct turns *t, int s);

/*
 * The group whose leader's enabled time tells whether a CPU's events still
 * count (pmu_set.clock_group): one on whenever any is, the lowest of those
 * on in every slice; -1 when rotating with none such (every leader's time
 * is then summed).
 */
int turns_clock_group(const struct turns *t);

/* When slice k of an interval of interval_ns starting at start begins. */
uint64_t turns_slice_start(uint64_t start, uint64_t interval_ns, int k, int nslices);

#endif
