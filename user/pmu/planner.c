// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Packs events into perf groups that the kernel can always schedule: a group
 * whose members cannot all get a counter at once never counts, so each group
 * is checked against the PMU's limits (counter_fit.h) and keeps to one set of
 * privilege filters.  Events are sorted by name first, so the same set gives
 * the same plan whatever order it came in.
 */
#include "pmu/planner.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "pmu/counter_fit.h"

struct plan_group {
	int *member; /* indices into the encoded events */
	int n;
};

struct plan_state {
	struct event_enc *enc; /* unique, sorted by name */
	int nenc;
	bool *placed;
	struct plan_group *group;
	int *members; /* every group's room, one block */
	int *set;     /* room for every event: the set being placed */
	int ngroups;
	int gp;
	int cycles; /* the event each new hardware group starts with; -1: none */
	bool sw_gp; /* software events take GP counters (plan_input.software_takes_counters) */
	/*
	 * Groups [0, sealed) take no more events: at levels 4-6, the topdown
	 * group keeps to SLOTS, the metrics and the fixed counters, so it needs
	 * no general-purpose counter and can be pinned.
	 */
	int sealed;
	struct counter_fit beside; /* the PMU with their events on: every other group goes beside */
	int top_levels;		   /* the levels group 0 holds whole (plan.top_levels) */
	size_t cap;		   /* room for every input event, SLOTS added, and a spare */
};

static int plan_cmp_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Whether event i takes a general-purpose counter (software stand-ins: any). */
static bool plan_takes_gp(const struct plan_state *s, int i)
{
	return s->enc[i].kind == EVENT_GP || (s->sw_gp && s->enc[i].kind == EVENT_SOFTWARE);
}

/* Would group g with the extra events add[0..nadd) still be schedulable? */
static bool plan_fits(const struct plan_state *s, const struct plan_group *g, const int *add,
		      int nadd)
{
	struct counter_fit fit = s->beside;
	const struct event_enc *first;

	if (g->n + nadd == 0)
		return true;
	first = &s->enc[g->n ? g->member[0] : add[0]];
	for (int k = 0; k < g->n + nadd; k++) {
		const struct event_enc *e = &s->enc[k < g->n ? g->member[k] : add[k - g->n]];

		/* One set of privilege filters per group (the topdown group requires it). */
		if (e->attr.exclude_user != first->attr.exclude_user ||
		    e->attr.exclude_kernel != first->attr.exclude_kernel ||
		    !counter_fit_add(&fit, e))
			return false;
	}
	return true;
}

static void plan_add(struct plan_state *s, int g, const int *add, int nadd)
{
	for (int k = 0; k < nadd; k++) {
		s->group[g].member[s->group[g].n++] = add[k];
		s->placed[add[k]] = true;
	}
}

static int plan_new_group(struct plan_state *s)
{
	s->group[s->ngroups].n = 0;
	return s->ngroups++;
}

/*
 * First group that takes all of add; a new one when none does and they fit
 * together.  A new group starts with the cycles event where groups carry
 * their own (the first group gets it from the first node that reads it).
 */
static bool plan_place_set(struct plan_state *s, const int *add, int nadd)
{
	int cyc = s->cycles, g;
	struct plan_group first = { &cyc, cyc >= 0 };

	for (int k = 0; k < nadd; k++)
		if (add[k] == cyc)
			first.n = 0;
	for (g = s->sealed; g < s->ngroups; g++) {
		if (plan_fits(s, &s->group[g], add, nadd)) {
			plan_add(s, g, add, nadd);
			return true;
		}
	}
	if (!plan_fits(s, &first, add, nadd))
		return false;
	g = plan_new_group(s);
	if (first.n)
		plan_add(s, g, &cyc, 1);
	plan_add(s, g, add, nadd);
	return true;
}

static int plan_find(const struct plan_state *s, const char *name)
{
	for (int i = 0; i < s->nenc; i++)
		if (!strcmp(s->enc[i].name, name))
			return i;
	return -1;
}

/* Appends node's unplaced general-purpose events not yet in set[0..nset); the new nset. */
static int plan_node_gp(const struct plan_state *s, const struct plan_node *node, int *set,
			int nset)
{
	for (int k = 0; k < node->nevents; k++) {
		int i = plan_find(s, node->events[k]);
		bool dup = false;

		if (i < 0 || s->placed[i] || !plan_takes_gp(s, i))
			continue;
		for (int j = 0; j < nset; j++)
			dup |= set[j] == i;
		if (!dup)
			set[nset++] = i;
	}
	return nset;
}

static int plan_cmp_config(const void *a, const void *b, void *arg)
{
	const struct event_enc *enc = arg;
	uint64_t ca = enc[*(const int *)a].attr.config, cb = enc[*(const int *)b].attr.config;

	return ca < cb ? -1 : ca > cb;
}

/* Unique names, sorted, encoded; pseudo-inputs go to out->pseudo. */
static int plan_encode(const struct plan_input *in, struct plan_state *s, struct plan *out,
		       char *err, size_t errlen)
{
	const char **names = calloc(s->cap, sizeof(*names));
	int n = 0, ret = 0;

	s->enc = calloc(s->cap, sizeof(*s->enc));
	if (!names || !s->enc) {
		free(names);
		snprintf(err, errlen, "out of memory planning %d events", in->nevents);
		return -ENOMEM;
	}
	for (int i = 0; i < in->nevents; i++)
		names[n++] = in->events[i];
	qsort(names, (size_t)n, sizeof(*names), plan_cmp_name);
	for (int i = 0; i < n; i++) {
		struct event_enc *e = &s->enc[s->nenc];

		if (i > 0 && !strcmp(names[i], names[i - 1]))
			continue;
		ret = event_encode(in->target, names[i], e, err, errlen);
		if (ret)
			break;
		if (e->kind == EVENT_PSEUDO) {
			if (out->npseudo == PLAN_MAX_PSEUDO) {
				snprintf(err, errlen, "more than %d pseudo-inputs",
					 PLAN_MAX_PSEUDO);
				ret = -E2BIG;
				break;
			}
			snprintf(out->pseudo[out->npseudo++], EVENT_NAME_MAX, "%s", e->name);
			continue;
		}
		s->nenc++;
	}
	free(names);
	return ret;
}

/*
 * Rotating: the GP events of levels 1-2, level by level, join group 0 while
 * they take at most 1/PLAN_TOP_GP_SHARE of the counters, so those levels are
 * measured all the time (spr: Frontend_Bound subtracts INT_MISC.UOP_DROPPING
 * from the metric; icx's level 2 needs too many for this).  Returns the
 * deepest level group 0 then holds whole.  set: room for every event.
 */
static int plan_topdown_top(struct plan_state *s, const struct plan_input *in, int *set)
{
	int budget = s->gp / PLAN_TOP_GP_SHARE, used = 0;

	for (int level = 1; level <= 2; level++) {
		int nset = 0;

		for (int n = 0; n < in->nnodes; n++)
			if (in->nodes[n].level == level)
				nset = plan_node_gp(s, &in->nodes[n], set, nset);
		/* too many, or not beside the topdown events: this level takes turns */
		if (used + nset > budget || !plan_fits(s, &s->group[0], set, nset))
			return level - 1;
		plan_add(s, 0, set, nset);
		used += nset;
	}
	return 2;
}

/* Group 0: SLOTS, the PERF_METRICS events by config, then the fixed-counter events. */
static int plan_topdown_group(struct plan_state *s, const struct plan_input *in, char *err,
			      size_t errlen)
{
	int *td = s->set, ntd = 0, slots = -1, nmetric = 0;

	for (int i = 0; i < s->nenc; i++) {
		if (s->enc[i].kind == EVENT_SLOTS)
			slots = i;
		nmetric += s->enc[i].kind == EVENT_METRIC;
	}
	/* The metric events read nothing without SLOTS leading them. */
	if (nmetric && slots < 0) {
		int ret = event_encode(in->target, "TOPDOWN.SLOTS", &s->enc[s->nenc], err, errlen);

		if (ret)
			return ret;
		slots = s->nenc++;
	}
	if (slots >= 0)
		td[ntd++] = slots;
	for (enum event_kind k = EVENT_METRIC;; k = EVENT_FIXED) {
		int from = ntd;
		uint32_t fixed_used = 0;

		for (int i = 0; i < s->nenc; i++) {
			int f = s->enc[i].fixed;

			if (s->enc[i].kind != k)
				continue;
			/* One event per fixed counter here; a second goes with the GP events. */
			if (k == EVENT_FIXED && f >= 0 && f < 32) {
				if (fixed_used & (1u << f))
					continue;
				fixed_used |= 1u << f;
			}
			td[ntd++] = i;
		}
		qsort_r(td + from, (size_t)(ntd - from), sizeof(*td), plan_cmp_config, s->enc);
		if (k == EVENT_FIXED)
			break;
	}
	if (ntd)
		plan_add(s, plan_new_group(s), td, ntd);
	/* Levels 4-6: the GP events are multiplexed elsewhere, this group is pinned. */
	if (ntd && in->rotate) {
		s->top_levels = plan_topdown_top(s, in, td);
		s->sealed = s->ngroups;
		for (int k = 0; k < s->group[0].n; k++)
			counter_fit_add(&s->beside, &s->enc[s->group[0].member[k]]);
	}
	return 0;
}

/* Each node's GP events together where possible, in model order; then the rest. */
static int plan_pack_gp(struct plan_state *s, const struct plan_input *in, char *err, size_t errlen)
{
	int *set = s->set;

	for (int i = 0; i < s->nenc; i++) {
		int cyc = s->cycles;
		struct plan_group empty = { &cyc, cyc >= 0 && cyc != i };

		if (plan_takes_gp(s, i) && !plan_fits(s, &empty, &i, 1)) {
			snprintf(err, errlen,
				 "%s cannot be counted: it needs a general-purpose counter among "
				 "mask 0x%x but %d are usable here (NMI watchdog? "
				 "sysctl kernel.nmi_watchdog=0)",
				 s->enc[i].name,
				 s->enc[i].kind == EVENT_SOFTWARE ? UINT32_MAX :
								    s->enc[i].counter_mask,
				 s->gp);
			return -ENOSPC;
		}
	}
	for (int n = 0; n < in->nnodes; n++) {
		int nset = plan_node_gp(s, &in->nodes[n], set, 0);

		/* Sorted, so a node's events land in the same order whatever the model's. */
		for (int a = 1; a < nset; a++)
			for (int b = a; b > 0 && set[b] < set[b - 1]; b--) {
				int t = set[b];

				set[b] = set[b - 1];
				set[b - 1] = t;
			}
		if (nset && plan_place_set(s, set, nset))
			continue;
		for (int j = 0; j < nset; j++)
			plan_place_set(s, &set[j], 1);
	}
	for (int i = 0; i < s->nenc; i++)
		if ((plan_takes_gp(s, i) || s->enc[i].kind == EVENT_FIXED) && !s->placed[i])
			plan_place_set(s, &i, 1);
	return 0;
}

/* Moves group g's events into the other groups' room; false (nothing moved) where they do not all fit. */
static bool plan_dissolve(struct plan_state *s, int g)
{
	struct plan_group *from = &s->group[g];
	int into[PLAN_MAX_EVENTS], moved = 0;

	for (; moved < from->n && moved < PLAN_MAX_EVENTS; moved++) {
		int t = s->sealed;

		while (t < s->ngroups &&
		       (t == g || !plan_fits(s, &s->group[t], &from->member[moved], 1)))
			t++;
		if (t == s->ngroups)
			break;
		s->group[t].member[s->group[t].n++] = from->member[moved];
		into[moved] = t;
	}
	if (moved == from->n) {
		int *spare = from->member;

		memmove(from, from + 1, (size_t)(s->ngroups - g - 1) * sizeof(*from));
		s->group[--s->ngroups] = (struct plan_group){ spare, 0 };
		return true;
	}
	while (moved--)
		s->group[into[moved]].n--;
	return false;
}

/*
 * At levels 4-6, each group takes its turn on the PMU as a whole: a group the
 * node-by-node packing left part-full is dissolved into the others' room
 * where all its events fit there, which saves a turn.  A node's events may
 * then be read in different groups; scaled by their time on, steady rates come back the same
 * (tests/unit/test_rotation_converges.c).  Not where every group carries its
 * own cycles (AMD): a moved event would be taken against another group's.
 */
static void plan_dissolve_groups(struct plan_state *s)
{
	if (s->cycles >= 0)
		return;
	for (int g = s->ngroups - 1; g >= s->sealed; g--)
		if (s->group[g].n < s->gp)
			plan_dissolve(s, g);
}

/*
 * Software events in one group of their own, last: they take no hardware
 * counter, so the group always schedules, and keeping them out of the PMU's
 * groups leaves those exactly as the counter checks above built them.
 */
static void plan_software_group(struct plan_state *s)
{
	int g = -1;

	for (int i = 0; i < s->nenc; i++) {
		if (s->enc[i].kind != EVENT_SOFTWARE || s->placed[i])
			continue;
		if (g < 0)
			g = plan_new_group(s);
		plan_add(s, g, &i, 1);
	}
}

static int plan_emit(const struct plan_state *s, bool rotate, struct plan *out, char *err,
		     size_t errlen)
{
	int total = 0;
	/* Levels 1-3 are read whole at every switch; 4-6 multiplexed, so more fit. */
	int max_events = rotate ? PLAN_MAX_EVENTS : PLAN_UNROTATED_EVENTS;
	int max_groups = rotate ? PLAN_MAX_GROUPS : PLAN_UNROTATED_GROUPS;
	const char *events_name = rotate ? "TMACG_MAX_EVENTS" : "PLAN_UNROTATED_EVENTS";
	const char *groups_name = rotate ? "TMACG_MAX_GROUPS" : "PLAN_UNROTATED_GROUPS";

	for (int g = 0; g < s->ngroups; g++)
		total += s->group[g].n;
	if (total > max_events) {
		snprintf(err, errlen,
			 "%d events needed but tmacg reads at most %d per CPU (%s): "
			 "choose a lower --level",
			 total, max_events, events_name);
		return -E2BIG;
	}
	if (s->ngroups > max_groups) {
		snprintf(err, errlen,
			 "the events need %d perf groups but tmacg reads at most %d per CPU "
			 "(%s) with %d general-purpose counters: choose a lower "
			 "--level",
			 s->ngroups, max_groups, groups_name, s->gp);
		return -E2BIG;
	}
	out->nevents = 0;
	for (int g = 0; g < s->ngroups; g++) {
		out->first[g] = out->nevents;
		for (int k = 0; k < s->group[g].n; k++) {
			struct event_enc *e = &out->ev[out->nevents++];

			*e = s->enc[s->group[g].member[k]];
			/* The collector enables each group through its leader with one ioctl. */
			e->attr.disabled = k == 0;
		}
	}
	out->ngroups = s->ngroups;
	out->first[s->ngroups] = out->nevents;
	out->top_levels = s->top_levels;
	for (int g = 0; g < s->ngroups; g++) {
		out->cycles_of_group[g] = -1;
		for (int i = out->first[g]; s->cycles >= 0 && i < out->first[g + 1]; i++)
			if (!strcmp(out->ev[i].name, s->enc[s->cycles].name))
				out->cycles_of_group[g] = i;
		out->has_group_cycles |= out->cycles_of_group[g] >= 0;
	}
	return 0;
}

/* The multiplexing of a plan for levels 4-6: the events of nodes[0..nbase_nodes) are base. */
static int plan_rotate_nodes(const struct plan_input *in, struct plan *out, char *err,
			     size_t errlen)
{
	bool base[PLAN_MAX_EVENTS] = { false };

	if (!in->rotate) {
		plan_one_slice(out); /* levels 1-3: every group on, as always */
		return 0;
	}
	for (int n = 0; n < in->nbase_nodes && n < in->nnodes; n++)
		for (int k = 0; k < in->nodes[n].nevents; k++) {
			int i = plan_index(out, in->nodes[n].events[k]);

			if (i >= 0)
				base[i] = true;
		}
	return plan_rotate(out, base, in->software_takes_counters, err, errlen);
}

int plan_build(const struct plan_input *in, struct plan *out, char *err, size_t errlen)
{
	struct plan_state s = { 0 };
	int ret;

	memset(out, 0, sizeof(*out));
	out->gp_counters = in->gp_counters;
	for (int i = 0; i < in->nmissing && i < PLAN_MAX_MISSING; i++)
		snprintf(out->missing[out->nmissing++], EVENT_NAME_MAX, "%s", in->missing[i]);
	if (in->nevents < 0 || (in->nevents && !in->events) || in->gp_counters < 0 ||
	    in->gp_counters > 32) {
		snprintf(err, errlen, "invalid planner input");
		return -EINVAL;
	}
	s.gp = in->gp_counters;
	s.sw_gp = in->software_takes_counters;
	counter_fit_init(&s.beside, s.gp, s.sw_gp);
	s.cap = (size_t)(unsigned int)in->nevents + 2;
	ret = plan_encode(in, &s, out, err, errlen);
	if (ret)
		goto cleanup;
	s.placed = calloc(s.cap, sizeof(*s.placed));
	s.group = calloc(s.cap, sizeof(*s.group));
	s.members = calloc(s.cap * s.cap, sizeof(*s.members));
	s.set = calloc(s.cap, sizeof(*s.set));
	if (!s.placed || !s.group || !s.members || !s.set) {
		ret = -ENOMEM;
		snprintf(err, errlen, "out of memory");
		goto cleanup;
	}
	for (size_t g = 0; g < s.cap; g++)
		s.group[g].member = s.members + g * s.cap;
	s.cycles = in->group_cycles ? plan_find(&s, in->group_cycles) : -1;
	/* Only hardware groups carry it, and only where it is a counter of their own. */
	if (s.cycles >= 0 && s.enc[s.cycles].kind != EVENT_GP)
		s.cycles = -1;
	ret = plan_topdown_group(&s, in, err, errlen);
	if (ret)
		goto cleanup;
	ret = plan_pack_gp(&s, in, err, errlen);
	if (ret)
		goto cleanup;
	if (in->rotate)
		plan_dissolve_groups(&s);
	plan_software_group(&s);
	ret = plan_emit(&s, in->rotate, out, err, errlen);
	if (!ret)
		ret = plan_rotate_nodes(in, out, err, errlen);
cleanup:
	free(s.members);
	free(s.set);
	free(s.group);
	free(s.placed);
	free(s.enc);
	return ret;
}

int plan_index(const struct plan *p, const char *name)
{
	for (int i = 0; i < p->nevents; i++)
		if (!strcmp(p->ev[i].name, name))
			return i;
	return -1;
}

int plan_group_of(const struct plan *p, int i)
{
	for (int g = 0; g < p->ngroups; g++)
		if (i >= p->first[g] && i < p->first[g + 1])
			return g;
	return -1;
}

bool plan_is_first(const struct plan *p, int i)
{
	return plan_index(p, p->ev[i].name) == i;
}

bool plan_group_uses_pmu(const struct plan *p, int g)
{
	/* By what is opened: a description's software_standins plan as hardware, open as software. */
	for (int i = p->first[g]; i < p->first[g + 1]; i++)
		if (p->ev[i].attr.type != PERF_TYPE_SOFTWARE)
			return true;
	return false;
}

bool plan_uses_pmu(const struct plan *p)
{
	for (int g = 0; g < p->ngroups; g++)
		if (plan_group_uses_pmu(p, g))
			return true;
	return false;
}

void plan_print(FILE *f, const struct plan *p)
{
	bool standins = false;

	for (int i = 0; i < p->nevents; i++)
		standins |= p->ev[i].kind != EVENT_SOFTWARE;
	if (plan_uses_pmu(p))
		fprintf(f, "%d events in %d groups, %d general-purpose counters per group\n",
			p->nevents, p->ngroups, p->gp_counters);
	else if (standins)
		fprintf(f,
			"%d events in %d groups, %d general-purpose counters per group, opened "
			"as software stand-ins (the CPU description's software_standins)\n",
			p->nevents, p->ngroups, p->gp_counters);
	else
		fprintf(f,
			"%d events in %d groups, software events only: no hardware counter "
			"needed\n",
			p->nevents, p->ngroups);
	for (int g = 0; g < p->ngroups; g++) {
		enum event_kind lead = p->ev[p->first[g]].kind;

		fprintf(f, "group %d%s\n", g,
			lead == EVENT_SLOTS	   ? " (topdown: SLOTS leads)" :
			lead == EVENT_SOFTWARE	   ? " (software)" :
			p->cycles_of_group[g] >= 0 ? " (its own cycles)" :
						     "");
		for (int i = p->first[g]; i < p->first[g + 1]; i++) {
			const struct event_enc *e = &p->ev[i];

			fprintf(f, "  %-56s %-6s type=%u config=0x%llx config1=0x%llx", e->name,
				event_kind_name(e->kind), e->attr.type,
				(unsigned long long)e->attr.config,
				(unsigned long long)e->attr.config1);
			/* Why a group holds fewer events than there are counters. */
			if (e->kind == EVENT_GP && e->counter_mask != UINT32_MAX)
				fprintf(f, " counters=0x%x", e->counter_mask);
			if (e->attr.exclude_user || e->attr.exclude_kernel)
				fprintf(f, " %s",
					e->attr.exclude_user ? "kernel-only" : "user-only");
			fprintf(f, "%s\n", e->flags & EVENT_F_PERCORE ? " percore" : "");
		}
	}
	for (int i = 0; i < p->npseudo; i++)
		fprintf(f, "not opened: %s (computed by the collector)\n", p->pseudo[i]);
	for (int i = 0; i < p->nmissing; i++)
		fprintf(f,
			"not on this PMU: %s (the kernel maps no event to it, or the PMU lacks "
			"the counter that counts it: nodes reading it are null)\n",
			p->missing[i]);
}
