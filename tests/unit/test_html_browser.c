// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * --format html in a real browser: Debian's chromium, headless (installed by
 * deploy/install-deps.sh --test; without it the test fails and says so).  The
 * report of the Sapphire Rapids golden recording, three of its cgroups renamed
 * to hostile names, is loaded and its DOM checked: a section per cgroup, the
 * bottleneck text and the table's numbers those of `--replay --format json`
 * within display rounding, the names as text with nothing executed, no
 * console message (an error, an exception or a refused fetch).  Artefacts
 * beside the build's tests: <build>/tests/html/report.html, its DOM and log,
 * and report.png, a screenshot of the first cgroup's chart and tree.
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
#include <sys/stat.h>
#include <unistd.h>

#include "model/model.h"
#include "replay/replay_html.h"
#include "replay/replay_read.h"
#include "replay/replay_run.h"
#include "repo_root.h"

#define NCGROUPS 30 /* the golden file's lines */

/* Renamed: the first is issue 28's, the others would run code if they were markup. */
static const char *const hostile[][2] = {
	{ "/golden/p0", "/<script>alert(1)</script>" },
	{ "/golden/p1", "/\"><img src=x onerror=\"document.title='pwned'\">" },
	{ "/golden/p2", "/</script><script>document.title='pwned'</script>" },
};

static char root[PATH_MAX], artefacts[PATH_MAX];

struct fixture {
	struct tma_model *m;
	struct replay_data d;
	json_object *lines[NCGROUPS]; /* --replay --format json of the same records */
	char *dom, *log;
};

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	char chunk[65536];
	size_t got;

	assert_non_null(out);
	while (f && (got = fread(chunk, 1, sizeof(chunk), f)) > 0)
		fwrite(chunk, 1, got, out);
	if (f)
		fclose(f);
	fclose(out);
	return buf;
}

/* The golden text with the hostile names in place of the first cgroups'. */
static char *renamed_golden(void)
{
	char path[PATH_MAX + 64];
	char *text, *out;

	snprintf(path, sizeof(path), "%s/tests/golden/spr-tma5.01.jsonl", root);
	text = slurp(path);
	for (size_t i = 0; i < sizeof(hostile) / sizeof(hostile[0]); i++) {
		char from[64];
		json_object *s = json_object_new_string(hostile[i][1]);
		const char *to = json_object_to_json_string_ext(s, JSON_C_TO_STRING_PLAIN);
		char *at;

		snprintf(from, sizeof(from), "\"%s\"", hostile[i][0]);
		at = strstr(text, from);
		assert_non_null(at);
		assert_int_not_equal(
			asprintf(&out, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from)),
			-1);
		json_object_put(s);
		free(text);
		text = out;
	}
	return text;
}

/* Runs chromium on the report (#fragment): the DOM on stdout or a screenshot, its log. */
static int chromium(const char *what, const char *fragment, const char *out, const char *log)
{
	char cmd[4 * PATH_MAX], profile[] = "/tmp/tmacg-chromium-XXXXXX";
	int rc;

	assert_non_null(mkdtemp(profile));
	snprintf(cmd, sizeof(cmd),
		 "timeout 60 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars "
		 "--no-first-run --user-data-dir='%s' --enable-logging=stderr --v=0 %s "
		 "'file://%s/report.html%s' >'%s' 2>'%s'",
		 profile, what, artefacts, fragment, out, log);
	rc = system(cmd);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", profile);
	if (system(cmd))
		print_message("could not remove %s\n", profile);
	return rc;
}

static int setup(void **state)
{
	static struct fixture fx;
	char err[512], path[2 * PATH_MAX], logpath[2 * PATH_MAX], *text = NULL, *json = NULL;
	char *line, *save;
	size_t len = 0;
	FILE *f;

	if (repo_root(root, sizeof(root)) || strchr(root, '\''))
		return -1;
	if (system("command -v chromium >/dev/null 2>&1")) {
		print_error("chromium is missing: run deploy/install-deps.sh --test\n");
		return -1;
	}
	/* <build>/tests/html, beside this program's <build>/tests/unit. */
	if (readlink("/proc/self/exe", path, sizeof(path) - 1) < 0)
		return -1;
	*strrchr(path, '/') = '\0';
	*strrchr(path, '/') = '\0';
	if (strlen(path) + 8 > sizeof(artefacts))
		return -1;
	snprintf(artefacts, sizeof(artefacts), "%.*s/html", PATH_MAX - 8, path);
	mkdir(artefacts, 0755);
	fx.m = model_load_builtin("spr", err, sizeof(err));
	text = renamed_golden();
	f = fmemopen(text, strlen(text), "r");
	if (!fx.m || !f || replay_read_stream(f, "golden", &fx.d, err, sizeof(err)))
		return -1;
	fclose(f);
	free(text);
	snprintf(path, sizeof(path), "%s/report.html", artefacts);
	f = fopen(path, "w");
	if (!f || replay_html_data(&fx.d, fx.m, 3, f, stderr))
		return -1;
	fclose(f);
	f = open_memstream(&json, &len);
	if (replay_run_data(&fx.d, fx.m, 3, true, false, false, f, stderr))
		return -1;
	fclose(f);
	line = strtok_r(json, "\n", &save);
	for (int i = 0; i < NCGROUPS && line; i++, line = strtok_r(NULL, "\n", &save))
		fx.lines[i] = json_tokener_parse(line);
	free(json);
	snprintf(path, sizeof(path), "%s/report.dom.html", artefacts);
	snprintf(logpath, sizeof(logpath), "%s/report.log", artefacts);
	/* cgroups 1 and 3 compared: a hostile name next to a plain one */
	if (chromium("--dump-dom", "#compare=1,3", path, logpath))
		return -1;
	fx.dom = slurp(path);
	fx.log = slurp(logpath);
	*state = &fx;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *fx = *state;

	for (int i = 0; fx && i < NCGROUPS; i++)
		json_object_put(fx->lines[i]);
	if (fx) {
		free(fx->dom);
		free(fx->log);
		replay_free(&fx->d);
		model_free(fx->m);
	}
	return 0;
}

/* The element text after marker (up to the next '<'), into buf. */
static const char *text_after(const char *from, const char *marker, char *buf, size_t len)
{
	const char *p = strstr(from, marker), *end;

	if (!p)
		return NULL;
	p += strlen(marker);
	end = strchr(p, '<');
	snprintf(buf, len, "%.*s", (int)(end ? end - p : 0), p);
	return p;
}

static void test_script_ran_without_console_messages(void **state)
{
	struct fixture *fx = *state;

	assert_non_null(strstr(fx->dom, "data-ready=\"1\""));
	if (strstr(fx->log, ":CONSOLE"))
		fail_msg("console messages (see %s/report.log):\n%s", artefacts,
			 strstr(fx->log, ":CONSOLE"));
}

static void test_hostile_names_are_text(void **state)
{
	struct fixture *fx = *state;

	/* Shown as they are, escaped by the DOM's serializer: they were text nodes. */
	assert_non_null(strstr(fx->dom, "<h2>/&lt;script&gt;alert(1)&lt;/script&gt;</h2>"));
	assert_non_null(strstr(fx->dom,
			       "<h2>/\"&gt;&lt;img src=x onerror=\"document.title='pwned'\""
			       "&gt;</h2>"));
	assert_non_null(strstr(fx->dom, "<h2>/&lt;/script&gt;&lt;script&gt;document.title="
					"'pwned'&lt;/script&gt;</h2>"));
	/* Nothing ran: no image element, the title as the page set it. */
	assert_null(strstr(fx->dom, "<img"));
	assert_non_null(strstr(fx->dom, "<title>tmacg report</title>"));
}

/* Every cgroup's section, its bottleneck as the JSON line's, its numbers the line's. */
static void test_sections_match_json(void **state)
{
	struct fixture *fx = *state;
	int l1l2 = 0;

	for (int i = 0; i < NCGROUPS; i++) {
		char marker[64], got[512], want[512] = "Bottleneck: ";
		const char *sec, *row, *row_end;
		json_object *path, *metrics, *quality, *no_tree;

		assert_non_null(fx->lines[i]);
		snprintf(marker, sizeof(marker), "<section class=\"cgroup\" id=\"cg-%d\"", i);
		sec = strstr(fx->dom, marker);
		if (!sec)
			fail_msg("no section %d", i);
		assert_non_null(text_after(sec, "class=\"bottleneck\">", got, sizeof(got)));
		/* "A.B.C" in JSON, "A › B › C" on the page */
		assert_true(json_object_object_get_ex(fx->lines[i], "bottleneck", &path));
		assert_true(json_object_object_get_ex(fx->lines[i], "quality", &quality));
		assert_true(json_object_object_get_ex(quality, "no_top_down", &no_tree));
		if (!json_object_is_type(no_tree, json_type_null)) {
			snprintf(want, sizeof(want), "Bottleneck: none (%s)",
				 json_object_get_string(no_tree));
		} else if (json_object_is_type(path, json_type_null)) {
			strcat(want, "none");
		} else {
			for (const char *p = json_object_get_string(path); *p; p++)
				strcat(*p == '.' ? strcat(want, " \xe2\x80\xba ") :
						   strncat(want, p, 1),
				       "");
		}
		assert_string_equal(got, want);
		/* The table's row: each level-1 and level-2 share, in % to one decimal. */
		snprintf(marker, sizeof(marker), "<tr data-index=\"%d\">", i);
		row = strstr(fx->dom, marker);
		assert_non_null(row);
		row_end = strstr(row, "</tr>");
		assert_true(json_object_object_get_ex(fx->lines[i], "metrics", &metrics));
		for (int n = 0; n < model_node_count(fx->m); n++) {
			const struct model_node_info *node = model_node(fx->m, n);
			json_object *v;
			const char *at;

			if (node->level < 1 || node->level > 2 || node->is_info || node->is_count)
				continue;
			snprintf(marker, sizeof(marker), "data-col=\"%s\">", node->name);
			at = text_after(row, marker, got, sizeof(got));
			assert_true(at && at < row_end);
			assert_true(json_object_object_get_ex(metrics, node->name, &v));
			if (json_object_is_type(v, json_type_null)) {
				assert_string_equal(got, "\xe2\x80\x93");
			} else if (fabs(strtod(got, NULL) - 100 * json_object_get_double(v)) >
				   0.05 + 1e-9) {
				fail_msg("cgroup %d %s: page %s, JSON %.6f", i, node->name, got,
					 100 * json_object_get_double(v));
			}
			l1l2++;
		}
	}
	print_message("%d sections, %d table numbers agree with the JSON lines\n", NCGROUPS, l1l2);
}

/* #compare=1,3: the two cgroups' trees next to each other, each named, each whole. */
static void test_compare_two(void **state)
{
	struct fixture *fx = *state;
	const char *cmp = strstr(fx->dom, "<div class=\"compare\" id=\"compare\">"), *second;
	char got[512];

	assert_non_null(cmp);
	assert_non_null(text_after(cmp, "<h3>", got, sizeof(got)));
	assert_string_equal(got, "/\"&gt;&lt;img src=x onerror=\"document.title='pwned'\"&gt;");
	second = strstr(strstr(cmp, "<h3>") + 1, "<h3>");
	assert_non_null(second);
	assert_non_null(text_after(second, "<h3>", got, sizeof(got)));
	assert_string_equal(got, "/golden/p3");
	/* both trees, before the first cgroup's section */
	assert_non_null(strstr(cmp, "<div class=\"tree\">"));
	assert_true(strstr(strstr(cmp, "<div class=\"tree\">") + 1, "<div class=\"tree\">") <
		    strstr(cmp, "<section"));
}

static void test_screenshot(void **state)
{
	char png[PATH_MAX + 32], log[PATH_MAX + 32], what[2 * PATH_MAX];
	struct stat st;

	(void)state;
	snprintf(png, sizeof(png), "%s/report.png", artefacts);
	snprintf(log, sizeof(log), "%s/screenshot.log", artefacts);
	unlink(png);
	snprintf(what, sizeof(what), "--window-size=1400,1800 --screenshot='%s'", png);
	assert_int_equal(chromium(what, "", "/dev/null", log), 0);
	assert_int_equal(stat(png, &st), 0);
	assert_true(st.st_size > 20000); /* a drawn page, not a blank one */
	print_message("screenshot: %s\n", png);
}

/*
 * By name, /golden/p3 comes before /golden/p10 (numbers in names compared as
 * numbers, as a person reads them), and one interval is "1 interval".
 */
static void test_names_in_natural_order(void **state)
{
	struct fixture *fx = *state;
	const char *p3 = strstr(fx->dom, "<tr data-index=\"3\">"),
		   *p10 = strstr(fx->dom, "<tr data-index=\"10\">");

	assert_non_null(p3);
	assert_non_null(p10);
	if (p3 > p10)
		fail_msg("/golden/p10 listed before /golden/p3");
	assert_non_null(strstr(fx->dom, ">1 interval, "));
	assert_null(strstr(fx->dom, ">1 intervals"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_script_ran_without_console_messages),
		cmocka_unit_test(test_hostile_names_are_text),
		cmocka_unit_test(test_sections_match_json),
		cmocka_unit_test(test_compare_two),
		cmocka_unit_test(test_names_in_natural_order),
		cmocka_unit_test(test_screenshot),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
