// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Levels 4-6 in turns.  Their events need several times the counters a PMU
 * has; left to the kernel, every group would be enabled at once, the kernel
 * would multiplex them and the BPF program would read every leader at every
 * switch.  Instead tmacg splits each interval into slices and, in each, keeps
 * on the PMU only groups that fit it together: the counter reads per switch
 * stay at one PMU's worth, and each group's counts are scaled by the time it
 * was on (docs/architecture.md, "Rotation").
 *
 * Groups that need no general-purpose counter (Intel's topdown group: SLOTS,
 * the metrics, the fixed counters; software events) stay on in every slice,
 * so levels 1-2 are measured all the time where the metrics hold them.  The
 * other groups of levels 1-3 stay on too when every other group still fits
 * beside them; where they do not (a level 3 that needs more than one PMU's
 * counters already), they take turns with the rest.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "pmu/counter_fit.h"
#include "pmu/planner.h"
#include "util/group_mask.h"

/*
 * Whether groups can be on the PMU together (counter_fit.h); *gp: the
 * general-purpose counters they take.  The groups on in every slice come
 * first: their fixed counters are theirs, a fixed-counter event of another
 * group whose counter they hold is counted on a general-purpose one.
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

/* The general-purpose counters group g takes beside the groups on in every slice. */
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

/* Whether every group outside on still fits beside it (so each can have a slice). */
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
	 * Groups that take no general-purpose counter stay on in every slice:
	 * software events, fixed counters; and the topdown group (SLOTS leading
	 * the metrics, with the fixed counters and at most a few GP events of
	 * levels 1-2: planner.c seals it when rotating), which holds levels 1-2 on
	 * Intel.  Their counters are then taken in every slice.
	 */
	p->always_on = 0;
	for (int g = 0; g < p->ngroups; g++)
		if ((!gp_beside_always_on(p, g, sw) || p->ev[p->first[g]].kind == EVENT_SLOTS) &&
		    groups_fit(p, p->always_on | 1ull << g, sw, NULL))
			p->always_on |= 1ull << g;
	/*
	 * The other groups of levels 1-3, in plan order (level 1's first), stay on
	 * while every other group still fits beside them: the top of the tree is
	 * then measured all the time, the deeper levels in turns.
	 */
	for (int g = 0; g < p->ngroups; g++) {
		uint64_t on = p->always_on | 1ull << g;

		if (((p->always_on >> g) & 1) || !group_has_base(p, g, base) ||
		    !groups_fit(p, on, sw, NULL) || !room_for_others(p, on, sw))
			continue;
		p->always_on = on;
	}
	/* First fit, in plan order: a node's groups, planned together, share slices. */
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
					"but %d are usable here: no slice can hold it",
					g, p->ev[p->first[g]].name, gp_beside_always_on(p, g, sw),
					p->gp_counters);
				return -ENOSPC;
			}
			if (s == PLAN_MAX_SLICES) {
				snprintf(err, errlen, "more than %d slices needed",
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
	p->reads_per_switch = 0;
	for (int s = 0; s < p->nslices; s++) {
		int n = slice_reads(p, p->slice_groups[s]);

		if (n > p->reads_per_switch)
			p->reads_per_switch = n;
	}
	return 0;
}

static void print_groups(FILE *f, uint64_t groups, const char *note)
{
	const char *sep = " ";

	for (int g = 0; g < 64; g++)
		if ((groups >> g) & 1) {
			fprintf(f, "%s%d", sep, g);
			sep = ", ";
		}
	fprintf(f, "%s%s\n", groups ? "" : " none", note);
}

void plan_print_rotation(FILE *f, const struct plan *p)
{
	if (p->nslices <= 1)
		return;
	fprintf(f,
		"rotation: %d slices, each 1/%d of the interval (%.0f ms at --interval 1s), "
		"at most %d events read per switch\n",
		p->nslices, p->nslices, 1000.0 / p->nslices, p->reads_per_switch);
	fprintf(f, "  on in every slice: groups");
	print_groups(f, p->always_on,
		     !(p->nevents && p->ev[0].kind == EVENT_SLOTS && (p->always_on & 1)) ? "" :
		     p->top_levels >= 2 ? " (the topdown group: levels 1-2 measured all the time)" :
		     p->top_levels == 1 ? " (the topdown group: level 1 measured all the time)" :
					  " (the topdown group)");
	for (int s = 0; s < p->nslices; s++) {
		fprintf(f, "  slice %d: groups", s);
		print_groups(f, p->slice_groups[s] & ~p->always_on, "");
	}
}
