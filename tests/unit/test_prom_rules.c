// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * tmacg --prometheus-rules (prom/rules_gen.c) against Prometheus's own tools:
 *   - `promtool check rules` accepts the rules of every built-in model at every level;
 *   - on the golden vectors (tests/golden/), each vector's counts split over three pods
 *     on two hosts and given as tmacg_events_total counters of a workload of its own,
 *     `promtool test rules` evaluates the rules: every node of every workload equals
 *     tmacg's evaluator on the summed counts within 1e-9 relative, absent exactly where
 *     it is null, and the workload's bottleneck is the evaluator's; a workload one of
 *     whose pods lacks a count has the nodes that read it absent, the others whole; on
 *     the Arm models, the hosts of two workloads give a slot width (pmu_slots, 4 and 12),
 *     which the evaluator is given too;
 *   - the command's refusals: a level the model lacks, an unknown model (exit 2).
 * promtool comes from Debian's prometheus package; without it the tests skip.
 * TMACG_RULES_MODEL=ID[,ID...] limits the first two to those models (tests/arm64-user
 * sets it: under qemu-user the generator is the same C code, and promtool, which takes
 * most of the time, is the same amd64 program).
 * Run from the repository root (tests/run does).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/model.h"
#include "model/retire_latency.h"
#include "model_list.h"
#include "options.h"
#include "pmu/cpu_desc.h"
#include "prom/rules_gen.h"
#include "rules_cmd.h"

#define WINDOW_NS (300ULL * 1000000000ULL)
#define PODS 3
#define VECTORS 4 /* per golden file: each a workload */

static bool have_promtool(void)
{
	if (system("command -v promtool >/dev/null 2>&1")) {
		fprintf(stderr, "  promtool not installed (Debian package prometheus; "
				"deploy/install-deps.sh --test): skipped\n");
		return false;
	}
	return true;
}

/* Whether model id is among TMACG_RULES_MODEL's (every model without it). */
static bool model_chosen(const char *id)
{
	const char *only = getenv("TMACG_RULES_MODEL");
	size_t n = strlen(id);

	for (const char *p = only; p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
		if (!strncmp(p, id, n) && (p[n] == ',' || !p[n]))
			return true;
	return !only;
}

/* Model m's rules at level into path. */
static void write_rules(const struct tma_model *m, int level, const char *path)
{
	int nl = model_latency_count(m);
	double *lat = calloc(nl + 1, sizeof(double));
	struct rules_model rm = { .m = m, .level = level, .latency = nl ? lat : NULL };
	FILE *f = fopen(path, "w");

	assert_non_null(lat);
	assert_non_null(f);
	for (int i = 0; i < nl; i++)
		lat[i] = NAN;
	if (nl)
		rl_fill(m, NULL, cpu_desc_latency_defaults(model_id(m)), lat);
	assert_int_equal(rules_write(f, &rm, 1, WINDOW_NS, "test_prom_rules"), 0);
	assert_int_equal(fclose(f), 0);
	free(lat);
}

static void test_check_every_model_level(void **state)
{
	char **ids = NULL;
	int n = model_list_ids(&ids), files = 0;
	char path[] = "/tmp/tmacg-rules-XXXXXX";
	int fd;

	(void)state;
	if (!have_promtool())
		skip();
	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	assert_true(n > 0);
	for (int i = 0; i < n; i++) {
		char versions[16][MODEL_VERSION_MAX];
		int nv = model_chosen(ids[i]) ? model_versions(ids[i], versions, 16) : 0;

		for (int v = 0; v < nv; v++) {
			char err[256], cmd[512];
			struct tma_model *m =
				model_load_version(ids[i], versions[v], err, sizeof(err));
			int depth;

			assert_non_null(m);
			depth = rules_model_depth(m);
			assert_true(depth >= 1);
			for (int level = 1; level <= depth; level++) {
				write_rules(m, level, path);
				snprintf(cmd, sizeof(cmd),
					 "promtool check rules %s >/dev/null 2>&1", path);
				if (system(cmd))
					fail_msg(
						"promtool check rules rejects %s %s at level %d "
						"(tmacg --prometheus-rules --model %s --tma-version %s "
						"--level %d | promtool check rules /dev/stdin)",
						ids[i], versions[v], level, ids[i], versions[v],
						level);
				files++;
			}
			model_free(m);
		}
		free(ids[i]);
	}
	free(ids);
	unlink(path);
	assert_true(files > 0); /* TMACG_RULES_MODEL naming no model proves nothing */
	fprintf(stderr, "  %d rule files accepted\n", files);
}

/* One workload's input: its vector's counts, flags and, for one pod, a count left out. */
struct workload {
	double *events; /* summed, by event index; NAN: no series */
	unsigned flags;
	int left_out;	    /* event index one pod has no series of, -1: none */
	unsigned pmu_slots; /* its hosts' slot width, 0: they give none */
};

static void series(FILE *f, const char *labels, double per_minute)
{
	fprintf(f, "      - series: '%s'\n        values: '0+%.17gx10'\n", labels, per_minute);
}

/* Input series of workload w: kube-state-metrics' and tmacg's, its pods on two hosts. */
static void workload_input(FILE *f, const struct tma_model *m, int w, struct workload *wl)
{
	char labels[1024], slots[32] = "";
	const char *tv = model_tma_version(m) ? model_tma_version(m) : "";

	if (wl->pmu_slots) /* as /metrics has it: the label only where the host gives a width */
		snprintf(slots, sizeof(slots), ",pmu_slots=\"%u\"", wl->pmu_slots);
	for (int h = 0; h < 2; h++) {
		snprintf(labels, sizeof(labels),
			 "tmacg_build_info{host=\"w%d-h%d\",version=\"test\",model=\"%s\","
			 "tma_version=\"%s\",smt=\"%s\",topdown_fixed=\"%s\"%s}",
			 w, h, model_id(m), tv, wl->flags & MODEL_FLAG_SMT ? "true" : "false",
			 wl->flags & MODEL_FLAG_TOPDOWN_FIXED ? "true" : "false", slots);
		fprintf(f, "      - series: '%s'\n        values: '1x10'\n", labels);
	}
	snprintf(labels, sizeof(labels),
		 "kube_replicaset_owner{namespace=\"shop\",replicaset=\"w%d-5d8f\","
		 "owner_kind=\"Deployment\",owner_name=\"w%d\"}",
		 w, w);
	fprintf(f, "      - series: '%s'\n        values: '1x10'\n", labels);
	for (int p = 0; p < PODS; p++) {
		snprintf(
			labels, sizeof(labels),
			"kube_pod_owner{namespace=\"shop\",pod=\"w%d-p%d\",owner_kind=\"ReplicaSet\","
			"owner_name=\"w%d-5d8f\"}",
			w, p, w);
		fprintf(f, "      - series: '%s'\n        values: '1x10'\n", labels);
	}
	for (int e = 0; e < model_event_count(m); e++) {
		double v = wl->events[e], part[PODS];

		if (isnan(v))
			continue;
		/* parts that sum back to the count, in the order the test sums them */
		part[0] = floor(v * 0.3);
		part[1] = floor(v * 0.5);
		part[2] = v - part[0] - part[1];
		wl->events[e] = part[0] + part[1] + part[2];
		for (int p = 0; p < PODS; p++) {
			if (e == wl->left_out && p == 1)
				continue;
			snprintf(
				labels, sizeof(labels),
				"tmacg_events_total{host=\"w%d-h%d\",namespace=\"shop\",pod=\"w%d-p%d\","
				"event=\"%s\"}",
				w, p ? 1 : 0, w, p, model_event_name(m, e));
			/* increase() over 5m of a counter growing linearly from 0: five minutes' worth */
			series(f, labels, part[p] / 5);
		}
	}
}

/* promtool's output of a test expecting nothing: every sample the rules recorded. */
static char *evaluate(const char *rules, const char *input)
{
	char cmd[512], *out = NULL;
	size_t len = 0, n;
	char buf[65536];
	FILE *p, *o = open_memstream(&out, &len);

	snprintf(cmd, sizeof(cmd), "cd %s && promtool test rules %s 2>&1", "/tmp", input);
	(void)rules;
	p = popen(cmd, "r");
	assert_non_null(p);
	while ((n = fread(buf, 1, sizeof(buf), p)) > 0)
		fwrite(buf, 1, n, o);
	pclose(p);
	fclose(o);
	return out;
}

static bool close_enough(double want, double got)
{
	return fabs(want - got) <= fmax(1e-9 * fmax(fabs(want), fabs(got)), 1e-12);
}

/*
 * The value of the sample of metric with label="value" of workload w in promtool's
 * output, which prints the samples it got one after the other ({labels} value, ...).
 */
static bool find(const char *out, const char *metric, int w, const char *label, const char *value,
		 double *v)
{
	char want[512], name[160], wl[32];

	snprintf(want, sizeof(want), "%s=\"%s\"", label, value);
	snprintf(name, sizeof(name), "{__name__=\"%s\"", metric);
	snprintf(wl, sizeof(wl), "workload=\"w%d\"", w);
	for (const char *p = strstr(out, name); p; p = strstr(p + 1, name)) {
		const char *end = strchr(p, '}');
		size_t n = end ? (size_t)(end - p) : 0;
		char one[2048];

		if (!end || n >= sizeof(one))
			continue;
		memcpy(one, p, n);
		one[n] = '\0';
		if (strstr(one, want) && strstr(one, wl)) {
			*v = strtod(end + 1, NULL);
			return true;
		}
	}
	return false;
}

/* Compares workload w's nodes; returns how many have a value. */
static int check_workload(const char *out, const struct tma_model *m, int level, int w,
			  struct workload *wl)
{
	int nev = model_event_count(m), nl = model_latency_count(m), compared = 0;
	bool *absent = calloc(nev + 1, sizeof(bool));
	double *lat = calloc(nl + 1, sizeof(double));
	struct model_input in = { .events = wl->events,
				  .absent = absent,
				  .flags = wl->flags,
				  .interval_s = 300,
				  .latencies = lat,
				  .pmu_slots = wl->pmu_slots };
	struct model_result *r = model_result_new(m);
	const char *bottleneck;
	double v;

	assert_non_null(r);
	for (int i = 0; i < nl; i++)
		lat[i] = NAN;
	if (nl)
		rl_fill(m, NULL, cpu_desc_latency_defaults(model_id(m)), lat);
	for (int e = 0; e < nev; e++)
		absent[e] = isnan(wl->events[e]) || e == wl->left_out;
	if (wl->left_out >= 0) /* not summed: no value for the workload, as if never counted */
		wl->events[wl->left_out] = NAN;
	assert_int_equal(model_eval_level(m, &in, r, level, false), 0);
	model_result_no_slots(m, r);
	for (int i = 0; i < model_node_count(m); i++) {
		const struct model_node_info *n = model_node(m, i);
		bool got;

		if (n->is_info || n->is_count || n->level < 1 || n->level > level)
			continue;
		got = find(out, "namespace_workload:tmacg_tma_ratio:increase5m", w, "tma_node",
			   n->path, &v);
		if (getenv("TMACG_RULES_DEBUG"))
			fprintf(stderr, "w%d %s ref %.17g rules %s %.17g\n", w, n->path,
				r->value[i], got ? "" : "none", got ? v : 0.0);
		if (isnan(r->value[i]) && got)
			fail_msg("%s workload w%d: %s is null, the rules give %.17g", model_id(m),
				 w, n->path, v);
		if (!isnan(r->value[i]) && !got)
			fail_msg("%s workload w%d: %s is %.17g, the rules give no sample",
				 model_id(m), w, n->path, r->value[i]);
		if (got && !close_enough(r->value[i], v))
			fail_msg("%s workload w%d: %s is %.17g, the rules give %.17g", model_id(m),
				 w, n->path, r->value[i], v);
		compared += got;
	}
	bottleneck = model_bottleneck_path(m, r, level);
	if (bottleneck && !find(out, "namespace_workload:tmacg_bottleneck_info:increase5m", w,
				"bottleneck", bottleneck, &v))
		fail_msg("%s workload w%d: no bottleneck %s from the rules", model_id(m), w,
			 bottleneck);
	if (!bottleneck && find(out, "namespace_workload:tmacg_bottleneck_info:increase5m", w,
				"model", model_id(m), &v))
		fail_msg("%s workload w%d: the rules give a bottleneck, the evaluator none",
			 model_id(m), w);
	model_result_free(r);
	free(absent);
	free(lat);
	return compared;
}

struct golden_file {
	const char *model, *version, *file;
};

static void run_golden(const struct golden_file *g)
{
	static const unsigned arm_widths[VECTORS] = { 4, 12, 0, 0 };
	char err[256], path[256], rules[] = "/tmp/tmacg-rules-g-XXXXXX";
	struct tma_model *m = model_load_version(g->model, g->version, err, sizeof(err));
	struct workload wl[VECTORS + 1];
	int level, nw = 0, fd, compared = 0;
	FILE *in, *t;
	char line[1 << 16], input[300], *out;

	if (!m)
		fail_msg("%s", err);
	level = rules_model_depth(m);
	fd = mkstemp(rules);
	assert_true(fd >= 0);
	close(fd);
	write_rules(m, level, rules);
	snprintf(path, sizeof(path), "tests/golden/%s", g->file);
	in = fopen(path, "r");
	assert_non_null(in);
	snprintf(input, sizeof(input), "%s.test.yml", rules);
	t = fopen(input, "w");
	assert_non_null(t);
	fprintf(t,
		"rule_files: [%s]\nevaluation_interval: 5m\ntests:\n  - interval: 1m\n"
		"    input_series:\n",
		rules);
	while (nw < VECTORS && fgets(line, sizeof(line), in)) {
		json_object *o = json_tokener_parse(line), *counters, *x;
		int nev = model_event_count(m);

		assert_non_null(o);
		assert_true(json_object_object_get_ex(o, "counters", &counters));
		wl[nw].events = calloc(nev + 1, sizeof(double));
		assert_non_null(wl[nw].events);
		wl[nw].flags = 0;
		if (json_object_object_get_ex(o, "topdown_fixed", &x) && json_object_get_boolean(x))
			wl[nw].flags |= MODEL_FLAG_TOPDOWN_FIXED;
		if (json_object_object_get_ex(o, "smt", &x) && json_object_get_boolean(x))
			wl[nw].flags |= MODEL_FLAG_SMT;
		for (int e = 0; e < nev; e++) {
			x = json_object_object_get(counters, model_event_name(m, e));
			wl[nw].events[e] = x ? json_object_get_double(x) : NAN;
		}
		/* the last workload: one pod lacks the first count the vector has */
		wl[nw].left_out = -1;
		for (int e = 0; nw == VECTORS - 1 && e < nev && wl[nw].left_out < 0; e++)
			if (!isnan(wl[nw].events[e]))
				wl[nw].left_out = e;
		/*
		 * Arm: the first two workloads' hosts give a slot width (caps/slots), one
		 * below every model's documented width and one of two digits, the others none
		 */
		wl[nw].pmu_slots = strncmp(model_id(m), "neoverse", 8) ? 0 : arm_widths[nw];
		workload_input(t, m, nw, &wl[nw]);
		json_object_put(o);
		nw++;
	}
	fclose(in);
	assert_true(nw > 0);
	fputs("    promql_expr_test:\n"
	      "      - expr: '{__name__=~\"namespace_workload:tmacg_(tma_ratio|bottleneck_info):"
	      "increase5m\"}'\n"
	      "        eval_time: 10m\n        exp_samples: []\n",
	      t);
	assert_int_equal(fclose(t), 0);
	out = evaluate(rules, input);
	assert_non_null(out);
	if (!strstr(out, "got:"))
		fail_msg("promtool test rules on %s: no samples:\n%.2000s", g->file, out);
	for (int w = 0; w < nw; w++) {
		compared += check_workload(out, m, level, w, &wl[w]);
		free(wl[w].events);
	}
	/* a vector of 0 slots has every node null; not every vector of a file */
	assert_true(compared > 0);
	fprintf(stderr, "  %s %s level %d: %d workloads\n", g->model,
		model_tma_version(m) ? model_tma_version(m) : "", level, nw);
	free(out);
	unlink(input);
	unlink(rules);
	model_free(m);
}

static void test_golden_sums(void **state)
{
	static const struct golden_file files[] = {
		{ "icx", "5.2", "icx-tma5.2.jsonl" },
		{ "icx", "4.5", "icx-tma4.5.jsonl" },
		{ "spr", "5.2", "spr-tma5.2.jsonl" },
		{ "spr", "5.01", "spr-tma5.01.jsonl" },
		{ "emr", "5.2", "emr-tma5.2.jsonl" },
		{ "gnr", "5.2", "gnr-tma5.2.jsonl" },
		{ "gnr", "5.1", "gnr-tma5.1.jsonl" },
		{ "skx", NULL, "skx-tma5.01.jsonl" },
		{ "clx", NULL, "clx-tma5.01.jsonl" },
		{ "srf", NULL, "srf-tma4.0.jsonl" },
		{ "zen4", NULL, "zen4-perf037dd13.jsonl" },
		{ "zen5", NULL, "zen5-perfa9fe4ac.jsonl" },
		{ "zen6", NULL, "zen6-perfd4eb7b2.jsonl" },
		{ "neoverse-n1", NULL, "neoverse-n1-ts6687b72.jsonl" },
		{ "neoverse-n2", NULL, "neoverse-n2-ts6687b72.jsonl" },
		{ "neoverse-n2-r0p3", NULL, "neoverse-n2-r0p3-ts6687b72.jsonl" },
		{ "neoverse-n3", NULL, "neoverse-n3-ts6687b72.jsonl" },
		{ "neoverse-v1", NULL, "neoverse-v1-ts6687b72.jsonl" },
		{ "neoverse-v2", NULL, "neoverse-v2-ts6687b72.jsonl" },
		{ "neoverse-v3", NULL, "neoverse-v3-ts6687b72.jsonl" },
	};
	size_t run = 0;

	(void)state;
	if (!have_promtool())
		skip();
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		if (model_chosen(files[i].model)) {
			run_golden(&files[i]);
			run++;
		}
	assert_true(run > 0);
}

/* The command's exit code and what it says on stderr, for argv. */
static int command(const char *const *argv, int argc, char *msg, size_t len)
{
	struct options o;
	FILE *out = fopen("/dev/null", "w"), *err = fmemopen(msg, len, "w");
	int rc;

	assert_non_null(out);
	assert_non_null(err);
	memset(msg, 0, len);
	rc = options_parse(&o, argc, (char **)argv, out, err);
	if (!rc)
		rc = rules_cmd_run(&o, out, err);
	fclose(out);
	fclose(err);
	return rc;
}

static void test_refusals(void **state)
{
	char msg[1024];

	(void)state;
	assert_int_equal(command((const char *const[]){ "tmacg", "--prometheus-rules", "--model",
							"zen6", "--level", "3", NULL },
				 6, msg, sizeof(msg)),
			 2);
	assert_non_null(strstr(msg, "has levels 1 to 2, not 3"));
	assert_int_equal(command((const char *const[]){ "tmacg", "--prometheus-rules", "--model",
							"nosuch", NULL },
				 4, msg, sizeof(msg)),
			 2);
	assert_non_null(strstr(msg, "nosuch"));
	assert_int_equal(command((const char *const[]){ "tmacg", "--prometheus-rules",
							"--rules-window", "500ms", NULL },
				 4, msg, sizeof(msg)),
			 2);
	assert_non_null(strstr(msg, "--rules-window '500ms'"));
	assert_int_equal(command((const char *const[]){ "tmacg", "--prom-counts", NULL }, 2, msg,
				 sizeof(msg)),
			 2);
	assert_non_null(strstr(msg, "needs --listen"));
	assert_int_equal(command((const char *const[]){ "tmacg", "--prometheus-rules", "--model",
							"icx", "--level", "2", NULL },
				 6, msg, sizeof(msg)),
			 0);
}

/* text without its comment lines (the header names the version that made it) */
static char *without_comments(const char *text, size_t skip_indent)
{
	char *out = malloc(strlen(text) + 1), *o = out;

	assert_non_null(out);
	for (const char *l = text; *l;) {
		const char *nl = strchr(l, '\n');
		size_t n = nl ? (size_t)(nl - l + 1) : strlen(l);
		size_t in = n > skip_indent && !strncmp(l, "    ", skip_indent) ? skip_indent : 0;

		if (l[strspn(l, " ")] != '#') {
			memcpy(o, l + in, n - in);
			o += n - in;
		}
		l += n;
	}
	*o = '\0';
	return out;
}

/*
 * deploy/kubernetes/prometheusrule.yaml: its groups are what tmacg --prometheus-rules
 * --level 1 prints now (made again by the command in its header), and promtool
 * accepts them.
 */
static void deploy_rules_current(void **state)
{
	FILE *f = fopen("deploy/kubernetes/prometheusrule.yaml", "r"), *out;
	char *file = NULL, *made = NULL, *spec, *a, *b, msg[256];
	size_t len = 0, mlen = 0;
	long n;

	(void)state;
	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	rewind(f);
	file = calloc(n + 1, 1);
	assert_non_null(file);
	assert_int_equal(fread(file, 1, n, f), (size_t)n);
	fclose(f);
	spec = strstr(file, "\nspec:\n");
	assert_non_null(spec);
	out = open_memstream(&made, &mlen);
	assert_non_null(out);
	{
		const char *argv[] = { "tmacg", "--prometheus-rules", "--level", "1", NULL };
		struct options o;
		FILE *err = fmemopen(msg, sizeof(msg), "w");

		assert_int_equal(options_parse(&o, 4, (char **)argv, out, err), 0);
		assert_int_equal(rules_cmd_run(&o, out, err), 0);
		fclose(err);
	}
	fclose(out);
	a = without_comments(spec + strlen("\nspec:\n"), 2);
	b = without_comments(made, 0);
	if (strcmp(a, b))
		fail_msg(
			"deploy/kubernetes/prometheusrule.yaml is not what tmacg --prometheus-rules "
			"--level 1 prints: make it again with the command in its header");
	if (have_promtool()) {
		char path[] = "/tmp/tmacg-rules-d-XXXXXX", cmd[256];
		int fd = mkstemp(path);

		assert_true(fd >= 0);
		len = strlen(a);
		assert_int_equal(write(fd, a, len), (ssize_t)len);
		close(fd);
		snprintf(cmd, sizeof(cmd), "promtool check rules %s >/dev/null 2>&1", path);
		if (system(cmd))
			fail_msg(
				"promtool check rules rejects deploy/kubernetes/prometheusrule.yaml's "
				"groups");
		unlink(path);
	}
	free(a);
	free(b);
	free(made);
	free(file);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(deploy_rules_current),
		cmocka_unit_test(test_check_every_model_level),
		cmocka_unit_test(test_golden_sums),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
