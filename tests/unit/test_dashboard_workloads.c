// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * deploy/grafana/tmacg-workloads.json, the workload view: a dashboard
 * Grafana imports as is, with the panels the issue asks for (level 1 over
 * time per CPU model side by side, the tree to a chosen level, the pods
 * behind the workload), whose PromQL reads only series that exist: every
 * recorded series it names is one `tmacg --prometheus-rules` records (the
 * rules of icx at level 6, the window's variable set to theirs), every other
 * tmacg_ name a family /metrics serves.  Its queries are run against a real
 * Prometheus fed by live tmacg in tests/integration/test_prom_fleet.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <ctype.h>
#include <json-c/json.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dashboard_check.h"
#include "prom/prom_expo.h"
#include "repo_root.h"
#include "tree_tmacg.h"

static json_object *dash;
static char *rules; /* tmacg --prometheus-rules --model icx --level 6 --rules-window 5m */

static int setup(void **state)
{
	char root[PATH_MAX], path[PATH_MAX + 64], bin[PATH_MAX], cmd[PATH_MAX + 128];
	size_t len = 0;
	FILE *p;

	(void)state;
	if (repo_root(root, sizeof(root)))
		return -1;
	snprintf(path, sizeof(path), "%s/deploy/grafana/tmacg-workloads.json", root);
	dash = json_object_from_file(path);
	if (!dash) {
		fprintf(stderr, "%s: not valid JSON: %s\n", path, json_util_get_last_err());
		return -1;
	}
	tree_tmacg(bin, sizeof(bin));
	snprintf(cmd, sizeof(cmd), "%s --prometheus-rules --model icx --level 6 --rules-window 5m",
		 bin);
	p = popen(cmd, "r");
	if (!p || getdelim(&rules, &len, '\0', p) <= 0 || pclose(p)) {
		fprintf(stderr, "%s gave no rules\n", cmd);
		return -1;
	}
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	json_object_put(dash);
	free(rules);
	return 0;
}

static void importable_structure(void **state)
{
	(void)state;
	dashboard_check_importable(dash, (const char *const[]){ "window", "namespace", "workload",
								"model", "level", NULL });
}

/* The first target's expression of the panel titled title. */
static const char *panel_expr(const char *title, json_object **panel)
{
	json_object *panels = dashboard_get(dash, "panels");

	for (size_t i = 0; i < json_object_array_length(panels); i++) {
		json_object *p = json_object_array_get_idx(panels, i);

		if (strcmp(dashboard_str(p, "title"), title))
			continue;
		*panel = p;
		return dashboard_str(json_object_array_get_idx(dashboard_get(p, "targets"), 0),
				     "expr");
	}
	fail_msg("no panel \"%s\"", title);
	return NULL;
}

static void the_panels_the_issue_asks_for(void **state)
{
	json_object *p;
	const char *expr;

	(void)state;
	/* Level 1 over time, one panel per CPU model, side by side. */
	expr = panel_expr("Level 1: $model", &p);
	assert_string_equal(dashboard_str(p, "type"), "timeseries");
	assert_string_equal(dashboard_str(p, "repeat"), "model");
	assert_string_equal(dashboard_str(p, "repeatDirection"), "h");
	assert_non_null(strstr(expr, "namespace=\"$namespace\", workload=\"$workload\""));
	assert_non_null(strstr(expr, "model=\"$model\", level=\"1\""));
	/* The tree, to the level chosen. */
	expr = panel_expr("Tree to level $level", &p);
	assert_non_null(strstr(expr, "level=~\"[1-$level]\""));
	assert_non_null(strstr(expr, "workload=\"$workload\""));
	/* The pods behind it: the rules' own mapping of pods to workloads. */
	expr = panel_expr("Pods of $workload", &p);
	assert_string_equal(dashboard_str(p, "type"), "table");
	assert_non_null(strstr(expr, "namespace_workload_pod:"));
	expr = panel_expr("Bottleneck", &p);
	assert_non_null(strstr(expr, "bottleneck"));
}

/* The name of a record of the rules, "5m" for "$window". */
static bool recorded(const char *name, size_t len)
{
	char want[256];
	const char *w = memmem(name, len, "$window", 7);

	if (w)
		snprintf(want, sizeof(want), "record: \"%.*s5m%.*s\"", (int)(w - name), name,
			 (int)(len - (w - name) - 7), w + 7);
	else
		snprintf(want, sizeof(want), "record: \"%.*s\"", (int)len, name);
	return strstr(rules, want) != NULL;
}

static bool served_family(const char *name, size_t len)
{
	for (int i = 0; prom_expo_family(i); i++)
		if (strlen(prom_expo_family(i)) == len && !strncmp(prom_expo_family(i), name, len))
			return true;
	return false;
}

static int names_checked;

/* Every name with a colon is a record of the rules; every tmacg_ name a family. */
static void check_names(const char *where, const char *expr)
{
	for (const char *p = expr; *p;) {
		const char *start = p;
		size_t len;

		if (!(isalpha((unsigned char)*p) || *p == '_') ||
		    (p > expr && (isalnum((unsigned char)p[-1]) || strchr("_:$", p[-1])))) {
			p++;
			continue;
		}
		while (isalnum((unsigned char)*p) || *p == '_' || *p == ':' ||
		       (*p == '$' && !strncmp(p, "$window", 7)))
			p += *p == '$' ? 7 : 1;
		len = p - start;
		if (memchr(start, ':', len)) {
			if (!recorded(start, len))
				fail_msg("%s: %.*s is not a series the rules record (%s)", where,
					 (int)len, start, expr);
			names_checked++;
		} else if (!strncmp(start, "tmacg_", 6)) {
			if (!served_family(start, len))
				fail_msg("%s: %.*s is not a family /metrics serves", where,
					 (int)len, start);
			names_checked++;
		}
	}
}

static void series_are_recorded_or_served(void **state)
{
	json_object *panels = dashboard_get(dash, "panels");
	json_object *vars = dashboard_get(dashboard_get(dash, "templating"), "list");

	(void)state;
	for (size_t i = 0; i < json_object_array_length(panels); i++) {
		json_object *p = json_object_array_get_idx(panels, i), *targets;

		if (!json_object_object_get_ex(p, "targets", &targets))
			continue;
		for (size_t t = 0; t < json_object_array_length(targets); t++)
			check_names(dashboard_str(p, "title"),
				    dashboard_str(json_object_array_get_idx(targets, t), "expr"));
	}
	for (size_t i = 0; i < json_object_array_length(vars); i++) {
		json_object *v = json_object_array_get_idx(vars, i);

		if (!strcmp(dashboard_str(v, "type"), "query"))
			check_names(dashboard_str(v, "name"), dashboard_str(v, "definition"));
	}
	assert_true(names_checked >= 10);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(importable_structure),
		cmocka_unit_test(the_panels_the_issue_asks_for),
		cmocka_unit_test(series_are_recorded_or_served),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
