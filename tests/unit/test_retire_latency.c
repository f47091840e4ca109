// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Retire latencies (user/model/retire_latency.c): Intel's file format as --retire-latency
 * reads it, each malformed case refused with its reason, and how one model's latencies are
 * laid out: given first, Intel's defaults for the rest, no value (null nodes) otherwise.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "model/retire_latency.h"

static int parse(const char *text, struct rl_table *t, char *err, size_t errlen)
{
	return rl_table_parse_intel(text, strlen(text), "r.json", t, err, errlen);
}

static void refused(const char *text, const char *want)
{
	struct rl_table t = { 0 };
	char err[512] = "";

	assert_int_equal(parse(text, &t, err, sizeof(err)), -EINVAL);
	if (!strstr(err, want))
		fail_msg("'%s': message '%s' lacks '%s'", text, err, want);
	assert_int_equal(t.n, 0);
}

/* The shape Intel publishes (tools/perfmon/graniterapids_retire_latency.json). */
static void test_intel_format(void **state)
{
	struct rl_table t = { 0 };
	char err[512] = "";

	(void)state;
	assert_int_equal(parse("{\"Platform\": {\"Model\": \"173\"}, \"Data\": {"
			       "\"MEM_INST_RETIRED.LOCK_LOADS\": {\"MIN\": 0, \"MAX\": 9, "
			       "\"MEAN\": 63.76}, \"A.B\": {\"MEAN\": 19}}}",
			       &t, err, sizeof(err)),
			 0);
	assert_int_equal(t.n, 2);
	assert_float_equal(*rl_table_find(&t, "MEM_INST_RETIRED.LOCK_LOADS"), 63.76, 0);
	assert_float_equal(*rl_table_find(&t, "A.B"), 19, 0);
	assert_null(rl_table_find(&t, "C.D"));
	rl_table_free(&t);
	/* the published file itself */
	assert_int_equal(rl_table_read_file("tools/perfmon/graniterapids_retire_latency.json", &t,
					    err, sizeof(err)),
			 0);
	assert_int_equal(t.n, 26);
	assert_float_equal(*rl_table_find(&t, "FRONTEND_RETIRED.L2_MISS"), 137.41, 0);
	rl_table_free(&t);
}

static void test_malformed(void **state)
{
	struct rl_table t = { 0 };
	char err[512] = "";

	(void)state;
	refused("{\"Data\": ", "r.json: bad JSON");
	refused("[1]", "no \"Data\" object");
	refused("{\"data\": {}}", "no \"Data\" object");
	refused("{\"Data\": {}}", "\"Data\" lists no event");
	refused("{\"Data\": {\"A.B\": 5}}", "Data.A.B has no \"MEAN\"");
	refused("{\"Data\": {\"A.B\": {\"MIN\": 1}}}", "Data.A.B has no \"MEAN\"");
	refused("{\"Data\": {\"A.B\": {\"MEAN\": \"5\"}}}", "Data.A.B.MEAN is not a number");
	refused("{\"Data\": {\"A.B\": {\"MEAN\": -2}}}", "a latency is 0 or more cycles");
	assert_int_equal(rl_table_read_file("/nonexistent/r.json", &t, err, sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "cannot open the retire-latency file"));
	/* /dev/zero has no end: refused at the size limit, not read forever */
	assert_int_equal(rl_table_read_file("/dev/zero", &t, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "larger than 4 MiB"));
}

/* Given wins, Intel's defaults fill in, a latency neither has stays NAN (null nodes). */
static void test_fill_and_sources(void **state)
{
	static const char text[] =
		"model t\nnode 1 N\n"
		"  formula A.B * A.B:retire_latency + C.D * C.D:retire_latency\n";
	char err[512];
	struct tma_model *m = model_load(text, strlen(text), "t.tma", err, sizeof(err));
	static const char plain[] = "model u\nnode 1 N\n  formula A.B\n";
	struct rl_table given = { 0 }, defaults = { 0 };
	int a, c;
	double lat[2];

	(void)state;
	assert_non_null(m);
	a = model_latency_index(m, "A.B");
	c = model_latency_index(m, "C.D");
	assert_int_equal(rl_table_add(&given, "A.B", 10), 0);
	assert_int_equal(rl_table_add(&given, "A.B", 11), -EEXIST);
	assert_int_equal(rl_table_add(&given, "X.Y", -1), -EINVAL);
	assert_int_equal(rl_table_add(&defaults, "A.B", 99), 0);
	assert_int_equal(rl_table_add(&defaults, "C.D", 7), 0);
	assert_int_equal(rl_fill(m, &given, &defaults, lat), RL_SOURCE_GIVEN | RL_SOURCE_DEFAULTS);
	assert_float_equal(lat[a], 10, 0);
	assert_float_equal(lat[c], 7, 0);
	assert_string_equal(rl_source_name(m, RL_SOURCE_GIVEN | RL_SOURCE_DEFAULTS),
			    "given+defaults");
	assert_int_equal(rl_fill(m, NULL, &defaults, lat), RL_SOURCE_DEFAULTS);
	assert_string_equal(rl_source_name(m, RL_SOURCE_DEFAULTS), "defaults");
	assert_int_equal(rl_fill(m, &given, NULL, lat), RL_SOURCE_GIVEN);
	assert_true(isnan(lat[c]));
	assert_string_equal(rl_source_name(m, RL_SOURCE_GIVEN), "given");
	assert_int_equal(rl_fill(m, NULL, NULL, lat), RL_SOURCE_NONE);
	assert_true(isnan(lat[a]) && isnan(lat[c]));
	assert_string_equal(rl_source_name(m, RL_SOURCE_NONE), "none");
	model_free(m);
	/* a model that reads none: no quality to state */
	m = model_load(plain, strlen(plain), "u.tma", err, sizeof(err));
	assert_non_null(m);
	assert_null(rl_source_name(m, RL_SOURCE_NONE));
	model_free(m);
	rl_table_free(&given);
	rl_table_free(&defaults);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_intel_format),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_fill_and_sources),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
