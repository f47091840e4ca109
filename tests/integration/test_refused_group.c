// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * A perf group the kernel refuses to open (issue 27, item 9): the fixture
 * model ref (tests/fixtures/refused) puts SW.REFUSED, a software event no
 * kernel has, in a group of its own with SW.CPU_MIGRATIONS.  tmacg must name
 * that group once on stderr (not once per CPU or interval), keep running,
 * measure the other groups, and write the node reading it as null in every
 * line with the reason in quality.unmeasured, quality.running_min not taking
 * it in; at --level 2 (every group on)
 * and at --level 4 (groups in turns) alike.  It used to exit at start: one
 * group refused on one CPU stopped the whole run.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "itest.h"
#include "text_count.h"

static int setup(void **state)
{
	return itest_fixture_setup(state, "refused");
}

static void refused_group_is_null_with_its_reason(const char *level, const char *deep_node)
{
	const char *args[] = { "--model",    "ref",   "--level",  level,  "--count", "3",
			       "--interval", "300ms", "--format", "json", NULL };
	struct itest_tmacg t;
	json_object **lines;
	size_t n;
	int measured = 0, deep = 0;

	ITEST_NEED_ROOT();
	assert_int_equal(itest_tmacg_start(&t, args), 0);
	lines = itest_stop_json(&t, 0, &n);
	if (t.status != 0 || n < 3)
		fail_msg("--level %s: exit %d, %zu lines:\n%s", level, t.status, n, t.err);
	/* Named once, with the kernel's reason, whatever the number of CPUs and intervals. */
	if (text_count(t.err, "SW.REFUSED)") != 1 ||
	    !strstr(t.err, "cannot open event SW.REFUSED on CPU") || !strstr(t.err, "null"))
		fail_msg("--level %s: the refused group is not named once:\n%s", level, t.err);
	for (size_t i = 0; i < n; i++) {
		const char *why = itest_str(lines[i], "quality.unmeasured.Refused");
		json_object *metrics, *refused;

		assert_true(json_object_object_get_ex(lines[i], "metrics", &metrics));
		if (!json_object_object_get_ex(metrics, "Refused", &refused) || refused)
			fail_msg("--level %s: Refused is not null: %s", level,
				 json_object_to_json_string(lines[i]));
		if (!why || !strstr(why, "SW.REFUSED"))
			fail_msg("--level %s: no reason for Refused: %s", level,
				 json_object_to_json_string(lines[i]));
		assert_null(itest_str(lines[i], "quality.unmeasured.Switching"));
		/* The refused group never ran, and never counts as a group that could have. */
		if (!strcmp(itest_str(lines[i], "cgroup"), "/") &&
		    !(itest_num(lines[i], "quality.running_min") > 0))
			fail_msg("--level %s: running_min takes the refused group in: %s", level,
				 json_object_to_json_string(lines[i]));
		measured += !isnan(itest_num(lines[i], "metrics.Switching"));
		deep += !isnan(itest_num(lines[i], deep_node));
	}
	printf("  --level %s: %zu lines, Refused null in all, Switching in %d, %s in %d\n", level,
	       n, measured, deep_node, deep);
	/* The other groups are measured: the root cgroup switches in every interval. */
	assert_true(measured > 0);
	assert_true(deep > 0);
	itest_json_free(lines, n);
	itest_tmacg_free(&t);
}

/* Levels 1-2: every group on at every switch, but the refused one. */
static void refused_group_every_group_on(void **state)
{
	(void)state;
	refused_group_is_null_with_its_reason("2", "metrics.Faulting");
}

/* Level 4: the groups in turns, the refused one's slice reading nothing. */
static void refused_group_in_turns(void **state)
{
	(void)state;
	refused_group_is_null_with_its_reason("4", "metrics.Busy");
}

/* The HTML report: the refused node null over the run, with why it was never measured. */
static void refused_group_in_html(void **state)
{
	const char *args[] = { "--model", "ref",     "--level", "4", "--interval",
			       "300ms",	  "--count", "2",	NULL };
	json_object *data, *root, *v;
	const char *why;

	(void)state;
	ITEST_NEED_ROOT();
	data = itest_html_run(args);
	root = itest_html_cgroup(data, "/");
	why = itest_str(root, "q.unmeasured.Refused");
	if (!why || !strstr(why, "SW.REFUSED"))
		fail_msg("no reason for Refused in the report");
	assert_true(json_object_object_get_ex(root, "v", &v));
	assert_null(json_object_array_get_idx(v, 1)); /* Refused, second in the model */
	assert_non_null(json_object_array_get_idx(v, 0));
	json_object_put(data);
}

/* Live, a plan the PMU can never hold (an event no usable counter can take) is exit 2, with why. */
static void event_no_counter_holds_is_exit_2(void **state)
{
	char cmd[4200], out[2048] = "";

	(void)state;
	ITEST_NEED_ROOT();
	snprintf(cmd, sizeof(cmd), "'%s' --model nocounter --level 4 --count 1 2>&1",
		 getenv("TMACG"));
	assert_int_equal(itest_shell(cmd, out, sizeof(out)), 2);
	if (!strstr(out, "cannot be counted") || !strstr(out, "0 are usable"))
		fail_msg("no reason given: %s", out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(refused_group_every_group_on, itest_cleanup),
		cmocka_unit_test_teardown(refused_group_in_turns, itest_cleanup),
		cmocka_unit_test_teardown(refused_group_in_html, itest_cleanup),
		cmocka_unit_test(event_no_counter_holds_is_exit_2),
	};

	return cmocka_run_group_tests_name("refused_group", tests, setup, NULL);
}
