// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * A CPU description's software_standins (docs/cpu-format.md), as the bench
 * makes one (tests/bench/standin-model): icx's stand-in plans exactly as icx
 * does at levels 3 and 6 (the same events, kinds and counters in the same
 * groups, the same slices), every event opened as a software event, the two
 * stand-ins alternating within a group, so it runs live without a PMU; an
 * unknown stand-in is refused when the plan is made, naming it.
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

#include "repo_root.h"

#include "model/model.h"
#include "pmu/cpu_desc.h"
#include "pmu/plan_model.h"
#include "pmu/planner.h"

static char dir[] = "/tmp/tmacg-standin-XXXXXX";

/* The stand-in of icx, made by the bench's script into a directory of its own. */
static int make_standin(void **state)
{
	char root[4096], cmd[8400];

	(void)state;
	if (repo_root(root, sizeof(root)) || !mkdtemp(dir))
		return -1;
	snprintf(cmd, sizeof(cmd), "%s/tests/bench/standin-model icx %s >/dev/null", root, dir);
	if (system(cmd))
		return -1;
	setenv("TMACG_MODEL_DIR", dir, 1);
	cpu_desc_reset();
	return 0;
}

static int remove_standin(void **state)
{
	char cmd[256];

	(void)state;
	unsetenv("TMACG_MODEL_DIR");
	cpu_desc_reset();
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd) ? -1 : 0;
}

static void plan_of(const char *id, int level, struct plan *p)
{
	char err[512];
	struct tma_model *m = model_load_builtin(id, err, sizeof(err));
	struct plan_request r = { .level = level };

	if (!m)
		fail_msg("model %s: %s", id, err);
	r.model = m;
	if (plan_for_model(&r, p, err, sizeof(err)))
		fail_msg("%s at level %d: %s", id, level, err);
	model_free(m);
}

static void same_shape_opened_as_software(void **state)
{
	static struct plan real, standin;

	(void)state;
	for (int level = 3; level <= 6; level += 3) {
		plan_of("icx", level, &real);
		plan_of("icxsw", level, &standin);
		assert_true(plan_uses_pmu(&real));
		assert_false(plan_uses_pmu(&standin));
		assert_int_equal(standin.nevents, real.nevents);
		assert_int_equal(standin.ngroups, real.ngroups);
		assert_memory_equal(standin.first, real.first,
				    sizeof(real.first[0]) * (size_t)(real.ngroups + 1));
		assert_int_equal(standin.nslices, real.nslices);
		assert_int_equal(standin.always_on, real.always_on);
		assert_memory_equal(standin.slice_groups, real.slice_groups,
				    sizeof(real.slice_groups[0]) * (size_t)real.nslices);
		assert_int_equal(standin.reads_per_switch, real.reads_per_switch);
		for (int i = 0; i < real.nevents; i++) {
			const struct event_enc *e = &standin.ev[i];

			assert_string_equal(e->name, real.ev[i].name);
			assert_int_equal(e->kind, real.ev[i].kind);
			assert_int_equal(e->counter_mask, real.ev[i].counter_mask);
			assert_int_equal(e->attr.type, PERF_TYPE_SOFTWARE);
			/* In turn: neighbours count different things, so their ratios are not 1. */
			assert_int_equal(e->attr.config, i % 2 ? PERF_COUNT_SW_CONTEXT_SWITCHES :
								 PERF_COUNT_SW_CPU_CLOCK);
			/* Each group is enabled through its leader, as planned. */
			assert_int_equal(e->attr.disabled, real.ev[i].attr.disabled);
		}
		for (int g = 0; g < real.ngroups; g++)
			assert_false(plan_group_uses_pmu(&standin, g));
	}
	assert_int_equal(real.nslices, 19); /* level 6 rotates, level 3 did not */
}

/* A stand-in the kernel has no software event for: no plan, the file and the name said. */
static void unknown_standin_is_refused(void **state)
{
	static struct plan p;
	char path[4200], cmd[8600], err[512];
	struct tma_model *m;
	struct plan_request r = { .level = 3 };

	(void)state;
	snprintf(path, sizeof(path), "%s/icxsw.cpu", dir);
	snprintf(cmd, sizeof(cmd), "sed -i 's/^software_standins .*/software_standins SW.NOPE/' %s",
		 path);
	assert_int_equal(system(cmd), 0);
	cpu_desc_reset();
	m = model_load_builtin("icxsw", err, sizeof(err));
	assert_non_null(m);
	r.model = m;
	assert_int_not_equal(plan_for_model(&r, &p, err, sizeof(err)), 0);
	if (!strstr(err, "icxsw.cpu: software_standins: SW.NOPE: unknown software event"))
		fail_msg("reason not given: %s", err);
	model_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(same_shape_opened_as_software),
		cmocka_unit_test(unknown_standin_is_refused),
	};

	return cmocka_run_group_tests(tests, make_standin, remove_standin);
}
