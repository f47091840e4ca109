// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Replay keeps what it reads or refuses it: every number of a tmacg/1 line at
 * the edge of its field's range is written back as it came, and one past the
 * edge is refused with its line, never wrapped, clamped or rounded.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "replay/replay_read.h"
#include "replay/replay_run.h"
#include "replay_text.h"

/* A tmacg/1 line of the software model with ORIGIN's keys, COUNTS and QUALITY spliced in. */
#define LINE(time, origin, counts, quality)                                                      \
	"{\"schema\":\"tmacg/1\",\"time\":\"" time "\",\"interval_s\":1,\"model\":\"software\"," \
	"\"cgroup\":\"/a\"" origin                                                               \
	",\"counts\":{\"SW.CPU_CLOCK\":1000,\"SW.CPU_MIGRATIONS\":0" counts "},\"quality\":{"    \
	"\"running_min\":1" quality "}}\n"
#define T0 "2026-11-21T10:00:01.000000000Z"

static void refused(const char *text, const char *says)
{
	struct replay_data d;
	char err[512] = "";

	assert_int_equal(replay_read_text(text, &d, err, sizeof(err)), -EINVAL);
	if (!strstr(err, says))
		fail_msg("%s: said \"%s\", not \"%s\"", text, err, says);
	assert_true(!strncmp(err, "in.jsonl:1: ", 12));
	assert_int_equal(d.nrecords, 0);
}

static void test_out_of_range_refused(void **state)
{
	(void)state;
	/* ids */
	refused(LINE(T0, ",\"cgroup_id\":18446744073709551616", "", ""),
		"18446744073709551616 is out of the range of a 64-bit integer");
	refused(LINE(T0, ",\"cgroup_id\":99999999999999999999999999", "", ""),
		"99999999999999999999999999 is out of the range of a 64-bit integer");
	refused(LINE(T0, ",\"cgroup_id\":-1", "", ""),
		"\"cgroup_id\" must be an integer from 1 to 2^64-1, or null");
	refused(LINE(T0, ",\"cgroup_id\":0", "", ""),
		"\"cgroup_id\" must be an integer from 1 to 2^64-1, or null");
	refused(LINE(T0, ",\"cgroup_id\":1.5", "", ""), "\"cgroup_id\" must be an integer");
	refused(LINE(T0, ",\"task\":{\"tid\":4294967296,\"tgid\":1,\"comm\":\"x\"}", "", ""),
		"\"task\" must be an object of tid and tgid (0 to 2^32-1)");
	refused(LINE(T0, ",\"task\":{\"tid\":1,\"tgid\":-1,\"comm\":\"x\"}", "", ""),
		"\"task\" must be an object of tid and tgid (0 to 2^32-1)");
	/* counts: finite, not negative, held exactly by a double */
	refused(LINE(T0, "", ",\"X\":1e400", ""), "counter \"X\" is 1e400: a count that a double");
	refused(LINE(T0, "", ",\"X\":1e-400", ""), "counter \"X\" is 1e-400");
	refused(LINE(T0, "", ",\"X\":9007199254740993", ""),
		"counter \"X\" is 9007199254740993: a count that a double does not hold exactly");
	refused(LINE(T0, "", ",\"X\":-3", ""), "counter \"X\" is -3: counts are finite and not");
	refused(LINE(T0, "", ",\"X\":-99999999999999999999", ""),
		"-99999999999999999999 is out of the range of a 64-bit integer");
	/* quality's counts and shares */
	refused(LINE(T0, "", "", ",\"dropped\":-1"), "\"quality\" must be an object as tmacg");
	refused(LINE(T0, "", "", ",\"map_full\":18446744073709551616"),
		"18446744073709551616 is out of the range");
	refused(LINE(T0, "", "", ",\"pmu_groups\":2147483648"), "\"quality\" must be");
	refused(LINE(T0, "", "", ",\"pmu_groups\":-2"), "\"quality\" must be");
	refused("{\"schema\":\"tmacg/1\",\"time\":\"" T0 "\",\"interval_s\":1,\"cgroup\":\"/a\","
		"\"counts\":{},\"quality\":{\"running_min\":1.5}}\n",
		"\"quality\" must be");
	/* interval */
	refused("{\"cgroup\":\"/a\",\"interval_s\":1e999,\"counters\":{}}\n",
		"\"interval_s\" must be a positive number");
	/* times RFC 3339 and the writer cannot give back */
	static const char *const times[] = {
		"10000-01-01T00:00:00Z",
		"-001-01-01T00:00:00Z",
		"999-12-31T23:59:59Z",
		"2026-13-01T00:00:00Z",
		"2026-02-29T00:00:00Z",
		"2026-04-31T00:00:00Z",
		"2026-11-21T24:00:00Z",
		"2026-11-21T10:60:00Z",
		"2026-11-21T10:00:60Z",
		"2026-11-21T10:00:01.0000000001Z",
		"2026-11-21T10:00:01.Z",
		"2026-11-21T10:00:01+01:00",
		"2026-11-21 10:00:01Z",
		"2026-1-21T10:00:01Z",
		/* what sscanf would take: a sign, a space, a day 0 */
		"+026-11-21T10:00:01Z",
		"2026-11- 1T10:00:01Z",
		"2026-11-00T10:00:01Z",
	};
	for (size_t i = 0; i < sizeof(times) / sizeof(times[0]); i++) {
		char text[512];

		snprintf(text, sizeof(text),
			 "{\"schema\":\"tmacg/1\",\"time\":\"%s\",\"interval_s\":1,"
			 "\"cgroup\":\"/a\",\"counts\":{}}\n",
			 times[i]);
		refused(text, "\"time\" must be RFC 3339 UTC time from year 0000 to 9999");
	}
}

/* The one line of text replayed as JSON, parsed. */
static json_object *replayed(const char *text)
{
	char err[512] = "", *out = NULL;
	size_t len = 0;
	struct replay_data d;
	struct tma_model *m = model_load_builtin("software", err, sizeof(err));
	FILE *o = open_memstream(&out, &len);
	json_object *j;

	assert_non_null(m);
	if (replay_read_text(text, &d, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(replay_run_data(&d, m, 1, true, false, false, o, stderr), 0);
	fclose(o);
	j = json_tokener_parse(out);
	assert_non_null(j);
	free(out);
	replay_free(&d);
	model_free(m);
	return j;
}

static json_object *at(json_object *o, const char *a, const char *b)
{
	json_object *x = json_object_object_get(o, a);

	return b ? json_object_object_get(x, b) : x;
}

/* The edges themselves come back as they were. */
static void test_edges_kept(void **state)
{
	static const struct {
		const char *time, *written;
	} times[] = {
		{ "9999-12-31T23:59:59.999999999Z", "9999-12-31T23:59:59.999999999Z" },
		{ "1000-01-01T00:00:00Z", "1000-01-01T00:00:00.000000000Z" },
		{ "0999-12-31T23:59:59Z", "0999-12-31T23:59:59.000000000Z" },
		{ "0000-01-01T00:00:00Z", "0000-01-01T00:00:00.000000000Z" },
		{ "0000-02-29T00:00:00Z", "0000-02-29T00:00:00.000000000Z" }, /* 0 is a leap year */
		{ "2024-02-29T12:30:00.5Z", "2024-02-29T12:30:00.500000000Z" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(times) / sizeof(times[0]); i++) {
		char text[1024];
		json_object *j;

		snprintf(text, sizeof(text),
			 "{\"schema\":\"tmacg/1\",\"time\":\"%s\",\"interval_s\":0.25,"
			 "\"model\":\"software\",\"cgroup\":\"/a\","
			 "\"cgroup_id\":18446744073709551615,"
			 "\"task\":{\"tid\":4294967295,\"tgid\":0,\"comm\":\"x\"},"
			 "\"counts\":{\"SW.CPU_CLOCK\":9007199254740992,\"SW.PAGE_FAULTS\":0.1,"
			 "\"SW.CONTEXT_SWITCHES\":1.7976931348623157e308,\"SW.CPU_MIGRATIONS\":1},"
			 "\"quality\":{\"running_min\":0,\"dropped\":18446744073709551615,"
			 "\"map_full\":0,\"pmu_groups\":2147483647}}\n",
			 times[i].time);
		j = replayed(text);
		assert_string_equal(json_object_get_string(at(j, "time", NULL)), times[i].written);
		assert_true(json_object_get_uint64(at(j, "cgroup_id", NULL)) == UINT64_MAX);
		assert_int_equal(json_object_get_int64(at(j, "task", "tid")), 4294967295LL);
		assert_int_equal(json_object_get_int64(at(j, "task", "tgid")), 0);
		assert_true(json_object_get_double(at(j, "counts", "SW.CPU_CLOCK")) ==
			    9007199254740992.0);
		assert_true(json_object_get_double(at(j, "counts", "SW.PAGE_FAULTS")) == 0.1);
		assert_true(json_object_get_double(at(j, "counts", "SW.CONTEXT_SWITCHES")) ==
			    1.7976931348623157e308);
		assert_true(json_object_get_double(at(j, "interval_s", NULL)) == 0.25);
		assert_true(json_object_get_uint64(at(j, "quality", "dropped")) == UINT64_MAX);
		assert_int_equal(json_object_get_int64(at(j, "quality", "pmu_groups")), 2147483647);
		assert_true(json_object_get_double(at(j, "quality", "running_min")) == 0);
		json_object_put(j);
	}
}

/* smt true, false or null (a host that did not say) comes back as it was read. */
static void test_flags_kept(void **state)
{
	static const char *const smt[] = { "true", "false", "null" };

	(void)state;
	for (size_t i = 0; i < sizeof(smt) / sizeof(smt[0]); i++) {
		char text[1024];
		json_object *j, *v = NULL;

		snprintf(text, sizeof(text),
			 "{\"schema\":\"tmacg/1\",\"time\":\"2026-11-21T10:00:01Z\","
			 "\"interval_s\":1,\"model\":\"software\",\"cgroup\":\"/a\","
			 "\"counts\":{\"SW.CPU_CLOCK\":1000},\"topdown_fixed\":false,\"smt\":%s}\n",
			 smt[i]);
		j = replayed(text);
		assert_true(json_object_object_get_ex(j, "smt", &v));
		assert_string_equal(v ? json_object_to_json_string(v) : "null", smt[i]);
		assert_false(json_object_get_boolean(at(j, "topdown_fixed", NULL)));
		json_object_put(j);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_out_of_range_refused),
		cmocka_unit_test(test_edges_kept),
		cmocka_unit_test(test_flags_kept),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
