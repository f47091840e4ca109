// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The bench's reporting without running the bench (tests/bench/run --render and
 * --plan, on recorded results in tests/bench/fixtures): a missing tool or an
 * exceeded open file limit is named as "not measured: <reason>", never turned
 * into a number, and a result without bpftool's figures still renders (it
 * used to end in jq: "null cannot be divided").
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(no_bpftool_and_perf_over_the_file_limit),
		cmocka_unit_test(no_perf_and_sections_not_run),
		cmocka_unit_test(perf_bpf_mode_against_tmacg),
		cmocka_unit_test(plan_names_what_will_not_be_measured),
		cmocka_unit_test(output_path_in_percent_of_a_cpu),
	};
	return cmocka_run_group_tests_name("bench_report", tests, NULL, NULL);
}
