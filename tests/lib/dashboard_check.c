// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "dashboard_check.h"

#include <stdbool.h>
#include <string.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

json_object *dashboard_get(json_object *o, const char *key)
{
	json_object *v = NULL;

	if (!json_object_object_get_ex(o, key, &v))
		fail_msg("missing \"%s\" in %s", key, json_object_to_json_string(o));
	return v;
}

const char *dashboard_str(json_object *o, const char *key)
{
	json_object *v = dashboard_get(o, key);

	if (!json_object_is_type(v, json_type_string))
		fail_msg("\"%s\" is not a string", key);
	return json_object_get_string(v);
}

/* The datasource variable as Grafana makes it for Prometheus; fails the test when absent. */
static void has_variables(json_object *dash, const char *const vars[])
{
	json_object *list = dashboard_get(dashboard_get(dash, "templating"), "list");
	bool datasource = false;

	for (size_t i = 0; i < json_object_array_length(list); i++) {
		json_object *v = json_object_array_get_idx(list, i);

		if (!strcmp(dashboard_str(v, "name"), "datasource")) {
			assert_string_equal(dashboard_str(v, "type"), "datasource");
			assert_string_equal(dashboard_str(v, "query"), "prometheus");
			datasource = true;
		}
	}
	assert_true(datasource);
	for (int k = 0; vars[k]; k++) {
		bool found = false;

		for (size_t i = 0; i < json_object_array_length(list); i++)
			found |= !strcmp(dashboard_str(json_object_array_get_idx(list, i), "name"),
					 vars[k]);
		if (!found)
			fail_msg("no variable \"%s\"", vars[k]);
	}
}

void dashboard_check_importable(json_object *dash, const char *const vars[])
{
	json_object *panels = dashboard_get(dash, "panels");
	bool seen_id[1000] = { false };

	assert_true(json_object_is_type(dashboard_get(dash, "schemaVersion"), json_type_int));
	assert_true(json_object_get_int(dashboard_get(dash, "schemaVersion")) >= 36);
	/* a new dashboard */
	assert_true(json_object_is_type(dashboard_get(dash, "id"), json_type_null));
	assert_true(strlen(dashboard_str(dash, "uid")) > 0 &&
		    strlen(dashboard_str(dash, "uid")) <= 40);
	assert_true(strlen(dashboard_str(dash, "title")) > 0);
	has_variables(dash, vars);
	for (size_t i = 0; i < json_object_array_length(panels); i++) {
		json_object *p = json_object_array_get_idx(panels, i);
		json_object *gp = dashboard_get(p, "gridPos");
		int id = json_object_get_int(dashboard_get(p, "id"));
		int x = json_object_get_int(dashboard_get(gp, "x"));
		int w = json_object_get_int(dashboard_get(gp, "w"));

		assert_true(id > 0 && id < 1000 && !seen_id[id]);
		seen_id[id] = true;
		assert_true(x >= 0 && w > 0 && x + w <= 24);
		assert_true(json_object_get_int(dashboard_get(gp, "h")) > 0);
		if (!strcmp(dashboard_str(p, "type"), "row"))
			continue;
		assert_string_equal(dashboard_str(dashboard_get(p, "datasource"), "uid"),
				    "${datasource}");
		assert_true(json_object_array_length(dashboard_get(p, "targets")) > 0);
	}
}
