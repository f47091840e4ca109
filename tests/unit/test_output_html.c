// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * --format html's data, without a browser (tests/unit/test_html_browser has one):
 * a share over many intervals is summed slots over summed slots, the chart's
 * downsampled points too; names cannot end the data block; every golden file
 * makes a report; -o's file is written whole or not at all.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "model/model.h"
#include "output/html_data.h"
#include "replay/replay_html.h"
#include "replay/replay_read.h"
#include "repo_root.h"
#include "util/atomic_file.h"
#include "util/html_escape.h"
#include "test_models.h"

/* Level 1 of top-down over one SLOTS helper: each share a count over SLOTS. */
static const char model_text[] =
	"model t\ntitle Test\ntma_version 1\n"
	"helper SLOTS = T.SLOTS\n"
	"node 1 Frontend_Bound\n  domain Slots\n  threshold > 0.5\n"
	"  desc Frontend.\n  formula T.FE / SLOTS\n"
	"node 2 Bad_Speculation\n  domain Slots\n  threshold > 0.5\n"
	"  formula max(1 - (Frontend_Bound + Backend_Bound + Retiring), 0)\n"
	"node 3 Backend_Bound\n  domain Slots\n  threshold > 0.5\n"
	"  formula T.BE / SLOTS\n"
	"node 4 Retiring\n  domain Slots\n  threshold > 0.4\n"
	"  desc Useful work.\n  formula T.RET / SLOTS\n";

static struct tma_model *test_model(void)
{
	return test_model_text(model_text, "t.tma");
}

static void read_text(const char *text, struct replay_data *d)
{
	char err[512];
	FILE *f = fmemopen((void *)text, strlen(text), "r");

	assert_non_null(f);
	if (replay_read_stream(f, "test", d, err, sizeof(err)))
		fail_msg("%s", err);
	fclose(f);
}

/* The document's data block, parsed (json-c reads \u003c back as '<'). */
static json_object *document_data(const char *doc)
{
	const char *open = "<script type=\"application/json\" id=\"tmacg-data\">";
	const char *start = strstr(doc, open), *end;
	char *json;
	json_object *o;

	assert_non_null(start);
	start += strlen(open);
	end = strstr(start, "</script>");
	assert_non_null(end);
	json = strndup(start, end - start);
	o = json_tokener_parse(json);
	free(json);
	assert_non_null(o);
	return o;
}

static char *write_document(const struct replay_data *d, const struct tma_model *m, int level)
{
	char *doc = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&doc, &len);

	assert_int_equal(replay_html_data(d, m, level, f, stderr), 0);
	fclose(f);
	return doc;
}

static json_object *path_get(json_object *o, const char *key)
{
	json_object *v = NULL;

	assert_true(json_object_object_get_ex(o, key, &v));
	return v;
}

/*
 * Two intervals of one cgroup: Retiring 10 of 100 slots, then 450 of 900.  Over
 * both it is 460 / 1000 = 0.46; the mean of the two ratios would be 0.3.  Only
 * 0.46 is over Retiring's threshold (0.4): the flag and bottleneck follow the sums.
 */
static void test_share_is_summed_slots(void **state)
{
	static const char text[] =
		"{\"cgroup\": \"/a\", \"interval_s\": 1, \"counters\": {\"T.SLOTS\": 100, "
		"\"T.FE\": 60, \"T.BE\": 20, \"T.RET\": 10}}\n"
		"{\"cgroup\": \"/a\", \"interval_s\": 1, \"counters\": {\"T.SLOTS\": 900, "
		"\"T.FE\": 90, \"T.BE\": 300, \"T.RET\": 450}}\n";
	struct tma_model *m = test_model();
	struct replay_data d;
	struct html_report *h = NULL;
	int ret = model_node_index(m, "Retiring"), fe = model_node_index(m, "Frontend_Bound");
	json_object *data, *cg;
	char *doc;

	(void)state;
	read_text(text, &d);
	assert_int_equal(replay_html_gather(&d, m, 1, &h, stderr), 0);
	assert_int_equal(html_report_count(h), 1);
	assert_float_equal(html_report_total(h, 0, ret), 0.46, 1e-12);
	assert_float_equal(html_report_total(h, 0, fe), 0.15, 1e-12); /* mean of ratios: 0.35 */
	html_report_free(h);

	doc = write_document(&d, m, 1);
	data = document_data(doc);
	cg = json_object_array_get_idx(path_get(data, "cgroups"), 0);
	assert_float_equal(json_object_get_double(json_object_array_get_idx(path_get(cg, "v"), 3)),
			   0.46, 1e-9);
	/* Retiring (position 3) flagged and the bottleneck over the run; Frontend not. */
	assert_int_equal(json_object_array_length(path_get(cg, "f")), 1);
	assert_int_equal(json_object_get_int(json_object_array_get_idx(path_get(cg, "f"), 0)), 3);
	assert_int_equal(json_object_get_int(json_object_array_get_idx(path_get(cg, "b"), 0)), 3);
	assert_int_equal(json_object_get_int(path_get(cg, "intervals")), 2);
	json_object_put(data);
	free(doc);
	replay_free(&d);
	model_free(m);
}

/*
 * 2 * HTML_CHART_POINTS intervals: the chart has HTML_CHART_POINTS points, each
 * over two intervals, its share their slots over their slots (not the mean).
 */
static void test_chart_downsampled_by_slots(void **state)
{
	int n = 2 * HTML_CHART_POINTS;
	size_t cap = (size_t)n * 160, used = 0;
	char *text = malloc(cap);
	struct tma_model *m = test_model();
	struct replay_data d;
	json_object *data, *cg, *s, *t;
	char *doc;

	(void)state;
	assert_non_null(text);
	for (int i = 0; i < n; i++)
		used += snprintf(text + used, cap - used,
				 "{\"cgroup\": \"/a\", \"interval_s\": 1, \"counters\": "
				 "{\"T.SLOTS\": %d, \"T.FE\": 0, \"T.BE\": 0, \"T.RET\": %d}}\n",
				 i % 2 ? 900 : 100, i % 2 ? 450 : 10);
	read_text(text, &d);
	doc = write_document(&d, m, 1);
	data = document_data(doc);
	cg = json_object_array_get_idx(path_get(data, "cgroups"), 0);
	s = path_get(cg, "s");
	t = path_get(cg, "t");
	assert_int_equal(json_object_array_length(s), HTML_CHART_POINTS);
	assert_int_equal(json_object_array_length(t), HTML_CHART_POINTS);
	for (int p = 0; p < HTML_CHART_POINTS; p++) {
		json_object *pt = json_object_array_get_idx(s, p);

		assert_float_equal(json_object_get_double(json_object_array_get_idx(pt, 3)), 0.46,
				   1e-9);
		/* a point ends where its second interval does: seconds from the start */
		assert_float_equal(json_object_get_double(json_object_array_get_idx(t, p)),
				   2.0 * (p + 1), 1e-9);
	}
	/* The numbers are not downsampled: all of the intervals. */
	assert_int_equal(json_object_get_int(path_get(cg, "intervals")), n);
	json_object_put(data);
	free(doc);
	free(text);
	replay_free(&d);
	model_free(m);
}

static void test_script_json_escape(void **state)
{
	static const char in[] = "{\"a\":\"</script><!--&\xe2\x80\xa8\xe2\x80\xa9\xe2\x80\xaa\"}";
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	(void)state;
	assert_int_equal(html_script_json_write(f, in, sizeof(in) - 1), 0);
	fclose(f);
	assert_string_equal(out, "{\"a\":\"\\u003c/script\\u003e\\u003c!--\\u0026\\u2028\\u2029"
				 "\xe2\x80\xaa\"}");
	free(out);
}

/* Names are data: none ends the data block or becomes markup, each reads back whole. */
static void test_hostile_names_stay_data(void **state)
{
	static const char *const names[] = {
		"/<script>alert(1)</script>",
		"/\"><img src=x onerror=alert(1)>",
		"/</script><script>alert(2)</script>",
		"/a\xe2\x80\xa8"
		"b&amp;<!--",
	};
	char text[4096];
	size_t used = 0;
	struct tma_model *m = test_model();
	struct replay_data d;
	json_object *data, *cgs;
	char *doc;
	const char *p;
	int scripts = 0;

	(void)state;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		json_object *s = json_object_new_string(names[i]);

		used += snprintf(text + used, sizeof(text) - used,
				 "{\"cgroup\": %s, \"interval_s\": 1, \"counters\": {\"T.SLOTS\": "
				 "100, \"T.FE\": 60, \"T.BE\": 20, \"T.RET\": 10}}\n",
				 json_object_to_json_string_ext(s, JSON_C_TO_STRING_PLAIN));
		json_object_put(s);
	}
	read_text(text, &d);
	doc = write_document(&d, m, 1);
	/* The page's own two script elements, nothing else. */
	for (p = doc; (p = strstr(p, "<script")); p++)
		scripts++;
	assert_int_equal(scripts, 2);
	assert_null(strstr(doc, "<img"));
	assert_null(strstr(doc, "alert(1)</"));
	data = document_data(doc);
	cgs = path_get(data, "cgroups");
	assert_int_equal(json_object_array_length(cgs), 4);
	for (size_t i = 0; i < 4; i++)
		assert_string_equal(
			json_object_get_string(path_get(json_object_array_get_idx(cgs, i), "path")),
			names[i]);
	json_object_put(data);
	free(doc);
	replay_free(&d);
	model_free(m);
}

/* The data of a golden file's report under a built-in model; its record count in *nrecords. */
static json_object *golden_report(const char *model, const char *file, size_t *nrecords)
{
	char root[4096], path[4200], err[512];
	struct tma_model *m = model_load_builtin(model, err, sizeof(err));
	struct replay_data d;
	json_object *data;
	char *doc;

	if (!m)
		fail_msg("%s: %s", model, err);
	assert_int_equal(repo_root(root, sizeof(root)), 0);
	snprintf(path, sizeof(path), "%s/tests/golden/%s", root, file);
	if (replay_read(path, &d, err, sizeof(err)))
		fail_msg("%s", err);
	doc = write_document(&d, m, 3);
	data = document_data(doc);
	*nrecords = (size_t)d.nrecords;
	free(doc);
	replay_free(&d);
	model_free(m);
	return data;
}

/* Every golden recording makes a report of all its cgroups. */
static void test_every_golden_file(void **state)
{
	static const char *const files[][2] = {
		{ "clx", "clx-tma5.01.jsonl" },
		{ "emr", "emr-tma5.2.jsonl" },
		{ "gnr", "gnr-tma5.1.jsonl" },
		{ "gnr", "gnr-tma5.2.jsonl" },
		{ "icx", "icx-tma4.5.jsonl" },
		{ "icx", "icx-tma5.2.jsonl" },
		{ "neoverse-n1", "neoverse-n1-ts6687b72.jsonl" },
		{ "neoverse-n2", "neoverse-n2-ts6687b72.jsonl" },
		{ "neoverse-n2-r0p3", "neoverse-n2-r0p3-ts6687b72.jsonl" },
		{ "neoverse-v1", "neoverse-v1-ts6687b72.jsonl" },
		{ "neoverse-v2", "neoverse-v2-ts6687b72.jsonl" },
		{ "skx", "skx-tma5.01.jsonl" },
		{ "spr", "spr-tma5.01.jsonl" },
		{ "spr", "spr-tma5.2.jsonl" },
		{ "srf", "srf-tma4.0.jsonl" },
		{ "zen4", "zen4-perf037dd13.jsonl" },
		{ "zen5", "zen5-perfa9fe4ac.jsonl" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		size_t n;
		json_object *data = golden_report(files[i][0], files[i][1], &n);

		assert_int_equal(json_object_array_length(path_get(data, "cgroups")), n);
		json_object_put(data);
	}
}

/* Each node carries the vendor's own words in full (Intel's BriefDescription for SPR at
 * TMA 5.2), not only the model's one-line summary. */
static void test_nodes_carry_vendor_text(void **state)
{
	static const char intel_text[] =
		"This metric estimates how often the CPU was stalled on "
		"accesses to external memory (DRAM) by loads. Better caching can "
		"improve the latency and increase performance.";
	size_t n;
	json_object *data = golden_report("spr", "spr-tma5.2.jsonl", &n), *nodes;
	const char *desc = NULL;

	(void)state;
	nodes = path_get(data, "nodes");
	for (size_t i = 0; i < json_object_array_length(nodes); i++) {
		json_object *node = json_object_array_get_idx(nodes, i);

		if (!strcmp(json_object_get_string(path_get(node, "name")), "L3_Miss_Bound"))
			desc = json_object_get_string(path_get(node, "desc"));
	}
	assert_non_null(desc);
	assert_non_null(strstr(desc, intel_text));
	json_object_put(data);
}

/*
 * Under --k8s a cgroup is named as the table and the live view name it: its
 * namespace, pod and container from the line's resource, the path kept beside.
 */
static void test_k8s_names(void **state)
{
	static const char text[] =
		"{\"schema\": \"tmacg/1\", \"time\": \"2026-11-21T10:00:01Z\", \"cgroup\": \"/kubepods/podu1/c1\", \"interval_s\": 1, "
		"\"resource\": {\"k8s.namespace.name\": \"shop\", \"k8s.pod.name\": \"cart-1\", "
		"\"k8s.pod.uid\": \"u1\", \"k8s.container.name\": \"app\"}, "
		"\"counts\": {\"T.SLOTS\": 100, \"T.FE\": 60, \"T.BE\": 20, \"T.RET\": 10}}\n"
		"{\"schema\": \"tmacg/1\", \"time\": \"2026-11-21T10:00:01Z\", \"cgroup\": \"/kubepods/podu2\", \"interval_s\": 1, "
		"\"resource\": {\"k8s.namespace.name\": \"shop\", \"k8s.pod.name\": \"db-0\", "
		"\"k8s.pod.uid\": \"u2\"}, "
		"\"counts\": {\"T.SLOTS\": 100, \"T.FE\": 60, \"T.BE\": 20, \"T.RET\": 10}}\n";
	struct tma_model *m = test_model();
	struct replay_data d;
	json_object *data, *cg, *v;
	char *doc;

	(void)state;
	read_text(text, &d);
	doc = write_document(&d, m, 1);
	data = document_data(doc);
	assert_int_equal(json_object_array_length(path_get(data, "cgroups")), 2);
	for (int i = 0; i < 2; i++) {
		cg = json_object_array_get_idx(path_get(data, "cgroups"), i);
		assert_non_null(json_object_get_string(path_get(cg, "ns")));
		assert_non_null(json_object_get_string(path_get(cg, "pod")));
		assert_string_equal(json_object_get_string(path_get(cg, "ns")), "shop");
		v = path_get(cg, "container");
		if (!strcmp(json_object_get_string(path_get(cg, "path")), "/kubepods/podu1/c1")) {
			assert_string_equal(json_object_get_string(path_get(cg, "pod")), "cart-1");
			assert_non_null(json_object_get_string(v));
			assert_string_equal(json_object_get_string(v), "app");
		} else {
			assert_string_equal(json_object_get_string(path_get(cg, "pod")), "db-0");
			assert_null(v); /* a pod's line: no container */
		}
	}
	json_object_put(data);
	free(doc);
	replay_free(&d);
	model_free(m);
}

static void test_atomic_file(void **state)
{
	char dir[] = "/tmp/tmacg-html-XXXXXX", path[256], err[512], buf[64] = "";
	struct atomic_file af;
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/r.html", dir);
	/* An old report stays as it was until the new one is complete. */
	f = fopen(path, "w");
	fputs("old", f);
	fclose(f);
	assert_int_equal(atomic_file_open(&af, path, err, sizeof(err)), 0);
	fputs("new", af.f);
	atomic_file_abort(&af);
	f = fopen(path, "r");
	assert_non_null(fgets(buf, sizeof(buf), f));
	fclose(f);
	assert_string_equal(buf, "old");
	assert_int_equal(atomic_file_open(&af, path, err, sizeof(err)), 0);
	fputs("new", af.f);
	assert_int_equal(atomic_file_commit(&af, err, sizeof(err)), 0);
	f = fopen(path, "r");
	assert_non_null(fgets(buf, sizeof(buf), f));
	fclose(f);
	assert_string_equal(buf, "new");
	unlink(path);
	/* No temporary file left behind either way. */
	assert_int_equal(rmdir(dir), 0);
	/* A directory that does not exist, a directory as the file: refused, said. */
	snprintf(path, sizeof(path), "%s/no/r.html", dir);
	assert_int_equal(atomic_file_open(&af, path, err, sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "cannot write there"));
	assert_int_equal(atomic_file_open(&af, "/tmp", err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "not a regular file"));
	/*
	 * -o '' (an unset shell variable): refused at once, not after a whole run whose
	 * rename then fails, and no temporary file made in the working directory.
	 */
	assert_int_equal(atomic_file_open(&af, "", err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "an empty file name"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_share_is_summed_slots),
		cmocka_unit_test(test_chart_downsampled_by_slots),
		cmocka_unit_test(test_script_json_escape),
		cmocka_unit_test(test_hostile_names_stay_data),
		cmocka_unit_test(test_every_golden_file),
		cmocka_unit_test(test_nodes_carry_vendor_text),
		cmocka_unit_test(test_k8s_names),
		cmocka_unit_test(test_atomic_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
