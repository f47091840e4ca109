// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * tmacg --replay FILE --group-by KEY[,KEY...] [--interval DUR]
 * (docs/output.md "Summing lines: --group-by"): the counts of each group's
 * lines summed, every node the formulas applied to the sums.
 *
 * The formulas on the sums: for every golden file of every model (at level 6
 * with --info), each vector's counts split into three parts (pods of one
 * workload on two hosts, the workloads' lines interleaved), grouped by
 * workload: each group's every node equals, within 1e-9 relative, the
 * replay of the vector whole, and the reference's value (the golden
 * "expected") where the model names the node as the reference does, within
 * the golden files' agreement (1e-6).  Then what keeps groups apart
 * (models, SMT, TMA versions), null keys, a key no line has, a count one
 * line lacks, --interval and its bad lines.  Run from the repository root.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <glob.h>
#include <json-c/json.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "golden_model.h"
#include "model/model.h"
#include "offline_capture.h"

#define OUT_MAX (32u << 20)

struct run {
	int code;
	char *out, *err;
};

/* tmacg ARGS... (argv[0] added), its exit code, stdout and stderr. */
static struct run tmacg(const char *const *args)
{
	const char *argv[32] = { "tmacg" };
	char path[] = "/tmp/tmacg-group-err-XXXXXX";
	int argc = 1, tmp = mkstemp(path), saved = dup(STDERR_FILENO);
	struct run r = { .out = malloc(OUT_MAX), .err = calloc(1, 1 << 16) };
	ssize_t n;

	while (args[argc - 1])
		argv[argc] = args[argc - 1], argc++;
	assert_true(tmp >= 0 && saved >= 0 && r.out && r.err);
	fflush(stderr);
	dup2(tmp, STDERR_FILENO);
	r.code = offline_capture(STDOUT_FILENO, NULL, argc, argv, r.out, OUT_MAX);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	n = pread(tmp, r.err, (1 << 16) - 1, 0);
	r.err[n > 0 ? n : 0] = '\0';
	close(tmp);
	remove(path);
	assert_true(strlen(r.out) < OUT_MAX - 1); /* not cut */
	return r;
}

static void run_free(struct run *r)
{
	free(r->out);
	free(r->err);
}

/* The JSON lines of text, parsed; *n: how many. */
static json_object **lines_of(const char *text, int *n)
{
	char *copy = strdup(text), *save = NULL;
	json_object **v = NULL;

	*n = 0;
	for (char *l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		v = realloc(v, (size_t)(*n + 1) * sizeof(*v));
		assert_non_null(v);
		v[*n] = json_tokener_parse(l);
		if (!v[*n])
			fail_msg("not JSON: %s", l);
		(*n)++;
	}
	free(copy);
	return v;
}

static void lines_free(json_object **v, int n)
{
	for (int i = 0; i < n; i++)
		json_object_put(v[i]);
	free(v);
}

static json_object *at(json_object *o, const char *a, const char *b)
{
	json_object *x = json_object_object_get(o, a);

	return b ? json_object_object_get(x, b) : x;
}

/* Both null, or numbers within rel of the larger (1e-300 for zeros). */
static bool close_to(json_object *a, json_object *b, double rel)
{
	double x, y;

	if (!a || !b)
		return !a && !b;
	x = json_object_get_double(a);
	y = json_object_get_double(b);
	return x == y || fabs(x - y) <= rel * fmax(fmax(fabs(x), fabs(y)), 1e-300);
}

/* x is the number v, exactly. */
static bool num_is(json_object *x, double v)
{
	return x && json_object_get_double(x) == v;
}

/* Line a's nodes (group) against line b's (the formulas on the summed counts): every node. */
static int same_metrics(const char *what, int line, json_object *a, json_object *b)
{
	json_object *ma = at(a, "metrics", NULL), *mb = at(b, "metrics", NULL);
	int n = 0;

	assert_non_null(ma);
	assert_non_null(mb);
	if (json_object_object_length(ma) != json_object_object_length(mb))
		fail_msg("%s group %d: %d nodes, %d in the reference", what, line,
			 json_object_object_length(ma), json_object_object_length(mb));
	json_object_object_foreach(mb, node, vb) {
		json_object *va;

		if (!json_object_object_get_ex(ma, node, &va))
			fail_msg("%s group %d: no %s", what, line, node);
		if (!close_to(va, vb, 1e-9))
			fail_msg("%s group %d: %s is %s, the formulas on the sums give %s", what,
				 line, node, json_object_to_json_string(va),
				 json_object_to_json_string(vb));
		n++;
	}
	assert_true(json_object_equal(at(a, "flagged", NULL), at(b, "flagged", NULL)));
	assert_true(json_object_equal(at(a, "bottleneck", NULL), at(b, "bottleneck", NULL)));
	return n;
}

/* v as JSON that reads back as the same double. */
static json_object *number(double v)
{
	char text[40];

	if (v == floor(v) && fabs(v) < 9e15)
		return json_object_new_int64((int64_t)v);
	snprintf(text, sizeof(text), "%.17g", v);
	return json_object_new_double_s(v, text);
}

/* A tmacg/1 line of vector g's facts, its counts to be added. */
static json_object *line_of(const struct tma_model *m, json_object *g, const char *host,
			    const char *cgroup, json_object *resource)
{
	json_object *o = json_object_new_object(), *x;

	json_object_object_add(o, "schema", json_object_new_string("tmacg/1"));
	json_object_object_add(o, "time", json_object_new_string("2026-11-28T10:00:00Z"));
	json_object_object_add(o, "interval_s", json_object_get(at(g, "interval_s", NULL)));
	json_object_object_add(o, "host", json_object_new_string(host));
	json_object_object_add(o, "model", json_object_new_string(model_id(m)));
	json_object_object_add(o, "tma_version",
			       model_tma_version(m) ? json_object_new_string(model_tma_version(m)) :
						      NULL);
	json_object_object_add(o, "cgroup", json_object_new_string(cgroup));
	json_object_object_add(o, "resource", resource);
	json_object_object_add(o, "counts", json_object_new_object());
	if (json_object_object_get_ex(g, "topdown_fixed", &x))
		json_object_object_add(o, "topdown_fixed", json_object_get(x));
	if (json_object_object_get_ex(g, "smt", &x))
		json_object_object_add(o, "smt", json_object_get(x));
	if (json_object_object_get_ex(g, "retire_latency", &x))
		json_object_object_add(o, "retire_latency", json_object_get(x));
	return o;
}

static void put_line(FILE *f, json_object *o)
{
	fprintf(f, "%s\n", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
	json_object_put(o);
}

#define PARTS 3

/*
 * v in PARTS whole parts that add up to v in the order a sum adds them; v
 * itself and zeros where they would not (a count past 2^53).
 */
static void split(double v, double part[PARTS])
{
	part[0] = floor(v * 0.25);
	part[1] = floor(v * 0.5);
	part[2] = v - part[0] - part[1];
	if (((0.0 + part[0]) + part[1]) + part[2] != v || part[2] < 0) {
		part[0] = v;
		part[1] = part[2] = 0;
	}
}

/*
 * golden's vectors into whole (one line each) and parts (PARTS lines each:
 * pods of workload w<j> in namespace shop, the first on host a, the others on
 * host b; part k of every vector before part k + 1), every event m reads (0
 * where the vector has none).  How many vectors.
 */
static int spread(const char *golden, const struct tma_model *m, FILE *whole, FILE *parts)
{
	FILE *f = fopen(golden, "r");
	char *text = NULL;
	size_t cap = 0;
	json_object *vec[64];
	int nvec = 0;

	assert_non_null(f);
	while (getline(&text, &cap, f) > 0 && nvec < 64)
		assert_non_null(vec[nvec++] = json_tokener_parse(text));
	free(text);
	fclose(f);
	for (int k = 0; k < PARTS; k++) {
		for (int j = 0; j < nvec; j++) {
			char cgroup[64], pod[32], workload[16];
			json_object *res = json_object_new_object(), *o, *one = NULL, *c;

			snprintf(cgroup, sizeof(cgroup), "/kubepods/pod-%d-%d", j, k);
			snprintf(pod, sizeof(pod), "w%d-%d", j, k);
			snprintf(workload, sizeof(workload), "w%d", j);
			json_object_object_add(res, "k8s.namespace.name",
					       json_object_new_string("shop"));
			json_object_object_add(res, "k8s.pod.name", json_object_new_string(pod));
			json_object_object_add(res, "k8s.deployment.name",
					       json_object_new_string(workload));
			o = line_of(m, vec[j], k ? "b" : "a", cgroup, res);
			if (!k) {
				snprintf(cgroup, sizeof(cgroup), "/whole/%d", j);
				one = line_of(m, vec[j], "a", cgroup, json_object_new_object());
			}
			for (int e = 0; e < model_event_count(m); e++) {
				const char *name = model_event_name(m, e);
				double v = 0, part[PARTS];

				if ((c = at(vec[j], "counters", name)))
					v = json_object_get_double(c);
				split(v, part);
				json_object_object_add(at(o, "counts", NULL), name,
						       number(part[k]));
				if (one)
					json_object_object_add(at(one, "counts", NULL), name,
							       number(v));
			}
			put_line(parts, o);
			if (one)
				put_line(whole, one);
		}
	}
	for (int j = 0; j < nvec; j++)
		json_object_put(vec[j]);
	return nvec;
}

/* Group j's nodes that the reference names as the model does, against its expected values. */
static int against_reference(const char *golden, int j, json_object *group)
{
	FILE *f = fopen(golden, "r");
	char *text = NULL;
	size_t cap = 0;
	json_object *vec;
	int n = 0;

	assert_non_null(f);
	for (int i = 0; i <= j; i++)
		assert_true(getline(&text, &cap, f) > 0);
	fclose(f);
	vec = json_tokener_parse(text);
	free(text);
	assert_non_null(vec);
	/*
	 * Without PERF_METRICS a model that reads it has no general-purpose form of
	 * levels 1-2, where the reference has: test_golden.c leaves those nodes out
	 * (unfixed_differs), so does this.
	 */
	if (!json_object_get_boolean(at(vec, "topdown_fixed", NULL)) &&
	    at(vec, "counters", "PERF_METRICS.FRONTEND_BOUND")) {
		json_object_put(vec);
		return 0;
	}
	json_object_object_foreach(at(vec, "expected", NULL), node, want) {
		json_object *got = at(group, "metrics", node);

		/* the replay agreed with the reference within the golden files' 1e-6 */
		if (!want || !got)
			continue;
		if (!close_to(got, want, 1e-6))
			fail_msg("%s vector %d: %s is %s summed, the reference says %s", golden, j,
				 node, json_object_to_json_string(got),
				 json_object_to_json_string(want));
		n++;
	}
	json_object_put(vec);
	return n;
}

/* One golden file spread, grouped, compared: the reference's nodes compared. */
static int golden_groups(const char *golden)
{
	const char *base = strrchr(golden, '/') + 1;
	char buf[128], *words[6], err[512], pw[] = "/tmp/tmacg-group-whole-XXXXXX",
					    pp[] = "/tmp/tmacg-group-parts-XXXXXX";
	int nw = golden_model(base, buf, sizeof(buf), words, 6);
	struct tma_model *m =
		model_load_version(words[1], nw > 3 ? words[3] : NULL, err, sizeof(err));
	int fw = mkstemp(pw), fp = mkstemp(pp), nvec, na, nb, nodes = 0, reference = 0;
	FILE *whole = fdopen(fw, "w"), *parts = fdopen(fp, "w");
	const char *args[16];
	struct run a, b;
	json_object **la, **lb;

	if (!m)
		fail_msg("%s: %s", base, err);
	assert_non_null(whole);
	assert_non_null(parts);
	nvec = spread(golden, m, whole, parts);
	fclose(whole);
	fclose(parts);
	for (int pass = 0; pass < 2; pass++) {
		int n = 0;

		args[n++] = "--replay";
		args[n++] = pass ? pp : pw;
		for (int i = 0; i < nw; i++)
			args[n++] = words[i];
		args[n++] = "--level";
		args[n++] = "6";
		args[n++] = "--info";
		args[n++] = "--format";
		args[n++] = "json";
		if (pass) {
			args[n++] = "--group-by";
			args[n++] = "k8s.namespace.name,k8s.deployment.name";
		}
		args[n] = NULL;
		if (pass)
			a = tmacg(args);
		else
			b = tmacg(args);
	}
	assert_int_equal(b.code, 0);
	if (a.code)
		fail_msg("%s: --group-by exit %d: %s", base, a.code, a.err);
	la = lines_of(a.out, &na);
	lb = lines_of(b.out, &nb);
	assert_int_equal(na, nvec);
	assert_int_equal(nb, nvec);
	for (int j = 0; j < nvec; j++) {
		char workload[16];

		snprintf(workload, sizeof(workload), "w%d", j);
		/* the groups in the order they began: the vectors' */
		assert_string_equal(json_object_get_string(at(at(la[j], "group", "by"),
							      "k8s.deployment.name", NULL)),
				    workload);
		assert_int_equal(json_object_get_int(at(la[j], "group", "lines")), PARTS);
		assert_int_equal(json_object_get_int(at(la[j], "group", "cgroups")), PARTS);
		assert_true(
			close_to(at(la[j], "interval_s", NULL), at(lb[j], "interval_s", NULL), 0));
		nodes += same_metrics(base, j, la[j], lb[j]);
		reference += against_reference(golden, j, la[j]);
	}
	printf("  %s (%s%s%s): %d groups of %d lines, %d nodes as on the sums, %d as the "
	       "reference\n",
	       base, words[1], nw > 3 ? " " : "", nw > 3 ? words[3] : "", nvec, PARTS, nodes,
	       reference);
	lines_free(la, na);
	lines_free(lb, nb);
	run_free(&a);
	run_free(&b);
	model_free(m);
	remove(pw);
	remove(pp);
	return reference;
}

static void golden_vectors_summed_over_pods_and_hosts(void **state)
{
	glob_t g;
	int reference = 0;

	(void)state;
	assert_int_equal(glob("tests/golden/*.jsonl", 0, NULL, &g), 0);
	assert_true(g.gl_pathc >= 20); /* every model's file, none lost by the glob */
	for (size_t i = 0; i < g.gl_pathc; i++)
		reference += golden_groups(g.gl_pathv[i]);
	/* the Intel files name their nodes as the models do: thousands of them */
	assert_true(reference > 10000);
	globfree(&g);
}

/*
 * A software-model line: host, cgroup, resource (JSON text), the four
 * events (a negative one left out, NAN null), smt, time's second.
 */
static void sw_line(FILE *f, const char *model, const char *host, const char *cgroup,
		    const char *resource, const double ev[4], bool smt, int second)
{
	static const char *const names[4] = { "SW.CONTEXT_SWITCHES", "SW.CPU_CLOCK",
					      "SW.CPU_MIGRATIONS", "SW.PAGE_FAULTS" };
	const char *sep = "";

	fprintf(f,
		"{\"schema\":\"tmacg/1\",\"time\":\"2026-11-28T10:00:%02dZ\",\"interval_s\":1,"
		"\"host\":\"%s\",\"model\":\"%s\",\"tma_version\":null,\"cgroup\":\"%s\","
		"\"resource\":%s,\"counts\":{",
		second, host, model, cgroup, resource);
	for (int i = 0; i < 4; i++) {
		if (ev[i] < 0)
			continue;
		if (isnan(ev[i]))
			fprintf(f, "%s\"%s\":null", sep, names[i]);
		else
			fprintf(f, "%s\"%s\":%.17g", sep, names[i], ev[i]);
		sep = ",";
	}
	fprintf(f, "},\"topdown_fixed\":false,\"smt\":%s}\n", smt ? "true" : "false");
}

/* text to a new temporary file: its path, in buf (a mkstemp template). */
static void temp_text(char *buf, const char *text)
{
	int fd = mkstemp(buf);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

/* tmacg --replay (a file of text) ARGS...: its run. */
static struct run replay_text(const char *text, const char *const *more)
{
	char path[] = "/tmp/tmacg-group-in-XXXXXX";
	const char *args[24] = { "--replay", path, "--format", "json" };
	int n = 4;
	struct run r;

	temp_text(path, text);
	while (*more)
		args[n++] = *more++;
	args[n] = NULL;
	r = tmacg(args);
	remove(path);
	return r;
}

/* The text of lines written by fill(f). */
static char *text_of(void (*fill)(FILE *f))
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	fill(f);
	fclose(f);
	return text;
}

static const double sw_a[4] = { 100, 4e8, 3, 50 }, sw_b[4] = { 300, 2e8, 1, 10 };

static void pods_with_and_without_a_workload(FILE *f)
{
	sw_line(f, "software", "a", "/p1", "{\"k8s.deployment.name\":\"cart\"}", sw_a, false, 1);
	sw_line(f, "software", "a", "/p2", "{}", sw_b, false, 1);
	sw_line(f, "software", "b", "/p3", "{\"k8s.deployment.name\":\"cart\"}", sw_b, false, 1);
	sw_line(f, "software", "b", "/p4", "{\"k8s.pod.name\":\"x\"}", sw_a, false, 1);
}

/*
 * Lines lacking a key form the group where it is null; a key that no line
 * has is named once on stderr, at the end; the sums are the formulas on
 * the summed counts (one line holding them replayed alone).
 */
static void null_keys_and_a_key_no_line_has(void **state)
{
	char *text = text_of(pods_with_and_without_a_workload), sum[1024];
	const char *more[] = { "--group-by", "k8s.deployment.name,nosuch.key", "--info", NULL };
	const double summed[4] = { 400, 6e8, 4, 60 };
	const char *none[] = { "--info", NULL };
	struct run r = replay_text(text, more), one;
	json_object **l;
	int n;
	FILE *f = fmemopen(sum, sizeof(sum), "w");

	(void)state;
	assert_int_equal(r.code, 0);
	l = lines_of(r.out, &n);
	assert_int_equal(n, 2);
	assert_string_equal(
		json_object_get_string(at(at(l[0], "group", "by"), "k8s.deployment.name", NULL)),
		"cart");
	/* present and null: the lines lacked it */
	assert_true(
		json_object_object_get_ex(at(l[1], "group", "by"), "k8s.deployment.name", NULL));
	assert_null(at(at(l[1], "group", "by"), "k8s.deployment.name", NULL));
	assert_null(at(at(l[0], "group", "by"), "nosuch.key", NULL));
	assert_int_equal(json_object_get_int(at(l[0], "group", "lines")), 2);
	assert_int_equal(json_object_get_int(at(l[0], "group", "cgroups")), 2);
	/* not grouped by them: host and cgroup are null */
	assert_null(at(l[0], "host", NULL));
	assert_null(at(l[0], "cgroup", NULL));
	assert_true(num_is(at(l[0], "counts", "SW.CPU_CLOCK"), 6e8));
	/* a key no line has: named once, at the end */
	assert_non_null(strstr(r.err, "no line has --group-by key nosuch.key"));
	assert_null(strstr(strstr(r.err, "nosuch.key") + 1, "no line has --group-by key"));
	assert_null(strstr(r.err, "key k8s.deployment.name"));
	/* the formulas on the summed counts */
	assert_non_null(f);
	sw_line(f, "software", "a", "/sum", "{}", summed, false, 1);
	fclose(f);
	one = replay_text(sum, none);
	assert_int_equal(one.code, 0);
	{
		json_object **lo;
		int no;

		lo = lines_of(one.out, &no);
		assert_int_equal(no, 1);
		assert_true(same_metrics("software", 0, l[0], lo[0]) >= 4);
		assert_true(close_to(at(l[0], "counts", "context_switches_per_s"),
				     at(lo[0], "counts", "context_switches_per_s"), 0));
		lines_free(lo, no);
	}
	lines_free(l, n);
	run_free(&r);
	run_free(&one);
	free(text);
}

static void two_models_and_smt(FILE *f)
{
	/* one workload, one host: only what the formulas read tells them apart */
	sw_line(f, "software", "a", "/p1", "{}", sw_a, false, 1);
	sw_line(f, "software", "a", "/p2", "{}", sw_b, true, 1);
	sw_line(f, "generic", "a", "/p3", "{}", sw_a, false, 1);
	sw_line(f, "software", "a", "/p4", "{}", sw_b, false, 1);
}

/* Counts whose formulas differ (another model, SMT on) are never summed: their own groups. */
static void other_models_and_smt_are_other_groups(void **state)
{
	char *text = text_of(two_models_and_smt);
	const char *more[] = { "--group-by", "host", NULL };
	struct run r = replay_text(text, more);
	json_object **l;
	int n;

	(void)state;
	if (r.code)
		fail_msg("exit %d: %s", r.code, r.err);
	l = lines_of(r.out, &n);
	assert_int_equal(n, 3);
	/* in the order they began: software without SMT (2 lines), with SMT, generic */
	assert_string_equal(json_object_get_string(at(l[0], "model", NULL)), "software");
	assert_int_equal(json_object_get_int(at(l[0], "group", "lines")), 2);
	assert_false(json_object_get_boolean(at(l[0], "smt", NULL)));
	assert_string_equal(json_object_get_string(at(l[1], "model", NULL)), "software");
	assert_int_equal(json_object_get_int(at(l[1], "group", "lines")), 1);
	assert_true(json_object_get_boolean(at(l[1], "smt", NULL)));
	assert_string_equal(json_object_get_string(at(l[2], "model", NULL)), "generic");
	assert_int_equal(json_object_get_int(at(l[2], "group", "lines")), 1);
	/* every group says the key's value */
	for (int i = 0; i < n; i++)
		assert_string_equal(json_object_get_string(at(l[i], "host", NULL)), "a");
	lines_free(l, n);
	run_free(&r);
	free(text);
}

/* A line of model at version (NULL: null), PERF_METRICS or not, with latencies (JSON text, or NULL). */
static void tma_line(FILE *f, const char *model, const char *version, bool fixed,
		     const char *latencies)
{
	fprintf(f,
		"{\"schema\":\"tmacg/1\",\"time\":\"2026-11-28T10:00:01Z\",\"interval_s\":1,"
		"\"host\":\"a\",\"model\":\"%s\",\"tma_version\":\"%s\",\"cgroup\":\"/p\","
		"\"resource\":{},\"counts\":{\"TOPDOWN.SLOTS\":1000,\"PERF_METRICS.RETIRING\":400},"
		"\"topdown_fixed\":%s,\"smt\":false%s%s}\n",
		model, version, fixed ? "true" : "false", latencies ? ",\"retire_latency\":" : "",
		latencies ? latencies : "");
}

static void versions_flags_latencies(FILE *f)
{
	tma_line(f, "icx", "5.2", true, NULL);
	tma_line(f, "icx", "4.5", true, NULL);
	tma_line(f, "icx", "5.2", false, NULL);
	tma_line(f, "icx", "5.2", true, NULL);
	tma_line(f, "gnr", "5.1", true,
		 "{\"MEM_INST_RETIRED.LOCK_LOADS\":5,\"FRONTEND_RETIRED.L2_MISS\":9}");
	tma_line(f, "gnr", "5.1", true,
		 "{\"MEM_INST_RETIRED.LOCK_LOADS\":6,\"FRONTEND_RETIRED.L2_MISS\":9}");
	/* the same latencies written in another order */
	tma_line(f, "gnr", "5.1", true,
		 "{\"FRONTEND_RETIRED.L2_MISS\":9,\"MEM_INST_RETIRED.LOCK_LOADS\":5}");
}

/*
 * The other inputs of the formulas keep lines apart too: the TMA version, PERF_METRICS
 * (topdown_fixed), the line's own retire latencies (in any order the same).
 */
static void other_versions_flags_and_latencies_are_other_groups(void **state)
{
	char *text = text_of(versions_flags_latencies);
	const char *more[] = { "--group-by", "host", NULL };
	static const struct {
		const char *model, *version;
		bool fixed;
		int lines;
	} want[] = { { "icx", "5.2", true, 2 },
		     { "icx", "4.5", true, 1 },
		     { "icx", "5.2", false, 1 },
		     { "gnr", "5.1", true, 2 },
		     { "gnr", "5.1", true, 1 } };
	struct run r = replay_text(text, more);
	json_object **l;
	int n;

	(void)state;
	if (r.code)
		fail_msg("exit %d: %s", r.code, r.err);
	l = lines_of(r.out, &n);
	assert_int_equal(n, 5);
	for (int i = 0; i < n; i++) {
		assert_string_equal(json_object_get_string(at(l[i], "model", NULL)), want[i].model);
		assert_string_equal(json_object_get_string(at(l[i], "tma_version", NULL)),
				    want[i].version);
		assert_true(json_object_get_boolean(at(l[i], "topdown_fixed", NULL)) ==
			    want[i].fixed);
		assert_int_equal(json_object_get_int(at(l[i], "group", "lines")), want[i].lines);
	}
	assert_true(num_is(
		at(at(l[3], "retire_latency", NULL), "MEM_INST_RETIRED.LOCK_LOADS", NULL), 5));
	assert_true(num_is(
		at(at(l[4], "retire_latency", NULL), "MEM_INST_RETIRED.LOCK_LOADS", NULL), 6));
	lines_free(l, n);
	run_free(&r);
	free(text);
}

/* The table names each group by its keys, "(none)" for a null one, and what it summed. */
static void the_table_names_the_group(void **state)
{
	char *text = text_of(pods_with_and_without_a_workload);
	const char *more[] = { "--group-by", "host,k8s.deployment.name", "--format", "table",
			       NULL };
	struct run r = replay_text(text, more);

	(void)state;
	assert_int_equal(r.code, 0);
	if (!strstr(r.out, "group host=a k8s.deployment.name=cart (1 line, 1 cgroup), "
			   "interval 1.000 s\n  CPU_Share") ||
	    !strstr(r.out, "group host=a k8s.deployment.name=(none) (1 line, 1 cgroup)") ||
	    !strstr(r.out, "group host=b k8s.deployment.name=cart (1 line, 1 cgroup)"))
		fail_msg("%s", r.out);
	run_free(&r);
	free(text);
}

static void one_line_lacks_a_count(FILE *f)
{
	const double lacks[4] = { 100, 4e8, 3, -1 }, null[4] = { 100, 4e8, NAN, 7 };

	sw_line(f, "software", "a", "/p1", "{\"k8s.namespace.name\":\"shop\"}", sw_a, false, 1);
	sw_line(f, "software", "b", "/p2", "{\"k8s.namespace.name\":\"shop\"}", lacks, false, 1);
	sw_line(f, "software", "a", "/p3", "{\"k8s.namespace.name\":\"web\"}", sw_b, false, 1);
	sw_line(f, "software", "b", "/p4", "{\"k8s.namespace.name\":\"web\"}", null, false, 1);
}

/*
 * A count missing (absent, or null) in one line of a group: null in the sum,
 * the nodes that read it null for that group, never computed on a part of
 * the lines; quality.unmeasured says why.  The others are computed.
 */
static void a_count_one_line_lacks_is_never_summed_in_part(void **state)
{
	char *text = text_of(one_line_lacks_a_count);
	const char *more[] = { "--group-by", "k8s.namespace.name", "--info", NULL };
	struct run r = replay_text(text, more);
	json_object **l, *why;
	int n;

	(void)state;
	assert_int_equal(r.code, 0);
	l = lines_of(r.out, &n);
	assert_int_equal(n, 2);
	/* shop: SW.PAGE_FAULTS absent from one line */
	assert_true(json_object_object_get_ex(at(l[0], "counts", NULL), "SW.PAGE_FAULTS", NULL));
	assert_null(at(l[0], "counts", "SW.PAGE_FAULTS"));
	assert_null(at(l[0], "counts", "page_faults_per_s"));
	assert_non_null(at(l[0], "metrics", "CPU_Share"));
	assert_non_null(at(l[0], "metrics", "Run_Slice_ms"));
	why = at(at(l[0], "quality", "unmeasured"), "Faults_Per_CPU_ms", NULL);
	assert_non_null(why);
	assert_non_null(strstr(json_object_get_string(why),
			       "SW.PAGE_FAULTS is null or missing in 1 of the 2 lines summed"));
	assert_true(
		json_object_object_get_ex(at(l[0], "metrics", NULL), "Faults_Per_CPU_ms", NULL));
	assert_null(at(l[0], "metrics", "Faults_Per_CPU_ms"));
	/* web: SW.CPU_MIGRATIONS null in one line */
	assert_null(at(l[1], "counts", "SW.CPU_MIGRATIONS"));
	assert_null(at(l[1], "metrics", "Migrations_Per_Switch"));
	assert_non_null(at(l[1], "metrics", "Faults_Per_CPU_ms"));
	assert_non_null(at(at(l[1], "quality", "unmeasured"), "Migrations_Per_Switch", NULL));
	assert_null(at(at(l[1], "quality", "unmeasured"), "Faults_Per_CPU_ms", NULL));
	lines_free(l, n);
	run_free(&r);
	free(text);
}

static void three_intervals(FILE *f)
{
	sw_line(f, "software", "a", "/p1", "{}", sw_a, false, 10);
	sw_line(f, "software", "a", "/p1", "{}", sw_b, false, 11);
	sw_line(f, "software", "a", "/p1", "{}", sw_a, false, 21);
	sw_line(f, "software", "a", "/p2", "{}", sw_b, false, 12); /* one interval late */
	sw_line(f, "software", "a", "/p1", "{}", sw_b, false, 35);
	sw_line(f, "software", "a", "/p1", "{}", sw_b, false, 19); /* two intervals late */
	sw_line(f, "software", "a", "/p1", "{}", sw_a, false, 36);
}

/*
 * --interval DUR: each DUR of the lines' time summed on its own, written
 * once a line of a later interval comes (a line one interval late still
 * counts, one two intervals late is a bad line: named, exit 1).  The sum's
 * interval_s is the seconds its lines cover.
 */
static void each_interval_summed_on_its_own(void **state)
{
	char *text = text_of(three_intervals);
	const char *more[] = { "--group-by", "host", "--interval", "10s", NULL };
	struct run r = replay_text(text, more);
	json_object **l;
	int n;

	(void)state;
	assert_int_equal(r.code, 1);
	assert_non_null(strstr(r.err, ":6: its time is in an interval of --interval already "
				      "written"));
	assert_non_null(strstr(r.err, "1 bad line skipped, 6 replayed"));
	l = lines_of(r.out, &n);
	assert_int_equal(n, 3);
	/* 10-20 s: three lines (one late), from 9 s to 12 s; 20-30 s; 30-40 s */
	assert_int_equal(json_object_get_int(at(l[0], "group", "lines")), 3);
	assert_int_equal(json_object_get_int(at(l[0], "group", "cgroups")), 2);
	assert_true(num_is(at(l[0], "interval_s", NULL), 3));
	assert_string_equal(json_object_get_string(at(l[0], "time", NULL)),
			    "2026-11-28T10:00:12.000000000Z");
	assert_true(num_is(at(l[0], "counts", "SW.CONTEXT_SWITCHES"), 700));
	assert_int_equal(json_object_get_int(at(l[1], "group", "lines")), 1);
	assert_string_equal(json_object_get_string(at(l[1], "time", NULL)),
			    "2026-11-28T10:00:21.000000000Z");
	assert_int_equal(json_object_get_int(at(l[2], "group", "lines")), 2);
	assert_true(num_is(at(l[2], "interval_s", NULL), 2));
	lines_free(l, n);
	run_free(&r);
	free(text);
}

/* --interval needs each line's time: a line without one (not tmacg's own) is a bad line. */
static void interval_needs_the_lines_time(void **state)
{
	const char *text =
		"{\"cgroup\":\"/a\",\"interval_s\":1,\"counters\":{\"SW.CPU_CLOCK\":5}}\n";
	const char *more[] = { "--model",    "software", "--group-by", "cgroup",
			       "--interval", "1s",	 NULL };
	const char *whole[] = { "--model", "software", "--group-by", "cgroup", NULL };
	struct run r = replay_text(text, more), w;

	(void)state;
	assert_int_equal(r.code, 1);
	assert_non_null(strstr(r.err, ":1: no \"time\": --interval sums lines by their time"));
	assert_string_equal(r.out, "");
	/* over the whole input it is summed like any line */
	w = replay_text(text, whole);
	assert_int_equal(w.code, 0);
	assert_non_null(strstr(w.out, "\"group\":{\"by\":{\"cgroup\":\"/a\"},\"lines\":1"));
	run_free(&r);
	run_free(&w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(golden_vectors_summed_over_pods_and_hosts),
		cmocka_unit_test(null_keys_and_a_key_no_line_has),
		cmocka_unit_test(other_models_and_smt_are_other_groups),
		cmocka_unit_test(other_versions_flags_and_latencies_are_other_groups),
		cmocka_unit_test(the_table_names_the_group),
		cmocka_unit_test(a_count_one_line_lacks_is_never_summed_in_part),
		cmocka_unit_test(each_interval_summed_on_its_own),
		cmocka_unit_test(interval_needs_the_lines_time),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
