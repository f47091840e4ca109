// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Levels 4-6 on a PMU too small for them.  Their events need several times
 * the counters a PMU has: every group is enabled on every CPU and the kernel
 * multiplexes them, rotating its flexible groups each
 * perf_event_mux_interval_ms, each group counting only while all its members
 * have counters (docs/architecture.md, "Multiplexing (levels 4-6)").  The
 * plan says which groups the PMU holds together: the groups on all the time
 * are pinned (the kernel schedules them before any flexible group), and the
 * others fall into sets that fit beside them (the plan's slices, first fit in
 * plan order: the kernel, walking the groups in order, schedules consecutive
 * groups that fit in the same way).  A group that fits in no set would never
 * count: the plan refuses it.
 *
 * Groups that need no general-purpose counter (Intel's topdown group: SLOTS,
 * the metrics, the fixed counters; software events) are pinned, so levels
 * 1-2 are measured all the time where the metrics hold them.  The other
 * groups of levels 1-3 are pinned too when every other group still fits
 * beside them; where they do not (a level 3 that needs more than one PMU's
 * counters already), they are multiplexed with the rest.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "pmu/counter_fit.h"
#include "pmu/planner.h"
#include "util/group_mask.h"

/*
 * Whether groups can be on the PMU together (counter_fit.h); *gp: the
 * general-purpose counters they take.  The pinned groups come first: their
 * fixed counters are theirs, a fixed-counter event of another group whose
 * counter they hold is counted on a general-purpose one.
 */
static bool groups_fit(const struct plan *p, uint64_t groups, bool software_takes_counters, int *gp)
{
	struct counter_fit fit;

	counter_fit_init(&fit, p->gp_counters, software_takes_counters);
	for (int pass = 0; pass < 2; pass++) {
		uint64_t these = groups & (pass ? ~p->always_on : p->always_on);

		for (int g = 0; g < p->ngroups; g++)
			for (int i = p->first[g]; ((these >> g) & 1) && i < p->first[g + 1]; i++)
				counter_fit_add(&fit, &p->ev[i]);
	}
	if (gp)
		*gp = fit.ngp;
	return fit.fits;
}

/* The general-purpose counters group g takes beside the pinned groups. */
static int gp_beside_always_on(const struct plan *p, int g, bool software_takes_counters)
{
	int with, without;

	groups_fit(p, p->always_on | 1ull << g, software_takes_counters, &with);
	groups_fit(p, p->always_on, software_takes_counters, &without);
	return with - without;
}

static int slice_reads(const struct plan *p, uint64_t groups)
{
	int n = 0;

	for (int g = 0; g < p->ngroups; g++)
		if ((groups >> g) & 1)
			n += p->first[g + 1] - p->first[g];
	return n;
}

static bool group_has_base(const struct plan *p, int g, const bool *base)
{
	for (int i = p->first[g]; base && i < p->first[g + 1]; i++)
		if (base[i])
			return true;
	return false;
}

void plan_one_slice(struct plan *p)
{
	uint64_t all = group_mask_first(p->ngroups);

	p->nslices = 1;
	p->always_on = all;
	p->slice_groups[0] = all;
	p->reads_per_switch = p->nevents;
}

/* Whether every group outside on still fits beside it (so each can be on the PMU). */
static bool room_for_others(const struct plan *p, uint64_t on, bool software_takes_counters)
{
	for (int g = 0; g < p->ngroups; g++)
		if (!((on >> g) & 1) &&
		    !groups_fit(p, on | 1ull << g, software_takes_counters, NULL))
			return false;
	return true;
}

int plan_rotate(struct plan *p, const bool *base, bool software_takes_counters, char *err,
		size_t errlen)
{
	bool sw = software_takes_counters;

	plan_one_slice(p);
	if (groups_fit(p, p->always_on, sw, NULL))
		return 0; /* the PMU holds every group at once */
	/*
	 * Groups that take no general-purpose counter are pinned: software
	 * events, fixed counters; and the topdown group (SLOTS leading the
	 * metrics, with the fixed counters and at most a few GP events of levels
	 * 1-2: planner.c seals it at levels 4-6), which holds levels 1-2 on
	 * Intel.  Their counters are then taken all the time.
	 */
	p->always_on = 0;
	for (int g = 0; g < p->ngroups; g++)
		if ((!gp_beside_always_on(p, g, sw) || p->ev[p->first[g]].kind == EVENT_SLOTS) &&
		    groups_fit(p, p->always_on | 1ull << g, sw, NULL))
			p->always_on |= 1ull << g;
	/*
	 * The other groups of levels 1-3, in plan order (level 1's first), are
	 * pinned while every other group still fits beside them: the top of the
	 * tree is then measured all the time, the deeper levels multiplexed.
	 */
	for (int g = 0; g < p->ngroups; g++) {
		uint64_t on = p->always_on | 1ull << g;

		if (((p->always_on >> g) & 1) || !group_has_base(p, g, base) ||
		    !groups_fit(p, on, sw, NULL) || !room_for_others(p, on, sw))
			continue;
		p->always_on = on;
	}
	/* First fit, in plan order: a node's groups, planned together, share sets. */
	p->nslices = 0;
	for (int g = 0; g < p->ngroups; g++) {
		int s;

		if ((p->always_on >> g) & 1)
			continue;
		for (s = 0; s < p->nslices; s++)
			if (groups_fit(p, p->slice_groups[s] | 1ull << g, sw, NULL))
				break;
		if (s == p->nslices) {
			if (!groups_fit(p, p->always_on | 1ull << g, sw, NULL)) {
				snprintf(
					err, errlen,
					"perf group %d (%s first) needs %d general-purpose counters "
					"beside the pinned groups but %d are usable here: it could never "
					"be on the PMU",
					g, p->ev[p->first[g]].name, gp_beside_always_on(p, g, sw),
					p->gp_counters);
				return -ENOSPC;
			}
			if (s == PLAN_MAX_SLICES) {
				snprintf(err, errlen,
					 "more than %d sets of perf groups the PMU holds at once",
					 PLAN_MAX_SLICES);
				return -E2BIG;
			}
			p->slice_groups[s] = p->always_on;
			p->nslices++;
		}
		p->slice_groups[s] |= 1ull << g;
	}
	if (!p->nslices) {
		plan_one_slice(p);
		return 0;
	}
	for (int g = 0; g < p->ngroups; g++)
		p->ev[p->first[g]].attr.pinned = (p->always_on >> g) & 1;
	p->reads_per_switch = 0;
	for (int s = 0; s < p->nslices; s++) {
		int n = slice_reads(p, p->slice_groups[s]);

		if (n > p->reads_per_switch)
			p->reads_per_switch = n;
	}
	return 0;
}

/* " 1, 4, 5" */
static void print_groups(FILE *f, uint64_t groups)
{
	const char *sep = " ";

	for (int g = 0; g < 64; g++)
		if ((groups >> g) & 1) {
			fprintf(f, "%s%d", sep, g);
			sep = ", ";
		}
}

/* The events a switch reads when one set's groups counted since the last: every leader, its members. */
static int set_reads(const struct plan *p, uint64_t groups)
{
	return p->ngroups + slice_reads(p, groups) - __builtin_popcountll(groups);
}

void plan_print_rotation(FILE *f, const struct plan *p)
{
	int most = 0;

	if (p->nslices <= 1)
		return;
	for (int s = 0; s < p->nslices; s++)
		if (set_reads(p, p->slice_groups[s]) > most)
			most = set_reads(p, p->slice_groups[s]);
	fprintf(f,
		"levels 4-6: %d groups multiplexed by the kernel on each CPU (every "
		"perf_event_mux_interval_ms); a switch reads every leader and the members of the "
		"groups that counted since the last: %d events when one set counted, at most %d\n",
		p->ngroups, most, p->nevents);
	fprintf(f, "  pinned, on all the time: groups");
	print_groups(f, p->always_on);
	fprintf(f, "%s%s\n", p->always_on ? "" : " none",
		!(p->nevents && p->ev[0].kind == EVENT_SLOTS && (p->always_on & 1)) ? "" :
		p->top_levels >= 2 ? " (the topdown group: levels 1-2 measured all the time)" :
		p->top_levels == 1 ? " (the topdown group: level 1 measured all the time)" :
				     " (the topdown group)");
	fprintf(f, "  multiplexed, in sets the PMU holds at once:");
	for (int s = 0; s < p->nslices; s++) {
		fprintf(f, "%s", s ? " |" : "");
		print_groups(f, p->slice_groups[s] & ~p->always_on);
	}
	fprintf(f, "\n");
}
