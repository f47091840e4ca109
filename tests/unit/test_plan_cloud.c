// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The plans of the cloud's newer cores, through the planner's public interface only
 * (plan_for_model, the plan's groups and slices), checked against their PMUs: Arm's Neoverse
 * V3 and N3 (six event counters and the cycle counter, Arm giving no count: the six every
 * Neoverse has) and AMD's Zen 6 (six core counters, no fixed one).  Level 1 is one group;
 * levels 2-3 are groups each within the counters, which the kernel multiplexes; level 4's
 * groups take turns, each slice within the counters; every event planned once.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "model/model.h"
#include "pmu/cpu_desc.h"
#include "pmu/plan_model.h"
#include "pmu/planner.h"
#include "test_models.h"

#define COUNTERS 6

/* Whether the GP events of masks[0..n) can each have a counter of their own (brute force). */
static bool assignable(const uint32_t *masks, int n, unsigned int used)
{
	if (!n)
		return true;
	for (int c = 0; c < COUNTERS; c++)
		if ((masks[0] >> c & 1) && !(used >> c & 1) &&
		    assignable(masks + 1, n - 1, used | 1u << c))
			return true;
	return false;
}

/*
 * Every group within the counters (fixed events on distinct fixed counters, the GP ones
 * assignable), every event the model needs at this level planned exactly once (a
 * group_cycles copy once per group), nothing else.
 */
static void check_groups(const struct plan_request *r, const struct plan *p, int gp)
{
	int n = model_event_count(r->model);
	bool *need = calloc((size_t)n + 1, sizeof(*need));

	assert_non_null(need);
	assert_int_equal(p->gp_counters, gp);
	for (int g = 0; g < p->ngroups; g++) {
		uint32_t masks[PLAN_MAX_EVENTS], fixed = 0;
		int ngp = 0;

		for (int i = p->first[g]; i < p->first[g + 1]; i++) {
			const struct event_enc *e = &p->ev[i];

			if (e->kind == EVENT_FIXED) {
				assert_false(fixed >> e->fixed & 1);
				fixed |= 1u << e->fixed;
			} else {
				assert_int_equal(e->kind, EVENT_GP);
				masks[ngp++] = e->counter_mask;
			}
		}
		if (ngp > gp || !assignable(masks, ngp, 0))
			fail_msg("%s level %d: group %d (%d GP events) does not fit %d counters",
				 model_id(r->model), r->level, g, ngp, gp);
	}
	model_events_needed(r->model, r->level, false, plan_model_flags(r), need);
	for (int k = 0; k < n; k++) {
		const char *name = model_event_name(r->model, k);
		int copies = 0;

		for (int i = 0; i < p->nevents; i++)
			copies += !strcmp(p->ev[i].name, name);
		if (!need[k] ? copies != 0 :
			       copies != (p->has_group_cycles && plan_index(p, name) ==
									 p->cycles_of_group[0] ?
						  p->ngroups :
						  1))
			fail_msg("%s level %d: %s planned %d times", model_id(r->model), r->level,
				 name, copies);
	}
	free(need);
}

/* The rotation: each group on in one slice or in all, and each slice within the counters. */
static void check_slices(const struct plan *p, int gp)
{
	assert_true(p->nslices > 1);
	for (int g = 0; g < p->ngroups; g++) {
		int on = 0;

		for (int s = 0; s < p->nslices; s++)
			on += plan_group_on(p, g, s);
		assert_true(on == 1 || (on == p->nslices && (p->always_on >> g & 1)));
	}
	for (int s = 0; s < p->nslices; s++) {
		int ngp = 0, nfixed = 0;

		for (int g = 0; g < p->ngroups; g++)
			for (int i = p->first[g]; plan_group_on(p, g, s) && i < p->first[g + 1];
			     i++)
				p->ev[i].kind == EVENT_GP ? ngp++ : nfixed++;
		if (ngp > gp || nfixed > 1)
			fail_msg("slice %d takes %d event counters and %d cycle counters", s, ngp,
				 nfixed);
	}
}

/*
 * V3 and N3 (MORE-CPUS.md): level 1 reads seven events, CPU_CYCLES on the cycle counter and
 * six on the event counters, in one group; the tree reads 23, planned in groups of six at
 * levels 2-3 and in turns at level 4; there is no level 5.  On a host whose NMI watchdog is on,
 * Arm's perf-based watchdog holds the cycle counter, not an event counter: the same plan.
 */
static void test_arm_v3_n3(void **state)
{
	static const char *const ids[] = { "neoverse-v3", "neoverse-n3" };
	static struct plan p;
	char err[512] = "";

	(void)state;
	for (size_t k = 0; k < 2; k++) {
		const struct cpu_desc *d = cpu_desc_for_model(ids[k]);
		struct cpu_info host = { .has_pmu = true,
					 .pmu_type = 8,
					 .cpu = d,
					 .gp_counters = COUNTERS,
					 .nmi_watchdog = true,
					 .gp_usable = COUNTERS };
		struct plan_request r = { .model = test_model_builtin(ids[k]) };

		assert_non_null(d);
		assert_int_equal(d->gp_counters, COUNTERS);
		assert_int_equal(d->fixed_counters, 1);
		assert_int_equal(plan_model_depth(r.model), 4);
		for (int on_host = 0; on_host < 2; on_host++) {
			r.cpu = on_host ? &host : NULL;
			for (r.level = 1; r.level <= 4; r.level++) {
				if (plan_for_model(&r, &p, err, sizeof(err)))
					fail_msg("%s level %d: %s", ids[k], r.level, err);
				check_groups(&r, &p, COUNTERS);
				assert_int_equal(p.ev[0].attr.type, on_host ? 8 : 4);
				if (r.level == 1) {
					assert_int_equal(p.ngroups, 1);
					assert_int_equal(p.nevents, 7);
					assert_int_equal(p.ev[plan_index(&p, "CPU_CYCLES")].kind,
							 EVENT_FIXED);
				}
				if (r.level < 4)
					assert_int_equal(p.nslices, 1);
				else
					check_slices(&p, COUNTERS);
			}
			assert_int_equal(p.nevents, 23);
			r.level = 5;
			assert_int_equal(plan_for_model(&r, &p, err, sizeof(err)), -EDOM);
			assert_non_null(strstr(err, "has 4 levels"));
		}
		model_free((struct tma_model *)r.model);
	}
}

/*
 * Zen 6 (MORE-CPUS.md): Zen 5's six level-1 events fill the six counters in one group; with
 * the NMI watchdog holding one (five) they split into two, each with its own cycles; level 2
 * fits both ways.
 */
static void test_zen6(void **state)
{
	static struct plan p;
	char err[512] = "";
	struct plan_request r = { .model = test_model_builtin("zen6"), .level = 1 };

	(void)state;
	assert_int_equal(plan_for_model(&r, &p, err, sizeof(err)), 0);
	check_groups(&r, &p, COUNTERS);
	assert_int_equal(p.ngroups, 1);
	assert_int_equal(p.nevents, 6);
	for (r.level = 1; r.level <= 3; r.level++) {
		for (int wd = 0; wd < 2; wd++) {
			r.watchdog = wd;
			if (plan_for_model(&r, &p, err, sizeof(err)))
				fail_msg("zen6 level %d: %s", r.level, err);
			check_groups(&r, &p, COUNTERS - wd);
			assert_true(p.has_group_cycles);
			for (int g = 0; g < p.ngroups; g++)
				assert_string_equal(p.ev[p.cycles_of_group[g]].name,
						    "ls_not_halted_cyc");
			if (r.level == 1)
				assert_int_equal(p.ngroups, 1 + wd);
		}
	}
	r.level = 4;
	assert_int_equal(plan_for_model(&r, &p, err, sizeof(err)), -EDOM);
	model_free((struct tma_model *)r.model);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_arm_v3_n3),
		cmocka_unit_test(test_zen6),
	};

	unsetenv("TMACG_MODEL_DIR");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
