// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Every query of deploy/grafana/tmacg.json, evaluated by a real Prometheus
 * on a recording of tmacg's exposition: 20 intervals of five pods and a
 * host cgroup, written by the exposition builder with the built-in icx
 * model's tree (values set by hand: one pod backend bound, one frontend
 * bound, one retiring, one idle) and zen4's for the fifth pod (AMD's
 * five-part level 1, bound by SMT contention), turned into a TSDB by `promtool tsdb
 * create-blocks-from openmetrics`, served by `prometheus` on loopback and
 * queried with `promtool query instant`.  Each panel must get data, and the
 * top-N, level-1 and bottleneck panels the right pods.  Grafana itself is
 * not in Debian, so this stands in for rendering the dashboard; the results
 * are printed.  Skipped, saying so, without promtool and prometheus
 * (Debian package prometheus, installed by deploy/install-deps.sh).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <json-c/json.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "model/model.h"
#include "output/cgroup_record.h"
#include "prom/prom_expo.h"
#include "prometheus_proc.h"
#include "repo_root.h"

#define INTERVALS 20
#define STEP_S 15

static char root[PATH_MAX], dir[64], server[64];
static struct prometheus_proc prom;
static long eval_time;

struct family_text {
	char name[96], type[16], help[256];
	char *buf;
	size_t len;
	FILE *f;
};

/* Regroups one family's samples of every interval, each with its timestamp. */
static struct family_text fams[32];
static int nfams;

static struct family_text *family(const char *name, size_t len)
{
	for (int i = 0; i < nfams; i++)
		if (strlen(fams[i].name) == len && !strncmp(fams[i].name, name, len))
			return &fams[i];
	assert_true(nfams < 32 && len < sizeof(fams[0].name));
	memcpy(fams[nfams].name, name, len);
	fams[nfams].f = open_memstream(&fams[nfams].buf, &fams[nfams].len);
	return &fams[nfams++];
}

static void add_interval(const char *text, long ts)
{
	for (const char *l = text; *l;) {
		const char *end = strchr(l, '\n');
		size_t n = strcspn(l + (l[0] == '#' ? 7 : 0), " {");

		assert_non_null(end);
		if (!strncmp(l, "# HELP ", 7))
			snprintf(family(l + 7, n)->help, sizeof(fams[0].help), "%.*s",
				 (int)(end - l - 8 - n), l + 8 + n);
		else if (!strncmp(l, "# TYPE ", 7))
			snprintf(family(l + 7, n)->type, sizeof(fams[0].type), "%.*s",
				 (int)(end - l - 8 - n), l + 8 + n);
		else
			fprintf(family(l, strcspn(l, " {"))->f, "%.*s %ld\n", (int)(end - l), l,
				ts);
		l = end + 1;
	}
}

/* OpenMetrics: a counter family is named without its samples' _total. */
static void write_openmetrics(const char *path)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	for (int i = 0; i < nfams; i++) {
		size_t n = strlen(fams[i].name);

		fclose(fams[i].f);
		if (!strcmp(fams[i].type, "counter") && n > 6 &&
		    !strcmp(fams[i].name + n - 6, "_total"))
			n -= 6;
		fprintf(f, "# HELP %.*s %s\n# TYPE %.*s %s\n", (int)n, fams[i].name, fams[i].help,
			(int)n, fams[i].name, fams[i].type);
		fwrite(fams[i].buf, 1, fams[i].len, f);
		free(fams[i].buf);
	}
	fputs("# EOF\n", f);
	fclose(f);
	nfams = 0;
}

struct pod_def {
	const char *ns, *pod, *cgroup;
	double cpu;   /* CPUs used */
	double l1[5]; /* Frontend_Bound, Bad_Speculation, Backend_Bound, Retiring, SMT_Contention */
	const char *bottleneck[3];
	bool zen4; /* the model zen4 (its level 1 has SMT_Contention), else icx */
};

static const struct pod_def pods[] = {
	{ "shop",
	  "cart-backend",
	  "/kubepods/podb",
	  1.5,
	  { 0.1, 0.05, 0.6, 0.25 },
	  { "Backend_Bound", "Memory_Bound", NULL },
	  false },
	{ "shop",
	  "web-frontend",
	  "/kubepods/podf",
	  0.8,
	  { 0.55, 0.05, 0.15, 0.25 },
	  { "Frontend_Bound", "Fetch_Latency", NULL },
	  false },
	{ "batch",
	  "etl-retiring",
	  "/kubepods/podr",
	  0.3,
	  { 0.1, 0.05, 0.15, 0.7 },
	  { NULL },
	  false },
	/* Idle: the most backend bound of all, but under the top lists' CPU floor. */
	{ "shop",
	  "idle-bound",
	  "/kubepods/podi",
	  0.01,
	  { 0.05, 0.05, 0.85, 0.05 },
	  { "Backend_Bound", NULL },
	  false },
	{ NULL, NULL, "/system.slice/sshd.service", 0.01, { 0.3, 0.1, 0.3, 0.3 }, { NULL }, false },
	{ "batch",
	  "amd-smt",
	  "/kubepods/poda",
	  0.5,
	  { 0.1, 0.1, 0.2, 0.1, 0.5 },
	  { "SMT_Contention", NULL },
	  true },
};
#define NPODS (sizeof(pods) / sizeof(pods[0]))

/* The recording: the exposition builder's text for each of INTERVALS intervals. */
static void record(const char *om_path, long first_ts)
{
	static const char *const l1[] = { "Frontend_Bound", "Bad_Speculation", "Backend_Bound",
					  "Retiring", "SMT_Contention" };
	static const char *const count_names[] = { "on_cpu_s" };
	char err[512];
	struct tma_model *icx = model_load_builtin("icx", err, sizeof(err));
	struct tma_model *zen4 = model_load_builtin("zen4", err, sizeof(err));
	struct model_result *ri, *rz;
	struct prom_expo *e = prom_expo_new(true);

	assert_non_null(icx);
	assert_non_null(zen4);
	ri = model_result_new(icx);
	rz = model_result_new(zen4);
	for (int i = 0; i < INTERVALS; i++) {
		struct report_line head = { .time = { first_ts + i * STEP_S, 0 },
					    .interval_s = STEP_S,
					    .host = "node-1",
					    .model = "icx",
					    .tma_version = "5.2" };
		size_t len;
		char *text;

		assert_int_equal(prom_expo_begin(e, &head), 0);
		for (size_t p = 0; p < NPODS; p++) {
			struct resource res = { .k8s_namespace = pods[p].ns,
						.k8s_pod = pods[p].pod,
						.host = "node-1" };
			double cpu = pods[p].cpu * STEP_S;
			struct tma_model *m = pods[p].zen4 ? zen4 : icx;
			struct model_result *r = pods[p].zen4 ? rz : ri;
			struct report_line l = { .time = head.time,
						 .interval_s = STEP_S,
						 .host = "node-1",
						 .model = model_id(m),
						 .cgroup = pods[p].cgroup,
						 .cgroup_id = 100 + p,
						 .resource = &res,
						 .ncounts = 1,
						 .count_names = count_names,
						 .count_values = &cpu,
						 .running_min = p == 0 ? 0.5 : 1,
						 .tma = m,
						 .result = r,
						 .level = pods[p].zen4 ? 2 : 3 };

			for (int n = 0; n < r->nnodes; n++)
				r->value[n] = NAN;
			for (int k = 0; k < (pods[p].zen4 ? 5 : 4); k++)
				r->value[model_node_index(m, l1[k])] = pods[p].l1[k];
			if (p == 0) { /* the backend-bound pod: on memory, past the L3 (TMA 5.2) */
				r->value[model_node_index(m, "Memory_Bound")] = 0.4;
				r->value[model_node_index(m, "L3_Miss_Bound")] = 0.3;
			}
			/* Slots as a 4-wide core at 3 GHz would give: the counters' weights. */
			r->slots = cpu * 3e9 * 4;
			r->bottleneck_len = 0;
			for (int k = 0; pods[p].bottleneck[k]; k++)
				r->bottleneck[r->bottleneck_len++] =
					model_node_index(m, pods[p].bottleneck[k]);
			assert_int_equal(prom_expo_line(e, &l), 0);
		}
		text = prom_expo_end(e, &len);
		assert_non_null(text);
		add_interval(text, first_ts + i * STEP_S);
		free(text);
	}
	write_openmetrics(om_path);
	prom_expo_free(e);
	model_result_free(ri);
	model_result_free(rz);
	model_free(icx);
	model_free(zen4);
}

static int run(const char *cmd)
{
	int st = system(cmd);

	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static int setup(void **state)
{
	char cmd[PATH_MAX + 256], path[128];

	(void)state;
	if (repo_root(root, sizeof(root)))
		return -1;
	if (!prometheus_installed())
		return 0;
	snprintf(dir, sizeof(dir), "/tmp/tmacg-dash-XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	/* Ends a minute ago: inside Prometheus's lookback, with room for rate(). */
	eval_time = time(NULL) - 60;
	snprintf(path, sizeof(path), "%s/scrapes.om", dir);
	record(path, eval_time - (INTERVALS - 1) * STEP_S);
	snprintf(cmd, sizeof(cmd),
		 "promtool tsdb create-blocks-from openmetrics -q %s/scrapes.om "
		 "%s/data >%s/blocks.log 2>&1",
		 dir, dir, dir);
	if (run(cmd)) {
		fprintf(stderr,
			"promtool tsdb create-blocks-from openmetrics failed "
			"(%s/blocks.log)\n",
			dir);
		return -1;
	}
	if (prometheus_start(&prom, dir, "global:\n  evaluation_interval: 1m\n"))
		return -1;
	snprintf(server, sizeof(server), "http://127.0.0.1:%d", prom.port);
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	prometheus_stop(&prom);
	if (dir[0]) {
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		run(cmd);
	}
	return 0;
}

/* s with every $name replaced (longest names first: $__rate_interval before $pod). */
static char *substitute(const char *s, const char *pod)
{
	const char *vars[][2] = { { "$__rate_interval", "1m" },
				  { "$namespace", ".*" },
				  { "$min_cpu", "0.05" },
				  { "$host", ".*" },
				  { "$topn", "2" },
				  { "$pod", pod } };
	char *out = strdup(s);

	for (size_t v = 0; v < sizeof(vars) / sizeof(vars[0]); v++) {
		char *at;

		while ((at = strstr(out, vars[v][0]))) {
			char *next;

			assert_true(asprintf(&next, "%.*s%s%s", (int)(at - out), out, vars[v][1],
					     at + strlen(vars[v][0])) > 0);
			free(out);
			out = next;
		}
	}
	assert_null(strchr(out, '$'));
	return out;
}

/* promtool's answer to expr at the recording's last interval: one line per series. */
static char *query(const char *expr)
{
	char path[128], cmd[4096], *out = NULL;
	size_t len = 0;
	FILE *f, *p;
	int c;

	snprintf(path, sizeof(path), "%s/expr", dir);
	f = fopen(path, "w");
	fputs(expr, f);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "promtool query instant --time=%ld %s \"$(cat %s)\" 2>&1",
		 eval_time, server, path);
	p = popen(cmd, "r");
	f = open_memstream(&out, &len);
	while ((c = fgetc(p)) != EOF)
		fputc(c, f);
	fclose(f);
	if (pclose(p))
		fail_msg("promtool query failed for %s:\n%s", expr, out);
	return out;
}

static int count_lines(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

static char *panel_result(json_object *dash, const char *title, int target, const char *pod)
{
	json_object *panels = json_object_object_get(dash, "panels");

	for (size_t i = 0; i < json_object_array_length(panels); i++) {
		json_object *pn = json_object_array_get_idx(panels, i);
		json_object *tg = json_object_object_get(pn, "targets");

		if (strcmp(json_object_get_string(json_object_object_get(pn, "title")), title))
			continue;
		{
			char *expr =
				substitute(json_object_get_string(json_object_object_get(
						   json_object_array_get_idx(tg, target), "expr")),
					   pod);
			char *out = query(expr);

			free(expr);
			return out;
		}
	}
	fail_msg("no panel \"%s\"", title);
	return NULL;
}

/* The panel's target (all pods) answers with a series that contains want. */
static void assert_panel_shows(json_object *dash, const char *title, int target, const char *want)
{
	char *out = panel_result(dash, title, target, "");

	if (!strstr(out, want))
		fail_msg("panel \"%s\" [%d] lacks %s:\n%s", title, target, want, out);
	free(out);
}

/* The checked-in dashboard, deploy/grafana/tmacg.json. */
static json_object *dashboard(void)
{
	char path[PATH_MAX + 64];
	json_object *dash;

	snprintf(path, sizeof(path), "%s/deploy/grafana/tmacg.json", root);
	dash = json_object_from_file(path);
	assert_non_null(dash);
	return dash;
}

static void every_panel_gets_data(void **state)
{
	json_object *dash, *panels;

	(void)state;
	if (!server[0])
		skip();
	dash = dashboard();
	panels = json_object_object_get(dash, "panels");
	for (size_t i = 0; i < json_object_array_length(panels); i++) {
		json_object *pn = json_object_array_get_idx(panels, i), *tg;

		if (!json_object_object_get_ex(pn, "targets", &tg))
			continue;
		for (size_t t = 0; t < json_object_array_length(tg); t++) {
			const char *title =
				json_object_get_string(json_object_object_get(pn, "title"));
			char *expr = substitute(json_object_get_string(json_object_object_get(
							json_object_array_get_idx(tg, t), "expr")),
						"cart-backend");
			char *out = query(expr);

			printf("  %s [%zu]: %s\n%s", title, t, expr, out);
			if (!count_lines(out))
				fail_msg("panel \"%s\" gets no data from %s", title, expr);
			free(expr);
			free(out);
		}
	}
	json_object_put(dash);
}

static void panels_show_the_right_pods(void **state)
{
	json_object *dash;
	double sum = 0;
	char *out;
	const char *p;

	(void)state;
	if (!server[0])
		skip();
	dash = dashboard();

	/* Level 1 of one pod: its four nodes, adding up to 1. */
	out = panel_result(dash, "Level 1: $pod", 0, "cart-backend");
	assert_int_equal(count_lines(out), 4);
	for (p = strstr(out, "=> "); p; p = strstr(p + 3, "=> "))
		sum += strtod(p + 3, NULL);
	assert_true(fabs(sum - 1) < 1e-9);
	free(out);
	/* An AMD pod: five nodes, SMT_Contention among them, adding up to 1 too. */
	out = panel_result(dash, "Level 1: $pod", 0, "amd-smt");
	assert_int_equal(count_lines(out), 5);
	assert_non_null(strstr(out, "{tma_node=\"SMT_Contention\"} => 0.5"));
	sum = 0;
	for (p = strstr(out, "=> "); p; p = strstr(p + 3, "=> "))
		sum += strtod(p + 3, NULL);
	assert_true(fabs(sum - 1) < 1e-9);
	free(out);
	/* Top 2: the pods using at least 0.05 CPUs, most bound first (the host cgroup is out). */
	out = panel_result(dash, "Top $topn pods by Backend_Bound", 0, "");
	assert_int_equal(count_lines(out), 2);
	assert_non_null(strstr(out, "pod=\"cart-backend\"} => 0.6"));
	assert_null(strstr(out, "idle-bound"));
	free(out);
	assert_panel_shows(dash, "Top $topn pods by Frontend_Bound", 0,
			   "pod=\"web-frontend\"} => 0.55");
	/* Bottlenecks: one row per pod with a bottleneck, by path; CPUs from the counter. */
	out = panel_result(dash, "Bottlenecks", 0, "");
	assert_int_equal(count_lines(out), 4);
	assert_non_null(strstr(out, "bottleneck=\"SMT_Contention\""));
	assert_non_null(strstr(out, "bottleneck=\"Backend_Bound.Memory_Bound\""));
	assert_non_null(strstr(out, "bottleneck=\"Frontend_Bound.Fetch_Latency\""));
	free(out);
	assert_panel_shows(dash, "Bottlenecks", 1, "pod=\"cart-backend\"} => 1.5 ");
	/* Data quality: the lowest running_min of the host, no drops. */
	assert_panel_shows(dash, "running_min (lowest on the host)", 0,
			   "{host=\"node-1\"} => 0.5 ");
	assert_panel_shows(dash, "Dropped counter deltas", 0, "=> 0 ");
	json_object_put(dash);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_panel_gets_data),
		cmocka_unit_test(panels_show_the_right_pods),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
