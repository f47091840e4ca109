// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * tmacg's own JSON lines (tmacg/1) as --replay input: recorded on one host,
 * replayed elsewhere with the same metrics; null and absent counts are not
 * measured (null nodes, never zeros); a closed pipe ends a replay quietly.
 * Run from the repository root (tests/run does): reads tests/golden/.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/model.h"
#include "output/output_json.h"
#include "replay/replay_read.h"
#include "replay/replay_run.h"
#include "replay/replay_source.h"
#include "replay_text.h"
#include "replay/replay_top.h"

#define GOLDEN_ICX "tests/golden/icx-tma4.5.jsonl"

/* The golden vectors these tests replay are TMA 4.5 ones. */
static struct tma_model *icx(void)
{
	char err[256];
	struct tma_model *m = model_load_version("icx", "4.5", err, sizeof(err));

	if (!m)
		fail_msg("icx: %s", err);
	return m;
}

/* replay_run_data's JSON output, one parsed object per record. */
static json_object **replay_json(const struct replay_data *d, const struct tma_model *m, int level)
{
	json_object **lines = calloc(d->nrecords + 1, sizeof(*lines));
	char *out = NULL, *line, *save = NULL;
	size_t len = 0;
	FILE *o = open_memstream(&out, &len);
	int n = 0;

	assert_non_null(lines);
	assert_int_equal(replay_run_data(d, m, level, true, false, true, o, stderr), 0);
	fclose(o);
	for (line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		assert_true(n < d->nrecords);
		lines[n] = json_tokener_parse(line);
		assert_non_null(lines[n++]);
	}
	assert_int_equal(n, d->nrecords);
	free(out);
	return lines;
}

/*
 * Each golden vector written as a live tmacg would write it at level 6 (every
 * event the model reads in "counts", its flags, host and time), read back and
 * replayed (level 6, --info): the same metrics as the vector replayed directly, and the line's
 * origin (host, time) kept.  The vectors mix SMT on and off and PERF_METRICS
 * with and without, so a flag lost on the way changes nodes.
 */
static void recorded_lines_replay_as_measured(void **state)
{
	struct tma_model *m = icx();
	int nev = model_event_count(m);
	struct replay_data golden, own;
	const char **names = calloc(nev + 1, sizeof(*names));
	double *values = calloc(nev + 1, sizeof(*values));
	char *text = NULL, err[512];
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	json_object **direct, **round;
	int smt_on = 0, unfixed = 0;

	(void)state;
	assert_non_null(names);
	assert_non_null(values);
	assert_int_equal(replay_read(GOLDEN_ICX, &golden, err, sizeof(err)), 0);
	for (int e = 0; e < nev; e++)
		names[e] = model_event_name(m, e);
	for (int i = 0; i < golden.nrecords; i++) {
		const struct replay_record *r = &golden.records[i];
		struct report_line line = {
			.time = { .tv_sec = 1795000000 + i, .tv_nsec = 123456789 },
			.interval_s = r->interval_s,
			.host = "recording-host",
			.model = "icx",
			.cgroup = r->cgroup,
			.ncounts = nev,
			.count_names = names,
			.count_values = values,
			.running_min = 1,
			.topdown_fixed = r->topdown_fixed,
			.smt = r->smt,
		};

		for (int e = 0; e < nev; e++) {
			values[e] = 0; /* absent from a vector: 0 (tests/golden/README.md) */
			for (int k = 0; k < r->ncounters; k++)
				if (!strcmp(r->counters[k].name, names[e]))
					values[e] = r->counters[k].value;
		}
		smt_on += r->smt;
		unfixed += !r->topdown_fixed;
		assert_int_equal(output_json_line(f, &line), 0);
	}
	fclose(f);
	assert_true(smt_on > 0 && unfixed > 0);
	assert_int_equal(replay_read_text(text, &own, err, sizeof(err)), 0);
	assert_int_equal(own.nrecords, golden.nrecords);
	direct = replay_json(&golden, m, 6);
	round = replay_json(&own, m, 6);
	for (int i = 0; i < golden.nrecords; i++) {
		json_object *a = json_object_object_get(direct[i], "metrics");
		json_object *b = json_object_object_get(round[i], "metrics");
		if (!json_object_equal(a, b))
			fail_msg("%s: replayed from a recorded line %s, from the vector %s",
				 golden.records[i].cgroup, json_object_to_json_string(b),
				 json_object_to_json_string(a));
		assert_int_equal(json_object_object_length(b), json_object_object_length(a));
		assert_string_equal(
			json_object_get_string(json_object_object_get(round[i], "host")),
			"recording-host");
		assert_non_null(
			strstr(json_object_get_string(json_object_object_get(round[i], "time")),
			       ".123456789Z"));
		json_object_put(direct[i]);
		json_object_put(round[i]);
	}
	printf("  %d vectors (%d with SMT on, %d without PERF_METRICS): same metrics\n",
	       golden.nrecords, smt_on, unfixed);
	free(direct);
	free(round);
	free(text);
	free(names);
	free(values);
	replay_free(&golden);
	replay_free(&own);
	model_free(m);
}

static double metric(json_object *line, const char *name)
{
	json_object *v;

	if (!json_object_object_get_ex(json_object_object_get(line, "metrics"), name, &v))
		fail_msg("no metric %s", name);
	return json_object_get_type(v) == json_type_null ? NAN : json_object_get_double(v);
}

/*
 * In a tmacg/1 line a null count was never on the PMU, and a counter the line
 * does not list was not opened: the nodes reading them are null, not computed
 * on zeros as the counters of other replay input are.
 */
static void null_and_absent_counts_are_not_measured(void **state)
{
	static const char text[] =
		"{\"schema\":\"tmacg/1\",\"time\":\"2026-11-21T10:00:01.5Z\",\"interval_s\":1,"
		"\"model\":\"icx\",\"cgroup\":\"/p\",\"counts\":{\"TOPDOWN.SLOTS\":1000,"
		"\"PERF_METRICS.RETIRING\":100,\"PERF_METRICS.FRONTEND_BOUND\":null,"
		"\"PERF_METRICS.BAD_SPECULATION\":300},\"topdown_fixed\":true,\"smt\":false}\n";
	struct tma_model *m = icx();
	struct replay_data d;
	json_object **lines;
	char err[512];

	(void)state;
	assert_int_equal(replay_read_text(text, &d, err, sizeof(err)), 0);
	lines = replay_json(&d, m, 1);
	/* PERF_METRICS.X / the four of them: with one null and one absent, no share is known. */
	assert_true(isnan(metric(lines[0], "Frontend_Bound")));
	assert_true(isnan(metric(lines[0], "Backend_Bound")));
	assert_true(isnan(metric(lines[0], "Retiring")));
	/* The recorded time, to the nanosecond digits given. */
	assert_string_equal(json_object_get_string(json_object_object_get(lines[0], "time")),
			    "2026-11-21T10:00:01.500000000Z");
	json_object_put(lines[0]);
	free(lines);
	replay_free(&d);
	model_free(m);
}

static void bad_own_lines_named(void **state)
{
	static const struct {
		const char *text, *says;
	} cases[] = {
		{ "{\"schema\":\"tmacg/2\",\"cgroup\":\"/a\"}\n",
		  "in.jsonl:1: \"schema\" is \"tmacg\\/2\": this tmacg replays tmacg/1 lines" },
		{ "{\"schema\":\"tmacg/1\",\"cgroup\":\"/a\",\"interval_s\":1,\"counters\":{}}\n",
		  "in.jsonl:1: \"counts\" (an object of event name: count) is missing" },
		{ "{\"schema\":\"tmacg/1\",\"time\":\"yesterday\",\"cgroup\":\"/a\","
		  "\"interval_s\":1,\"counts\":{}}\n",
		  "in.jsonl:1: \"time\" must be RFC 3339 UTC time from year 0000 to 9999 as tmacg "
		  "writes it (YYYY-MM-DDTHH:MM:SS.NNNNNNNNNZ) in a tmacg/1 line" },
		{ "{\"schema\":\"tmacg/1\",\"time\":\"2026-11-21T10:00:01Z\",\"cgroup\":\"/a\","
		  "\"interval_s\":1,\"counts\":{\"X\":\"7\"}}\n",
		  "in.jsonl:1: counter \"X\" is string, not a number" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct replay_data d;
		char err[512] = "";

		assert_int_equal(replay_read_text(cases[i].text, &d, err, sizeof(err)), -EINVAL);
		if (strcmp(err, cases[i].says))
			fail_msg("case %zu: \"%s\", want \"%s\"", i, err, cases[i].says);
	}
}

/*
 * text read as --replay reads it without --model (offline.c): the first
 * record's model and version ("" for none) into model, the records handed
 * out into *n, what is said on stderr into said.
 */
static void read_one_model(const char *text, char *model, size_t len, int *n, char *said,
			   size_t saidlen)
{
	FILE *in = fmemopen((void *)text, strlen(text), "r"), *err = fmemopen(said, saidlen, "w");
	const struct replay_record *first;
	struct replay_reader r;
	struct replay_source src;

	assert_non_null(in);
	assert_non_null(err);
	said[0] = '\0'; /* fmemopen need not empty it */
	replay_reader_init(&r, in, "in.jsonl", REPLAY_MAX_LINE);
	replay_source_reader(&src, &r, err);
	src.one_model = true;
	first = replay_source_peek(&src);
	assert_non_null(first);
	snprintf(model, len, "%s %s", first->origin ? first->origin->model : "",
		 first->origin && first->origin->tma_version ? first->origin->tma_version : "");
	for (*n = 0; replay_source_next(&src); (*n)++)
		;
	replay_source_end(&src);
	replay_reader_free(&r);
	fclose(in);
	fclose(err);
}

/* Without --model, the lines' own model; lines of two models need --model. */
static void recorded_model_is_the_default(void **state)
{
	static const char one[] =
		"{\"schema\":\"tmacg/1\",\"time\":\"2026-11-21T10:00:01Z\",\"model\":\"spr\","
		"\"cgroup\":\"/a\",\"interval_s\":1,\"counts\":{}}\n";
	static const char two[] =
		"{\"schema\":\"tmacg/1\",\"time\":\"2026-11-21T10:00:01Z\",\"model\":\"spr\","
		"\"cgroup\":\"/a\",\"interval_s\":1,\"counts\":{}}\n"
		"{\"schema\":\"tmacg/1\",\"time\":\"2026-11-21T10:00:01Z\",\"model\":\"icx\","
		"\"cgroup\":\"/a\",\"interval_s\":1,\"counts\":{}}\n";
	static const char other[] = "{\"cgroup\":\"/a\",\"interval_s\":1,\"counters\":{}}\n";
	static const char versions[] =
		"{\"schema\":\"tmacg/1\",\"time\":\"2026-11-21T10:00:01Z\",\"model\":\"gnr\","
		"\"tma_version\":\"5.1\",\"cgroup\":\"/a\",\"interval_s\":1,\"counts\":{}}\n"
		"{\"schema\":\"tmacg/1\",\"time\":\"2026-11-21T10:00:02Z\",\"model\":\"gnr\","
		"\"tma_version\":\"5.2\",\"cgroup\":\"/a\",\"interval_s\":1,\"counts\":{}}\n";
	char model[64], said[1024];
	int n;

	(void)state;
	read_one_model(one, model, sizeof(model), &n, said, sizeof(said));
	assert_string_equal(model, "spr "); /* the line gives no version: the model's default */
	assert_int_equal(n, 1);
	assert_string_equal(said, "");
	/* a 5.1 recording replays at 5.1 (offline.c), whatever the default is now */
	read_one_model(versions, model, sizeof(model), &n, said, sizeof(said));
	assert_string_equal(model, "gnr 5.1");
	assert_int_equal(n, 1);
	assert_string_equal(
		said, "tmacg: in.jsonl: line 1 was measured with TMA 5.1 of model gnr, line 2 "
		      "with TMA 5.2: name the version to replay with --tma-version V\n"
		      "tmacg: in.jsonl: 1 bad line skipped, 1 replayed\n");
	read_one_model(two, model, sizeof(model), &n, said, sizeof(said));
	assert_string_equal(model, "spr ");
	assert_int_equal(n, 1);
	assert_string_equal(said,
			    "tmacg: in.jsonl: line 1 was measured with model spr, line 2 with icx: "
			    "name the model to replay with --model ID\n"
			    "tmacg: in.jsonl: 1 bad line skipped, 1 replayed\n");
	read_one_model(other, model, sizeof(model), &n, said, sizeof(said));
	assert_string_equal(model, " "); /* other replay input names no model */
	assert_int_equal(n, 1);
	assert_string_equal(said, "");
}

/* A stream whose reader is gone: writes fail with EPIPE (SIGPIPE ignored, as main does). */
static FILE *closed_pipe(void)
{
	int fds[2];
	FILE *f;

	assert_int_equal(pipe(fds), 0);
	close(fds[0]);
	f = fdopen(fds[1], "w");
	assert_non_null(f);
	return f;
}

/* tmacg --replay ... | head: exit 0 and nothing on stderr, in every format. */
static void closed_pipe_ends_replay_quietly(void **state)
{
	struct tma_model *m = icx();
	struct replay_data d;
	char err[512], *msgs = NULL;
	size_t msglen = 0;
	FILE *e = open_memstream(&msgs, &msglen);

	(void)state;
	signal(SIGPIPE, SIG_IGN);
	assert_int_equal(replay_read(GOLDEN_ICX, &d, err, sizeof(err)), 0);
	for (int json = 0; json < 2; json++) {
		FILE *out = closed_pipe();

		assert_int_equal(replay_run_data(&d, m, 3, json, false, false, out, e), 0);
		fclose(out);
	}
	{
		FILE *out = closed_pipe();
		struct replay_source src = replay_source_data(&d);

		assert_int_equal(replay_top_from(&src, m, 1, false, 80, out, e), 0);
		fclose(out);
	}
	fclose(e);
	assert_string_equal(msgs, "");
	free(msgs);
	replay_free(&d);
	model_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(recorded_lines_replay_as_measured),
		cmocka_unit_test(null_and_absent_counts_are_not_measured),
		cmocka_unit_test(bad_own_lines_named),
		cmocka_unit_test(recorded_model_is_the_default),
		cmocka_unit_test(closed_pipe_ends_replay_quietly),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
