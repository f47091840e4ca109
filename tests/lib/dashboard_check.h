/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* What makes a Grafana dashboard JSON of deploy/grafana/ import as is. */
#ifndef TMACG_DASHBOARD_CHECK_H
#define TMACG_DASHBOARD_CHECK_H

#include <json-c/json.h>

/* o's key, failing the test when it is missing. */
json_object *dashboard_get(json_object *o, const char *key);
/* o's key as a string, failing the test when it is missing or not a string. */
const char *dashboard_str(json_object *o, const char *key);

/*
 * Fails the test unless dash imports as a new dashboard: a schema version,
 * no id, a uid, a title, the `datasource` variable of type datasource
 * (Prometheus) and each of vars (NULL-terminated), unique panel ids, a
 * 24-column grid, and every panel that is not a row querying through
 * ${datasource} with at least one target.
 */
void dashboard_check_importable(json_object *dash, const char *const vars[]);

#endif
