// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The bench's reporting without running the bench (tests/bench/run --render and
 * --plan, on recorded results in tests/bench/fixtures): a missing tool or an
 * exceeded open file limit is named as "not measured: <reason>", never turned
 * into a number, and a result without bpftool's figures still renders (it
 * used to end in jq: "null cannot be divided").  Each target README.md states is
 * held by tests/bench/targets.jq at its edge: met at the target, missed beyond.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static char *run(const char *cmd, int *status)
{
	char *out = NULL, buf[4096];
	size_t len = 0, n;
	FILE *o = open_memstream(&out, &len), *p = popen(cmd, "r");

	assert_non_null(p);
	while ((n = fread(buf, 1, sizeof(buf), p)) > 0)
		fwrite(buf, 1, n, o);
	*status = pclose(p);
	fclose(o);
	return out;
}

/* tests/bench/run --render on one of its fixtures: the table, the test failed unless it ran. */
static char *render(const char *fixture)
{
	char cmd[512], *out;
	int status;

	snprintf(cmd, sizeof(cmd), "tests/bench/run --render tests/bench/fixtures/%s 2>&1",
		 fixture);
	out = run(cmd, &status);
	if (status)
		fail_msg("--render failed:\n%s", out);
	return out;
}

/* The table's row starting with label says "not measured: reason", with no figure before it. */
static void assert_row_not_measured(const char *out, const char *label, const char *reason)
{
	char want[512];
	const char *row;

	snprintf(want, sizeof(want), "  %s", label);
	row = strstr(out, want);
	if (!row)
		fail_msg("no row %s in:\n%s", label, out);
	row += strlen(want);
	while (*row == ' ')
		row++;
	snprintf(want, sizeof(want), "not measured: %s", reason);
	if (strncmp(row, want, strlen(want)))
		fail_msg("row %s: \"%.80s\", want \"%s\"", label, row, want);
}

static void no_bpftool_and_perf_over_the_file_limit(void **state)
{
	char *out = render("no-bpftool-perf-limit.json");

	(void)state;
	assert_row_not_measured(out, "perf stat -a -G 1000",
				"needs 64064 open files (1000 cgroups x 4 events x 16 CPUs), "
				"over the limit of 20000");
	assert_row_not_measured(out, "perf stat -a -G 100 ", "perf stat failed: Error: Too many");
	assert_row_not_measured(out, "maps MiB:", "bpftool not found");
	assert_non_null(strstr(out, "64 events)\n  not measured: bpftool not found"));
	assert_row_not_measured(out, "switch_cost_vs_perf_100:", "perf stat failed");
	assert_row_not_measured(out, "maps_under_64mib:", "bpftool not found");
	/* The scaling row's maps column: no number where there is none. */
	assert_non_null(strstr(out, "n/m\n"));
	assert_null(strstr(out, "null"));
	/* What was measured is still there. */
	assert_non_null(strstr(out, "  perf stat -a -G 1                 23940"));
	free(out);
}

static void no_perf_and_sections_not_run(void **state)
{
	char *out = render("no-perf-switch-only.json");

	(void)state;
	assert_row_not_measured(out, "perf stat -a -G 1 ", "perf not found (apt-get install");
	assert_row_not_measured(out, "perf stat -a -G 100 ", "perf not found (apt-get install");
	assert_row_not_measured(out, "switch_cost_vs_perf_100:", "perf not found");
	assert_null(strstr(out, "Scaling")); /* a section not run is absent, not zeros */
	assert_null(strstr(out, "null"));
	free(out);
}

/*
 * The output path's rows: ns per line and, from it, percent of one CPU at
 * 1,000 and 10,000 lines a second (2,500 ns: 0.25 % and 2.5 %; 60,000 ns: 6 %
 * and 60 %), and its target held against the software line.
 */
static void output_path_in_percent_of_a_cpu(void **state)
{
	char *out = render("output-only.json");

	(void)state;
	assert_non_null(strstr(
		out,
		"  json_software              2500 [2400-3100]    897             0.25 / 2.5\n"));
	assert_non_null(strstr(
		out,
		"  json_icx_level3         60000 [58000-61000]   8341                 6 / 60\n"));
	assert_non_null(strstr(
		out,
		"  prom_software              1800 [1700-2000]      -             0.18 / 1.8\n"));
	assert_non_null(strstr(
		out, "output_json_percent_1000_10000: {\"1000\":0.25,\"10000\":2.5,\"met\":true}"));
	assert_null(strstr(out, "Scaling"));
	assert_null(strstr(out, "null"));
	free(out);
}

/*
 * The whole process at levels 3 and 6: each variant's user and system CPU, the
 * baseline's (the same cgroups collected into one line), the output path's
 * user CPU (the whole less the round's baseline), the ratios, how many nodes
 * the stand-in's lines had against a real line, the /metrics text a scrape,
 * and the budgets held on the output path's user CPU with the rounds' spread
 * and the whole beside it.
 */
static void whole_process_level_6_against_level_3(void **state)
{
	char *out = render("deep-only.json");

	(void)state;
	assert_non_null(
		strstr(out, "Whole process, level 6 / level 3: 1000 cgroups each reported"));
	assert_non_null(strstr(out, "  json_l6                   5 [4.5-6]             1.25 [1-1.5]"
				    "                4.5 [4-5.5]\n"));
	assert_non_null(strstr(out, "  prom_l3                2.5 [2.25-3]              4 [3.5-4.5]"
				    "              2.25 [2-2.75]\n"));
	/* The baseline has no output path of its own. */
	assert_non_null(strstr(out, "  base_l3             0.25 [0.25-0.5]            0.5 [0.5-0.5]"
				    "                          -\n"));
	assert_non_null(
		strstr(out, "  level 6 / level 3, user: JSON 2.5 [2.4-3], /metrics 4 [3.6-4.4]\n"));
	assert_non_null(
		strstr(out, "  level 6 / level 3, system: JSON 2.5 [2-3], /metrics 3 [2.9-3.3]\n"));
	assert_non_null(
		strstr(out, "  level 6 lines: 1001 an interval, nodes with a value 98 (least 90) "
			    "of 105 (a real icx line: 105), 15203 bytes (real: 8694)\n"));
	assert_non_null(strstr(out, "/metrics a scrape: level 3 6.8 MiB, level 6 27 MiB\n"));
	/*
	 * The budgets: each variant's output path's median user CPU against its
	 * budget, its rounds' range and spread ((2.25 - 1.5) / 1.75 = 43 %), the
	 * whole's median beside it, every one beyond here.
	 */
	assert_non_null(strstr(out,
			       "Budgets of the output path (README.md): its user CPU (the whole "
			       "less the baseline), % of one CPU,\n"));
	assert_non_null(strstr(out, "median of 3 rounds [min-max],"));
	assert_non_null(strstr(
		out, "  JSON, level 3               1.75 [1.5-2.25]    43 %     0.6       2  "
		     "NOT MET\n"));
	assert_non_null(strstr(
		out, "  /metrics, level 6            9.5 [8.5-11.5]    32 %       2      10  "
		     "NOT MET\n"));
	assert_non_null(strstr(
		out,
		"user_cpu_budgets_1000: {\"met\":false,\"json_l3\":{\"percent\":1.75,\"min\":1.5,"
		"\"max\":2.25,\"whole\":2,\"spread_percent\":43,\"budget\":0.6,\"met\":false}"));
	/* The ratio of levels is a figure, no longer a target. */
	assert_null(strstr(out, "within_2x"));
	/* No figure is null ("to /dev/null" is the header's). */
	assert_null(strstr(out, " null"));
	assert_null(strstr(out, ":null"));
	free(out);
}

/*
 * Guest console LOG's figure lines (tests/guest/init's scale group) for one
 * count: the idle guest's and each level's, with the system ticks given, in
 * four rounds of a turn of 2 intervals each, level 3 first in odd rounds:
 * level 3's ticks a quarter in each, level 6's a quarter less spread6 in round
 * 1 and more in round 4.
 */
static void console(const char *dir, int cpus, long start_calls, long fds, long calls, long sys3,
		    long sys6, long spread6)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/console.%d", dir, cpus);
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "@@ scale figure cpus %d\r\n@@ scale figure seconds 8\n", cpus);
	fprintf(f, "@@ scale figure idle_calls %d\n@@ scale3 json {\"figure\": 1}\n", 8 * cpus);
	for (int lv = 3; lv <= 6; lv += 3) {
		fprintf(f, "@@ scale%d figure ready_s 4\n@@ scale%d figure first_line_s 5\n", lv,
			lv);
		fprintf(f, "@@ scale%d figure start_calls %ld\n", lv, start_calls);
		fprintf(f, "@@ scale%d figure perf_slab 3 26 1000 26 8 %d 104 1000 26 8\n", lv,
			3 + 50 * cpus);
		fprintf(f, "@@ scale%d figure perf_events %d\n", lv, 50 * cpus);
		fprintf(f, "@@ scale%d figure fds %ld\n@@ scale%d figure rss_kb 6000\n", lv, fds,
			lv);
		fprintf(f, "@@ scale%d figure bpf_map_bytes 2048000\n", lv);
		fprintf(f, "@@ scale%d figure calls %ld\n@@ scale%d figure window_s 8\n", lv,
			lv == 3 ? calls : calls + 16L * cpus, lv);
	}
	for (int round = 1; round <= 4; round++)
		for (int turn = 0; turn < 2; turn++) {
			int lv = (round + turn) % 2 ? 3 : 6;
			long spread = round == 1 ? -spread6 : round == 4 ? spread6 : 0;
			long sys = lv == 3 ? sys3 / 4 : sys6 / 4 + spread;

			fprintf(f, "@@ scale%d figure turn %d 2 %ld 60000000 2 2.01\n", lv, round,
				sys);
		}
	fclose(f);
}

/*
 * The bighost section from guests' consoles to the table (tests/bench/bighost.jq,
 * bighost.sh, targets.jq, render.jq), on figures made up here: 2 and 64 CPUs
 * measured, 16 not (its reason shown).  Per CPU at 2: 200 calls at start / 2 = 100,
 * 120 descriptors / 2 = 60, 50 perf events a CPU of 1,000 bytes each (48.8 KiB),
 * 80 calls in 8 s / 2 = 5 a second, 16 system ticks of 100 Hz in 8 s: 20 ms an
 * interval, 10 per CPU; level 6 24 ticks, 15 ms per CPU.  At 64 the same per CPU at
 * level 3; at level 6 1,280 ticks: 1.6 s an interval, 25 ms per CPU, 1.67x 2 CPUs'
 * (not flat) and 2.5x level 3's (not within 1.5x).  Round by round, level 6 over
 * level 3: 5, 6, 6, 7 ticks over 4 (1.25x-1.75x, median 1.5x) at 2 CPUs, 300, 320,
 * 320, 340 over 128 at 64 (2.34x-2.66x, median 2.5x).  Level 6 makes 2 calls a second
 * per CPU more than level 3 (at the edge: met).  A CPU more: (3840 - 120) / 62 = 60
 * descriptors; at 512 CPUs 3840 + 60 x 448 = 30720.
 */
static void by_cpu_count_per_cpu_and_flat(void **state)
{
	char dir[] = "/tmp/tmacg-bighost-XXXXXX", cmd[2048], *out;
	int status;

	(void)state;
	assert_non_null(mkdtemp(dir));
	console(dir, 2, 200, 120, 80, 16, 24, 1);
	console(dir, 64, 6400, 3840, 2560, 512, 1280, 20);
	snprintf(
		cmd, sizeof(cmd),
		"export W=%s; for n in 2 64; do jq -R -s -f tests/bench/bighost.jq $W/console.$n "
		"| jq \". + {host_load: [0.5, $n]}\" >$W/bighost.$n.json || exit 1; done; bash -c '"
		"skip_reason() { [ $1 != bighost.16 ] || echo no 6.1 amd64 kernel; }; "
		". tests/bench/bighost.sh; WORK=$W bighost_json 6.1 icx 2 16 64' "
		"| jq '{bighost: .}' >$W/all.json && tests/bench/run --render $W/all.json 2>&1; "
		"s=$?; rm -r $W; exit $s",
		dir);
	out = run(cmd, &status);
	if (status)
		fail_msg("the bighost pipeline failed:\n%s", out);
	assert_non_null(strstr(out, "By CPU count: icx's plans on software stand-ins in Debian "
				    "6.1 amd64 guests under QEMU TCG\n"));
	assert_row_not_measured(out, "16 CPUs:", "no 6.1 amd64 kernel");
	assert_non_null(strstr(out, "  level 3, per CPU                   2 CPUs    64 CPUs      "
				    "flat\n"));
	assert_non_null(strstr(out, "  cross-CPU calls at start              100        100       "
				    "yes\n"));
	assert_non_null(strstr(out, "  descriptors                            60         60       "
				    "yes\n"));
	assert_non_null(strstr(out, "  perf_event slab, KiB                 48.8       48.8       "
				    "yes\n"));
	assert_non_null(strstr(out, "  cross-CPU calls a second                5          5       "
				    "yes\n"));
	assert_non_null(strstr(out, "  system time an interval, ms            10         10       "
				    "yes\n"));
	assert_non_null(strstr(out, "  system time an interval, ms            15         25  NO "
				    "1.67x\n"));
	assert_non_null(strstr(out,
			       "  descriptors                           120       3840         "
			       "60      30720\n"));
	assert_non_null(strstr(out, "level 6 / level 3 on 2 CPUs: cross-CPU calls a second per CPU "
				    "+2 (at most +2), system time 1.5x [1.25-1.75] over 4 rounds "
				    "(at most 1.5x)\n"));
	assert_non_null(strstr(out, "level 6 / level 3 on 64 CPUs: cross-CPU calls a second per "
				    "CPU +2 (at most +2), system time 2.5x [2.34-2.66] over 4 "
				    "rounds (at most 1.5x): NOT MET\n"));
	assert_non_null(strstr(out, "level 6 / level 3 CPU time (the scheduler's, exact), median "
				    "[min-max]: 2 CPUs 1 [1-1], 64 CPUs 1 [1-1]\n"));
	assert_non_null(strstr(out, "idle guest's cross-CPU calls a second, per CPU: 2 CPUs 1, "
				    "64 CPUs 1\n"));
	assert_non_null(strstr(out, "load average (1 min) before and after each guest: 2 CPUs "
				    "0.5/2, 64 CPUs 0.5/64 (over its CPUs"));
	free(out);
}

/*
 * perf's BPF cgroup mode measured: tmacg's excess over the unmonitored round
 * trip against perf's, from the per-round ratio medians of the recording
 * (tmacg 1.196, perf --bpf-counters 1.395): 0.196 / 0.395 = 0.496, under 0.6.
 */
static void perf_bpf_mode_against_tmacg(void **state)
{
	char *out = render("perf-bpf-switch-only.json");
	const char *row;

	(void)state;
	assert_non_null(strstr(out, "  perf --bpf-counters -G 100         8547    1.395"));
	row = strstr(out, "switch_cost_vs_perf_bpf_100: ");
	assert_non_null(row);
	assert_non_null(strstr(row, "\"ratio\":0.496,"));
	assert_non_null(strstr(row, "\"met\":true}"));
	free(out);
}

static void plan_names_what_will_not_be_measured(void **state)
{
	int status;
	char *out = run("BENCH_PMU=software BENCH_PERF= BENCH_BPFTOOL= tests/bench/run --plan 2>&1",
			&status);

	(void)state;
	assert_int_equal(status, 0);
	assert_row_not_measured(out, "perf stat -a -G 1:", "perf not found");
	assert_row_not_measured(out, "maps MiB:", "bpftool not found (apt-get install bpftool)");
	/* perf's BPF cgroup mode needs a perf built for it, named by BENCH_BPERF. */
	assert_row_not_measured(
		out, "perf --bpf-counters -G 100:", "BENCH_BPERF names no perf with BPF counters");
	/* The whole process at levels 3 and 6 needs no perf: it is in the plan. */
	assert_non_null(strstr(out, "  deep: tmacg's own CPU, 1000 cgroups each reported every "
				    "second, icx's level 6 / level 3 on software stand-ins"));
	free(out);
	/* perf present, 16 CPUs and 1,024 files: 1,000 cgroups x 4 events x 16 CPUs do not fit. */
	out = run("BENCH_PMU=software BENCH_PERF=/bin/true BENCH_NCPUS=16 BENCH_NOFILE=1024 "
		  "tests/bench/run --plan 2>&1",
		  &status);
	assert_int_equal(status, 0);
	assert_row_not_measured(out, "perf stat -a -G 1000:", "needs 64064 open files");
	assert_row_not_measured(out, "perf stat -a -G 100:", "needs 6464 open files");
	assert_non_null(strstr(out, "context switch: base tmacg perf1 \n"));
	free(out);
	/* The BPF mode opens events x CPUs files, not per cgroup: it fits where perf -G does not. */
	out = run("BENCH_PMU=software BENCH_PERF=/bin/true BENCH_BPERF=/bin/true BENCH_NCPUS=16 "
		  "BENCH_NOFILE=1024 tests/bench/run --plan 2>&1",
		  &status);
	assert_int_equal(status, 0);
	assert_non_null(strstr(out, "context switch: base tmacg perf1 bperf100 \n"));
	free(out);
	out = run("BENCH_PMU=software BENCH_BPERF=/nonexistent/perf tests/bench/run --plan 2>&1",
		  &status);
	assert_int_equal(status, 0);
	assert_row_not_measured(out, "perf --bpf-counters -G 100:",
				"BENCH_BPERF=/nonexistent/perf is not an executable");
	free(out);
}

/*
 * --plan shows the plans the bpf section reproduces (tests/bench/run's
 * plan_shape on tmacg --list-events): spr's level 3 as its 7 groups (60
 * events) with one on, level 6 multiplexed with a set on (group numbers joined by
 * '+', the pinned topdown group among them), nothing of the listing's prose.
 */
static void plan_shows_the_level_plans(void **state)
{
	char exe[4096], cmd[4600], sizes[512], *out, *row;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	int status, total = 0, groups = 0, reads;

	(void)state;
	assert_true(n > 0);
	exe[n] = '\0';
	for (int up = 0; up < 3; up++) /* <tree>/tests/unit/test_bench_report */
		*strrchr(exe, '/') = '\0';
	strcat(exe, "/tmacg");
	if (access(exe, X_OK)) {
		printf("  %s not built: the plans are not shown without it\n", exe);
		skip();
	}
	snprintf(cmd, sizeof(cmd), "TMACG=%s BENCH_PMU=software tests/bench/run --plan 2>&1", exe);
	out = run(cmd, &status);
	assert_int_equal(status, 0);
	row = strstr(out, "  bpf levels, spr's plans (counters read a switch): l3 ");
	if (!row ||
	    sscanf(row, "  bpf levels, spr's plans (counters read a switch): l3 %511[0-9,],",
		   sizes) != 1)
		fail_msg("no level plans in:\n%s", out);
	for (char *p = strtok(sizes, ","); p; p = strtok(NULL, ","), groups++)
		total += atoi(p);
	assert_int_equal(groups, 7);
	assert_int_equal(total, 60);
	/* One group on: its members and the other groups' leaders, fewer than all 60. */
	row = strstr(row, "/on=0 (");
	if (!row || sscanf(row, "/on=0 (%d), l6 ", &reads) != 1 || reads <= 6 || reads >= 60)
		fail_msg("level 3 multiplexed: %s", row ? row : out);
	/*
	 * Level 6 multiplexed: the pinned groups and one set on, by number; every
	 * leader and their members read, no more than level 3's.
	 */
	row = strstr(row, ", l6 ");
	assert_non_null(row);
	row = strstr(row, "/on=");
	assert_non_null(row);
	row += 4;
	n = (ssize_t)strspn(row, "0123456789+");
	if (n < 1 || sscanf(row + n, " (%d)", &reads) != 1 || reads < 1 || reads > 60)
		fail_msg("level 6: %s", row);
	free(out);
}

/*
 * The target tests/bench/targets.jq adds to figures (JSON) under path (a JSON
 * array of keys below .targets), as jq prints it.
 */
static char *target(const char *figures, const char *path)
{
	char cmd[4096], *out;
	int status;

	/* One jq, so its status is the command's: targets.jq, then the path. */
	snprintf(cmd, sizeof(cmd),
		 "printf '%%s' '%s' | jq -c --argjson p '%s' \"$(cat tests/bench/targets.jq)\n"
		 "| getpath([\\\"targets\\\"] + \\$p)\" 2>&1",
		 figures, path);
	out = run(cmd, &status);
	if (status)
		fail_msg("targets.jq on %s failed: %s", figures, out);
	return out;
}

/* The target at path is met on figures (want true) or not (want false). */
static void assert_met(const char *figures, const char *key, bool want)
{
	char *out = target(figures, key);
	const char *met = strstr(out, "\"met\":");

	if (!met || strncmp(met + 6, want ? "true" : "false", want ? 4 : 5))
		fail_msg("%s on %s: %s, want met %s", key, figures, out, want ? "true" : "false");
	free(out);
}

/* The switch program against the floor, its key's figure at ratio. */
static void bpf_ratio(const char *key, const char *ratio, char *figures, size_t len)
{
	snprintf(figures, len, "{\"bpf\":{\"%s\":{\"ratio_to_floor\":{\"median\":%s}}}}", key,
		 ratio);
}

/*
 * The targets README.md's table states, each held at its edge by targets.jq: met
 * at the target, missed just beyond it.  BPF time against the floor 1.15x at 4
 * events, 1.05x at 64, 1.5x with --per-task; user CPU at 1,000 cgroups under 1 %
 * rolled up, every cgroup as a JSON line 0.5 % at 1,000 and 5 % at 10,000 (and the
 * output path alone the same at 1,000 and 10,000 lines a second); BPF time flat
 * within 10 % from 1 to 10,000 cgroups; maps under 64 MiB; the round trip no
 * more than perf -G 100's, and what tmacg adds at most 0.6x perf's BPF mode's;
 * the output path's budgets of user CPU at 1,000 cgroups a second.
 */
static void targets_are_the_readmes(void **state)
{
	static const struct {
		const char *key, *at, *beyond;
	} bpf[] = {
		{ "tmacg_4", "1.15", "1.151" },
		{ "tmacg_64", "1.05", "1.051" },
		{ "tmacg_4_per-task", "1.5", "1.501" },
		{ "tmacg_64_per-task", "1.5", "1.501" },
	};
	char figures[512], *out;

	(void)state;
	for (size_t i = 0; i < sizeof(bpf) / sizeof(bpf[0]); i++) {
		char key[64];

		snprintf(key, sizeof(key), "[\"bpf_to_floor\",\"%s\"]", bpf[i].key);
		bpf_ratio(bpf[i].key, bpf[i].at, figures, sizeof(figures));
		assert_met(figures, key, true);
		out = target(figures, key);
		snprintf(figures, sizeof(figures), "\"max\":%s,", bpf[i].at);
		if (!strstr(out, figures))
			fail_msg("%s: %s, want max %s", bpf[i].key, out, bpf[i].at);
		free(out);
		bpf_ratio(bpf[i].key, bpf[i].beyond, figures, sizeof(figures));
		assert_met(figures, key, false);
	}
#define SCALE(n, rolled, all)                                                               \
	"\"" #n                                                                             \
	"\":{\"bpf_ratio_to_floor\":{\"median\":1},\"user_cpu_percent_rolled_up\":" #rolled \
	",\"user_cpu_percent_all_reported\":" #all "}"
	assert_met("{\"scaling\":{" SCALE(1000, 0.99, 9) "}}", "[\"user_under_1pct_1000\"]", true);
	assert_met("{\"scaling\":{" SCALE(1000, 1, 9) "}}", "[\"user_under_1pct_1000\"]", false);
	assert_met("{\"scaling\":{" SCALE(1000, 0, 0.5) "," SCALE(10000, 0, 5) "}}",
		   "[\"user_all_reported_0_5pct_1000_5pct_10000\"]", true);
	assert_met("{\"scaling\":{" SCALE(1000, 0, 0.501) "," SCALE(10000, 0, 5) "}}",
		   "[\"user_all_reported_0_5pct_1000_5pct_10000\"]", false);
	assert_met("{\"scaling\":{" SCALE(1000, 0, 0.5) "," SCALE(10000, 0, 5.01) "}}",
		   "[\"user_all_reported_0_5pct_1000_5pct_10000\"]", false);
#undef SCALE
	/* 5,000 ns a line: 0.5 % of a CPU at 1,000 lines a second, 5 % at 10,000. */
	assert_met("{\"output\":{\"json_software\":{\"ns_per_line\":{\"median\":5000}}}}",
		   "[\"output_json_percent_1000_10000\"]", true);
	assert_met("{\"output\":{\"json_software\":{\"ns_per_line\":{\"median\":5001}}}}",
		   "[\"output_json_percent_1000_10000\"]", false);
#define FLAT(last)                                                                                                         \
	"{\"scaling\":{\"1\":{\"bpf_ratio_to_floor\":{\"median\":1}},\"10000\":{\"bpf_ratio_to_floor\":{\"median\":" #last \
	"}}}}"
	assert_met(FLAT(1.1), "[\"flat_1_to_max\"]", true);
	assert_met(FLAT(1.101), "[\"flat_1_to_max\"]", false);
#undef FLAT
	assert_met("{\"map_memory_computed\":{\"256\":{\"total_bytes\":67108863}}}",
		   "[\"maps_under_64mib\",\"256_cpus\"]", true);
	assert_met("{\"map_memory_computed\":{\"256\":{\"total_bytes\":67108864}}}",
		   "[\"maps_under_64mib\",\"256_cpus\"]", false);
	assert_met("{\"map_memory_spr\":{\"6\":{\"256_cpus_bytes\":67108863}}}",
		   "[\"maps_under_64mib_spr_level6\"]", true);
	assert_met("{\"map_memory_spr\":{\"6\":{\"256_cpus_bytes\":67108864}}}",
		   "[\"maps_under_64mib_spr_level6\"]", false);
	/* Level 6 multiplexed within 1.2x of level 3, both ways of counting level 3. */
#define LEVELS(all, mux)                                                                         \
	"{\"bpf_levels\":{\"model\":\"spr\",\"l6_to_l3\":{\"median\":" #all "},\"l6_to_l3mux\":" \
	"{\"median\":" #mux "}}}"
	assert_met(LEVELS(0.4, 1.2), "[\"switch_l6_within_1_2x_l3\"]", true);
	assert_met(LEVELS(0.4, 1.201), "[\"switch_l6_within_1_2x_l3\"]", false);
	assert_met(LEVELS(1.201, 1), "[\"switch_l6_within_1_2x_l3\"]", false);
#undef LEVELS
	/*
	 * The output path's budgets, its user CPU at 1,000 cgroups a second:
	 * JSON level 3 0.6 %, level 6 1.5 %, /metrics level 3 1 %, level 6 2 %.  Each
	 * met at its budget and missed just beyond it, the whole met only when all
	 * four are; a variant without a figure is not met (never a missing number
	 * taken for 0).
	 */
#define USER(v, m) \
	"\"" v "\":{\"output_user_cpu_percent\":{\"median\":" #m ",\"min\":0.1,\"max\":9}}"
#define DEEP(j3, j6, p3, p6)                                                \
	"{\"deep\":{" USER("json_l3", j3) "," USER("json_l6", j6) "," USER( \
		"prom_l3", p3) "," USER("prom_l6", p6) "}}"
	assert_met(DEEP(0.6, 1.5, 1, 2), "[\"user_cpu_budgets_1000\"]", true);
	assert_met(DEEP(0.6, 1.5, 1, 2), "[\"user_cpu_budgets_1000\",\"json_l3\"]", true);
	assert_met(DEEP(0.601, 1.5, 1, 2), "[\"user_cpu_budgets_1000\",\"json_l3\"]", false);
	assert_met(DEEP(0.601, 1.5, 1, 2), "[\"user_cpu_budgets_1000\"]", false);
	assert_met(DEEP(0.6, 1.501, 1, 2), "[\"user_cpu_budgets_1000\",\"json_l6\"]", false);
	assert_met(DEEP(0.6, 1.501, 1, 2), "[\"user_cpu_budgets_1000\"]", false);
	assert_met(DEEP(0.6, 1.5, 1.001, 2), "[\"user_cpu_budgets_1000\",\"prom_l3\"]", false);
	assert_met(DEEP(0.6, 1.5, 1.001, 2), "[\"user_cpu_budgets_1000\"]", false);
	assert_met(DEEP(0.6, 1.5, 1, 2.001), "[\"user_cpu_budgets_1000\",\"prom_l6\"]", false);
	assert_met(DEEP(0.6, 1.5, 1, 2.001), "[\"user_cpu_budgets_1000\"]", false);
	assert_met("{\"deep\":{" USER("json_l3", 0.1) "," USER("json_l6", 0.1) "," USER("prom_l3",
											0.1) "}}",
		   "[\"user_cpu_budgets_1000\"]", false);
	out = target("{\"deep\":{" USER("json_l3", 0.1) "}}",
		     "[\"user_cpu_budgets_1000\",\"prom_l6\"]");
	if (!strstr(out, "\"not_measured\":\"no output path's user CPU for prom_l6 (its whole less "
			 "the baseline's)\"") ||
	    !strstr(out, "\"met\":false"))
		fail_msg("a variant without a figure: %s", out);
	free(out);
	/* The spread: (max - min) / median, in percent. */
	out = target(DEEP(0.5, 1.5, 1, 2), "[\"user_cpu_budgets_1000\",\"json_l3\"]");
	if (!strstr(out, "\"spread_percent\":1780,"))
		fail_msg("spread of 0.1-9 around 0.5: %s", out);
	free(out);
#undef DEEP
#undef USER
	/*
	 * By CPU count: a per-CPU figure at most 1.5x its value at a smaller count
	 * (2 to 3 met, 3.002 not); level 6 at most 2 cross-CPU calls a second per CPU
	 * more than level 3 and its system time at most 1.5x level 3's.
	 */
#define GUEST(n, v3, v6)                                                                        \
	"\"" #n "\":{\"cpus\":" #n ",\"l3\":{\"per_cpu\":{\"x\":" #v3 "}},\"l6\":{\"per_cpu\":" \
	"{\"x\":" #v6 "}}}"
	assert_met("{\"bighost\":{\"cpus\":{" GUEST(2, 2, 2) "," GUEST(64, 3, 1) "}}}",
		   "[\"bighost_per_cpu_flat_1_5x\"]", true);
	assert_met("{\"bighost\":{\"cpus\":{" GUEST(2, 2, 2) "," GUEST(64, 3.002, 1) "}}}",
		   "[\"bighost_per_cpu_flat_1_5x\"]", false);
	assert_met("{\"bighost\":{\"cpus\":{" GUEST(2, 2, 2) "," GUEST(64, 2, 3.002) "}}}",
		   "[\"bighost_per_cpu_flat_1_5x\"]", false);
#undef GUEST
	/* The system time's ratio is the median of the rounds' (their range beside it). */
#define LEVEL(calls) "{\"per_cpu\":{\"calls_per_s\":" #calls "}}"
#define L6VSL3(c6, median)                                                                   \
	"{\"bighost\":{\"cpus\":{\"64\":{\"l3\":" LEVEL(1) ",\"l6\":" LEVEL(                 \
		c6) ",\"l6_to_l3\":{\"system\":{\"median\":" #median ",\"min\":1,\"max\":2," \
		    "\"rounds\":[1," #median ",2]}}}}}}"
	assert_met(L6VSL3(3, 1.5), "[\"bighost_level6_vs_level3\"]", true);
	assert_met(L6VSL3(3.002, 1.5), "[\"bighost_level6_vs_level3\"]", false);
	assert_met(L6VSL3(3, 1.502), "[\"bighost_level6_vs_level3\"]", false);
	out = target("{\"bighost\":{\"cpus\":{\"64\":{\"l3\":" LEVEL(1) ",\"l6\":" LEVEL(
			     1) ",\"l6_to_l3\":{\"system\":null}}}}}",
		     "[\"bighost_level6_vs_level3\",\"64\"]");
	if (!strstr(out, "\"not_measured\":\"no round with both levels' system time\"") ||
	    !strstr(out, "\"met\":false"))
		fail_msg("no round's ratio: %s", out);
	free(out);
#undef L6VSL3
#undef LEVEL
#define SWITCH(tm, perf, k)                                                    \
	"{\"context_switch\":{\"tmacg\":{\"ratio\":{\"median\":" #tm "}},\"" k \
	"\":{\"ratio\":{\"median\":" #perf "}}}}"
	assert_met(SWITCH(1.5, 1.5, "perf100"), "[\"switch_cost_vs_perf_100\"]", true);
	assert_met(SWITCH(1.501, 1.5, "perf100"), "[\"switch_cost_vs_perf_100\"]", false);
	/* perf's BPF mode adds 0.5 over the unmonitored run: tmacg at most 0.3 (0.6x). */
	assert_met(SWITCH(1.299, 1.5, "bperf100"), "[\"switch_cost_vs_perf_bpf_100\"]", true);
	assert_met(SWITCH(1.301, 1.5, "bperf100"), "[\"switch_cost_vs_perf_bpf_100\"]", false);
#undef SWITCH
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(no_bpftool_and_perf_over_the_file_limit),
		cmocka_unit_test(no_perf_and_sections_not_run),
		cmocka_unit_test(perf_bpf_mode_against_tmacg),
		cmocka_unit_test(plan_names_what_will_not_be_measured),
		cmocka_unit_test(plan_shows_the_level_plans),
		cmocka_unit_test(output_path_in_percent_of_a_cpu),
		cmocka_unit_test(whole_process_level_6_against_level_3),
		cmocka_unit_test(by_cpu_count_per_cpu_and_flat),
		cmocka_unit_test(targets_are_the_readmes),
	};
	return cmocka_run_group_tests_name("bench_report", tests, NULL, NULL);
}
