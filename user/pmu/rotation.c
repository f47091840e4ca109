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
 * The groups of levels 1-3 stay on in every slice when they fit beside the
 * largest of the others, so the top of the tree is measured all the time;
 * where they do not (a level 3 that needs more than one PMU's counters
 * already), they take turns with the rest.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "pmu/planner.h"

/* What a group takes on the PMU: general-purpose counters and fixed ones. */
struct group_need {
	int gp;
	uint32_t fixed;
};

static struct group_need group_need(const struct plan *p, int g, bool software_takes_counters)
{
	struct group_need n = { 0, 0 };

	for (int i = p->first[g]; i < p->first[g + 1]; i++) {
		const struct event_enc *e = &p->ev[i];
		bool fixed = (e->kind == EVENT_FIXED || e->kind == EVENT_SLOTS) && e->fixed >= 0 &&
			     e->fixed < 32;

		/* A second event on a taken fixed counter was planned on a GP one. */
		if (fixed && !(n.fixed & (1u << e->fixed)))
			n.fixed |= 1u << e->fixed;
		else if (fixed || e->kind == EVENT_GP ||
			 (e->kind == EVENT_SOFTWARE && software_takes_counters))
			n.gp++;
	}
	return n;
}

/* Whether need fits beside what a slice already holds. */
static bool fits(struct group_need held, struct group_need need, int gp)
{
	return held.gp + need.gp <= gp && !(held.fixed & need.fixed);
}

static struct group_need add(struct group_need a, struct group_need b)
{
	return (struct group_need){ a.gp + b.gp, a.fixed | b.fixed };
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
	uint64_t all = p->ngroups >= 64 ? UINT64_MAX : (1ull << p->ngroups) - 1;

	p->nslices = 1;
	p->always_on = all;
	p->slice_groups[0] = all;
	p->reads_per_switch = p->nevents;
}

/* Whether every group outside on still fits beside held (so each can have a slice). */
static bool room_for_others(const struct plan *p, const struct group_need *need, uint64_t on,
			    struct group_need held, int gp)
{
	for (int g = 0; g < p->ngroups; g++)
		if (!((on >> g) & 1) && !fits(held, need[g], gp))
			return false;
	return true;
}

int plan_rotate(struct plan *p, const bool *base, bool software_takes_counters, char *err,
		size_t errlen)
{
	struct group_need need[PLAN_MAX_GROUPS], all = { 0, 0 }, always = { 0, 0 };
	struct group_need held[PLAN_MAX_SLICES];
	int gp = p->gp_counters;
	bool overlap = false;

	plan_one_slice(p);
	for (int g = 0; g < p->ngroups; g++) {
		need[g] = group_need(p, g, software_takes_counters);
		overlap |= (all.fixed & need[g].fixed) != 0;
		all = add(all, need[g]);
	}
	if (!overlap && all.gp <= gp)
		return 0; /* the PMU holds every group at once */
	p->always_on = 0;
	for (int g = 0; g < p->ngroups; g++)
		if (!need[g].gp && !need[g].fixed)
			p->always_on |= 1ull << g; /* takes no counter (software) */
	/*
	 * The groups of levels 1-3, in plan order (level 1's first), stay on while
	 * every other group still fits beside them: the top of the tree is then
	 * measured all the time, the deeper levels in turns.
	 */
	for (int g = 0; g < p->ngroups; g++) {
		uint64_t on = p->always_on | 1ull << g;

		if (((p->always_on >> g) & 1) || !group_has_base(p, g, base) ||
		    !fits(always, need[g], gp) ||
		    !room_for_others(p, need, on, add(always, need[g]), gp))
			continue;
		p->always_on = on;
		always = add(always, need[g]);
	}
	/* First fit, in plan order: a node's groups, planned together, share slices. */
	p->nslices = 0;
	for (int g = 0; g < p->ngroups; g++) {
		int s;

		if ((p->always_on >> g) & 1)
			continue;
		for (s = 0; s < p->nslices; s++)
			if (fits(held[s], need[g], gp))
				break;
		if (s == p->nslices) {
			if (!fits(always, need[g], gp)) {
				snprintf(
					err, errlen,
					"perf group %d (%s first) needs %d general-purpose counters "
					"but %d are usable here: no slice can hold it",
					g, p->ev[p->first[g]].name, need[g].gp, gp);
				return -ENOSPC;
			}
			if (s == PLAN_MAX_SLICES) {
				snprintf(err, errlen, "more than %d slices needed",
					 PLAN_MAX_SLICES);
				return -E2BIG;
			}
			held[s] = always;
			p->slice_groups[s] = p->always_on;
			p->nslices++;
		}
		held[s] = add(held[s], need[g]);
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

static void print_groups(FILE *f, uint64_t groups)
{
	const char *sep = " ";

	for (int g = 0; g < 64; g++)
		if ((groups >> g) & 1) {
			fprintf(f, "%s%d", sep, g);
			sep = ", ";
		}
	fprintf(f, "%s\n", groups ? "" : " none");
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
	print_groups(f, p->always_on);
	for (int s = 0; s < p->nslices; s++) {
		fprintf(f, "  slice %d: groups", s);
		print_groups(f, p->slice_groups[s] & ~p->always_on);
	}
}
