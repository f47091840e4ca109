// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * --group-by on the formulas (docs/output.md "Summing lines: --group-by"):
 * for every golden file of every model (at level 6 with --info), each
 * vector's counts split into three parts (pods of one workload on two hosts,
 * the workloads' lines interleaved) and grouped by workload: each group's
 * every node equals, within 1e-9 relative, the replay of the vector whole
 * (the formulas on the summed counts), and the reference's value (the golden
 * "expected") where the model names the node as the reference does, within
 * the golden files' agreement (1e-6).  Run from the repository root.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <glob.h>
#include <json-c/json.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "golden_model.h"
#include "group_lines.h"
#include "model/model.h"

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
	json_object_object_add(o, "interval_s", json_object_get(json_at(g, "interval_s", NULL)));
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

				if ((c = json_at(vec[j], "counters", name)))
					v = json_object_get_double(c);
				split(v, part);
				json_object_object_add(json_at(o, "counts", NULL), name,
						       number(part[k]));
				if (one)
					json_object_object_add(json_at(one, "counts", NULL), name,
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
	if (!json_object_get_boolean(json_at(vec, "topdown_fixed", NULL)) &&
	    json_at(vec, "counters", "PERF_METRICS.FRONTEND_BOUND")) {
		json_object_put(vec);
		return 0;
	}
	json_object_object_foreach(json_at(vec, "expected", NULL), node, want) {
		json_object *got = json_at(group, "metrics", node);

		/* the replay agreed with the reference within the golden files' 1e-6 */
		if (!want || !got)
			continue;
		if (!json_close(got, want, 1e-6))
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
	struct tmacg_run a, b;
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
			a = tmacg_run(args);
		else
			b = tmacg_run(args);
	}
	assert_int_equal(b.code, 0);
	if (a.code)
		fail_msg("%s: --group-by exit %d: %s", base, a.code, a.err);
	la = json_lines(a.out, &na);
	lb = json_lines(b.out, &nb);
	assert_int_equal(na, nvec);
	assert_int_equal(nb, nvec);
	for (int j = 0; j < nvec; j++) {
		char workload[16];

		snprintf(workload, sizeof(workload), "w%d", j);
		/* the groups in the order they began: the vectors' */
		assert_string_equal(json_object_get_string(json_at(json_at(la[j], "group", "by"),
								   "k8s.deployment.name", NULL)),
				    workload);
		assert_int_equal(json_object_get_int(json_at(la[j], "group", "lines")), PARTS);
		assert_int_equal(json_object_get_int(json_at(la[j], "group", "cgroups")), PARTS);
		assert_true(json_close(json_at(la[j], "interval_s", NULL),
				       json_at(lb[j], "interval_s", NULL), 0));
		nodes += same_metrics(base, j, la[j], lb[j], 1e-9);
		reference += against_reference(golden, j, la[j]);
	}
	printf("  %s (%s%s%s): %d groups of %d lines, %d nodes as on the sums, %d as the "
	       "reference\n",
	       base, words[1], nw > 3 ? " " : "", nw > 3 ? words[3] : "", nvec, PARTS, nodes,
	       reference);
	json_lines_free(la, na);
	json_lines_free(lb, nb);
	tmacg_run_free(&a);
	tmacg_run_free(&b);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(golden_vectors_summed_over_pods_and_hosts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
