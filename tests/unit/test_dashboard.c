// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * deploy/grafana/tmacg.json: a dashboard Grafana imports as is (valid JSON,
 * a schema version, a datasource variable every query uses, the host and
 * namespace variables, unique panel ids, a 24-column grid), with the panels
 * the issue asks for, and PromQL that asks only for what /metrics serves:
 * every metric name is one of the exposition builder's families, every
 * label one its output carries, every node="..." a node of the built-in
 * Intel models.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <ctype.h>
#include <json-c/json.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dashboard_check.h"
#include "model/model.h"
#include "output/cgroup_record.h"
#include "prom/prom_expo.h"
#include "repo_root.h"

static char root[PATH_MAX];
static json_object *dash;
static char *exposition; /* the builder's output with every label it can write */

/* A k8s container line with a model and --info: every label the builder writes. */
static char *full_exposition(void)
{
	static const char model_text[] = "model t\n"
					 "node 1 A\n  formula E.A\n  threshold > 0.1\n"
					 "info IPC\n  formula E.A\n  scope thread\n";
	static const char *const names[] = { "on_cpu_s" };
	double counts[] = { 1 }, events[4] = { 0.5 };
	char err[256];
	struct tma_model *m = model_load(model_text, strlen(model_text), "t.tma", err, sizeof(err));
	struct model_result *r = model_result_new(m);
	struct model_input in = { .events = events, .interval_s = 1, .flags = 0 };
	struct resource res = {
		.k8s_namespace = "ns", .k8s_pod = "p", .k8s_container = "c", .host = "h"
	};
	struct resource host_only = { .host = "h" };
	struct report_line head = { .interval_s = 1, .host = "h", .model = "t" };
	struct report_line l = { .interval_s = 1,
				 .host = "h",
				 .model = "t",
				 .cgroup = "/x",
				 .cgroup_id = 3,
				 .resource = &res,
				 .ncounts = 1,
				 .count_names = names,
				 .count_values = counts,
				 .running_min = 1,
				 .tma = m,
				 .result = r,
				 .level = 1,
				 .info = true };
	struct prom_expo *e = prom_expo_new(true);
	size_t len;
	char *text;

	if (!m || !r || !e || model_eval(m, &in, r))
		return NULL;
	prom_expo_begin(e, &head);
	prom_expo_line(e, &l);
	l.resource = &host_only; /* a host cgroup: labelled by its path */
	l.cgroup_id = 4;
	prom_expo_line(e, &l);
	text = prom_expo_end(e, &len);
	prom_expo_free(e);
	model_result_free(r);
	model_free(m);
	return text;
}

static int setup(void **state)
{
	char path[PATH_MAX + 64];

	(void)state;
	if (repo_root(root, sizeof(root)))
		return -1;
	snprintf(path, sizeof(path), "%s/deploy/grafana/tmacg.json", root);
	dash = json_object_from_file(path);
	if (!dash) {
		fprintf(stderr, "%s: not valid JSON: %s\n", path, json_util_get_last_err());
		return -1;
	}
	exposition = full_exposition();
	return exposition ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	json_object_put(dash);
	free(exposition);
	return 0;
}

static void importable_structure(void **state)
{
	(void)state;
	dashboard_check_importable(dash, (const char *const[]){ "host", "namespace", NULL });
}

/* Calls fn on every PromQL text: panel targets and variable queries. */
static void each_query(void (*fn)(const char *where, const char *expr))
{
	json_object *panels = dashboard_get(dash, "panels"),
		    *vars = dashboard_get(dashboard_get(dash, "templating"), "list");

	for (size_t i = 0; i < json_object_array_length(panels); i++) {
		json_object *p = json_object_array_get_idx(panels, i), *targets;

		if (!json_object_object_get_ex(p, "targets", &targets))
			continue;
		for (size_t t = 0; t < json_object_array_length(targets); t++) {
			json_object *tg = json_object_array_get_idx(targets, t);

			assert_string_equal(dashboard_str(dashboard_get(tg, "datasource"), "uid"),
					    "${datasource}");
			fn(dashboard_str(p, "title"), dashboard_str(tg, "expr"));
		}
	}
	for (size_t i = 0; i < json_object_array_length(vars); i++) {
		json_object *v = json_object_array_get_idx(vars, i);

		if (!strcmp(dashboard_str(v, "type"), "query"))
			fn(dashboard_str(v, "name"), dashboard_str(v, "definition"));
	}
}

static bool is_family(const char *name, size_t len)
{
	for (int i = 0; prom_expo_family(i); i++)
		if (strlen(prom_expo_family(i)) == len && !strncmp(prom_expo_family(i), name, len))
			return true;
	return false;
}

static bool ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == ':';
}

/* PromQL words that are not metric names: functions, keywords, Grafana's variables. */
static bool known_word(const char *w, size_t len)
{
	static const char *const words[] = { "sum",    "avg",	       "min",	  "max",
					     "by",     "on",	       "and",	  "or",
					     "topk",   "bottomk",      "rate",	  "increase",
					     "time",   "label_values", "without", "ignoring",
					     "unless", "group_left",   "count",	  NULL };

	for (int i = 0; words[i]; i++)
		if (strlen(words[i]) == len && !strncmp(words[i], w, len))
			return true;
	return false;
}

static int metrics_in_query;

/* Every identifier before '{' and every tmacg_ word is a family the builder writes. */
static void check_metric_names(const char *where, const char *expr)
{
	int found = 0;

	for (const char *p = expr; *p;) {
		const char *start = p;
		size_t len;
		const char *after;

		if (!ident_char(*p) || (p > expr && (ident_char(p[-1]) || p[-1] == '$'))) {
			p++;
			continue;
		}
		while (ident_char(*p))
			p++;
		len = p - start;
		after = p;
		while (*after == ' ')
			after++;
		if (isdigit((unsigned char)*start))
			continue;
		if (!strncmp(start, "tmacg_", 6) || *after == '{') {
			if (!is_family(start, len))
				fail_msg("%s: '%.*s' is not a metric /metrics serves (%s)", where,
					 (int)len, start, expr);
			found++;
		} else if (*after == '(' && !known_word(start, len)) {
			fail_msg("%s: unknown function '%.*s' in %s", where, (int)len, start, expr);
		}
	}
	if (!found && strstr(expr, "time()") != expr)
		fail_msg("%s: no tmacg metric in %s", where, expr);
	metrics_in_query += found;
}

static void metric_names_are_served(void **state)
{
	(void)state;
	metrics_in_query = 0;
	each_query(check_metric_names);
	assert_true(metrics_in_query >= 10);
}

static bool label_in_exposition(const char *name, size_t len)
{
	/* After '{' or ',': "node" must not pass for being the end of "tma_node". */
	for (const char *p = exposition; (p = strstr(p, "=\"")); p++)
		if ((size_t)(p - exposition) > len && !strncmp(p - len, name, len) &&
		    (p[-len - 1] == '{' || p[-len - 1] == ','))
			return true;
	return false;
}

/* Label names in matchers (name="..", name=~"..") and in by (...) / on (...) lists. */
static void check_labels(const char *where, const char *expr)
{
	for (const char *p = expr; *p; p++) {
		if (*p == '{' || (*p == ',' && strchr(expr, '{') && p > strchr(expr, '{'))) {
			const char *s = p + 1, *e;

			while (*s == ' ')
				s++;
			for (e = s; ident_char(*e); e++)
				;
			if (e > s && (*e == '=' || *e == '!') && !label_in_exposition(s, e - s))
				fail_msg("%s: label '%.*s' is not one /metrics writes (%s)", where,
					 (int)(e - s), s, expr);
		}
		if ((!strncmp(p, "by (", 4) || !strncmp(p, "on (", 4)) &&
		    (p == expr || !ident_char(p[-1]))) {
			const char *s = p + 4;

			while (*s && *s != ')') {
				const char *e;

				while (*s == ' ' || *s == ',')
					s++;
				for (e = s; ident_char(*e); e++)
					;
				if (e > s && !label_in_exposition(s, e - s))
					fail_msg("%s: grouping label '%.*s' not on /metrics (%s)",
						 where, (int)(e - s), s, expr);
				s = e > s ? e : s + 1;
			}
		}
	}
}

static void labels_are_served(void **state)
{
	(void)state;
	each_query(check_labels);
}

/* tma_node="X": a level-1 node of the built-in Intel and AMD models (their names agree). */
static void check_nodes(const char *where, const char *expr)
{
	static const char *const models[] = { "icx", "spr", "zen4", "zen5" };

	for (const char *p = strstr(expr, "tma_node=\""); p; p = strstr(p + 1, "tma_node=\"")) {
		char node[128];
		const char *end = strchr(p + 10, '"');

		assert_non_null(end);
		snprintf(node, sizeof(node), "%.*s", (int)(end - p - 10), p + 10);
		if (strchr(node, '$'))
			continue;
		for (int m = 0; m < 4; m++) {
			char err[512];
			struct tma_model *tma = model_load_builtin(models[m], err, sizeof(err));
			int i;

			assert_non_null(tma);
			/* Dotted paths would need a walk: the dashboard only names level 1. */
			assert_null(strchr(node, '.'));
			i = model_node_index(tma, node);
			if (i < 0 || model_node(tma, i)->level != 1)
				fail_msg("%s: node \"%s\" is not a level-1 node of %s", where, node,
					 models[m]);
			model_free(tma);
		}
	}
}

static void node_names_exist(void **state)
{
	(void)state;
	each_query(check_nodes);
}

static json_object *panel_titled(const char *prefix)
{
	json_object *panels = dashboard_get(dash, "panels");

	for (size_t i = 0; i < json_object_array_length(panels); i++) {
		json_object *p = json_object_array_get_idx(panels, i);

		if (!strncmp(dashboard_str(p, "title"), prefix, strlen(prefix)))
			return p;
	}
	fail_msg("no panel titled \"%s...\"", prefix);
	return NULL;
}

static const char *first_expr(json_object *panel)
{
	return dashboard_str(json_object_array_get_idx(dashboard_get(panel, "targets"), 0), "expr");
}

static void the_panels_the_issue_asks_for(void **state)
{
	json_object *l1 = panel_titled("Level 1"), *table = panel_titled("Bottlenecks");

	(void)state;
	/* Level 1 stacked per pod, over time. */
	assert_string_equal(dashboard_str(l1, "type"), "timeseries");
	assert_string_equal(dashboard_str(l1, "repeat"), "pod");
	assert_string_equal(
		dashboard_str(
			dashboard_get(dashboard_get(dashboard_get(dashboard_get(l1, "fieldConfig"),
								  "defaults"),
						    "custom"),
				      "stacking"),
			"mode"),
		"normal");
	assert_non_null(strstr(first_expr(l1), "level=\"1\""));
	assert_non_null(strstr(first_expr(l1), "by (tma_node)"));
	/* The counter form (issue 20): exact shares over any window, not the last interval's. */
	assert_non_null(strstr(first_expr(l1), "rate(tmacg_tma_node_slots_total{"));
	assert_non_null(strstr(first_expr(l1), "rate(tmacg_topdown_slots_total{"));
	assert_null(strstr(first_expr(l1), "tmacg_tma_ratio"));
	/* Top N by Backend_Bound and Frontend_Bound. */
	assert_non_null(
		strstr(first_expr(panel_titled("Top $topn pods by Backend_Bound")), "topk($topn"));
	assert_non_null(strstr(first_expr(panel_titled("Top $topn pods by Frontend_Bound")),
			       "tma_node=\"Frontend_Bound\""));
	assert_non_null(strstr(first_expr(panel_titled("Top $topn pods by Backend_Bound")),
			       "rate(tmacg_tma_node_slots_total{"));
	/* TMA 5.2's L3_Miss_Bound, read under its old name DRAM_Bound too (issue 26). */
	assert_non_null(strstr(first_expr(panel_titled("Memory bound beyond the L3")),
			       "Memory_Bound\\\\.(L3_Miss_Bound|DRAM_Bound)\""));
	/* A bottleneck table and the data quality. */
	assert_string_equal(dashboard_str(table, "type"), "table");
	assert_non_null(strstr(first_expr(table), "tmacg_bottleneck_info"));
	assert_non_null(strstr(first_expr(panel_titled("running_min")), "tmacg_running_ratio_min"));
	assert_non_null(strstr(first_expr(panel_titled("Dropped")), "tmacg_dropped_total"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(importable_structure),
		cmocka_unit_test(metric_names_are_served),
		cmocka_unit_test(labels_are_served),
		cmocka_unit_test(node_names_exist),
		cmocka_unit_test(the_panels_the_issue_asks_for),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
