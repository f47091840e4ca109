// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Command line: durations, defaults, and a clear message with exit 2 for bad input. */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "options.h"

struct parsed {
	struct options o;
	int ret;
	char out[8192];
	char err[1024];
};

static void parse(struct parsed *p, int argc, const char **argv)
{
	FILE *out = fmemopen(p->out, sizeof(p->out), "w");
	FILE *err = fmemopen(p->err, sizeof(p->err), "w");

	memset(p->out, 0, sizeof(p->out));
	memset(p->err, 0, sizeof(p->err));
	p->ret = options_parse(&p->o, argc, (char **)argv, out, err);
	fclose(out);
	fclose(err);
}

#define PARSE(p, ...)                                              \
	do {                                                       \
		const char *argv_[] = { "tmacg", __VA_ARGS__ };    \
		parse(p, sizeof(argv_) / sizeof(argv_[0]), argv_); \
	} while (0)

static void durations_take_units(void **state)
{
	uint64_t ns;

	(void)state;
	assert_int_equal(parse_duration("500ms", &ns), 0);
	assert_true(ns == 500000000ULL);
	assert_int_equal(parse_duration("2s", &ns), 0);
	assert_true(ns == 2000000000ULL);
	assert_int_equal(parse_duration("1.5m", &ns), 0);
	assert_true(ns == 90000000000ULL);
	assert_int_equal(parse_duration("250us", &ns), 0);
	assert_true(ns == 250000ULL);
	assert_int_equal(parse_duration("1h", &ns), 0);
	assert_true(ns == 3600000000000ULL);
}

static void durations_reject_garbage(void **state)
{
	static const char *bad[] = { "", "ms", "-1s", "1x", "1 s", "nan", "inf", "1e30s", "2ss" };
	uint64_t ns;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (parse_duration(bad[i], &ns) == 0)
			fail_msg("accepted '%s'", bad[i]);
}

/* perf stat -I 1000 is one second, sleep 1000 is 1,000: a bare number is refused. */
static void durations_need_a_unit(void **state)
{
	static const char *bare[] = { "1000", "3", "0.5", "0" };
	uint64_t ns;

	(void)state;
	for (size_t i = 0; i < sizeof(bare) / sizeof(bare[0]); i++)
		if (parse_duration(bare[i], &ns) != -EDOM)
			fail_msg("'%s' was not refused as a number without a unit", bare[i]);
}

static void defaults(void **state)
{
	struct parsed p;

	(void)state;
	PARSE(&p, "--pmu", "software");
	assert_int_equal(p.ret, 0);
	assert_true(p.o.interval_ns == 1000000000ULL);
	assert_int_equal(p.o.level, 3);
	assert_int_equal(p.o.format, FORMAT_AUTO);
	assert_int_equal(p.o.pmu, PMU_SOFTWARE);
	/* --pmu software is the built-in model of software events */
	assert_string_equal(p.o.model, "software");
	assert_int_equal(p.o.ncgroups, 0);
	assert_int_equal(p.o.count, 0);
}

static void format_top_parses(void **state)
{
	struct parsed p;

	(void)state;
	PARSE(&p, "--format", "top");
	assert_int_equal(p.ret, 0);
	assert_int_equal(p.o.format, FORMAT_TOP);
}

static void everything_parses(void **state)
{
	struct parsed p;

	(void)state;
	PARSE(&p, "--cgroup", "/sys/fs/cgroup/a", "-c", "b", "--depth", "2", "--interval", "250ms",
	      "--count", "3", "--format", "json", "--per-task", "--top", "5", "--model", "icx",
	      "--level", "4", "-v", "-v", "--retire-latency", "lat.json");
	assert_int_equal(p.ret, 0);
	assert_string_equal(p.o.retire_latency, "lat.json");
	assert_int_equal(p.o.ncgroups, 2);
	assert_string_equal(p.o.cgroups[0], "/sys/fs/cgroup/a");
	assert_string_equal(p.o.cgroups[1], "b");
	assert_int_equal(p.o.depth, 2);
	assert_true(p.o.interval_ns == 250000000ULL);
	assert_int_equal(p.o.count, 3);
	assert_int_equal(p.o.format, FORMAT_JSON);
	assert_true(p.o.per_task);
	assert_int_equal(p.o.top, 5);
	assert_string_equal(p.o.model, "icx");
	assert_int_equal(p.o.level, 4);
	assert_int_equal(p.o.verbose, 2);
}

/* The options everything_parses leaves out, each stored where its reader looks. */
static void the_other_options_parse(void **state)
{
	struct parsed p;

	(void)state;
	PARSE(&p, "--k8s-level", "container", "--k8s-logs-containers", "/c", "--k8s-logs-pods",
	      "/p", "--pmu", "software", "--info", "--color", "never", "--host", "h",
	      "--cgroup-root", "/r", "--max-cgroups", "1000", "--max-tasks", "17", "--listen",
	      ":9464", "--duration", "5m");
	assert_int_equal(p.ret, 0);
	assert_true(p.o.k8s); /* --k8s-level implies --k8s */
	assert_int_equal(p.o.k8s_level, K8S_LEVEL_CONTAINER);
	assert_string_equal(p.o.k8s_log_containers, "/c");
	assert_string_equal(p.o.k8s_log_pods, "/p");
	assert_int_equal(p.o.pmu, PMU_SOFTWARE);
	assert_string_equal(p.o.model, "software");
	assert_true(p.o.info);
	assert_int_equal(p.o.color_mode, 0);
	assert_string_equal(p.o.host, "h");
	assert_string_equal(p.o.cgroup_root, "/r");
	assert_int_equal(p.o.max_cgroups, 1000);
	assert_int_equal(p.o.max_tasks, 17);
	assert_string_equal(p.o.listen, ":9464");
	assert_true(p.o.duration_ns == 300000000000ULL);
	assert_true(!p.o.list_events && !p.o.list_models && !p.o.list_metrics);
	/* --k8s is a live run's: not with --replay (replay_refuses_live_options) */
	PARSE(&p, "--model-file", "m.tma", "--list-metrics", "--k8s", "--color", "always",
	      "--list-events", "--list-models");
	assert_int_equal(p.ret, 0);
	assert_true(p.o.list_events && p.o.list_models);
	assert_string_equal(p.o.model_file, "m.tma");
	assert_true(p.o.list_metrics && p.o.k8s);
	assert_int_equal(p.o.k8s_level, K8S_LEVEL_POD);
	assert_int_equal(p.o.color_mode, 1);
	PARSE(&p, "--model-file", "m.tma", "--color", "always", "--replay", "f.jsonl");
	assert_int_equal(p.ret, 0);
	assert_string_equal(p.o.replay, "f.jsonl");
}

/* An option only a live run reads is refused with --replay (exit 2), never silently ignored. */
static void replay_refuses_live_options(void **state)
{
	static const char *const live[][2] = {
		{ "--cgroup", "/" },
		{ "-c", "/" },
		{ "--per-task", NULL },
		{ "--k8s", NULL },
		{ "--k8s-level", "container" },
		{ "--k8s-logs-containers", "/l" },
		{ "--k8s-logs-pods", "/l" },
		{ "--count", "3" },
		{ "--duration", "1m" },
		{ "--top", "5" },
		{ "--host", "h" },
		{ "--cgroup-root", "/sys/fs/cgroup" },
		{ "--btf", "/b" },
		{ "--max-cgroups", "100" },
		{ "--max-tasks", "100" },
	};
	struct parsed p;

	(void)state;
	for (size_t i = 0; i < sizeof(live) / sizeof(live[0]); i++) {
		const char *argv[] = { "tmacg", "--replay", "r.jsonl", live[i][0], live[i][1] };
		char want[128];
		const char *name = live[i][0][1] == '-' ? live[i][0] + 2 : "cgroup";

		parse(&p, live[i][1] ? 5 : 4, argv);
		assert_int_equal(p.ret, 2);
		snprintf(want, sizeof(want), "tmacg: --%s is for a live run, not --replay", name);
		if (strncmp(p.err, want, strlen(want)))
			fail_msg("%s: %s", live[i][0], p.err);
		/* and the other way round: the option first */
		argv[1] = live[i][0];
		argv[2] = live[i][1] ? live[i][1] : "--replay";
		argv[3] = live[i][1] ? "--replay" : "r.jsonl";
		argv[4] = "r.jsonl";
		parse(&p, live[i][1] ? 5 : 4, argv);
		assert_int_equal(p.ret, 2);
	}
	/* What a replay does read. */
	PARSE(&p, "--replay", "r.jsonl", "--model", "icx", "--tma-version", "4.5", "--level", "6",
	      "--info", "--format", "html", "-o", "r.html", "--color", "never", "--retire-latency",
	      "l.json", "-v");
	assert_int_equal(p.ret, 0);
	PARSE(&p, "--replay", "-", "--pmu", "software");
	assert_int_equal(p.ret, 0);
	/* Without --replay, they are a live run's as ever. */
	PARSE(&p, "--cgroup", "/", "--interval", "2s", "--per-task", "--host", "h");
	assert_int_equal(p.ret, 0);
}

/*
 * --interval with --replay sums the lines over each DUR of their time: only
 * with --group-by, which does it; alone it is refused (exit 2), either order.
 */
static void replay_interval_needs_group_by(void **state)
{
	static const char *const given[][2] = { { "--interval", "2s" }, { "-i", "1s" } };
	const char *want = "tmacg: --interval with --replay sums the lines over each DUR of their "
			   "time, which --group-by KEY does";
	struct parsed p;

	(void)state;
	for (size_t i = 0; i < 2; i++) {
		const char *argv[] = { "tmacg", "--replay", "r.jsonl", given[i][0], given[i][1] };

		parse(&p, 5, argv);
		assert_int_equal(p.ret, 2);
		if (strncmp(p.err, want, strlen(want)))
			fail_msg("%s: %s", given[i][0], p.err);
		argv[1] = given[i][0];
		argv[2] = given[i][1];
		argv[3] = "--replay";
		argv[4] = "r.jsonl";
		parse(&p, 5, argv);
		assert_int_equal(p.ret, 2);
		assert_int_equal(strncmp(p.err, want, strlen(want)), 0);
		PARSE(&p, "--replay", "r.jsonl", given[i][0], given[i][1], "--group-by", "host");
		assert_int_equal(p.ret, 0);
		assert_true(p.o.interval_given);
	}
	/* another live option beside them is still refused by name */
	PARSE(&p, "--replay", "r.jsonl", "--group-by", "host", "-i", "2s", "--top", "3");
	assert_int_equal(p.ret, 2);
	assert_non_null(strstr(p.err, "--top is for a live run"));
	PARSE(&p, "--replay", "r.jsonl", "--group-by", "host");
	assert_int_equal(p.ret, 0);
	assert_false(p.o.interval_given);
	/* --group-by sums recorded lines, one line per group: json or table */
	PARSE(&p, "--group-by", "host");
	assert_int_equal(p.ret, 2);
	assert_non_null(strstr(p.err, "--group-by sums recorded lines: it needs --replay FILE"));
	PARSE(&p, "--replay", "r.jsonl", "--group-by", "host", "--format", "top");
	assert_int_equal(p.ret, 2);
	assert_non_null(strstr(p.err, "--format json or table"));
}

/* --replay FILE...: the files after it (or anywhere) are read after it; without --replay a stray argument is refused. */
static void replay_takes_more_files(void **state)
{
	const char *three[] = { "tmacg", "--replay", "a.jsonl", "b.jsonl", "c.jsonl" };
	const char *before[] = { "tmacg", "x.jsonl", "--replay", "a.jsonl" };
	struct parsed p;

	(void)state;
	/* replay_more points into argv: the arrays outlive the checks */
	parse(&p, 5, three);
	assert_int_equal(p.ret, 0);
	assert_string_equal(p.o.replay, "a.jsonl");
	assert_int_equal(p.o.nreplay_more, 2);
	assert_string_equal(p.o.replay_more[0], "b.jsonl");
	assert_string_equal(p.o.replay_more[1], "c.jsonl");
	parse(&p, 4, before);
	assert_int_equal(p.ret, 0);
	assert_string_equal(p.o.replay, "a.jsonl");
	assert_int_equal(p.o.nreplay_more, 1);
	assert_string_equal(p.o.replay_more[0], "x.jsonl");
	PARSE(&p, "--replay", "a.jsonl");
	assert_int_equal(p.o.nreplay_more, 0);
	PARSE(&p, "--level", "2", "x.jsonl");
	assert_int_equal(p.ret, 2);
	assert_non_null(strstr(p.err, "unexpected argument 'x.jsonl'"));
}

/* A bad --group-by list is refused before the input is read (exit 2), naming the problem. */
static void group_by_bad_key_lists(void **state)
{
	static const char *const lists[][2] = {
		{ "host,,cgroup", "an empty key" },
		{ "", "an empty key" },
		{ "cgroup,", "an empty key" },
		{ "host,host", "key host given twice" },
		{ "a,b,c,d,e,f,g,h,i,j,k,l,m,n,o,p,q", "at most 16 keys" },
		/* the list quoted with its control bytes as \xHH: it cannot clear the terminal */
		{ "\x1b[2J,", "'\\x1b[2J,': an empty key" },
	};
	struct parsed p;

	(void)state;
	for (size_t i = 0; i < sizeof(lists) / sizeof(lists[0]); i++) {
		const char *argv[] = { "tmacg", "--replay", "r.jsonl", "--group-by", lists[i][0] };

		parse(&p, 5, argv);
		assert_int_equal(p.ret, 2);
		if (!strstr(p.err, lists[i][1]))
			fail_msg("--group-by '%s': %s", lists[i][0], p.err);
	}
	PARSE(&p, "--replay", "r.jsonl", "--group-by",
	      "k8s.namespace.name,k8s.deployment.name,host");
	assert_int_equal(p.ret, 0);
	assert_string_equal(p.o.group_by, "k8s.namespace.name,k8s.deployment.name,host");
}

/*
 * Each kind of option stores its own type of field (user/options.c's table,
 * checked by _Generic; tests/lint/options-typed shows a wrong type does not
 * compile): a long gets all 64 bits, a uint32_t its top values, the fields
 * beside them stay as they were, and -v counts.
 */
static void each_kind_stores_its_type(void **state)
{
	struct parsed p;

	(void)state;
	PARSE(&p, "--count", "1099511627776", "--max-cgroups", "16777216", "--max-tasks", "16",
	      "--depth", "64", "-c", "/", "--level", "6", "-vvv", "--format", "none", "--listen",
	      ":1", "--pmu", "software", "--per-task");
	assert_int_equal(p.ret, 0);
	assert_true(p.o.count == 1L << 40);
	assert_true(p.o.duration_ns == 0 && p.o.interval_ns == 1000000000ULL);
	assert_true(p.o.max_cgroups == 1u << 24);
	assert_true(p.o.max_tasks == 16);
	assert_int_equal(p.o.depth, OPTIONS_MAX_DEPTH);
	assert_int_equal(p.o.level, 6);
	assert_false(p.o.info);
	assert_int_equal(p.o.verbose, 3);
	assert_int_equal(p.o.format, FORMAT_NONE);
	assert_int_equal(p.o.pmu, PMU_SOFTWARE);
	assert_true(p.o.per_task);
	assert_int_equal(p.o.top, 0);
	assert_int_equal(p.o.color_mode, -1);
}

/* Every long option --help shows is one options_parse knows (the table is the one list). */
static void every_option_in_help_parses(void **state)
{
	struct parsed help, p;
	int seen = 0;

	(void)state;
	PARSE(&help, "--help");
	assert_int_equal(help.ret, 1);
	for (const char *at = help.out; (at = strstr(at, " --"));) {
		char name[64];
		size_t n = strspn(at + 1, "-abcdefghijklmnopqrstuvwxyz");
		const char *argv[3] = { "tmacg", name, NULL };

		at += 1;
		if (n >= 5 && n < sizeof(name)) { /* "--" and at least three letters */
			memcpy(name, at, n);
			name[n] = '\0';
			parse(&p, 2, argv);
			if (strstr(p.err, "unknown option"))
				fail_msg("--help shows %s but options_parse does not know it",
					 name);
			seen++;
		}
		at += n;
	}
	assert_true(seen >= 25);
}

/* The limits said come from the constants the checks use. */
static void limits_are_the_constants(void **state)
{
	const char *argv[2 * OPTIONS_MAX_CGROUPS + 3] = { "tmacg" };
	char want[128], level[16];
	struct parsed p;
	int argc = 1;

	(void)state;
	for (int i = 0; i <= OPTIONS_MAX_CGROUPS; i++) {
		argv[argc++] = "-c";
		argv[argc++] = "/";
	}
	parse(&p, argc, argv);
	assert_int_equal(p.ret, 2);
	snprintf(want, sizeof(want), "at most %d", OPTIONS_MAX_CGROUPS);
	assert_non_null(strstr(p.err, want));
	parse(&p, argc - 2, argv); /* exactly the maximum */
	assert_int_equal(p.ret, 0);
	assert_int_equal(p.o.ncgroups, OPTIONS_MAX_CGROUPS);
	snprintf(level, sizeof(level), "%d", OPTIONS_MAX_DEPTH + 1);
	PARSE(&p, "-c", "/", "--depth", level);
	snprintf(want, sizeof(want), "expected a number from 0 to %d", OPTIONS_MAX_DEPTH);
	assert_non_null(strstr(p.err, want));
}

static void bad_arguments_exit_2_with_a_message(void **state)
{
	static const struct {
		const char *argv[4];
		const char *says;
	} cases[] = {
		{ { "--interval", "fast" }, "--interval 'fast': expected a duration" },
		{ { "--interval", "1ms" }, "shortest interval is 10ms" },
		{ { "--interval", "1000" },
		  "--interval '1000': a duration needs a unit: ns, us, ms, s, m or h" },
		{ { "--duration", "10" }, "--duration '10': a duration needs a unit" },
		{ { "--count", "0" }, "--count '0': expected a positive number" },
		{ { "--count", "-3" }, "--count '-3'" },
		{ { "--format", "xml" },
		  "--format 'xml': expected table, json, top, none or html" },
		{ { "--level", "7" }, "--level '7': expected a number from 1 to 6" },
		{ { "--pmu", "gpu" }, "--pmu 'gpu': expected hardware or software" },
		{ { "--bogus" }, "unknown option '--bogus'" },
		{ { "--cgroup" }, "option '--cgroup' needs a value" },
		{ { "stray" }, "unexpected argument 'stray'" },
		{ { "--model", "icx", "--model-file", "x" }, "give one of them" },
		{ { "--pmu", "software", "--model", "icx" }, "--pmu software is --model software" },
		{ { "--list-metrics" }, "--list-metrics needs --model" },
		{ { "--depth", "1" }, "--depth needs --cgroup" },
		{ { "--duration", "0s" }, "--duration '0s'" },
		{ { "--top", "0" }, "--top '0'" },
		{ { "--k8s-level", "node" }, "expected pod or container" },
		/* text for a person: a script asking for JSON is pointed at what gives it */
		{ { "--explain", "Retiring", "--format", "json" },
		  "--explain NODE prints text: --list-metrics --model ID --format json" },
		{ { "--explain", "Retiring", "--format", "html" }, "--explain NODE prints text" },
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *argv[6] = { "tmacg" };
		struct parsed p;
		int argc = 1;

		for (int a = 0; a < 4 && cases[i].argv[a]; a++)
			argv[argc++] = cases[i].argv[a];
		parse(&p, argc, argv);
		if (p.ret != 2 || !strstr(p.err, cases[i].says) || !strstr(p.err, "--help"))
			fail_msg("case %zu: ret %d, stderr: %s", i, p.ret, p.err);
	}
}

static void help_and_version_exit_0(void **state)
{
	struct parsed p;

	(void)state;
	PARSE(&p, "--help");
	assert_int_equal(p.ret, 1);
	assert_non_null(strstr(p.out, "Usage: tmacg"));
	assert_non_null(strstr(p.out, "--pmu hardware|software"));
	assert_non_null(strstr(p.out, "--retire-latency FILE"));
	PARSE(&p, "--version");
	assert_int_equal(p.ret, 1);
	assert_non_null(strstr(p.out, "tmacg "));
}

/* Parses argv, then resolves as main() does with stdout a terminal or not. */
#define RESOLVE(p, tty, ...)                                  \
	do {                                                  \
		PARSE(p, "--pmu", "software", ##__VA_ARGS__); \
		assert_int_equal((p)->ret, 0);                \
		options_resolve(&(p)->o, tty);                \
	} while (0)

static void format_auto_is_table_on_a_terminal_json_otherwise(void **state)
{
	struct parsed p;

	(void)state;
	RESOLVE(&p, true);
	assert_int_equal(p.o.format, FORMAT_TABLE);
	RESOLVE(&p, false);
	assert_int_equal(p.o.format, FORMAT_JSON);
	RESOLVE(&p, true, "--format", "json");
	assert_int_equal(p.o.format, FORMAT_JSON);
	RESOLVE(&p, false, "--format", "table");
	assert_int_equal(p.o.format, FORMAT_TABLE);
}

static void color_auto_on_a_terminal_unless_no_color(void **state)
{
	struct parsed p;

	(void)state;
	unsetenv("NO_COLOR");
	RESOLVE(&p, true);
	assert_true(p.o.color);
	RESOLVE(&p, false);
	assert_false(p.o.color);
	RESOLVE(&p, false, "--color", "always");
	assert_true(p.o.color);
	RESOLVE(&p, true, "--color", "never");
	assert_false(p.o.color);
	setenv("NO_COLOR", "1", 1);
	RESOLVE(&p, true);
	assert_false(p.o.color);
	RESOLVE(&p, true, "--color", "always"); /* asked for: NO_COLOR only changes the default */
	assert_true(p.o.color);
	setenv("NO_COLOR", "", 1); /* no-color.org: an empty value does not count */
	RESOLVE(&p, true);
	assert_true(p.o.color);
	unsetenv("NO_COLOR");
}

static void host_from_option_then_environment_then_system(void **state)
{
	char sys[256] = "";
	struct parsed p;

	(void)state;
	setenv("TMACG_HOST", "node-7.example", 1);
	RESOLVE(&p, false, "--host", "given");
	assert_string_equal(p.o.host, "given");
	RESOLVE(&p, false);
	assert_string_equal(p.o.host, "node-7.example");
	setenv("TMACG_HOST", "", 1); /* set but empty, as a DaemonSet with no value gives */
	RESOLVE(&p, false);
	assert_int_equal(gethostname(sys, sizeof(sys) - 1), 0);
	assert_string_equal(p.o.host, sys);
	unsetenv("TMACG_HOST");
	RESOLVE(&p, false);
	assert_string_equal(p.o.host, sys);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(durations_take_units),
		cmocka_unit_test(durations_reject_garbage),
		cmocka_unit_test(durations_need_a_unit),
		cmocka_unit_test(defaults),
		cmocka_unit_test(format_top_parses),
		cmocka_unit_test(everything_parses),
		cmocka_unit_test(the_other_options_parse),
		cmocka_unit_test(each_kind_stores_its_type),
		cmocka_unit_test(every_option_in_help_parses),
		cmocka_unit_test(limits_are_the_constants),
		cmocka_unit_test(bad_arguments_exit_2_with_a_message),
		cmocka_unit_test(help_and_version_exit_0),
		cmocka_unit_test(format_auto_is_table_on_a_terminal_json_otherwise),
		cmocka_unit_test(color_auto_on_a_terminal_unless_no_color),
		cmocka_unit_test(host_from_option_then_environment_then_system),
		cmocka_unit_test(replay_refuses_live_options),
		cmocka_unit_test(replay_interval_needs_group_by),
		cmocka_unit_test(group_by_bad_key_lists),
		cmocka_unit_test(replay_takes_more_files),
	};
	return cmocka_run_group_tests_name("options", tests, NULL, NULL);
}
