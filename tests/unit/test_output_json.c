// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* JSON lines: valid JSON whatever the cgroup name, stable key order, nulls. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "collect/measured_sets.h"
#include "model/model.h"
#include "output/output_json.h"
#include "test_models.h"
#include "util/json_writer.h"
#include "util/double_text.h"

static char *render(const struct report_line *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(output_json_line(f, r), 0);
	fclose(f);
	return buf;
}

/* The line read back by json-c; the test fails on a line that is not JSON. */
static json_object *parsed(const char *line)
{
	json_object *o = json_tokener_parse(line);

	if (!o)
		fail_msg("not JSON: %s", line);
	return o;
}

/* A line of a built-in model with every node 0.125, its shares for the caller to set (NAN). */
struct measured_line {
	struct tma_model *m;
	struct model_result *result;
	double *fraction;
	int n;
};

/* As measured_line_open, on a model of the caller's (the line takes it). */
static void measured_line_of(struct measured_line *c, struct tma_model *m, struct report_line *r)
{
	c->m = m;
	c->n = model_node_count(c->m);
	c->result = model_result_new(c->m);
	c->fraction = calloc((size_t)c->n, sizeof(*c->fraction));
	assert_non_null(c->result);
	assert_non_null(c->fraction);
	for (int i = 0; i < c->n; i++) {
		c->fraction[i] = NAN;
		c->result->value[i] = 0.125;
	}
	r->tma = c->m;
	r->result = c->result;
	r->measured = c->fraction;
}

static void measured_line_open(struct measured_line *c, const char *model, struct report_line *r)
{
	measured_line_of(c, test_model_builtin(model), r);
}

static void measured_line_close(struct measured_line *c)
{
	free(c->fraction);
	model_result_free(c->result);
	model_free(c->m);
}

static void hostile_cgroup_names_stay_valid_json(void **state)
{
	static const char *names[] = { "/a\"b", "/back\\slash", "/ctl\x01\x1f\n\t", "/ünï",
				       "/end\\" };
	(void)state;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		struct report_line r = { .interval_s = 1,
					 .host = "h",
					 .model = "software",
					 .cgroup = names[i],
					 .cgroup_id = 7,
					 .running_min = NAN };
		char *line = render(&r);
		json_object *o = parsed(line);

		assert_non_null(o);
		assert_string_equal(json_object_get_string(json_object_object_get(o, "cgroup")),
				    names[i]);
		assert_int_equal(line[strlen(line) - 1], '\n');
		assert_null(strchr(line, '\n') == line + strlen(line) - 1 ? NULL : line);
		json_object_put(o);
		free(line);
	}
}

/*
 * A count whose name needs no escape is written as its key without the
 * scan (jw_plain_length says which), one that does is escaped: each reads
 * back as its name with its value.
 */
static void count_names_plain_and_escaped(void **state)
{
	static const char *const names[] = { "on_cpu_s", "INT_MISC.RECOVERY_CYCLES:c1:e1",
					     "msr/tsc/", "odd\"name", "ünï" };
	static const double values[] = { 0.5, 1234, 2.5e9, 7, 8 };
	size_t lens[5];
	struct report_line r = { .interval_s = 1,
				 .host = "h",
				 .model = "software",
				 .cgroup = "/a",
				 .ncounts = 5,
				 .count_names = names,
				 .count_values = values,
				 .running_min = NAN };
	char *line;
	json_object *o, *counts, *v;

	(void)state;
	for (int i = 0; i < 5; i++)
		lens[i] = jw_plain_length(names[i]);
	assert_int_equal(lens[0], 8);
	assert_int_equal(lens[1], strlen(names[1]));
	assert_int_equal(lens[3], 0); /* '"' */
	assert_int_equal(lens[4], 0); /* not ASCII */
	line = render(&r);
	assert_non_null(strstr(line, "\"odd\\\"name\":7,\"ünï\":8}"));
	o = parsed(line);
	counts = json_object_object_get(o, "counts");
	assert_int_equal(json_object_object_length(counts), 5);
	for (int i = 0; i < 5; i++) {
		assert_true(json_object_object_get_ex(counts, names[i], &v));
		assert_true(json_object_get_double(v) == values[i]);
	}
	json_object_put(o);
	free(line);
}

static void keys_come_in_schema_order(void **state)
{
	static const char *const names[] = { "on_cpu_s", "page_faults" };
	static const char *const missing[] = { "branch-misses", "cache-misses" };
	static const double values[] = { 0.83, NAN };
	struct report_line r = { .interval_s = 1.0,
				 .host = "node-7",
				 .model = "software",
				 .cgroup = "/svc",
				 .cgroup_id = 4821,
				 .ncounts = 2,
				 .count_names = names,
				 .count_values = values,
				 .running_min = 0.5,
				 .pmu_groups = 3,
				 .nmissing = 2,
				 .missing = missing,
				 .dropped = 3,
				 .map_full = 2,
				 .instance = "42@2026-11-23T06:00:00.000000001Z" };
	char *line = render(&r);
	const char *order[] = {
		"\"schema\":\"tmacg/1\"",
		"\"time\":",
		"\"interval_s\":1",
		"\"host\":\"node-7\"",
		"\"model\":\"software\"",
		"\"tma_version\":null",
		"\"cgroup\":\"/svc\"",
		"\"cgroup_id\":4821",
		"\"resource\":{}",
		"\"counts\":{\"on_cpu_s\":0.83,\"page_faults\":null}",
		"\"quality\":{\"running_min\":0.5,\"smt_shared\":false,\"dropped\":3,"
		"\"map_full\":2,\"instance\":\"42@2026-11-23T06:00:00.000000001Z\","
		"\"pmu_groups\":3,\"missing_events\":[\"branch-misses\",\"cache-misses\"],"
		"\"retire_latency\":null,\"no_top_down\":null}",
		"\"metrics\":{}",
		"\"flagged\":[]",
		"\"bottleneck\":null"
	};
	const char *at = line;

	(void)state;
	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		const char *p = strstr(at, order[i]);

		if (!p)
			fail_msg("missing or out of order: %s in %s", order[i], line);
		at = p;
	}
	free(line);
}

static void time_is_rfc3339_with_nanoseconds(void **state)
{
	struct report_line r = { .time = { .tv_sec = 1795255201, .tv_nsec = 5 },
				 .interval_s = 1,
				 .running_min = NAN };
	char *line = render(&r);

	(void)state;
	assert_non_null(strstr(line, "\"time\":\"2026-11-21T10:00:01.000000005Z\""));
	free(line);
}

static void doubles_print_shortest_round_trip(void **state)
{
	char buf[DOUBLE_TEXT_MAX];

	(void)state;
	shortest_double(0.83, buf);
	assert_string_equal(buf, "0.83");
	shortest_double(1e-9, buf);
	assert_string_equal(buf, "1e-09");
	shortest_double(0.1 + 0.2, buf);
	assert_true(strtod(buf, NULL) == 0.1 + 0.2);
	shortest_double(3.0, buf);
	assert_string_equal(buf, "3");
	shortest_double(260.0, buf);
	assert_string_equal(buf, "260");
	shortest_double(3.9e9, buf);
	assert_string_equal(buf, "3900000000");
	shortest_double(0.0, buf);
	assert_string_equal(buf, "0");
	shortest_double(-7.0, buf);
	assert_string_equal(buf, "-7");
	shortest_double(999999999999999.0, buf);
	assert_string_equal(buf, "999999999999999");
	shortest_double(-0.25, buf);
	assert_string_equal(buf, "-0.25");
	shortest_double(1e20, buf);
	assert_true(strtod(buf, NULL) == 1e20);
	shortest_double(1.0 / 3, buf);
	assert_string_equal(buf, "0.3333333333333333");
	shortest_double(0.1 + 0.2, buf);
	assert_string_equal(buf, "0.30000000000000004");
	shortest_double(0.5123149722138266, buf);
	assert_string_equal(buf, "0.5123149722138266");
	/* Shortest round trip over many values: never longer than %.17g, always exact. */
	for (int i = 1; i < 100000; i++) {
		double v = i / 7919.0;
		char longer[40];

		shortest_double(v, buf);
		snprintf(longer, sizeof(longer), "%.17g", v);
		assert_true(strtod(buf, NULL) == v);
		assert_true(strlen(buf) <= strlen(longer));
	}
}

/* The keys of object o, in order, joined by commas. */
static void key_list(json_object *o, char *out, size_t size)
{
	size_t used = 0;

	out[0] = '\0';
	json_object_object_foreach(o, key, val) {
		(void)val;
		used += snprintf(out + used, size - used, "%s%s", used ? "," : "", key);
		assert_true(used < size);
	}
}

/*
 * One printer's lines, as report.c writes intervals', against each line
 * written alone: the members an interval's lines share (head, quality's
 * from smt_shared to retire_latency, tail) are made once and copied, and
 * made again in each new interval whose differ (its time, more dropped,
 * other missing events, another host, SMT unknown, groups refused since:
 * the same array of reasons, filled in as measure.c does).  A copy kept
 * past its interval would show here.
 */
static void shared_members_follow_each_interval(void **state)
{
	static const char *const names[] = { "on_cpu_s" };
	static const double values[] = { 0.5 };
	static const char *const missing[] = { "cpu/a/" }, *const other_missing[] = { "cpu/b/" };
	char err[256];
	struct tma_model *m = model_load_builtin("icx", err, sizeof(err));
	struct model_result *result = model_result_new(m);
	struct report_line r = { .time = { 1700000000, 5 },
				 .interval_s = 1.000125,
				 .host = "node-1",
				 .model = "icx",
				 .tma_version = "4.8",
				 .cgroup = "/a",
				 .ncounts = 1,
				 .count_names = names,
				 .count_values = values,
				 .running_min = 1,
				 .pmu_groups = 3,
				 .nmissing = 1,
				 .missing = missing,
				 .instance = "1@t",
				 .retire_latency = "none",
				 .tma = m,
				 .result = result,
				 .level = 1 };
	const char **why = calloc((size_t)model_node_count(m), sizeof(*why));
	struct json_printer *p;
	char *buf = NULL, *alone[8], *at;
	size_t len = 0;
	FILE *f;
	int n = 0;

	(void)state;
	assert_non_null(result);
	assert_non_null(why);
	r.unmeasured = why;
	for (int i = 0; i < model_node_count(m); i++)
		result->value[i] = 0.25;
	p = json_printer_new(&r);
	f = open_memstream(&buf, &len);
	assert_non_null(p);
	assert_non_null(f);
	for (int step = 0; step < 8; step++) {
		if (step == 7)
			for (int k = 0; k < model_node_count(m); k++)
				why[k] = "perf_event_open: Invalid argument";
		if (step == 1)
			r.cgroup = "/b"; /* the same interval: the copy serves */
		if (step == 2)
			r.time.tv_sec++;
		if (step == 3)
			r.dropped = 7;
		if (step == 4)
			r.missing = other_missing;
		if (step == 5)
			r.host = "node-2";
		if (step == 6)
			r.smt_unknown = true;
		if (step != 1) /* each step but the second a new interval */
			json_printer_begin_interval(p, &r);
		alone[n++] = render(&r);
		assert_int_equal(json_printer_line(p, f, &r), 0);
	}
	assert_int_equal(json_printer_flush(p, f), 0);
	fclose(f);
	at = buf;
	for (int i = 0; i < n; i++) {
		size_t l = strlen(alone[i]);

		if (strncmp(at, alone[i], l))
			fail_msg("line %d of the printer:\n%.*s\nwritten alone:\n%s", i,
				 (int)(strchr(at, '\n') - at + 1), at, alone[i]);
		at += l;
		free(alone[i]);
	}
	assert_int_equal(*at, '\0');
	free(buf);
	json_printer_free(p);
	free(why);
	model_result_free(result);
	model_free(m);
}

/*
 * A printer never told of an interval (json_printer_begin_interval) has no
 * shared text to copy: each line writes its own head, quality and tail, as
 * written alone, whatever differs between them.
 */
static void lines_outside_an_interval_write_their_own(void **state)
{
	static const char *const names[] = { "on_cpu_s" };
	static const double values[] = { 0.5 };
	struct report_line r = { .time = { 1700000000, 5 },
				 .interval_s = 1,
				 .host = "node-1",
				 .model = "software",
				 .tma_version = "-",
				 .cgroup = "/a",
				 .ncounts = 1,
				 .count_names = names,
				 .count_values = values,
				 .running_min = 1,
				 .instance = "1@t",
				 .retire_latency = "none" };
	struct json_printer *p = json_printer_new(&r);
	char *buf = NULL, *first, *second;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	assert_non_null(p);
	assert_non_null(f);
	first = render(&r);
	assert_int_equal(json_printer_line(p, f, &r), 0);
	r.host = "node-2";
	r.dropped = 3;
	r.time.tv_sec++;
	second = render(&r);
	assert_int_equal(json_printer_line(p, f, &r), 0);
	assert_int_equal(json_printer_flush(p, f), 0);
	fclose(f);
	assert_int_equal(strlen(buf), strlen(first) + strlen(second));
	assert_memory_equal(buf, first, strlen(first));
	assert_string_equal(buf + strlen(first), second);
	free(first);
	free(second);
	free(buf);
	json_printer_free(p);
}

/*
 * A line with every key (task, every resource field, a TMA model with Info
 * metrics), read back by json-c: the keys the writer copies unchecked, in
 * schema order, every measured count exactly as given (17 digits, tiny,
 * huge), the counts derived by the interval's length (count_derived:
 * cpu_utilization, ..._per_s) and every ratio to their 9 digits
 * (docs/output.md "Numbers").  The flag decides, not the name: a measured
 * "rate_per_s" reads back exactly.
 */
static void every_key_reads_back_exactly(void **state)
{
	enum { MEASURED = 6, NCOUNTS = 8 };
	static const char *const names[NCOUNTS] = {
		"on_cpu_s",	   "rate_per_s",       "tiny", "huge", "count", "nan",
		"cpu_utilization", "page_faults_per_s"
	};
	static const bool derived[NCOUNTS] = { [MEASURED] = true, [MEASURED + 1] = true };
	static const double values[NCOUNTS] = {
		0.015324798, 199.75970744983093,   1.5e-12,	      2.5e20, 4821,
		NAN,	     0.017958886490076393, 1234.5678901234567
	};
	static const char *const missing[] = { "cpu/x/" };
	const struct resource res = { "ns", "pod", "uid-1", "ctr", "cid", "node-7" };
	const struct report_task task = { 12, 10, "worker\"1" };
	char err[256], keys[1024];
	struct tma_model *m = model_load_builtin("icx", err, sizeof(err));
	struct model_result *result;
	struct report_line r = { .interval_s = 1.001202908,
				 .host = "node-7",
				 .model = "icx",
				 .tma_version = "4.8",
				 .cgroup = "/a/b",
				 .cgroup_id = UINT64_MAX,
				 .resource = &res,
				 .task = &task,
				 .ncounts = NCOUNTS,
				 .count_names = names,
				 .count_values = values,
				 .count_derived = derived,
				 .running_min = 0.75,
				 .pmu_groups = 4,
				 .nmissing = 1,
				 .missing = missing,
				 .dropped = 5,
				 .instance = "1@t",
				 .retire_latency = "none",
				 .level = 3,
				 .info = true };
	json_object *o, *counts, *metrics;
	char *line, want[40];
	int n;

	(void)state;
	assert_non_null(m);
	n = model_node_count(m);
	result = model_result_new(m);
	assert_non_null(result);
	for (int i = 0; i < n; i++)
		result->value[i] = i % 5 == 4 ? NAN : (i + 1) / 7.0;
	r.tma = m;
	r.result = result;
	line = render(&r);
	o = parsed(line);
	key_list(o, keys, sizeof(keys));
	assert_string_equal(keys, "schema,time,interval_s,host,model,tma_version,cgroup,cgroup_id,"
				  "task,resource,counts,quality,metrics,flagged,bottleneck,"
				  "topdown_fixed,smt");
	key_list(json_object_object_get(o, "task"), keys, sizeof(keys));
	assert_string_equal(keys, "tid,tgid,comm");
	assert_string_equal(json_object_get_string(json_object_object_get(
				    json_object_object_get(o, "task"), "comm")),
			    "worker\"1");
	key_list(json_object_object_get(o, "resource"), keys, sizeof(keys));
	assert_string_equal(keys, "k8s.namespace.name,k8s.pod.name,k8s.pod.uid,k8s.container.name,"
				  "container.id,host.name");
	key_list(json_object_object_get(o, "quality"), keys, sizeof(keys));
	assert_string_equal(keys, "running_min,smt_shared,dropped,map_full,instance,pmu_groups,"
				  "missing_events,retire_latency,no_top_down");
	assert_true(json_object_get_uint64(json_object_object_get(o, "cgroup_id")) == UINT64_MAX);
	counts = json_object_object_get(o, "counts");
	for (int i = 0; i < NCOUNTS; i++) {
		json_object *v = json_object_object_get(counts, names[i]);

		if (isnan(values[i])) {
			assert_true(json_object_is_type(v, json_type_null));
		} else if (i < MEASURED) {
			assert_true(json_object_get_double(v) == values[i]);
		} else {
			snprintf(want, sizeof(want), "%.8e", values[i]);
			if (json_object_get_double(v) != strtod(want, NULL) ||
			    json_object_get_double(v) == values[i])
				fail_msg("%s: %s, want %s", names[i], json_object_get_string(v),
					 want);
		}
	}
	metrics = json_object_object_get(o, "metrics");
	for (int i = 0; i < n; i++) {
		const struct model_node_info *node = model_node(m, i);
		json_object *v;

		if (node->is_count || (!node->is_info && node->level > 3))
			continue;
		v = json_object_object_get(metrics, node->name);
		if (isnan(result->value[i])) {
			assert_true(json_object_is_type(v, json_type_null));
			continue;
		}
		/* ratios to 9 significant digits, correctly rounded: glibc's %.8e read back */
		snprintf(want, sizeof(want), "%.8e", result->value[i]);
		if (json_object_get_double(v) != strtod(want, NULL))
			fail_msg("%s: %s, want %s", node->name, json_object_get_string(v), want);
	}
	json_object_put(o);
	free(line);
	model_result_free(result);
	model_free(m);
}

/*
 * Levels 4-6 take turns: quality.measured, in quality, gives each node whose
 * events take turns the fraction of the interval they were measured; a
 * node not reported (NAN) is absent, and lines without it have no key.
 */
static void measured_fractions_in_quality(void **state)
{
	char keys[4096];
	struct report_line r = { .model = "spr", .cgroup = "/a", .pmu_groups = 4, .level = 6 };
	struct measured_line c;
	json_object *o, *q, *measured;
	int deep = 0, l4 = -1, l6 = -1;
	char *line;

	(void)state;
	measured_line_open(&c, "spr", &r);
	for (int i = 0; i < c.n; i++) {
		int level = model_node(c.m, i)->level;

		c.fraction[i] = level > 3 ? 1.0 / (i % 7 + 2) : NAN;
		l4 = l4 < 0 && level == 4 ? i : l4;
		l6 = l6 < 0 && level == 6 ? i : l6;
		deep += level > 3;
	}
	assert_true(l4 >= 0 && l6 >= 0 && deep > 10);
	c.fraction[l6] = NAN; /* never enabled: not reported */
	line = render(&r);
	o = parsed(line);
	q = json_object_object_get(o, "quality");
	key_list(q, keys, sizeof(keys));
	assert_string_equal(keys, "running_min,smt_shared,dropped,map_full,instance,pmu_groups,"
				  "missing_events,retire_latency,no_top_down,measured");
	measured = json_object_object_get(q, "measured");
	assert_int_equal(json_object_object_length(measured), deep - 1);
	/* 4 digits cut toward zero: 1/3 is 0.3333, 1/6 0.1666, never rounded up */
	for (int i = 0; i < c.n; i++) {
		static const char *const cut4[] = { "0.5",    "0.3333", "0.25", "0.2",
						    "0.1666", "0.1428", "0.125" };
		char member[128];
		const char *at;

		if (isnan(c.fraction[i]))
			continue;
		snprintf(member, sizeof(member), "\"%s\":%s", model_node(c.m, i)->name,
			 cut4[i % 7]);
		at = strstr(line, member);
		if (!at || (at[strlen(member)] != ',' && at[strlen(member)] != '}'))
			fail_msg("no %s in %s", member, line);
	}
	assert_null(json_object_object_get(measured, model_node(c.m, l6)->name));
	json_object_put(o);
	free(line);
	r.measured = NULL;
	line = render(&r);
	assert_null(strstr(line, "\"measured\""));
	free(line);
	measured_line_close(&c);
}

/*
 * quality.measured as a run's lines carry it (measure.c's measured_sets
 * fill it): each shown node with a share, as share_text writes it, at every
 * level that rotates, with and without --info; where one set's groups were
 * never enabled, its nodes are left out, not null.
 */
static void shares_of_every_shown_node(struct tma_model *m)
{
	struct report_line r = { .model = model_id(m), .cgroup = "/a", .pmu_groups = 9 };
	struct measured_line c;
	double share[8] = { 1, 0.25, NAN, 0.3125, 0.5, 0.0625, 0.75, 0.125 };
	uint64_t *groups;
	int sets_seen = 0;

	measured_line_of(&c, m, &r);
	groups = calloc((size_t)c.n, sizeof(*groups));
	assert_non_null(groups);
	/* Info metrics and counts read rotating events too; group 2 never ran. */
	for (int k = 0; k < c.n; k++)
		groups[k] = model_node(c.m, k)->level == 1 ? 0 :
			    k % 7 == 3			   ? UINT64_C(1) << 2 :
					 UINT64_C(1) << (k % 5) | UINT64_C(1) << (k % 3 + 5);
	r.measured_groups = groups;
	for (int level = 4; level <= 6; level++)
		for (int info = 0; info < 2; info++) {
			struct measured_sets sets;
			json_object *o, *measured, *v;
			int n, with_groups = 0;
			const int *shown;
			char *line;

			r.level = level;
			r.info = info;
			assert_int_equal(measured_sets_make(&sets, c.m, groups, level), 0);
			for (int k = 0; k < c.n; k++)
				c.fraction[k] = NAN;
			measured_sets_fill(&sets, share, c.fraction);
			line = render(&r);
			o = parsed(line);
			measured = json_object_object_get(json_object_object_get(o, "quality"),
							  "measured");
			shown = model_shown_nodes(c.m, level, info, &n);
			for (int j = 0; j < n; j++) {
				const char *name = model_node(c.m, shown[j])->name;
				double f = c.fraction[shown[j]];
				char text[DOUBLE_TEXT_MAX];

				with_groups += groups[shown[j]] != 0;
				assert_int_equal(json_object_object_get_ex(measured, name, &v),
						 !isnan(f));
				if (isnan(f))
					continue;
				share_text(f, text);
				assert_true(json_object_get_double(v) == strtod(text, NULL));
			}
			/* shares written, and the nodes of group 2 alone left out */
			assert_true(json_object_object_length(measured) > 0);
			assert_true(json_object_object_length(measured) < with_groups);
			json_object_put(o);
			free(line);
			sets_seen += sets.nsets;
			measured_sets_free(&sets);
		}
	assert_true(sets_seen > 6);
	free(groups);
	measured_line_close(&c);
}

/* Beside deep nodes, a count and an Info metric that read rotating groups too. */
static const char counted_model[] = "model counted\n"
				    "title a count and an Info metric beside deep nodes\n"
				    "event a A\nevent b B\n"
				    "node 1 L1\n  formula a / b\n"
				    "node 1.1 L2\n  formula a / b\n"
				    "node 1.1.1 L3\n  formula a / b\n"
				    "node 1.1.1.1 L4\n  formula a / b\n"
				    "node 1.1.1.1.1 L5\n  formula b / a\n"
				    "node 1.1.1.1.1.1 L6\n  formula a / b\n"
				    "info Ratio\n  formula b / a\n"
				    "count a_count\n  formula a\n";

static void measured_shares_of_every_shown_node(void **state)
{
	(void)state;
	shares_of_every_shown_node(test_model_builtin("icx"));
	shares_of_every_shown_node(test_model_text(counted_model, "counted.tma"));
}

/*
 * quality.measured covers the line's own nodes: an Info metric (or a count)
 * reads rotating events too, but has a share only where the line reports it,
 * with --info; a level-6 line without --info once listed 44 Info metrics.
 */
static void measured_only_for_reported_nodes(void **state)
{
	struct report_line r = { .model = "icx", .cgroup = "/a", .pmu_groups = 4, .level = 4 };
	struct measured_line c;
	json_object *o, *measured, *metrics;
	int info = -1, tree = -1, deeper = -1;

	(void)state;
	measured_line_open(&c, "icx", &r);
	for (int i = 0; i < c.n; i++) {
		const struct model_node_info *node = model_node(c.m, i);

		c.fraction[i] = 0.5;
		info = info < 0 && node->is_info ? i : info;
		tree = tree < 0 && node->level == 4 ? i : tree;
		deeper = deeper < 0 && node->level == 5 ? i : deeper;
	}
	assert_true(info >= 0 && tree >= 0 && deeper >= 0);
	for (int with_info = 0; with_info < 2; with_info++) {
		char *line;
		json_object_iter it;

		r.info = with_info;
		line = render(&r);
		o = parsed(line);
		measured = json_object_object_get(json_object_object_get(o, "quality"), "measured");
		metrics = json_object_object_get(o, "metrics");
		assert_non_null(json_object_object_get(measured, model_node(c.m, tree)->name));
		assert_null(json_object_object_get(measured, model_node(c.m, deeper)->name));
		assert_int_equal(json_object_object_get(measured, model_node(c.m, info)->name) !=
					 NULL,
				 with_info);
		/* every share is of a node in metrics, and every node in metrics has one */
		json_object_object_foreachC(measured, it)
		{
			if (!json_object_object_get_ex(metrics, it.key, NULL))
				fail_msg("measured %s, not in metrics: %s", it.key, line);
		}
		assert_int_equal(json_object_object_length(measured),
				 json_object_object_length(metrics));
		json_object_put(o);
		free(line);
	}
	measured_line_close(&c);
}

/*
 * A perf group that failed to open: quality.unmeasured names each node it
 * leaves null (to the line's level) with the reason; no key when all opened.
 */
static void unmeasured_reasons_in_quality(void **state)
{
	char err[256];
	struct tma_model *m = model_load_builtin("spr", err, sizeof(err));
	struct report_line r = { .model = "spr", .cgroup = "/a", .pmu_groups = 4, .level = 3 };
	const char **why;
	json_object *o, *u;
	int l1 = -1, l6 = -1;
	char *line;

	(void)state;
	assert_non_null(m);
	why = calloc((size_t)model_node_count(m), sizeof(*why));
	for (int i = 0; i < model_node_count(m); i++) {
		l1 = l1 < 0 && model_node(m, i)->level == 1 ? i : l1;
		l6 = l6 < 0 && model_node(m, i)->level == 6 ? i : l6;
	}
	why[l1] = "cannot open event X on CPU 3: Invalid argument";
	why[l6] = "the same group"; /* deeper than the line's level: not listed */
	r.tma = m;
	r.result = model_result_new(m);
	r.unmeasured = why;
	line = render(&r);
	o = parsed(line);
	u = json_object_object_get(json_object_object_get(o, "quality"), "unmeasured");
	assert_int_equal(json_object_object_length(u), 1);
	assert_string_equal(
		json_object_get_string(json_object_object_get(u, model_node(m, l1)->name)),
		why[l1]);
	json_object_put(o);
	free(line);
	why[l1] = why[l6] = NULL;
	line = render(&r);
	assert_null(strstr(line, "\"unmeasured\""));
	free(line);
	free(why);
	model_result_free((struct model_result *)r.result);
	model_free(m);
}

static void closed_stream_reports_error(void **state)
{
	struct report_line r = { .interval_s = 1, .running_min = NAN };
	FILE *f = fopen("/dev/full", "w");

	(void)state;
	assert_non_null(f);
	setvbuf(f, NULL, _IONBF, 0);
	assert_int_not_equal(output_json_line(f, &r), 0);
	fclose(f);
}

/*
 * A closed pipe on a line-buffered stream: once a write has failed, glibc's
 * fwrite returns the full count, so the error must be seen through ferror, or
 * tmacg would write on forever after `| head -n 1` went away.
 */
static void closed_pipe_line_buffered_is_epipe(void **state)
{
	struct report_line r = { .interval_s = 1, .running_min = NAN };
	void (*old)(int) = signal(SIGPIPE, SIG_IGN);
	int fds[2];
	FILE *f;

	(void)state;
	assert_int_equal(pipe(fds), 0);
	close(fds[0]);
	f = fdopen(fds[1], "w");
	assert_non_null(f);
	setvbuf(f, NULL, _IOLBF, 0);
	/* After the first failed write, glibc's line-buffered fwrite returns the full count. */
	for (int i = 0; i < 3; i++)
		assert_int_equal(output_json_line(f, &r), -EPIPE);
	fclose(f);
	signal(SIGPIPE, old);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(hostile_cgroup_names_stay_valid_json),
		cmocka_unit_test(keys_come_in_schema_order),
		cmocka_unit_test(count_names_plain_and_escaped),
		cmocka_unit_test(time_is_rfc3339_with_nanoseconds),
		cmocka_unit_test(doubles_print_shortest_round_trip),
		cmocka_unit_test(every_key_reads_back_exactly),
		cmocka_unit_test(shared_members_follow_each_interval),
		cmocka_unit_test(lines_outside_an_interval_write_their_own),
		cmocka_unit_test(measured_fractions_in_quality),
		cmocka_unit_test(measured_only_for_reported_nodes),
		cmocka_unit_test(unmeasured_reasons_in_quality),
		cmocka_unit_test(measured_shares_of_every_shown_node),
		cmocka_unit_test(closed_stream_reports_error),
		cmocka_unit_test(closed_pipe_line_buffered_is_epipe),
	};
	return cmocka_run_group_tests_name("output_json", tests, NULL, NULL);
}
