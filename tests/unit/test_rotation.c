// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Levels 4-6 multiplexed by the kernel (user/pmu/rotation.c), checked on
 * properties rather than on one packing: every group in some set the PMU
 * holds at once, each set within the PMU's counters and offcore-response
 * MSRs, fewer reads per set than level 3 makes, the groups of levels 1-3
 * pinned where they leave room (their leaders alone opened pinned, nothing
 * pinned where every group fits), and the refusals (a level the model lacks,
 * a group no set holds) with their reasons.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "offline_capture.h"
#include "repo_root.h"

#include "model/model.h"
#include "pmu/cpu_desc.h"
#include "pmu/plan_model.h"
#include "pmu/planner.h"
#include "test_models.h"

/* Fixed counters the groups on in every slice hold, but for group g's own. */
static uint32_t fixed_always_on(const struct plan *p, int g)
{
	uint32_t fixed = 0;

	for (int h = 0; h < p->ngroups; h++)
		for (int i = p->first[h];
		     h != g && ((p->always_on >> h) & 1) && i < p->first[h + 1]; i++)
			if ((p->ev[i].kind == EVENT_FIXED || p->ev[i].kind == EVENT_SLOTS) &&
			    p->ev[i].fixed >= 0)
				fixed |= 1u << p->ev[i].fixed;
	return fixed;
}

/*
 * General-purpose counters group g takes, counted here from the events' kinds:
 * a fixed-counter event whose counter is held already goes on a GP one.
 */
static int gp_taken(const struct plan *p, int g, bool software_counts)
{
	uint32_t fixed = p->nslices > 1 ? fixed_always_on(p, g) : 0;
	int n = 0;

	for (int i = p->first[g]; i < p->first[g + 1]; i++) {
		const struct event_enc *e = &p->ev[i];

		if ((e->kind == EVENT_FIXED || e->kind == EVENT_SLOTS) && e->fixed >= 0 &&
		    !(fixed & (1u << e->fixed)))
			fixed |= 1u << e->fixed;
		else if (e->kind == EVENT_GP || e->kind == EVENT_FIXED ||
			 (software_counts && e->kind == EVENT_SOFTWARE))
			n++;
	}
	return n;
}

/* The rotation's invariants, whatever the packing. */
static void check_rotation(const struct plan *p, bool software_counts)
{
	int most = 0;

	assert_true(p->nslices >= 1 && p->nslices <= PLAN_MAX_SLICES);
	for (int g = 0; g < p->ngroups; g++) {
		int on = 0;

		for (int s = 0; s < p->nslices; s++)
			on += plan_group_on(p, g, s) && !((p->always_on >> g) & 1);
		/* In exactly one slice, or in all of them. */
		if ((p->always_on >> g) & 1) {
			for (int s = 0; s < p->nslices; s++)
				assert_true(plan_group_on(p, g, s));
		} else if (on != 1) {
			fail_msg("group %d is on in %d slices", g, on);
		}
	}
	for (int s = 0; s < p->nslices; s++) {
		int gp = 0, reads = 0;

		for (int g = 0; g < p->ngroups; g++)
			if (plan_group_on(p, g, s)) {
				gp += gp_taken(p, g, software_counts);
				reads += p->first[g + 1] - p->first[g];
			}
		if (p->nslices > 1 && gp > p->gp_counters)
			fail_msg("slice %d takes %d counters of %d", s, gp, p->gp_counters);
		most = reads > most ? reads : most;
	}
	assert_int_equal(p->reads_per_switch, most);
	/* The kernel schedules pinned groups first: the always-on ones, by their leaders. */
	for (int g = 0; g < p->ngroups; g++)
		for (int i = p->first[g]; i < p->first[g + 1]; i++)
			if (p->ev[i].attr.pinned !=
			    (i == p->first[g] && p->nslices > 1 && ((p->always_on >> g) & 1)))
				fail_msg("event %d (%s) of group %d: pinned %d, %d sets", i,
					 p->ev[i].name, g, p->ev[i].attr.pinned, p->nslices);
}

/*
 * Every model with levels 4-6: each level plans, rotating, and reads fewer
 * events per switch than its level 3 does (which reads them all).
 */
static void deep_models_rotate(void **state)
{
	static const char *const ids[] = { "icx", "spr", "emr", "gnr", "skx", "clx" };
	static struct plan p, p3;
	char err[512];
	int tested = 0;

	(void)state;
	for (size_t k = 0; k < sizeof(ids) / sizeof(ids[0]); k++) {
		struct tma_model *m = test_model_builtin(ids[k]);
		struct plan_request r = { .model = m, .level = 3 };

		if (plan_for_model(&r, &p3, err, sizeof(err)))
			fail_msg("%s level 3: %s", ids[k], err);
		assert_int_equal(p3.nslices, 1);
		assert_int_equal(p3.reads_per_switch, p3.nevents);
		for (r.level = 4; r.level <= 6; r.level++) {
			if (plan_for_model(&r, &p, err, sizeof(err)))
				fail_msg("%s level %d: %s", ids[k], r.level, err);
			assert_true(p.nevents > TMACG_MAX_EVENTS || p.nslices > 1);
			assert_true(p.nslices > 1);
			check_rotation(&p, false);
			if (p.reads_per_switch > p3.nevents)
				fail_msg("%s level %d reads %d events per switch, level 3 %d",
					 ids[k], r.level, p.reads_per_switch, p3.nevents);
			tested++;
		}
		model_free(m);
	}
	assert_int_equal(tested, 6 * 3);
}

/* Whether event i takes a GP counter restricted to mask (within it), in a group on or not. */
static bool gp_within(const struct plan *p, int i, uint32_t mask, bool always)
{
	int g = plan_group_of(p, i);

	return ((p->always_on >> g) & 1) == always &&
	       (p->ev[i].kind == EVENT_GP || (p->ev[i].kind == EVENT_FIXED && g > 0)) &&
	       !(p->ev[i].counter_mask & ~mask);
}

/*
 * The fewest slices a plan's rotating GP events need: each slice holds the
 * counters the groups on in every slice leave, and at most as many events
 * restricted to a set of counters as that set has left (Intel's events on
 * counters 0-3: four a slice).
 */
static int fewest_slices(const struct plan *p)
{
	uint32_t all = (1u << p->gp_counters) - 1;
	int fewest = 1;

	for (int i = -1; i < p->nevents; i++) {
		uint32_t mask = i < 0 ? all : p->ev[i].counter_mask & all;
		int within = 0, room = __builtin_popcount(mask);

		if (i >= 0 && p->ev[i].kind != EVENT_GP)
			continue;
		for (int j = 0; j < p->nevents; j++) {
			within += gp_within(p, j, mask, false);
			room -= gp_within(p, j, mask, true);
		}
		if (room > 0 && (within + room - 1) / room > fewest)
			fewest = (within + room - 1) / room;
	}
	return fewest;
}

/*
 * Intel's topdown group (SLOTS leading the metrics, the fixed counters, and
 * the one or two GP events levels 1-2 also read) is on in every slice at
 * levels 4-6, so
 * levels 1-2 (spr and later: PERF_METRICS holds them; icx: level 1) are
 * measured all the time, not a slice's share; the GP events of level 3 and
 * deeper take turns, packed into as few slices as their number allows.
 */
static void topdown_group_always_on(void **state)
{
	static const char *const ids[] = { "icx", "spr", "emr", "gnr" };
	static struct plan p;
	char err[512];

	(void)state;
	for (size_t k = 0; k < sizeof(ids) / sizeof(ids[0]); k++) {
		struct tma_model *m = test_model_builtin(ids[k]);
		const struct cpu_desc *d = cpu_desc_for_model(ids[k]);
		/* A host whose kernel exposes PERF_METRICS: the formulas read them. */
		struct cpu_info host = { .has_pmu = true,
					 .pmu_type = 4,
					 .topdown_use_fixed = true,
					 .topdown_l2 = d->perf_metrics_l2,
					 .smt = true,
					 .cpu = d,
					 .gp_counters = d->gp_counters_smt,
					 .gp_usable = d->gp_counters_smt };
		struct plan_request r = { .model = m, .cpu = &host };
		int nnodes = model_node_count(m), top = strcmp(ids[k], "icx") ? 2 : 1;
		uint64_t *node_groups = calloc((size_t)nnodes, sizeof(*node_groups));

		assert_non_null(node_groups);
		for (r.level = 4; r.level <= 6; r.level++) {
			int rotating3 = 0, fewest = 0;

			if (plan_for_model(&r, &p, err, sizeof(err)))
				fail_msg("%s level %d: %s", ids[k], r.level, err);
			check_rotation(&p, false);
			assert_int_equal(p.ev[0].kind, EVENT_SLOTS);
			assert_int_equal(p.ev[1].kind, EVENT_METRIC);
			/* levels 1-2's few GP events (INT_MISC.UOP_DROPPING) stay on beside it */
			assert_true(gp_taken(&p, 0, false) <= p.gp_counters / PLAN_TOP_GP_SHARE);
			if (!(p.always_on & 1))
				fail_msg("%s level %d: the topdown group takes turns", ids[k],
					 r.level);
			assert_int_equal(p.top_levels, top);
			/* As few as the counters allow at level 6, one more at most above. */
			fewest = fewest_slices(&p);
			if (p.nslices > fewest + (r.level < 6))
				fail_msg("%s level %d: %d slices where the GP events need %d",
					 ids[k], r.level, p.nslices, fewest);
			assert_int_equal(plan_node_groups(&p, m,
							  MODEL_FLAG_TOPDOWN_FIXED | MODEL_FLAG_SMT,
							  node_groups),
					 0);
			for (int n = 0; n < nnodes; n++) {
				const struct model_node_info *node = model_node(m, n);

				if (node->is_info || node->level < 1)
					continue;
				if (node->level <= top && node_groups[n])
					fail_msg("%s level %d: %s (level %d) takes turns", ids[k],
						 r.level, node->name, node->level);
				rotating3 += node->level == 3 && node_groups[n];
			}
			/* Level 3's GP events take turns, so its nodes carry quality.measured. */
			assert_true(rotating3 > 0);
		}
		free(node_groups);
		model_free(m);
	}
}

/* A --level the model does not have is refused, naming its depth; levels 1-3 always plan. */
static void level_deeper_than_model(void **state)
{
	static const char *const ids[] = { "srf", "zen4", "zen5", "neoverse-n2", "generic" };
	static struct plan p;
	char err[512];

	(void)state;
	for (size_t k = 0; k < sizeof(ids) / sizeof(ids[0]); k++) {
		struct tma_model *m = test_model_builtin(ids[k]);
		struct plan_request r = { .model = m, .level = 3 };
		char want[64];

		assert_int_equal(plan_for_model(&r, &p, err, sizeof(err)), 0);
		for (r.level = 4; r.level <= 6; r.level++) {
			assert_int_equal(plan_for_model(&r, &p, err, sizeof(err)), -EDOM);
			snprintf(want, sizeof(want), "has %d level", plan_model_depth(m));
			if (!strstr(err, want) || !strstr(err, "--level"))
				fail_msg("%s level %d: %s", ids[k], r.level, err);
		}
		model_free(m);
	}
}

/* A hand-made plan: group g holds gp[g] GP events (0: one software event). */
static void make_plan(struct plan *p, const int *gp, int ngroups, int counters)
{
	memset(p, 0, sizeof(*p));
	p->gp_counters = counters;
	for (int g = 0; g < ngroups; g++) {
		int n = gp[g] ? gp[g] : 1;

		p->first[g] = p->nevents;
		for (int k = 0; k < n; k++) {
			struct event_enc *e = &p->ev[p->nevents++];

			snprintf(e->name, sizeof(e->name), "G%d.E%d", g, k);
			e->kind = gp[g] ? EVENT_GP : EVENT_SOFTWARE;
			e->fixed = -1;
			e->counter_mask = UINT32_MAX;
		}
	}
	p->ngroups = ngroups;
	p->first[ngroups] = p->nevents;
}

/*
 * Base groups (levels 1-3) stay on in every slice when every other group
 * fits beside them; otherwise they take turns like the rest.  Groups that
 * take no counter are always on.
 */
static void base_groups_always_on(void **state)
{
	static struct plan p;
	static const int roomy[] = { 2, 1, 1, 2, 0 };
	static const int full[] = { 3, 2, 2, 0 };
	bool base[PLAN_MAX_EVENTS] = { false };
	char err[256];

	(void)state;
	make_plan(&p, roomy, 5, 4);
	base[0] = true; /* an event of group 0 serves level 1 */
	assert_int_equal(plan_rotate(&p, base, false, err, sizeof(err)), 0);
	check_rotation(&p, false);
	assert_int_equal(p.always_on, 1u << 0 | 1u << 4);
	/* groups 1 and 2 (1 + 1), then 3 (2), beside group 0's 2 counters: two slices */
	assert_int_equal(p.nslices, 2);
	assert_int_equal(p.slice_groups[0], 1u << 0 | 1u << 1 | 1u << 2 | 1u << 4);
	assert_int_equal(p.reads_per_switch, 2 + 1 + 1 + 1);

	make_plan(&p, full, 4, 4);
	assert_int_equal(plan_rotate(&p, base, false, err, sizeof(err)), 0);
	check_rotation(&p, false);
	assert_int_equal(p.always_on, 1u << 3); /* 3 + 2 > 4: group 0 takes turns */
	assert_int_equal(p.nslices, 2);
}

/*
 * A group of fixed counters alone is on in every slice even where the GP
 * groups fill the PMU; a GP group's event on a fixed counter it holds is
 * counted on a GP counter.
 */
static void fixed_group_always_on(void **state)
{
	static struct plan p;
	static const int gp[] = { 1, 4, 3, 0 };
	char err[256];

	(void)state;
	make_plan(&p, gp, 4, 4);
	p.ev[0].kind = EVENT_FIXED; /* group 0: one event on fixed counter 1 */
	p.ev[0].fixed = 1;
	p.ev[p.first[2]].kind = EVENT_FIXED; /* group 2: 2 GP + the same fixed counter */
	p.ev[p.first[2]].fixed = 1;
	assert_int_equal(plan_rotate(&p, NULL, false, err, sizeof(err)), 0);
	check_rotation(&p, false);
	assert_int_equal(p.always_on, 1u << 0 | 1u << 3);
	assert_int_equal(p.nslices, 2); /* 4, then 3: no room for both */
	assert_int_equal(p.slice_groups[0], 1u << 0 | 1u << 1 | 1u << 3);
	assert_int_equal(p.slice_groups[1], 1u << 0 | 1u << 2 | 1u << 3);
}

/* Groups that fit together: one slice, nothing rotates, every event read. */
static void fitting_plan_does_not_rotate(void **state)
{
	static struct plan p;
	static const int small[] = { 2, 1, 0 };
	char err[256];

	(void)state;
	make_plan(&p, small, 3, 4);
	assert_int_equal(plan_rotate(&p, NULL, false, err, sizeof(err)), 0);
	assert_int_equal(p.nslices, 1);
	assert_int_equal(p.always_on, 7);
	assert_int_equal(p.reads_per_switch, p.nevents);
}

/* A group larger than the counters (a plan for more counters than usable): refused. */
static void group_no_slice_holds(void **state)
{
	static struct plan p;
	static const int big[] = { 2, 5, 0 };
	char err[256];

	(void)state;
	make_plan(&p, big, 3, 4);
	assert_int_equal(plan_rotate(&p, NULL, false, err, sizeof(err)), -ENOSPC);
	if (!strstr(err, "group 1") || !strstr(err, "5 general-purpose") || !strstr(err, "4 are") ||
	    !strstr(err, "could never be on the PMU"))
		fail_msg("reason not given: %s", err);
}

/*
 * Offcore response: groups whose events together need more offcore-response
 * MSRs than the PMU's two never share a slice, though their counters would
 * fit; groups reading the same MSR value do.  The same for another extra
 * MSR (MSR_PEBS_FRONTEND) and its one value.
 */
static void slices_keep_to_the_msrs(void **state)
{
	static struct plan p;
	static const int one_each[] = { 1, 1, 1, 1 };
	static const uint64_t ocr[] = { 0x10003c0002, 0x10001, 0x20001, 0x10001 };
	char err[256];

	(void)state;
	make_plan(&p, one_each, 4, 8);
	for (int g = 0; g < 4; g++)
		p.ev[p.first[g]].attr.config1 = ocr[g];
	assert_int_equal(plan_rotate(&p, NULL, false, err, sizeof(err)), 0);
	check_rotation(&p, false);
	assert_int_equal(p.always_on, 0);
	/* groups 0, 1 and 3 need two values; group 2's third its own slice */
	assert_int_equal(p.nslices, 2);
	assert_int_equal(p.slice_groups[0], 1u << 0 | 1u << 1 | 1u << 3);
	assert_int_equal(p.slice_groups[1], 1u << 2);
	for (int s = 0; s < p.nslices; s++) {
		uint64_t seen[4];
		int n = 0;

		for (int i = 0; i < p.nevents; i++) {
			bool known = false;

			if (!plan_group_on(&p, plan_group_of(&p, i), s))
				continue;
			for (int k = 0; k < n; k++)
				known |= seen[k] == p.ev[i].attr.config1;
			if (!known)
				seen[n++] = p.ev[i].attr.config1;
		}
		if (n > 2)
			fail_msg("slice %d needs %d offcore-response MSRs", s, n);
	}

	make_plan(&p, one_each, 2, 8);
	p.ev[0].msr = p.ev[1].msr = 0x3f7;
	p.ev[0].attr.config1 = p.ev[1].attr.config1 = 0x11;
	assert_int_equal(plan_rotate(&p, NULL, false, err, sizeof(err)), 0);
	assert_int_equal(p.nslices, 1); /* one value: together */
	p.ev[1].attr.config1 = 0x12;
	assert_int_equal(plan_rotate(&p, NULL, false, err, sizeof(err)), 0);
	assert_int_equal(p.nslices, 2);
}

/* Software stand-ins (a description's software_counters): the fixture model rotates. */
static void software_stand_ins_rotate(void **state)
{
	static struct plan p;
	char root[4096], dir[4200], err[512];
	struct tma_model *m;
	struct plan_request r = { .level = 6 };

	(void)state;
	assert_int_equal(repo_root(root, sizeof(root)), 0);
	snprintf(dir, sizeof(dir), "%s/tests/fixtures/rotation", root);
	setenv("TMACG_MODEL_DIR", dir, 1);
	cpu_desc_reset();
	m = test_model_builtin("rot");
	r.model = m;
	assert_int_equal(plan_for_model(&r, &p, err, sizeof(err)), 0);
	assert_int_equal(p.gp_counters, 2);
	assert_int_equal(p.nevents, 6);
	assert_int_equal(p.ngroups, 3); /* 6 events, two counters */
	check_rotation(&p, true);
	assert_int_equal(p.nslices, 3);
	assert_true(p.reads_per_switch <= 2);
	r.level = 3;
	assert_int_equal(plan_for_model(&r, &p, err, sizeof(err)), 0);
	assert_int_equal(p.nslices, 1);
	assert_int_equal(p.nevents, 3);
	model_free(m);
	unsetenv("TMACG_MODEL_DIR");
	cpu_desc_reset();
}

/*
 * --list-events --level 6 says how the kernel multiplexes the groups, the
 * pinned ones and the sets, its figures the plan's; a level the model lacks
 * is exit 2.
 */
static void list_events_shows_rotation(void **state)
{
	static char text[1 << 16];
	static struct plan p;
	const char *spr6[] = { "tmacg", "--list-events", "--model", "spr", "--level", "6", NULL };
	const char *spr3[] = { "tmacg", "--list-events", "--model", "spr", "--level", "3", NULL };
	const char *srf6[] = { "tmacg", "--list-events", "--model", "srf", "--level", "6", NULL };
	struct tma_model *m = test_model_builtin("spr");
	struct plan_request r = { .model = m, .level = 6 };
	int groups = 0, one_set = 0, most = 0;
	const char *line;
	char err[512];

	(void)state;
	assert_int_equal(plan_for_model(&r, &p, err, sizeof(err)), 0);
	model_free(m);
	assert_int_equal(offline_capture(STDOUT_FILENO, NULL, 6, spr6, text, sizeof(text)), 0);
	line = strstr(text, "levels 4-6: ");
	if (!line ||
	    sscanf(line, "levels 4-6: %d groups multiplexed by the kernel on each CPU", &groups) !=
		    1 ||
	    !strstr(line, "(every perf_event_mux_interval_ms); a switch reads every leader and the "
			  "members of the groups that counted since the last: ") ||
	    sscanf(strstr(line, "since the last: "),
		   "since the last: %d events when one set counted, at most %d", &one_set,
		   &most) != 2 ||
	    !strstr(text, "\n  multiplexed, in sets the PMU holds at once: 1") ||
	    !strstr(text, "pinned, on all the time: groups 0 (the topdown group"))
		fail_msg("no multiplexing shown:\n%s", text);
	assert_int_equal(groups, p.ngroups);
	assert_int_equal(most, p.nevents);
	/* Every leader, and one set's members: more than one set's reads, fewer than all. */
	assert_true(one_set > p.reads_per_switch && one_set < p.nevents);
	assert_null(strstr(text, "slice"));
	assert_int_equal(offline_capture(STDOUT_FILENO, NULL, 6, spr3, text, sizeof(text)), 0);
	assert_null(strstr(text, "multiplexed"));
	assert_null(strstr(text, "pinned"));
	assert_int_equal(offline_capture(STDERR_FILENO, NULL, 6, srf6, text, sizeof(text)), 2);
	if (!strstr(text, "srf has 3 levels"))
		fail_msg("reason not given: %s", text);
}

/*
 * A plan with a group the PMU can never hold (an event no usable counter can take: the fixture
 * CPU nocounter has none) is a usage error, exit 2, naming the event and the
 * counters; at --level 4 as at 1.
 */
static void event_no_counter_holds_is_exit_2(void **state)
{
	static char text[1 << 12];
	char root[4096], dir[4200];
	const char *argv[] = { "tmacg", "--list-events", "--model", "nocounter", "--level", "4",
			       NULL };

	(void)state;
	assert_int_equal(repo_root(root, sizeof(root)), 0);
	snprintf(dir, sizeof(dir), "%s/tests/fixtures/refused", root);
	setenv("TMACG_MODEL_DIR", dir, 1);
	cpu_desc_reset();
	assert_int_equal(offline_capture(STDERR_FILENO, NULL, 6, argv, text, sizeof(text)), 2);
	if (!strstr(text, "SW.CONTEXT_SWITCHES cannot be counted") ||
	    !strstr(text, "but 0 are usable"))
		fail_msg("reason not given: %s", text);
	unsetenv("TMACG_MODEL_DIR");
	cpu_desc_reset();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(deep_models_rotate),
		cmocka_unit_test(level_deeper_than_model),
		cmocka_unit_test(base_groups_always_on),
		cmocka_unit_test(topdown_group_always_on),
		cmocka_unit_test(fixed_group_always_on),
		cmocka_unit_test(fitting_plan_does_not_rotate),
		cmocka_unit_test(group_no_slice_holds),
		cmocka_unit_test(slices_keep_to_the_msrs),
		cmocka_unit_test(software_stand_ins_rotate),
		cmocka_unit_test(list_events_shows_rotation),
		cmocka_unit_test(event_no_counter_holds_is_exit_2),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
