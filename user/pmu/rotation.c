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

#include "pmu/planner.h"
#include "util/group_mask.h"

/* What a group takes on the PMU: general-purpose counters and fixed ones. */
struct group_need {
	int gp;
	uint32_t fixed;
};

/*
 * taken: fixed counters held by the groups on in every slice.  A fixed-counter
 * event whose counter is taken there (or by an earlier member) is counted on a
 * general-purpose one, as the kernel schedules it.
 */
/* Whether e is planned on a fixed counter (e->fixed), if that one is free. */
static bool on_fixed_counter(const struct event_enc *e)
{
	return (e->kind == EVENT_FIXED || e->kind == EVENT_SLOTS) && e->fixed >= 0 && e->fixed < 32;
}

static struct group_need group_need(const struct plan *p, int g, bool software_takes_counters,
				    uint32_t taken)
{
	struct group_need n = { 0, 0 };

	for (int i = p->first[g]; i < p->first[g + 1]; i++) {
		const struct event_enc *e = &p->ev[i];
		bool fixed = on_fixed_counter(e);

		if (fixed && !((n.fixed | taken) & (1u << e->fixed)))
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

/* The GP counters a slice's events may use (bit c: counter c), one per event. */
struct slice_masks {
	uint32_t mask[PLAN_MAX_EVENTS];
	int n;
};

/*
 * The counter masks of groups' GP events, as group_need counts them: taken,
 * the fixed counters of the groups on in every slice, is theirs, taken for
 * the others.
 */
static void slice_masks(const struct plan *p, uint64_t groups, uint32_t taken, bool sw,
			struct slice_masks *m)
{
	m->n = 0;
	for (int g = 0; g < p->ngroups; g++) {
		uint32_t fixed = (p->always_on >> g) & 1 ? 0 : taken;

		for (int i = p->first[g]; ((groups >> g) & 1) && i < p->first[g + 1]; i++) {
			const struct event_enc *e = &p->ev[i];
			bool is_fixed = on_fixed_counter(e);

			if (is_fixed && !(fixed & (1u << e->fixed)))
				fixed |= 1u << e->fixed;
			else if (is_fixed || e->kind == EVENT_GP)
				m->mask[m->n++] = e->counter_mask;
			else if (e->kind == EVENT_SOFTWARE && sw)
				m->mask[m->n++] = UINT32_MAX;
		}
	}
}

/* Augmenting path: can event ev have a counter, moving others to theirs? */
static bool match_one(const struct slice_masks *m, int ev, int gp, int *owner, uint32_t *seen)
{
	for (int c = 0; c < gp; c++) {
		if (!(m->mask[ev] & (1u << c)) || (*seen & (1u << c)))
			continue;
		*seen |= 1u << c;
		if (owner[c] < 0 || match_one(m, owner[c], gp, owner, seen)) {
			owner[c] = ev;
			return true;
		}
	}
	return false;
}

/*
 * Whether the groups can be on together: each GP event its own counter among
 * those its mask allows (Intel's events on counters 0-3 only fill half a
 * PMU of eight).  taken: the fixed counters of the groups on in every slice.
 */
static bool counters_match(const struct plan *p, uint64_t groups, uint32_t taken, bool sw, int gp)
{
	struct slice_masks m; /* on the stack: the planner stays reentrant */
	int owner[32];

	slice_masks(p, groups, taken, sw, &m);
	if (m.n > gp || gp > 32)
		return m.n <= gp;
	for (int c = 0; c < gp; c++)
		owner[c] = -1;
	for (int ev = 0; ev < m.n; ev++) {
		uint32_t seen = 0;

		if (!match_one(&m, ev, gp, owner, &seen))
			return false;
	}
	return true;
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
		need[g] = group_need(p, g, software_takes_counters, 0);
		overlap |= (all.fixed & need[g].fixed) != 0;
		all = add(all, need[g]);
	}
	if (!overlap && all.gp <= gp)
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
		if ((!need[g].gp || p->ev[p->first[g]].kind == EVENT_SLOTS) &&
		    fits(always, need[g], gp)) {
			p->always_on |= 1ull << g;
			always = add(always, need[g]);
		}
	for (int g = 0; g < p->ngroups; g++)
		if (!((p->always_on >> g) & 1))
			need[g] = group_need(p, g, software_takes_counters, always.fixed);
	/*
	 * The other groups of levels 1-3, in plan order (level 1's first), stay on
	 * while every other group still fits beside them: the top of the tree is
	 * then measured all the time, the deeper levels in turns.
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
			if (fits(held[s], need[g], gp) &&
			    counters_match(p, p->slice_groups[s] | 1ull << g, always.fixed,
					   software_takes_counters, gp))
				break;
		if (s == p->nslices) {
			if (!fits(always, need[g], gp) ||
			    !counters_match(p, p->always_on | 1ull << g, always.fixed,
					    software_takes_counters, gp)) {
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
