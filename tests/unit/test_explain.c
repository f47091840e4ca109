// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The vendor's words for a node (issue 26): tmacg --explain, --list-metrics --format
 * json, each TMA version by --tma-version, and a 5.1 recording replayed as 5.1.  Run
 * in-process through options_parse and offline_run, as the command line does.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <json-c/json.h>
#include <math.h>

#include "model/model.h"
#include "model_dir.h"
#include "model_list.h"
#include "monitor.h"
#include "options.h"
#include "offline_capture.h"

#define OUT_MAX (4 << 20)

static int run(int fd, char *text, size_t len, const char **argv)
{
	int argc = 0;

	while (argv[argc])
		argc++;
	return offline_capture(fd, NULL, argc, argv, text, len);
}

static void must_hold(const char *text, const char *want)
{
	if (!strstr(text, want))
		fail_msg("'%s' missing from:\n%s", want, text);
}

/* The "done when": Intel's text for L3_Miss_Bound on Granite Rapids, at 5.2. */
static void explain_prints_intels_text(void **state)
{
	static char text[16384];
	const char *argv[] = { "tmacg", "--explain", "L3_Miss_Bound", "--model", "gnr", NULL };

	(void)state;
	assert_int_equal(run(STDOUT_FILENO, text, sizeof(text), argv), 0);
	must_hold(text, "L3_Miss_Bound: node 3.1.4, level 3 of model gnr (Intel Xeon 6 with "
			"P-cores (Granite Rapids), TMA 5.2)\n");
	must_hold(text, "parent:    Memory_Bound\n");
	must_hold(text, "children:  MEM_Bandwidth, MEM_Latency\n");
	/* Intel's BriefDescription, in full (wrapped at spaces) */
	must_hold(text, "  This metric estimates how often the CPU was stalled on accesses to "
			"external\n  memory (DRAM) by loads. Better caching can improve the "
			"latency and increase\n  performance.\n");
	must_hold(text, "formula:   (MEMORY_ACTIVITY.STALLS_L3_MISS / CLKS)\n");
	must_hold(text, "  where CLKS = CPU_CLK_UNHALTED.THREAD\n");
	must_hold(text, "threshold: (L3_Miss_Bound > 0.1) and (Memory_Bound > 0.2) and "
			"(Backend_Bound > 0.2)\n");
}

/* The old name: exit 2, naming the version that has it; that version answers. */
static void renamed_node_names_its_version(void **state)
{
	static char text[16384];
	const char *old[] = { "tmacg", "--explain", "DRAM_Bound", "--model", "gnr", NULL };
	const char *v51[] = { "tmacg", "--explain",	"DRAM_Bound", "--model",
			      "gnr",   "--tma-version", "5.1",	      NULL };

	(void)state;
	assert_int_equal(run(STDERR_FILENO, text, sizeof(text), old), 2);
	must_hold(text, "model gnr (TMA 5.2) has no node 'DRAM_Bound', TMA 5.1 has it "
			"(--tma-version 5.1)");
	assert_int_equal(run(STDOUT_FILENO, text, sizeof(text), v51), 0);
	must_hold(text, "DRAM_Bound: node 3.1.4, level 3 of model gnr (Intel Xeon 6 with P-cores "
			"(Granite Rapids), TMA 5.1)\n");
}

/* An unknown version: exit 2, naming the versions the model has. */
static void unknown_version_names_the_versions(void **state)
{
	static char text[4096];
	const char *argv[] = { "tmacg", "--list-metrics", "--model", "icx", "--tma-version", "5.0",
			       NULL };

	(void)state;
	assert_int_equal(run(STDERR_FILENO, text, sizeof(text), argv), 2);
	must_hold(text, "model icx has no TMA version '5.0': it has 5.2 (the default), 4.5");
}

/* A model without versions says so, rather than "it has" and nothing. */
static void unversioned_model_says_it_has_none(void **state)
{
	static char text[4096];
	const char *argv[] = { "tmacg",	   "--list-metrics", "--model",
			       "software", "--tma-version",  "5.2",
			       NULL };

	(void)state;
	assert_int_equal(run(STDERR_FILENO, text, sizeof(text), argv), 2);
	must_hold(text, "model software has no TMA version '5.2': it has none (leave out "
			"--tma-version)");
}

/*
 * A recording names its model and version: text from whoever wrote the file.  One
 * that does not exist is named in the message with its controls as \xHH.
 */
static void recorded_names_are_escaped(void **state)
{
	static char text[4096];
	char path[] = "/tmp/tmacg-recorded-XXXXXX";
	const char *argv[] = { "tmacg", "--replay", path, "--format", "json", NULL };
	static const char *const lines[] = {
		"{\"schema\":\"tmacg/1\",\"time\":\"2026-11-21T10:00:01Z\",\"model\":\"spr\","
		"\"tma_version\":\"\\u001b[2J\",\"cgroup\":\"/a\",\"interval_s\":1,"
		"\"counts\":{}}\n",
		"{\"schema\":\"tmacg/1\",\"time\":\"2026-11-21T10:00:01Z\",\"model\":"
		"\"x\\u001b]0;t\\u0007\",\"tma_version\":null,\"cgroup\":\"/a\",\"interval_s\":1,"
		"\"counts\":{}}\n",
		"{\"schema\":\"tmacg/1\",\"time\":\"2026-11-21T10:00:01Z\",\"model\":\"spr\","
		"\"tma_version\":null,\"cgroup\":\"/a\",\"interval_s\":1,\"counts\":{}}\n"
		"{\"schema\":\"tmacg/1\",\"time\":\"2026-11-21T10:00:01Z\",\"model\":"
		"\"x\\u001b]0;t\\u0007\",\"tma_version\":null,\"cgroup\":\"/a\",\"interval_s\":1,"
		"\"counts\":{}}\n",
	};
	/* a model that cannot be opened is a usage error; a line of another model, a bad line */
	static const int codes[] = { 2, 2, 1 };
	static const char *const says[] = {
		"model spr has no TMA version '\\x1b[2J'",
		"unknown model 'x\\x1b]0;t\\x07'",
		"line 1 was measured with model spr, line 2 with x\\x1b]0;t\\x07",
	};

	(void)state;
	for (size_t i = 0; i < 3; i++) {
		int fd = mkstemp(path);

		assert_true(fd >= 0);
		assert_int_equal(write(fd, lines[i], strlen(lines[i])), (ssize_t)strlen(lines[i]));
		close(fd);
		assert_int_equal(run(STDERR_FILENO, text, sizeof(text), argv), codes[i]);
		unlink(path);
		strcpy(path, "/tmp/tmacg-recorded-XXXXXX");
		if (strchr(text, '\033') || strchr(text, '\007'))
			fail_msg("a terminal control in: %s", text);
		must_hold(text, says[i]);
	}
}

/*
 * Live, an unknown version or model is the same usage error (exit 2), said before
 * anything is opened, not exit 1 after the privileges check.
 */
static void live_unknown_version_is_usage(void **state)
{
	const char *const args[][6] = {
		{ "tmacg", "--model", "gnr", "--tma-version", "9", NULL },
		{ "tmacg", "--pmu", "software", "--tma-version", "5.2", NULL },
		{ "tmacg", "--model", "nope", NULL },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(args) / sizeof(args[0]); i++) {
		struct options o;
		int argc = 0;

		while (args[i][argc])
			argc++;
		assert_int_equal(options_parse(&o, argc, (char **)args[i], stdout, stderr), 0);
		options_resolve(&o, false);
		o.count = 1;
		if (monitor_run(&o) != 2)
			fail_msg("tmacg %s %s: not exit 2", args[i][1], args[i][2]);
	}
}

/* TMACG_MODEL_DIR holds versions too: ID@VERSION.tma, which must say that version. */
static void model_dir_versions(void **state)
{
	char dir[] = "/tmp/tmacg-versions-XXXXXX", err[512], versions[4][MODEL_VERSION_MAX];
	static const char *const files[][2] = {
		{ "t.tma", "model t\ntma_version 2\nnode 1 A\n  formula E.A\n" },
		{ "t@1.tma", "model t\ntma_version 1\nnode 1 Old\n  formula E.A\n" },
		{ "t@3.tma", "model t\ntma_version 9\nnode 1 A\n  formula E.A\n" },
	};
	struct tma_model *m;

	(void)state;
	assert_int_equal(model_dir_make(dir, files, 3), 0);
	setenv("TMACG_MODEL_DIR", dir, 1);
	assert_int_equal(model_versions("t", versions, 4), 3);
	assert_string_equal(versions[0], "2"); /* the default first */
	m = model_load_version("t", "1", err, sizeof(err));
	assert_non_null(m);
	assert_true(model_node_index(m, "Old") >= 0);
	model_free(m);
	m = model_load_version("t", NULL, err, sizeof(err));
	assert_non_null(m);
	assert_string_equal(model_tma_version(m), "2");
	model_free(m);
	assert_null(model_load_version("t", "3", err, sizeof(err)));
	if (!strstr(err, "t@3.tma") || !strstr(err, "tma_version 9"))
		fail_msg("%s", err);
	assert_null(model_load_version("t", "4", err, sizeof(err)));
	assert_string_equal(err, "model t has no TMA version '4': it has 2 (the default), 1, 3 "
				 "(tmacg --list-models)");
	unsetenv("TMACG_MODEL_DIR");
	model_dir_remove(dir, files, 3);
}

static char *model_file(const char *text)
{
	static char path[] = "/tmp/tmacg-explain-XXXXXX.tma";
	int fd;

	strcpy(path, "/tmp/tmacg-explain-XXXXXX.tma");
	fd = mkstemps(path, 4);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	return path;
}

/* A model's text is someone else's: a terminal escape in it is printed as \xHH. */
static const char hostile[] = "model t\ntma_version 1\n"
			      "node 1 A\n  formula E.A\n  threshold > 0.1\n"
			      "  desc Stalls \033]0;owned\007 here.\n"
			      "  brief Stalls \033]0;owned\007 here. \\#1 \"quoted\" \\ more.\n"
			      "  issues $issueX\n";

static void explain_escapes_text(void **state)
{
	static char text[8192];
	char *path = model_file(hostile);
	const char *argv[] = { "tmacg", "--explain", "A", "--model-file", path, NULL };

	(void)state;
	assert_int_equal(run(STDOUT_FILENO, text, sizeof(text), argv), 0);
	unlink(path);
	assert_null(strchr(text, '\033'));
	must_hold(text, "  Stalls \\x1b]0;owned\\x07 here. #1 \"quoted\" \\\\ more.\n");
	must_hold(text, "threshold: A > 0.1\n");
	must_hold(text, "issues:    $issueX\n");
}

/* --list-metrics --format json: every text a JSON string (parsed back here), issue tags too. */
static void list_metrics_json_carries_the_words(void **state)
{
	static char text[8192];
	char *path = model_file(hostile);
	const char *argv[] = { "tmacg", "--list-metrics", "--model-file", path, "--format", "json",
			       NULL };
	json_object *o, *x;

	(void)state;
	assert_int_equal(run(STDOUT_FILENO, text, sizeof(text), argv), 0);
	unlink(path);
	o = json_tokener_parse(text);
	if (!o)
		fail_msg("not one JSON object: %s", text);
	assert_non_null(o);
	assert_true(json_object_object_get_ex(o, "brief", &x));
	assert_string_equal(json_object_get_string(x),
			    "Stalls \033]0;owned\007 here. #1 \"quoted\" \\ more.");
	assert_true(json_object_object_get_ex(o, "description", &x));
	assert_string_equal(json_object_get_string(x), "Stalls \033]0;owned\007 here.");
	assert_true(json_object_object_get_ex(o, "issues", &x));
	assert_string_equal(json_object_get_string(x), "$issueX");
	assert_true(json_object_object_get_ex(o, "parent", &x));
	assert_null(x);
	json_object_put(o);
	/* the escape is a JSON \u escape, never the byte */
	assert_null(strchr(text, '\033'));
}

/*
 * Every tree node of every built-in model, at every TMA version, carries its vendor's
 * words (Intel's, AMD's via perf, Arm's): a model that loses them fails here.
 */
static void every_node_has_its_vendors_words(void **state)
{
	char **ids = NULL, versions[16][MODEL_VERSION_MAX], err[512];
	int n = model_list_ids(&ids), nodes = 0;

	(void)state;
	unsetenv("TMACG_MODEL_DIR");
	assert_true(n > 10);
	for (int k = 0; k < n; k++) {
		int nv = model_versions(ids[k], versions, 16);

		assert_true(nv >= 0);
		for (int v = 0; v < (nv ? nv : 1); v++) { /* no TMA version: its one file */
			struct tma_model *m = model_load_version(ids[k], nv ? versions[v] : NULL,
								 err, sizeof(err));

			if (!m)
				fail_msg("%s: %s", ids[k], err);
			for (int i = 0; i < model_node_count(m); i++) {
				struct model_node_text t;

				if (model_node(m, i)->level == 0)
					continue;
				assert_true(model_node_description(m, i, &t));
				if (!t.brief || !t.brief[0])
					fail_msg("%s %s: node %s has no description", ids[k],
						 model_tma_version(m), model_node(m, i)->name);
				nodes++;
			}
			model_free(m);
		}
		free(ids[k]);
	}
	free(ids);
	print_message("%d tree nodes described\n", nodes);
}

/* A tmacg/1 line of a TMA 5.1 recording: the golden vector's counters as its counts. */
static void write_recorded(FILE *f, json_object *v)
{
	json_object *line = json_object_new_object(), *x;

	json_object_object_add(line, "schema", json_object_new_string("tmacg/1"));
	json_object_object_add(line, "time", json_object_new_string("2026-11-24T10:00:00Z"));
	json_object_object_add(line, "model", json_object_new_string("gnr"));
	json_object_object_add(line, "tma_version", json_object_new_string("5.1"));
	json_object_object_add(line, "cgroup",
			       json_object_get(json_object_object_get(v, "cgroup")));
	json_object_object_add(line, "interval_s",
			       json_object_get(json_object_object_get(v, "interval_s")));
	json_object_object_add(line, "counts",
			       json_object_get(json_object_object_get(v, "counters")));
	if (json_object_object_get_ex(v, "retire_latency", &x))
		json_object_object_add(line, "retire_latency", json_object_get(x));
	fprintf(f, "%s\n", json_object_to_json_string_ext(line, JSON_C_TO_STRING_PLAIN));
	json_object_put(line);
}

/*
 * A TMA 5.1 recording (tmacg's own lines, tma_version 5.1) replays as 5.1 with no
 * --model and no --tma-version, though 5.2 is the default: DRAM_Bound, with the
 * reference's values; --tma-version 5.2 asks for the new tree (L3_Miss_Bound).
 */
static void recording_replays_with_its_version(void **state)
{
	char *out = malloc(OUT_MAX), path[] = "/tmp/tmacg-51-XXXXXX", *line = NULL;
	const char *again[] = {
		"tmacg", "--replay", path, "--level", "3", "--format", "json", NULL
	};
	const char *as52[] = { "tmacg", "--replay",	 path,	"--level", "3", "--format",
			       "json",	"--tma-version", "5.2", NULL };
	FILE *golden = fopen("tests/golden/gnr-tma5.1.jsonl", "r"), *rec;
	json_object *want[64];
	int n = 0, checked = 0, fd = mkstemp(path);
	size_t cap = 0;

	(void)state;
	assert_non_null(out);
	assert_non_null(golden);
	assert_true(fd >= 0);
	rec = fdopen(fd, "w");
	while (n < 64 && getline(&line, &cap, golden) > 0) {
		want[n] = json_tokener_parse(line);
		assert_non_null(want[n]);
		write_recorded(rec, want[n++]);
	}
	free(line);
	fclose(golden);
	fclose(rec);
	assert_int_equal(run(STDOUT_FILENO, out, OUT_MAX, again), 0);
	line = out;
	for (int i = 0; i < n; i++) {
		char *nl = strchr(line, '\n');
		json_object *o, *metrics, *got, *exp, *fixed;

		assert_non_null(nl);
		*nl = '\0';
		o = json_tokener_parse(line);
		assert_non_null(o);
		assert_string_equal(
			json_object_get_string(json_object_object_get(o, "tma_version")), "5.1");
		metrics = json_object_object_get(o, "metrics");
		assert_true(json_object_object_get_ex(metrics, "DRAM_Bound", &got));
		exp = json_object_object_get(json_object_object_get(want[i], "expected"),
					     "DRAM_Bound");
		fixed = json_object_object_get(want[i], "topdown_fixed");
		/* the vectors the 5.1 model binds, with slots (else the report prints no tree) */
		if (json_object_get_boolean(fixed) && exp &&
		    !json_object_object_get(json_object_object_get(o, "quality"), "no_top_down")) {
			double w = json_object_get_double(exp), g = json_object_get_double(got);

			/* the reference's 1e-9, and the 9 digits a ratio is written with */
			if (!got || fabs(w - g) > 6e-9 * fabs(w) + 1e-12)
				fail_msg("vector %d: DRAM_Bound %.17g, the reference %.17g", i, g,
					 w);
			checked++;
		}
		json_object_put(o);
		json_object_put(want[i]);
		line = nl + 1;
	}
	print_message("%d vectors checked\n", checked);
	assert_true(checked >= 20);
	assert_int_equal(run(STDOUT_FILENO, out, OUT_MAX, as52), 0);
	unlink(path);
	must_hold(out, "\"tma_version\":\"5.2\"");
	must_hold(out, "\"L3_Miss_Bound\":");
	assert_null(strstr(out, "\"DRAM_Bound\""));
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(explain_prints_intels_text),
		cmocka_unit_test(renamed_node_names_its_version),
		cmocka_unit_test(unknown_version_names_the_versions),
		cmocka_unit_test(unversioned_model_says_it_has_none),
		cmocka_unit_test(live_unknown_version_is_usage),
		cmocka_unit_test(recorded_names_are_escaped),
		cmocka_unit_test(model_dir_versions),
		cmocka_unit_test(explain_escapes_text),
		cmocka_unit_test(list_metrics_json_carries_the_words),
		cmocka_unit_test(every_node_has_its_vendors_words),
		cmocka_unit_test(recording_replays_with_its_version),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
