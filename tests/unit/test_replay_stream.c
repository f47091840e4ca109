// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * --replay reads as it goes: a record is printed once its line is read (a
 * live pipe's interval as the next one begins), a bad line costs that line
 * (named, at most REPLAY_NAMED_MAX of them, exit 1), a line of another model
 * than the first one's is such a line, a recording that lacks the model's
 * events says so, and a replayed line carries a live line's counts.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/model.h"
#include "offline_capture.h"
#include "output/html_data.h"
#include "replay/replay_html.h"
#include "replay/replay_read.h"
#include "replay/replay_run.h"
#include "replay/replay_source.h"
#include "replay/replay_top.h"
#include "replay_text.h"
#include "text_count.h"

/* A software model's tmacg/1 line of cgroup CG, as a live run writes it (counts cut short). */
#define SW_LINE(cg, model)                                                                      \
	"{\"schema\":\"tmacg/1\",\"time\":\"2026-11-28T14:54:26.936154436Z\",\"interval_s\":2," \
	"\"host\":\"vm\",\"model\":\"" model "\",\"tma_version\":null,\"cgroup\":\"" cg "\","   \
	"\"cgroup_id\":1,\"counts\":{\"on_cpu_s\":1.5,\"SW.CONTEXT_SWITCHES\":4411,"            \
	"\"SW.CPU_CLOCK\":1623189934,\"SW.CPU_MIGRATIONS\":136,\"SW.PAGE_FAULTS\":88401}}\n"

/* text in a temporary file: its path */
static const char *temp_file(const char *text)
{
	const char *path = replay_temp_file(text);

	assert_non_null(path);
	return path;
}

static int lines_of(const char *text)
{
	return text_count(text, "\n");
}

/* tmacg --replay path ARGS... --format json: exit code, stdout and stderr. */
static int replay_cli(const char *path, const char *model, char *out, char *err, size_t len)
{
	const char *with[] = { "tmacg", "--replay", path, "--format", "json", "--model", model };
	int argc = model ? 7 : 5, code;

	code = offline_capture(STDOUT_FILENO, NULL, argc, with, out, len);
	assert_int_equal(offline_capture(STDERR_FILENO, NULL, argc, with, err, len), code);
	return code;
}

/* The model comes from the first line: a later line of another model is named and skipped. */
static void other_model_line_skipped(void **state)
{
	static char out[1 << 16], err[1 << 14];
	const char *path =
		temp_file(SW_LINE("/a", "software") SW_LINE("/b", "icx") SW_LINE("/c", "software"));

	(void)state;
	assert_int_equal(replay_cli(path, NULL, out, err, sizeof(out)), 1);
	assert_int_equal(lines_of(out), 2);
	assert_non_null(strstr(out, "\"cgroup\":\"/a\""));
	assert_non_null(strstr(out, "\"cgroup\":\"/c\""));
	assert_null(strstr(out, "\"cgroup\":\"/b\""));
	if (!strstr(err, "line 1 was measured with model software, line 2 with icx: name the "
			 "model to replay with --model ID") ||
	    !strstr(err, "1 bad line skipped, 2 replayed"))
		fail_msg("%s", err);
	/* --model names the model: every line replays with it */
	assert_int_equal(replay_cli(path, "software", out, err, sizeof(out)), 0);
	assert_int_equal(lines_of(out), 3);
	unlink(path);
}

/* A recording of another model: named once (which events, which model), and the reason says so. */
static void lacking_events_named_once(void **state)
{
	static char out[1 << 17], err[1 << 14];
	const char *path = temp_file(SW_LINE("/a", "software") SW_LINE("/b", "software"));
	json_object *j;
	const char *why;

	(void)state;
	assert_int_equal(replay_cli(path, "icx", out, err, sizeof(out)), 0);
	assert_int_equal(text_count(err, "the recording lacks"), 1);
	if (!strstr(err, ":1: the recording lacks TOPDOWN.SLOTS and ") ||
	    !strstr(err, "which model icx reads (it was measured with model software)"))
		fail_msg("%s", err);
	assert_int_equal(lines_of(out), 2);
	j = json_tokener_parse(out);
	assert_non_null(j);
	why = json_object_get_string(
		json_object_object_get(json_object_object_get(j, "quality"), "no_top_down"));
	assert_non_null(why);
	if (strncmp(why, "the recording lacks TOPDOWN.SLOTS", 33) || strstr(why, "cgroup"))
		fail_msg("blames the cgroup: %s", why);
	json_object_put(j);
	unlink(path);
}

/* Past REPLAY_NAMED_MAX bad lines, the rest are counted, not named. */
static void bad_lines_named_up_to_a_bound(void **state)
{
	static char out[1 << 16], err[1 << 14], text[1 << 14], want[128];
	const char *path;
	int n = 0;

	(void)state;
	for (int i = 0; i < REPLAY_NAMED_MAX + 10; i++)
		n += snprintf(text + n, sizeof(text) - n, "not json %d\n", i);
	snprintf(text + n, sizeof(text) - n, "%s", SW_LINE("/a", "software"));
	path = temp_file(text);
	assert_int_equal(replay_cli(path, NULL, out, err, sizeof(out)), 1);
	assert_int_equal(lines_of(out), 1);
	assert_int_equal(text_count(err, ": bad JSON: "), REPLAY_NAMED_MAX);
	snprintf(want, sizeof(want), "%s:%d: bad JSON", path, REPLAY_NAMED_MAX);
	assert_non_null(strstr(err, want));
	snprintf(want, sizeof(want), "%s:%d: bad JSON", path, REPLAY_NAMED_MAX + 1);
	assert_null(strstr(err, want));
	if (!strstr(err, ": 10 more bad lines not named\n") ||
	    !strstr(err, ": 30 bad lines skipped, 1 replayed\n"))
		fail_msg("%s", err);
	unlink(path);
}

/* A recording cut short by a full disk: the good lines replay, the last is named as cut. */
static void cut_short_recording_replays(void **state)
{
	static char out[1 << 16], err[1 << 14], text[4096], want[256];
	const char *line = SW_LINE("/a", "software");
	const char *path;

	(void)state;
	snprintf(text, sizeof(text), "%s%s%.*s", line, line, (int)strlen(line) / 2, line);
	path = temp_file(text);
	assert_int_equal(replay_cli(path, NULL, out, err, sizeof(out)), 1);
	assert_int_equal(lines_of(out), 2);
	snprintf(want, sizeof(want),
		 "tmacg: %s:3: incomplete last line: the recording was cut short? (", path);
	if (strncmp(err, want, strlen(want)))
		fail_msg("%s", err);
	unlink(path);
}

/* A replayed line carries what a live line of the model does, recomputed from its counts. */
static void live_counts_recomputed(void **state)
{
	static char out[1 << 16], err[1 << 14];
	const char *path = temp_file(
		"{\"cgroup\":\"/a\",\"interval_s\":3,\"counters\":{"
		"\"SW.CONTEXT_SWITCHES\":10,\"SW.CPU_CLOCK\":3000000000,"
		"\"SW.CPU_MIGRATIONS\":4,\"SW.PAGE_FAULTS\":6}}\n" SW_LINE("/b", "software"));
	json_object *j, *c;
	char *second;

	(void)state;
	assert_int_equal(replay_cli(path, "software", out, err, sizeof(out)), 0);
	second = strchr(out, '\n');
	assert_non_null(second);
	*second++ = '\0';
	/* the model's rates derived from the interval as live: 9 digits, the counts exact */
	if (!strstr(out, "\"context_switches_per_s\":3.33333333,"))
		fail_msg("context_switches_per_s not to 9 digits: %s", out);
	j = json_tokener_parse(out);
	c = json_object_object_get(j, "counts");
	/* the model's counts, as live: from the events */
	assert_true(json_object_get_double(json_object_object_get(c, "context_switches")) == 10);
	assert_true(json_object_get_double(json_object_object_get(c, "cpu_clock_s")) == 3);
	assert_true(json_object_get_double(json_object_object_get(c, "SW.CPU_CLOCK")) == 3e9);
	json_object_put(j);
	j = json_tokener_parse(second);
	c = json_object_object_get(j, "counts");
	/* a tmacg/1 line's on_cpu_s gives its cpu_utilization back */
	assert_true(json_object_get_double(json_object_object_get(c, "on_cpu_s")) == 1.5);
	assert_true(json_object_get_double(json_object_object_get(c, "cpu_utilization")) == 0.75);
	assert_true(json_object_get_double(json_object_object_get(c, "page_faults")) == 88401);
	json_object_put(j);
	unlink(path);
}

/* A recording with no good line gives no report: -o's file is not written, exit 1. */
static void html_of_nothing_not_written(void **state)
{
	char text[4096], report[] = "/tmp/tmacg-stream-report-XXXXXX";
	const char *path = temp_file("not json\n");
	const char *argv[] = { "tmacg",	   "--replay", path, "--model", "icx",
			       "--format", "html",     "-o", report };

	(void)state;
	close(mkstemp(report));
	unlink(report);
	assert_int_equal(offline_capture(STDERR_FILENO, NULL, 9, argv, text, sizeof(text)), 1);
	assert_int_equal(access(report, F_OK), -1);
	if (!strstr(text, ":1: bad JSON") || !strstr(text, "1 bad line skipped, 0 replayed"))
		fail_msg("%s", text);
	unlink(path);
}

/* The live view of a replay has the live one's CPU% and rate columns. */
static void top_has_live_columns(void **state)
{
	char err[256], *out = NULL;
	size_t len = 0;
	struct tma_model *m = model_load_builtin("software", err, sizeof(err));
	struct replay_data d;
	struct replay_source src;
	FILE *f = open_memstream(&out, &len);

	(void)state;
	assert_non_null(m);
	assert_int_equal(replay_read_text(SW_LINE("/a", "software"), &d, err, sizeof(err)), 0);
	src = replay_source_data(&d);
	assert_int_equal(replay_top_from(&src, m, 1, false, 100, f, stderr), 0);
	fclose(f);
	/* on_cpu_s 1.5 of 2 s; 4411 switches in 2 s */
	if (!strstr(out, "CPU%") || !strstr(out, "context_switches/s") || !strstr(out, " 75.0 ") ||
	    !strstr(out, "2205.5"))
		fail_msg("%s", out);
	free(out);
	replay_free(&d);
	model_free(m);
}

/* The HTML report's totals of a tmacg/1 recording: a counter no line lists stays unmeasured. */
static void html_totals_keep_unmeasured(void **state)
{
	static const char model[] = "model t\nnode 1 A\n  formula X.Y / (X.Y + Z.W)\n"
				    "node 2 B\n  formula X.Y / (X.Y + 1)\n";
	static const char text[] =
		"{\"schema\":\"tmacg/1\",\"time\":\"2026-11-21T10:00:01Z\",\"interval_s\":1,"
		"\"cgroup\":\"/a\",\"counts\":{\"X.Y\":3}}\n"
		"{\"schema\":\"tmacg/1\",\"time\":\"2026-11-21T10:00:02Z\",\"interval_s\":1,"
		"\"cgroup\":\"/a\",\"counts\":{\"X.Y\":1}}\n";
	char err[512];
	struct tma_model *m = model_load(model, sizeof(model) - 1, "t.tma", err, sizeof(err));
	struct replay_data d;
	struct html_report *h;
	FILE *null = fopen("/dev/null", "w");

	(void)state;
	assert_non_null(m);
	assert_int_equal(replay_read_text(text, &d, err, sizeof(err)), 0);
	assert_int_equal(replay_html_gather(&d, m, 1, &h, null), 0);
	assert_true(isnan(html_report_total(h, 0, model_node_index(m, "A"))));
	assert_true(html_report_total(h, 0, model_node_index(m, "B")) == 0.8);
	html_report_free(h);
	replay_free(&d);
	model_free(m);
	fclose(null);
}

/* A live pipe: what the test writes, and what the replay prints of it. */
struct pipe_run {
	int in[2], out[2];
	const struct tma_model *m;
	bool top;
	int rc;
};

static void *replay_thread(void *arg)
{
	struct pipe_run *p = arg;
	FILE *in = fdopen(p->in[0], "r"), *out = fdopen(p->out[1], "w");
	struct replay_reader r;
	struct replay_source src;

	replay_reader_init(&r, in, "<stdin>", REPLAY_MAX_LINE);
	replay_source_reader(&src, &r, stderr);
	p->rc = p->top ? replay_top_from(&src, p->m, 1, false, 100, out, stderr) :
			 replay_run_from(&src, p->m, 1, true, false, false, out, stderr);
	p->rc |= replay_source_end(&src);
	replay_reader_free(&r);
	fclose(in);
	fclose(out);
	return NULL;
}

/* Reads from fd until text holds want, for at most 5 s: true when it does. */
static bool arrives(int fd, const char *want, char *text, size_t len)
{
	size_t n = strlen(text);

	while (!strstr(text, want)) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		ssize_t got;

		if (poll(&pfd, 1, 5000) <= 0 || n + 1 >= len)
			return false;
		got = read(fd, text + n, len - n - 1);
		if (got <= 0)
			return false;
		n += (size_t)got;
		text[n] = '\0';
	}
	return true;
}

static void follows(bool top)
{
	static char text[1 << 16];
	char err[256];
	struct tma_model *m = model_load_builtin("software", err, sizeof(err));
	struct pipe_run p = { .m = m, .top = top };
	pthread_t t;
	const char *a = SW_LINE("/a", "software"), *b = SW_LINE("/b", "software");

	assert_non_null(m);
	assert_int_equal(pipe(p.in), 0);
	assert_int_equal(pipe(p.out), 0);
	text[0] = '\0';
	assert_int_equal(pthread_create(&t, NULL, replay_thread, &p), 0);
	/*
	 * One interval of /a and /b, the pipe kept open: each JSON line as it
	 * is read; the live view's frame once the next interval's first line
	 * shows the interval ended (its second frame only when the input ends).
	 * No third line for JSON: the replay may write it before this reads.
	 */
	assert_int_equal(write(p.in[1], a, strlen(a)), (ssize_t)strlen(a));
	if (!top)
		assert_true(arrives(p.out[0], "\"cgroup\":\"/a\"", text, sizeof(text)));
	assert_int_equal(write(p.in[1], b, strlen(b)), (ssize_t)strlen(b));
	if (top) {
		assert_int_equal(write(p.in[1], a, strlen(a)), (ssize_t)strlen(a));
		assert_true(arrives(p.out[0], "2 cgroups", text, sizeof(text)));
	} else {
		assert_true(arrives(p.out[0], "\"cgroup\":\"/b\"", text, sizeof(text)));
	}
	assert_int_equal(text_count(text, top ? "model software" : "\n"), top ? 1 : 2);
	close(p.in[1]);
	assert_int_equal(pthread_join(t, NULL), 0);
	assert_int_equal(p.rc, 0);
	close(p.out[0]);
	model_free(m);
}

static void json_follows_a_live_pipe(void **state)
{
	(void)state;
	follows(false);
}

static void top_follows_a_live_pipe(void **state)
{
	(void)state;
	follows(true);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(other_model_line_skipped),
		cmocka_unit_test(lacking_events_named_once),
		cmocka_unit_test(bad_lines_named_up_to_a_bound),
		cmocka_unit_test(cut_short_recording_replays),
		cmocka_unit_test(live_counts_recomputed),
		cmocka_unit_test(html_totals_keep_unmeasured),
		cmocka_unit_test(top_has_live_columns),
		cmocka_unit_test(html_of_nothing_not_written),
		cmocka_unit_test(json_follows_a_live_pipe),
		cmocka_unit_test(top_follows_a_live_pipe),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
