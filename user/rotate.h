/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * The live rotation of levels 4-6: within each interval, slice after slice,
 * the groups of the slice on the PMU and read by the BPF program, the others
 * disabled and skipped (user/pmu/rotation.c makes the slices).
 */
#ifndef TMACG_ROTATE_H
#define TMACG_ROTATE_H

#include <stdint.h>

struct collector;
struct pmu_set;

/* A slice holds at least one group of its own: no more slices than groups (64 bits). */
#define ROTATE_MAX_SLICES 64

struct rotate {
	struct collector *col;
	struct pmu_set *pmu;
	int nslices;				  /* 1: nothing rotates, every group stays on */
	uint64_t slice_groups[ROTATE_MAX_SLICES]; /* the plan's, less what did not open */
	int slice;				  /* the current one */
	uint64_t on;				  /* its groups */
	uint64_t opened;	     /* the groups that opened: the BPF side reads only these */
	const uint64_t *plan_slices; /* [plan_nslices] the plan's, as rotate_start() took them */
	int plan_nslices;
};

/*
 * The slices a run takes turns in: the plan's nslices of slice_groups less
 * the groups that did not open (opened: bit g, group g opened), and less
 * every slice left with nothing of its own (only the groups on in every
 * slice): a refused group's turn would read nothing new, and the other
 * groups get its time.  At least one slice; returns how many, in out.
 */
int rotate_live_slices(const uint64_t *slice_groups, int nslices, uint64_t opened, uint64_t *out);

/*
 * Slice 0 on, the rest of the groups left disabled as pmu_open() opened them:
 * instead of pmu_enable().  With one slice, every group on.  The BPF side
 * never reads a group that did not open (pmu->unopened), and the slices are
 * rotate_live_slices(): r->nslices may be fewer than the plan's.  0 or -errno.
 */
int rotate_start(struct rotate *r, struct collector *col, struct pmu_set *pmu, int nslices,
		 const uint64_t *slice_groups);

/*
 * To slice s: the BPF program reads the groups of both slices while the
 * ioctls take effect, every CPU is flushed (the groups going off are read
 * once more, their last counts charged to what ran), then it reads only the
 * new slice's.  0 or -errno.
 */
int rotate_to(struct rotate *r, int s);

/*
 * After CPU hotplug reopened a CPU's events (every group enabled there):
 * the groups outside the current slice off again, on every CPU.  0 or -errno.
 */
int rotate_hold(struct rotate *r);

/*
 * After a CPU coming back refused a group (pmu->unopened grew): the live
 * slices made again without it, from slice 0 (on, the others off, on every
 * CPU).  0 or -errno.
 */
int rotate_refresh(struct rotate *r);

/* When slice k of an interval of interval_ns starting at start begins. */
uint64_t rotate_slice_start(uint64_t start, uint64_t interval_ns, int k, int nslices);

#endif
