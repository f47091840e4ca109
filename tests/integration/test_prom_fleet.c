// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The recording rules (tmacg --prometheus-rules) on a real Prometheus, fed
 * by live tmacg (tests/lib/fleet_stand.h: two workloads' pods on hosts "a"
 * and "b", icx's software stand-in at level 3, kube-state-metrics' series
 * beside them, everything scraped and evaluated every second).  At one
 * evaluation time, every node Prometheus recorded for each workload must
 * equal, within 1e-6, what `tmacg --replay` computes from the workload's
 * counters summed over its pods and hosts in the rules' window, as this test
 * asks Prometheus for them (by the pods' names it made, not through the
 * rules' own mapping): every workload, every node, nothing missing and
 * nothing more.  And every panel and variable of the workload dashboard
 * (deploy/grafana/tmacg-workloads.json) must get data from the same
 * Prometheus.  Skipped, saying why, without root, BPF or prometheus.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <json-c/json.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fleet_stand.h"
#include "repo_root.h"

/* Where the rules record each node of each workload (docs/prometheus.md). */
#define NODE_SERIES "namespace_workload:tmacg_tma_ratio:increase" FLEET_WINDOW
#define NODE_SELECTOR NODE_SERIES "{namespace=\"" FLEET_NS "\"}"
#define FLAGGED_SELECTOR \
	"namespace_workload:tmacg_tma_flagged:increase" FLEET_WINDOW "{namespace=\"" FLEET_NS "\"}"
#define BOTTLENECK_SELECTOR                                                                       \
	"namespace_workload:tmacg_bottleneck_info:increase" FLEET_WINDOW "{namespace=\"" FLEET_NS \
	"\"}"

static struct fleet_stand stand;
static bool skipping, tried, up;
/* tmacg --replay's line of each workload's sums, by workload index. */
static json_object *replayed[FLEET_NWORKLOADS];

static int setup(void **state)
{
	(void)state;
	skipping = fleet_stand_skips();
	return 0;
}

static int teardown(void **state)
{
	for (int w = 0; w < FLEET_NWORKLOADS; w++)
		json_object_put(replayed[w]);
	fleet_stand_down(&stand);
	return itest_cleanup(state);
}

static const char *label(json_object *series, const char *name)
{
	json_object *metric = json_object_object_get(series, "metric"), *v;

	return json_object_object_get_ex(metric, name, &v) ? json_object_get_string(v) : NULL;
}

static const char *value_text(json_object *series)
{
	return json_object_get_string(
		json_object_array_get_idx(json_object_object_get(series, "value"), 1));
}

static double value_time(json_object *series)
{
	return json_object_get_double(
		json_object_array_get_idx(json_object_object_get(series, "value"), 0));
}

/* The workload's pods' names as a regular expression ("a|b"). */
static void pods_of(const char *workload, char *re, size_t len)
{
	size_t n = 0;

	re[0] = '\0';
	for (int i = 0; i < FLEET_NPODS; i++)
		if (!strcmp(fleet_pods[i].workload, workload))
			n += snprintf(re + n, len - n, "%s%s", n ? "|" : "", fleet_pods[i].name);
}

/*
 * The formulas' flags, as tmacg_build_info of the hosts says them: both
 * hosts are this machine, so they agree, and the rules never sum counts of
 * differing flags anyway.
 */
static void formula_flags(FILE *f)
{
	json_object *r = prometheus_query(&stand.prom, "tmacg_build_info{job=\"tmacg\"}", stand.t);
	const char *smt, *fixed;

	assert_int_equal(json_object_array_length(r), 2);
	smt = label(json_object_array_get_idx(r, 0), "smt");
	fixed = label(json_object_array_get_idx(r, 0), "topdown_fixed");
	assert_non_null(smt);
	assert_non_null(fixed);
	fprintf(f, ",\"smt\":%s,\"topdown_fixed\":%s", smt, fixed);
	json_object_put(r);
}

/*
 * One replay line per workload: its counters summed over its pods on both
 * hosts, increase() over the rules' window at the evaluation compared, in
 * the counter-vector form (docs/architecture.md, "Replay input"), each sum
 * in Prometheus's own text of it (the same double, read back).
 */
static void write_sums(const char *path)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	for (int w = 0; w < FLEET_NWORKLOADS; w++) {
		char re[256], expr[512];
		json_object *r;

		pods_of(fleet_workloads[w], re, sizeof(re));
		snprintf(expr, sizeof(expr),
			 "sum by (event) (increase(tmacg_events_total{namespace=\"" FLEET_NS
			 "\",pod=~\"%s\"}[" FLEET_WINDOW "]))",
			 re);
		r = prometheus_query(&stand.prom, expr, stand.t);
		if (json_object_array_length(r) < 10)
			fail_msg("%s at %.3f: %zu events", expr, stand.t,
				 json_object_array_length(r));
		fprintf(f, "{\"cgroup\":\"%s\",\"interval_s\":%d", fleet_workloads[w],
			FLEET_WINDOW_S);
		formula_flags(f);
		fputs(",\"counters\":{", f);
		for (size_t i = 0; i < json_object_array_length(r); i++) {
			json_object *s = json_object_array_get_idx(r, i);

			fprintf(f, "%s\"%s\":%s", i ? "," : "", label(s, "event"), value_text(s));
		}
		fputs("}}\n", f);
		json_object_put(r);
	}
	assert_int_equal(fclose(f), 0);
}

/* tmacg --replay of the sums: each workload's line, by workload index, in replayed. */
static void replay_sums(const char *path)
{
	char cmd[1024];
	static char out[1 << 20];
	json_object **lines;
	size_t n;

	snprintf(cmd, sizeof(cmd),
		 "TMACG_MODEL_DIR=%s/model %s --replay %s --model " FLEET_MODEL
		 " --level " FLEET_LEVEL " --format json",
		 stand.tmp, getenv("TMACG"), path);
	if (itest_shell(cmd, out, sizeof(out)))
		fail_msg("%s failed:\n%s", cmd, out);
	lines = itest_json_lines(out, &n);
	assert_non_null(lines);
	assert_int_equal(n, FLEET_NWORKLOADS);
	for (int w = 0; w < FLEET_NWORKLOADS; w++) {
		assert_string_equal(itest_str(lines[w], "cgroup"), fleet_workloads[w]);
		assert_non_null(json_object_object_get(lines[w], "metrics"));
		assert_non_null(json_object_object_get(lines[w], "flagged"));
		replayed[w] = json_object_get(lines[w]);
	}
	itest_json_free(lines, n);
}

/*
 * The stand, brought up by the first test that needs it, and the replay of
 * its workloads' sums at the evaluation compared.
 */
static void need_stand(void)
{
	char path[128];

	if (skipping)
		skip();
	if (tried && !up)
		fail_msg("the fleet did not come up (see the first test's failure)");
	if (!tried) {
		tried = true;
		fleet_stand_up(&stand, NODE_SELECTOR);
		snprintf(path, sizeof(path), "%s/sums.jsonl", stand.tmp);
		write_sums(path);
		replay_sums(path);
		up = true;
		print_message("fleet up: rules evaluated at %.3f compared\n", stand.t);
	}
}

static int workload_index(const char *w)
{
	for (int i = 0; i < FLEET_NWORKLOADS; i++)
		if (w && !strcmp(w, fleet_workloads[i]))
			return i;
	return -1;
}

/* The node's name: the last part of its path. */
static const char *node_name(const char *path)
{
	const char *dot = strrchr(path, '.');

	return dot ? dot + 1 : path;
}

/*
 * Recorded series s of node path `node` against the replay's metrics m:
 * 0 when equal, else 1, said.
 */
static int node_differs(json_object *s, const char *workload, const char *node, json_object *m)
{
	json_object *want;
	double got = strtod(value_text(s), NULL), expect;

	if (!json_object_object_get_ex(m, node_name(node), &want) ||
	    json_object_is_type(want, json_type_null)) {
		print_message("%s: %s recorded as %s, the replay has none\n", workload, node,
			      value_text(s));
		return 1;
	}
	expect = json_object_get_double(want);
	if (!(fabs(got - expect) <= 1e-6 * fmax(1, fabs(expect)))) {
		print_message("%s: %s recorded %.17g, the replay of the sums %.17g\n", workload,
			      node, got, expect);
		return 1;
	}
	return 0;
}

/* The replay's non-null nodes that were not recorded (seen: those that were); how many. */
static int unrecorded(const char *workload, json_object *m, json_object *seen)
{
	int n = 0;

	json_object_object_foreach(m, name, v) {
		if (json_object_is_type(v, json_type_null) ||
		    json_object_object_get_ex(seen, name, NULL))
			continue;
		print_message("%s: %s is %.17g in the replay, not recorded\n", workload, name,
			      json_object_get_double(v));
		n++;
	}
	return n;
}

static void recorded_nodes_equal_replay_of_the_sums(void **state)
{
	json_object *seen[FLEET_NWORKLOADS], *recorded;
	int bad = 0;

	(void)state;
	need_stand();
	recorded = prometheus_query(&stand.prom, NODE_SELECTOR, stand.t);
	for (int w = 0; w < FLEET_NWORKLOADS; w++)
		seen[w] = json_object_new_object();
	for (size_t i = 0; i < json_object_array_length(recorded); i++) {
		json_object *s = json_object_array_get_idx(recorded, i);
		const char *node = label(s, "tma_node");
		int w = workload_index(label(s, "workload"));

		if (w < 0 || !node)
			fail_msg("a recorded series of no workload of the test or no node: %s",
				 json_object_to_json_string(s));
		/* Recorded at that evaluation: no older sample stands in for it. */
		assert_true(fabs(value_time(s) - stand.t) < 1e-3);
		if (json_object_object_get_ex(seen[w], node_name(node), NULL))
			fail_msg("%s: %s recorded twice", fleet_workloads[w], node);
		json_object_object_add(seen[w], node_name(node), NULL);
		bad += node_differs(s, fleet_workloads[w], node,
				    json_object_object_get(replayed[w], "metrics"));
	}
	for (int w = 0; w < FLEET_NWORKLOADS; w++) {
		bad += unrecorded(fleet_workloads[w],
				  json_object_object_get(replayed[w], "metrics"), seen[w]);
		print_message("%s: %d nodes recorded\n", fleet_workloads[w],
			      json_object_object_length(seen[w]));
		assert_true(json_object_object_length(seen[w]) > 10);
		json_object_put(seen[w]);
	}
	json_object_put(recorded);
	if (bad)
		fail_msg("%d nodes differ from the replay of the workloads' sums (above)", bad);
}

/*
 * The nodes flagged (their thresholds crossed) recorded for workload w at the
 * compared time, against the replay's "flagged" names: how many differ, said.
 */
static int flags_differ(int w, json_object *recorded, json_object *want)
{
	int bad = 0, on = 0;

	for (size_t i = 0; i < json_object_array_length(recorded); i++) {
		json_object *s = json_object_array_get_idx(recorded, i);
		const char *node = label(s, "tma_node");
		bool listed = false;

		if (workload_index(label(s, "workload")) != w)
			continue;
		assert_non_null(node);
		for (size_t k = 0; k < json_object_array_length(want); k++)
			listed |=
				!strcmp(json_object_get_string(json_object_array_get_idx(want, k)),
					node_name(node));
		if (listed != (strtod(value_text(s), NULL) == 1)) {
			print_message("%s: %s recorded flagged %s, the replay %s\n",
				      fleet_workloads[w], node, value_text(s),
				      listed ? "flags it" : "does not");
			bad++;
		}
		on += listed;
	}
	if ((size_t)on != json_object_array_length(want)) {
		print_message("%s: the replay flags %zu nodes, %d of them recorded\n",
			      fleet_workloads[w], json_object_array_length(want), on);
		bad++;
	}
	return bad;
}

/* Each workload's flagged nodes and bottleneck path: the replay's, and the recorded ones. */
static void recorded_flags_and_bottleneck_are_the_replays(void **state)
{
	json_object *recorded, *flags;
	int bad = 0;

	(void)state;
	need_stand();
	recorded = prometheus_query(&stand.prom, BOTTLENECK_SELECTOR, stand.t);
	flags = prometheus_query(&stand.prom, FLAGGED_SELECTOR, stand.t);
	for (int w = 0; w < FLEET_NWORKLOADS; w++) {
		const char *got = NULL, *want = itest_str(replayed[w], "bottleneck");

		bad += flags_differ(w, flags, json_object_object_get(replayed[w], "flagged"));
		for (size_t i = 0; i < json_object_array_length(recorded); i++) {
			json_object *s = json_object_array_get_idx(recorded, i);

			if (workload_index(label(s, "workload")) != w)
				continue;
			if (got)
				fail_msg("%s: two bottlenecks recorded", fleet_workloads[w]);
			got = label(s, "bottleneck");
			assert_true(fabs(value_time(s) - stand.t) < 1e-3);
		}
		print_message("%s: bottleneck %s, the replay's %s\n", fleet_workloads[w],
			      got ? got : "none", want ? want : "none");
		bad += !got != !want || (got && strcmp(got, want));
	}
	json_object_put(recorded);
	json_object_put(flags);
	if (bad)
		fail_msg("%d flags or bottlenecks differ from the replay's (above)", bad);
}

/* The dashboard's variables as the test's fleet sets them, longest names first. */
static const char *const dashboard_vars[][2] = {
	{ "$__rate_interval", "10s" }, { "$namespace", FLEET_NS }, { "$workload", "web" },
	{ "$window", FLEET_WINDOW },   { "$model", FLEET_MODEL },  { "$level", FLEET_LEVEL },
};

/* expr with the variables set; Grafana's label_values(M, L) as the query it makes. */
static char *dashboard_expr(const char *expr)
{
	char *out = strdup(expr), *at;

	for (size_t v = 0; v < sizeof(dashboard_vars) / sizeof(dashboard_vars[0]); v++)
		while ((at = strstr(out, dashboard_vars[v][0]))) {
			char *next;

			assert_true(asprintf(&next, "%.*s%s%s", (int)(at - out), out,
					     dashboard_vars[v][1],
					     at + strlen(dashboard_vars[v][0])) > 0);
			free(out);
			out = next;
		}
	if (strchr(out, '$'))
		fail_msg("a variable the test does not set in %s", expr);
	if (!strncmp(out, "label_values(", 13)) {
		char *comma = strrchr(out, ','), *group;

		assert_non_null(comma);
		out[strlen(out) - 1] = '\0'; /* the closing parenthesis */
		*comma = '\0';
		assert_true(asprintf(&group, "group by (%s) (%s)", comma + 1, out + 13) > 0);
		free(out);
		out = group;
	}
	return out;
}

static json_object *workload_dashboard(void)
{
	char root[PATH_MAX], path[PATH_MAX + 64];
	json_object *dash;

	assert_int_equal(repo_root(root, sizeof(root)), 0);
	snprintf(path, sizeof(path), "%s/deploy/grafana/tmacg-workloads.json", root);
	dash = json_object_from_file(path);
	if (!dash)
		fail_msg("%s: %s", path, json_util_get_last_err());
	return dash;
}

/* The dashboard's query (a panel's target or a variable's) at the compared time. */
static json_object *dashboard_query(const char *where, const char *expr)
{
	char *q = dashboard_expr(expr);
	json_object *r = prometheus_query(&stand.prom, q, stand.t);

	print_message("%s: %s: %zu series\n", where, q, json_object_array_length(r));
	if (!json_object_array_length(r))
		fail_msg("%s gets no data: %s", where, q);
	free(q);
	return r;
}

static void every_workload_panel_gets_data(void **state)
{
	json_object *dash, *panels, *vars;
	int queries = 0;

	(void)state;
	need_stand();
	dash = workload_dashboard();
	panels = json_object_object_get(dash, "panels");
	vars = json_object_object_get(json_object_object_get(dash, "templating"), "list");
	for (size_t i = 0; i < json_object_array_length(panels); i++) {
		json_object *p = json_object_array_get_idx(panels, i), *targets;

		if (!json_object_object_get_ex(p, "targets", &targets))
			continue; /* a row */
		for (size_t t = 0; t < json_object_array_length(targets); t++) {
			json_object *tg = json_object_array_get_idx(targets, t);

			json_object_put(dashboard_query(
				json_object_get_string(json_object_object_get(p, "title")),
				json_object_get_string(json_object_object_get(tg, "expr"))));
			queries++;
		}
	}
	for (size_t i = 0; i < json_object_array_length(vars); i++) {
		json_object *v = json_object_array_get_idx(vars, i);

		if (!strcmp(json_object_get_string(json_object_object_get(v, "type")), "query")) {
			json_object_put(dashboard_query(
				json_object_get_string(json_object_object_get(v, "name")),
				json_object_get_string(json_object_object_get(v, "definition"))));
			queries++;
		}
	}
	assert_true(queries >= 8);
	json_object_put(dash);
}

/* The answer to the first query of the panel titled title. */
static json_object *panel_answer(json_object *dash, const char *title)
{
	json_object *panels = json_object_object_get(dash, "panels");

	for (size_t i = 0; i < json_object_array_length(panels); i++) {
		json_object *p = json_object_array_get_idx(panels, i);

		if (!strcmp(json_object_get_string(json_object_object_get(p, "title")), title))
			return dashboard_query(
				title, json_object_get_string(json_object_object_get(
					       json_object_array_get_idx(
						       json_object_object_get(p, "targets"), 0),
					       "expr")));
	}
	fail_msg("no panel \"%s\"", title);
	return NULL;
}

/* The view of "web": its level 1, and its two pods with their hosts and CPU model. */
static void workload_view_shows_the_workload(void **state)
{
	json_object *dash, *r;

	(void)state;
	need_stand();
	dash = workload_dashboard();
	r = panel_answer(dash, "Level 1: $model");
	assert_int_equal(json_object_array_length(r), 4);
	for (size_t i = 0; i < 4; i++)
		if (!strstr(" Frontend_Bound Bad_Speculation Backend_Bound Retiring ",
			    label(json_object_array_get_idx(r, i), "tma_node")))
			fail_msg("not a level-1 node: %s",
				 json_object_to_json_string(json_object_array_get_idx(r, i)));
	json_object_put(r);
	r = panel_answer(dash, "Pods of $workload");
	assert_int_equal(json_object_array_length(r), 2);
	for (size_t i = 0; i < 2; i++) {
		json_object *s = json_object_array_get_idx(r, i);
		const char *pod = label(s, "pod");
		int k = 0;

		while (k < FLEET_NPODS && strcmp(fleet_pods[k].name, pod ? pod : ""))
			k++;
		if (k == FLEET_NPODS || strcmp(fleet_pods[k].workload, "web") ||
		    strcmp(label(s, "host"), fleet_pods[k].host ? "b" : "a") ||
		    strcmp(label(s, "model"), FLEET_MODEL))
			fail_msg("not a pod of web: %s", json_object_to_json_string(s));
		assert_true(strtod(value_text(s), NULL) > 0.01); /* CPUs: each burns some */
	}
	json_object_put(r);
	json_object_put(dash);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(recorded_nodes_equal_replay_of_the_sums),
		cmocka_unit_test(recorded_flags_and_bottleneck_are_the_replays),
		cmocka_unit_test(every_workload_panel_gets_data),
		cmocka_unit_test(workload_view_shows_the_workload),
	};

	return cmocka_run_group_tests_name("prom_fleet", tests, setup, teardown);
}
