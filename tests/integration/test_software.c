// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * --pmu software, the built-in model of software events on the one live
 * path: tmacg's per-cgroup CPU time must agree with the kernel's own
 * cpu.stat for cgroups this test creates, its counts keep the keys they
 * have always had, and the table shows them under the model's tree.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "itest.h"
#include "itest_counts.h"
#include "software_counts.h"

static void assert_close(double got, double want, double rel, double abs_floor, const char *what)
{
	double tol = fmax(want * rel, abs_floor);

	if (!(fabs(got - want) <= tol))
		fail_msg("%s: tmacg %.4f s, kernel %.4f s (tolerance %.4f s)", what, got, want,
			 tol);
	printf("  %s: tmacg %.4f s, cpu.stat %.4f s, error %.2f%%\n", what, got, want,
	       want > 0 ? 100 * (got - want) / want : 0.0);
}

static void attribution_matches_cpu_stat(void **state)
{
	static const char *duty[] = { "0.9", "0.5", "0.2" };
	char parent[128], child[3][160], arg[3][200];
	uint64_t before[3], after[3];
	struct itest_tmacg t;
	json_object **lines;
	double sum_children = 0, parent_s, clock_s;
	pid_t burners[3];
	size_t n;
	int seen;

	(void)state;
	ITEST_NEED_ROOT();
	assert_int_equal(itest_make_parent("attr", parent, sizeof(parent), arg[0], sizeof(arg[0])),
			 0);
	for (int i = 0; i < 3; i++) {
		snprintf(child[i], sizeof(child[i]), "%s/c%d", parent, i);
		assert_int_equal(itest_mkcg(child[i]), 0);
	}
	{
		const char *args[] = { "--pmu",	     "software", "--cgroup", arg[0], "--depth", "1",
				       "--interval", "30s",	 "--format", "json", NULL };

		assert_int_equal(itest_tmacg_start(&t, args), 0);
		itest_tmacg_drain(&t);
	}
	for (int i = 0; i < 3; i++)
		before[i] = itest_usage_usec(child[i]);
	for (int i = 0; i < 3; i++)
		burners[i] = itest_burn_in(child[i], "3", duty[i], NULL);
	for (int i = 0; i < 3; i++)
		assert_int_equal(itest_wait(burners[i]), 0);
	for (int i = 0; i < 3; i++)
		after[i] = itest_usage_usec(child[i]);
	/* SIGTERM ends the 30 s interval early: the final interval is printed. */
	lines = itest_stop_json(&t, SIGTERM, &n);
	for (int i = 0; i < 3; i++) {
		char cg[200];
		double got;

		snprintf(cg, sizeof(cg), "/%s", child[i]);
		got = itest_on_cpu_of(lines, n, cg, &seen);
		assert_true(seen >= 1);
		assert_close(got, (after[i] - before[i]) / 1e6, 0.02, 0.020, cg);
		sum_children += got;
		/*
		 * cpu_clock_s, the model's count of cpu-clock: wall time while on a
		 * CPU, steal time included, so it never falls much short of cpu.stat.
		 */
		clock_s = itest_count_of(lines, n, cg, "cpu_clock_s", &seen);
		if (!(clock_s >= (after[i] - before[i]) / 1e6 * 0.97 - 0.02))
			fail_msg("%s: cpu_clock_s %.4f s below cpu.stat %.4f s", cg, clock_s,
				 (after[i] - before[i]) / 1e6);
		assert_true(itest_count_of(lines, n, cg, "context_switches", &seen) > 0);
	}
	snprintf(arg[1], sizeof(arg[1]), "/%s", parent);
	parent_s = itest_on_cpu_of(lines, n, arg[1], &seen);
	assert_true(seen >= 1);
	/* The parent runs nothing itself: it is exactly the sum of its children. */
	assert_true(fabs(parent_s - sum_children) < 1e-6);
	itest_json_free(lines, n);
	itest_tmacg_free(&t);
	assert_int_equal(itest_rmcg(parent), 0);
}

/* At most this many lines say that BTF is missing and how to get it (issue 25). */
#define NO_BTF_MAX_LINES 5

/*
 * A kernel without BTF (TMACG_TEST_KERNEL_BTF names a missing file in its
 * place): tmacg refuses with exit 2 and a short message naming the file,
 * --btf and where to get one.  Given the BTF with --btf FILE, it loads the
 * raw_tp programs (tp_btf needs the kernel's own BTF) and they count as
 * tp_btf does.
 */
static void no_kernel_btf_takes_btf_file(void **state)
{
	char parent[128], mnt_parent[300], cg[200];
	const char *args[] = {
		"--pmu", "software", "--cgroup", mnt_parent, "--interval",
		"30s",	 "--format", "json",	 "--btf",    "/sys/kernel/btf/vmlinux",
		NULL
	};
	struct itest_tmacg t;
	json_object **lines;
	uint64_t before, after;
	const char *msg;
	size_t n;
	int seen, nlines = 0, ret;

	(void)state;
	ITEST_NEED_ROOT();
	assert_int_equal(
		itest_make_parent("rawtp", parent, sizeof(parent), mnt_parent, sizeof(mnt_parent)),
		0);
	snprintf(cg, sizeof(cg), "/%s", parent);
	setenv("TMACG_TEST_KERNEL_BTF", "/nonexistent/vmlinux", 1);
	args[8] = NULL; /* no --btf */
	ret = itest_tmacg_start(&t, args);
	unsetenv("TMACG_TEST_KERNEL_BTF");
	assert_int_equal(ret, -EIO);
	assert_int_equal(itest_tmacg_stop(&t, 0), 2);
	/* The message, from its first line (-v's notes come before it). */
	msg = strstr(t.err, "tmacg: this kernel has no BTF");
	for (const char *p = msg ? msg : ""; *p; p++)
		nlines += *p == '\n';
	if (!msg || nlines > NO_BTF_MAX_LINES || !strstr(msg, "/nonexistent/vmlinux") ||
	    !strstr(msg, "--btf FILE") || !strstr(msg, "BTFHub"))
		fail_msg("%d lines, want at most %d naming the file, --btf and BTFHub:\n%s", nlines,
			 NO_BTF_MAX_LINES, t.err);
	itest_tmacg_free(&t);
	args[8] = "--btf";
	setenv("TMACG_TEST_KERNEL_BTF", "/nonexistent/vmlinux", 1);
	ret = itest_tmacg_start(&t, args);
	unsetenv("TMACG_TEST_KERNEL_BTF");
	assert_int_equal(ret, 0);
	itest_tmacg_drain(&t);
	before = itest_usage_usec(parent);
	assert_int_equal(itest_wait(itest_burn_in(parent, "1", "0.5", NULL)), 0);
	after = itest_usage_usec(parent);
	assert_int_equal(itest_tmacg_stop(&t, SIGTERM), 0);
	assert_non_null(strstr(t.err, "BPF programs loaded (raw_tp)"));
	lines = itest_json_lines(t.out, &n);
	assert_non_null(lines);
	assert_close(itest_on_cpu_of(lines, n, cg, &seen), (after - before) / 1e6, 0.02, 0.020,
		     "raw_tp");
	itest_json_free(lines, n);
	itest_tmacg_free(&t);
	assert_int_equal(itest_rmcg(parent), 0);
}

static void short_lived_cgroups_are_named(void **state)
{
	enum { NCG = 200 };
	char parent[128], mnt_parent[300];
	uint64_t usage_sum = 0, usage[NCG];
	double got_sum = 0;
	struct itest_tmacg t;
	json_object **lines;
	size_t n;
	int missing = 0;

	(void)state;
	ITEST_NEED_ROOT();
	assert_int_equal(
		itest_make_parent("short", parent, sizeof(parent), mnt_parent, sizeof(mnt_parent)),
		0);
	{
		const char *args[] = { "--pmu",	   "software", "--cgroup",   mnt_parent,
				       "--depth",  "1",	       "--interval", "500ms",
				       "--format", "json",     NULL };

		assert_int_equal(itest_tmacg_start(&t, args), 0);
		itest_tmacg_drain(&t);
	}
	for (int i = 0; i < NCG; i++) {
		char cg[200];

		snprintf(cg, sizeof(cg), "%s/s%03d", parent, i);
		assert_int_equal(itest_mkcg(cg), 0);
		assert_int_equal(itest_wait(itest_burn_in(cg, "0.02", "1", NULL)), 0);
		usage[i] = itest_usage_usec(cg);
		usage_sum += usage[i];
		assert_int_equal(itest_rmcg(cg), 0);
	}
	usleep(1200000); /* two intervals: every removal reported */
	lines = itest_stop_json(&t, SIGTERM, &n);
	for (int i = 0; i < NCG; i++) {
		char cg[200];
		int seen;

		double got;

		snprintf(cg, sizeof(cg), "/%s/s%03d", parent, i);
		got = itest_on_cpu_of(lines, n, cg, &seen);
		got_sum += got;
		if (fabs(got - usage[i] / 1e6) > 0.005)
			printf("  %s: tmacg %.4f s in %d lines, cpu.stat %.4f s\n", cg, got, seen,
			       usage[i] / 1e6);
		if (!seen) {
			missing++;
			fprintf(stderr, "  missing from the output: %s\n", cg);
		}
	}
	assert_int_equal(missing, 0);
	assert_close(got_sum, usage_sum / 1e6, 0.05, 0.0, "200 short-lived cgroups");
	itest_json_free(lines, n);
	itest_tmacg_free(&t);
	assert_int_equal(itest_rmcg(parent), 0);
}

static void per_task_split(void **state)
{
	char parent[128], mnt_parent[300], report[] = "/tmp/tmacg-burn-XXXXXX", name[2][16];
	double a = 0, b = 0, ka = 0, kb = 0, cpu[2];
	struct itest_tmacg t;
	json_object **lines;
	pid_t burner;
	FILE *f;
	size_t n;

	(void)state;
	ITEST_NEED_ROOT();
	assert_int_equal(
		itest_make_parent("task", parent, sizeof(parent), mnt_parent, sizeof(mnt_parent)),
		0);
	{
		const char *args[] = { "--pmu",	     "software",   "--cgroup", mnt_parent,
				       "--per-task", "--interval", "30s",      "--format",
				       "json",	     NULL };

		assert_int_equal(itest_tmacg_start(&t, args), 0);
		itest_tmacg_drain(&t);
	}
	close(mkstemp(report));
	setenv("BURN_REPORT", report, 1);
	/* Two threads at 3:1; the kernel's own per-thread times are the reference. */
	burner = itest_burn_in(parent, "3", "0.45", "0.15");
	unsetenv("BURN_REPORT");
	assert_int_equal(itest_wait(burner), 0);
	assert_int_equal(itest_tmacg_stop(&t, SIGTERM), 0);
	f = fopen(report, "r");
	assert_non_null(f);
	assert_int_equal(fscanf(f, "%15s %lf %15s %lf", name[0], &cpu[0], name[1], &cpu[1]), 4);
	fclose(f);
	unlink(report);
	ka = cpu[0];
	kb = cpu[1];
	lines = itest_json_lines(t.out, &n);
	assert_non_null(lines);
	for (size_t i = 0; i < n; i++) {
		const char *comm = itest_str(lines[i], "task.comm");

		if (comm && !strcmp(comm, "burn-a"))
			a += itest_num(lines[i], "counts.on_cpu_s");
		if (comm && !strcmp(comm, "burn-b"))
			b += itest_num(lines[i], "counts.on_cpu_s");
	}
	printf("  tmacg: burn-a %.4f s, burn-b %.4f s, ratio %.3f\n", a, b, b > 0 ? a / b : 0);
	printf("  kernel: burn-a %.4f s, burn-b %.4f s, ratio %.3f\n", ka, kb,
	       kb > 0 ? ka / kb : 0);
	assert_true(b > 0 && kb > 0);
	/*
	 * 3:1 is asked, but a loaded machine may not give the full duty: the check
	 * needs only a split uneven enough that swapped threads would miss the 5 %
	 * tolerance below by far.
	 */
	assert_true(ka / kb > 1.15 && ka / kb < 4.0);
	assert_true(fabs((a / b) / (ka / kb) - 1.0) <= 0.05);
	assert_close(a, ka, 0.05, 0.0, "burn-a");
	assert_close(b, kb, 0.05, 0.0, "burn-b");
	itest_json_free(lines, n);
	itest_tmacg_free(&t);
	assert_int_equal(itest_rmcg(parent), 0);
}

/* --top also limits task lines: at most N per cgroup per interval, the busiest. */
static void top_limits_task_lines(void **state)
{
	char parent[128], mnt_parent[300], cg[200];
	const char *args[] = { "--pmu", "software",   "--cgroup", mnt_parent, "--per-task", "--top",
			       "1",	"--interval", "500ms",	  "--format", "json",	    NULL };
	struct itest_tmacg t;
	json_object **lines;
	size_t n;
	int busier = 0, lazier = 0;

	(void)state;
	ITEST_NEED_ROOT();
	assert_int_equal(itest_make_parent("tasktop", parent, sizeof(parent), mnt_parent,
					   sizeof(mnt_parent)),
			 0);
	snprintf(cg, sizeof(cg), "/%s", parent);
	assert_int_equal(itest_tmacg_start(&t, args), 0);
	itest_tmacg_drain(&t);
	assert_int_equal(itest_wait(itest_burn_in(parent, "2", "0.6", "0.05")), 0);
	lines = itest_stop_json(&t, SIGTERM, &n);
	/* Lines come per interval: a cgroup line, then its task lines. */
	for (size_t i = 0; i < n; i++) {
		int tasks = 0;

		if (!itest_str(lines[i], "cgroup") || strcmp(itest_str(lines[i], "cgroup"), cg) ||
		    json_object_object_get(lines[i], "task"))
			continue;
		for (size_t j = i + 1; j < n && json_object_object_get(lines[j], "task"); j++) {
			const char *comm = itest_str(lines[j], "task.comm");

			tasks++;
			busier += comm && !strcmp(comm, "burn-a");
			lazier += comm && !strcmp(comm, "burn-b");
		}
		assert_true(tasks <= 1);
	}
	assert_true(busier >= 1);
	assert_true(busier > lazier);
	itest_json_free(lines, n);
	itest_tmacg_free(&t);
	assert_int_equal(itest_rmcg(parent), 0);
}

/* wchar and syscw of /proc/PID/io: bytes and calls of write() so far. */
static void write_io(pid_t pid, unsigned long long *bytes, unsigned long long *calls)
{
	char path[64], key[32];
	unsigned long long v;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/io", (int)pid);
	f = fopen(path, "r");
	assert_non_null(f);
	*bytes = *calls = 0;
	while (fscanf(f, "%31s %llu", key, &v) == 2) {
		if (!strcmp(key, "wchar:"))
			*bytes = v;
		else if (!strcmp(key, "syscw:"))
			*calls = v;
	}
	fclose(f);
}

/*
 * Live, stdout is written 64 KiB at a time at most, not 4 KiB (glibc's
 * setvbuf ignores a size given without a buffer: 2,500 write()s a second at
 * level 6 before, issue 27): 40 busy tasks' lines, written in few calls.
 */
static void stdout_written_in_large_writes(void **state)
{
	char parent[128], mnt_parent[300];
	const char *args[] = { "--pmu",	     "software", "--cgroup", mnt_parent, "--per-task",
			       "--interval", "500ms",	 "--format", "json",	 NULL };
	char *busy[] = {
		"/bin/sh", "-c",
		"for i in $(seq 40); do timeout 3 sh -c 'while :; do :; done' & done; wait", NULL
	};
	unsigned long long b0, c0, b1, c1;
	struct itest_tmacg t;
	json_object **lines;
	size_t n;
	pid_t pid;

	(void)state;
	ITEST_NEED_ROOT();
	assert_int_equal(itest_make_parent("bigwrites", parent, sizeof(parent), mnt_parent,
					   sizeof(mnt_parent)),
			 0);
	assert_int_equal(itest_tmacg_start(&t, args), 0);
	itest_tmacg_drain(&t);
	pid = itest_spawn_in(parent, busy);
	usleep(300000);
	write_io(t.pid, &b0, &c0);
	assert_int_equal(itest_wait(pid), 0);
	write_io(t.pid, &b1, &c1);
	lines = itest_stop_json(&t, SIGTERM, &n);
	print_message("  %llu bytes in %llu write()s over 3 s, %zu lines\n", b1 - b0, c1 - c0, n);
	assert_true(b1 - b0 > 60000);
	/* Some 6 intervals: one write each, and a few more (a line across 64 KiB, stderr). */
	assert_true(c1 - c0 <= 16);
	itest_json_free(lines, n);
	itest_tmacg_free(&t);
	assert_int_equal(itest_rmcg(parent), 0);
}

/* Ids of loaded BPF programs named tmacg_*, into ids[]; returns how many. */
static int tmacg_program_ids(int *ids, int max)
{
	FILE *p = popen("bpftool prog show 2>/dev/null", "r");
	char line[512];
	int n = 0, id;

	assert_non_null(p);
	while (fgets(line, sizeof(line), p))
		if (strstr(line, " name tmacg_") && sscanf(line, "%d:", &id) == 1 && n < max)
			ids[n++] = id;
	pclose(p);
	return n;
}

static bool any_loaded(const int *ids, int n)
{
	int now[256], m = tmacg_program_ids(now, 256);

	for (int i = 0; i < n; i++)
		for (int j = 0; j < m; j++)
			if (ids[i] == now[j])
				return true;
	return false;
}

static void sigterm_prints_last_interval_and_detaches(void **state)
{
	const char *args[] = { "--pmu", "software", "--interval", "1h", "--format", "json", NULL };
	int before[256], after[256], ours[256], nb, na, n_ours = 0;
	struct itest_tmacg t;
	json_object **lines;
	size_t n;

	(void)state;
	ITEST_NEED_ROOT();
	/* Other tmacg instances may run: this one's programs are those that appear. */
	nb = tmacg_program_ids(before, 256);
	assert_int_equal(itest_tmacg_start(&t, args), 0);
	itest_tmacg_drain(&t);
	na = tmacg_program_ids(after, 256);
	for (int i = 0; i < na; i++) {
		bool old = false;

		for (int j = 0; j < nb; j++)
			old = old || after[i] == before[j];
		if (!old)
			ours[n_ours++] = after[i];
	}
	assert_true(n_ours >= 3); /* switch, flush, mkdir, rmdir */
	lines = itest_stop_json(&t, SIGTERM, &n);
	assert_true(n >= 1); /* the interval cut short by the signal */
	/* The kernel frees programs shortly after their last reference goes. */
	for (int i = 0; i < 50 && any_loaded(ours, n_ours); i++)
		usleep(100000);
	assert_false(any_loaded(ours, n_ours));
	itest_json_free(lines, n);
	itest_tmacg_free(&t);
}

static void assert_documented_counts(json_object *line)
{
	json_object *counts = NULL, *v = NULL;
	int k = 0;

	assert_true(json_object_object_get_ex(line, "counts", &counts));
	json_object_object_foreach(counts, key, val) {
		(void)val;
		if (k < software_ndocumented && strcmp(key, software_documented_counts[k]))
			fail_msg("counts key %d is %s, want %s", k, key,
				 software_documented_counts[k]);
		k++;
	}
	assert_true(k >= software_ndocumented);
	/* Not TMA: no version, nothing flagged; the model's one tree node in metrics. */
	assert_true(json_object_object_get_ex(line, "tma_version", &v) && !v);
	assert_true(json_object_object_get_ex(line, "metrics", &v));
	assert_true(json_object_object_get_ex(v, "CPU_Share", NULL));
}

static void three_valid_json_lines_per_cgroup(void **state)
{
	char parent[128], mnt_parent[300], cg[200];
	const char *args[] = { "--pmu",	     "software", "--cgroup", mnt_parent, "--count", "3",
			       "--interval", "200ms",	 "--format", "json",	 NULL };
	struct itest_tmacg t;
	json_object **lines;
	size_t n;

	(void)state;
	ITEST_NEED_ROOT();
	assert_int_equal(itest_make_parent("json \"q\\", parent, sizeof(parent), mnt_parent,
					   sizeof(mnt_parent)),
			 0);
	snprintf(cg, sizeof(cg), "/%s", parent);
	assert_int_equal(itest_tmacg_start(&t, args), 0);
	assert_int_equal(itest_tmacg_stop(&t, 0), 0);
	lines = itest_json_lines(t.out, &n);
	assert_non_null(lines); /* every line parses, quotes and backslashes included */
	assert_int_equal(n, 3);
	for (size_t i = 0; i < n; i++) {
		assert_string_equal(itest_str(lines[i], "schema"), "tmacg/1");
		assert_string_equal(itest_str(lines[i], "cgroup"), cg);
		assert_string_equal(itest_str(lines[i], "model"), "software");
		assert_false(isnan(itest_num(lines[i], "counts.on_cpu_s")));
		assert_false(isnan(itest_num(lines[i], "quality.dropped")));
		assert_documented_counts(lines[i]);
	}
	itest_json_free(lines, n);
	itest_tmacg_free(&t);
	assert_int_equal(itest_rmcg(parent), 0);
}

/*
 * The table is the model's: a block per cgroup with the tree and, under it,
 * the counts a busy cgroup had (numbers, not "-"), as with any model.
 */
static void table_shows_tree_and_counts(void **state)
{
	char parent[128], mnt_parent[300], header[200];
	const char *args[] = { "--pmu",	   "software", "--cgroup", mnt_parent, "--interval", "30s",
			       "--format", "table",    "--color",  "never",    NULL };
	struct itest_tmacg t;
	const char *block;

	(void)state;
	ITEST_NEED_ROOT();
	assert_int_equal(
		itest_make_parent("table", parent, sizeof(parent), mnt_parent, sizeof(mnt_parent)),
		0);
	snprintf(header, sizeof(header), "cgroup /%s, interval ", parent);
	assert_int_equal(itest_tmacg_start(&t, args), 0);
	itest_tmacg_drain(&t);
	assert_int_equal(itest_wait(itest_burn_in(parent, "0.5", "1", NULL)), 0);
	assert_int_equal(itest_tmacg_stop(&t, SIGTERM), 0);
	printf("%s", t.out);
	assert_non_null(strstr(t.out, "model software"));
	block = strstr(t.out, header);
	if (!block)
		fail_msg("no block for /%s:\n%s", parent, t.out);
	assert_non_null(strstr(block, "  CPU_Share "));
	for (int i = 0; i < software_ndocumented; i++) {
		char want[64];
		const char *at;

		snprintf(want, sizeof(want), "  %s ", software_documented_counts[i]);
		at = strstr(block, want);
		if (!at)
			fail_msg("table lacks %s:\n%s", software_documented_counts[i], block);
		if (at[strlen(want)] == '-')
			fail_msg("%s is null for a busy cgroup:\n%s", software_documented_counts[i],
				 block);
	}
	assert_non_null(strstr(block, "  bottleneck: none\n"));
	itest_tmacg_free(&t);
	assert_int_equal(itest_rmcg(parent), 0);
}

/* --model software is the same model: the same counts and metrics. */
static void model_software_is_pmu_software(void **state)
{
	const char *pmu_args[] = { "--pmu", "software", "--count", "1", "--interval",
				   "100ms", "--format", "json",	   NULL };
	const char *model_args[] = { "--model", "software", "--count", "1", "--interval",
				     "100ms",	"--format", "json",    NULL };
	const char *const *args[] = { pmu_args, model_args };
	char keys[2][2048];

	(void)state;
	ITEST_NEED_ROOT();
	for (int k = 0; k < 2; k++) {
		struct itest_tmacg t;
		json_object **lines, *counts, *metrics;
		size_t n, used = 0;

		assert_int_equal(itest_tmacg_start(&t, args[k]), 0);
		lines = itest_stop_json(&t, 0, &n);
		assert_true(n >= 1);
		assert_string_equal(itest_str(lines[0], "model"), "software");
		assert_true(json_object_object_get_ex(lines[0], "counts", &counts));
		assert_true(json_object_object_get_ex(lines[0], "metrics", &metrics));
		json_object_object_foreach(counts, ckey, cval) {
			(void)cval;
			used += snprintf(keys[k] + used, sizeof(keys[k]) - used, "%s,", ckey);
		}
		json_object_object_foreach(metrics, mkey, mval) {
			(void)mval;
			used += snprintf(keys[k] + used, sizeof(keys[k]) - used, "%s;", mkey);
		}
		assert_true(used < sizeof(keys[k]));
		itest_json_free(lines, n);
		itest_tmacg_free(&t);
	}
	assert_string_equal(keys[0], keys[1]);
}

static void closed_pipe_ends_quietly(void **state)
{
	const char *args[] = {
		"--pmu", "software", "--interval", "100ms", "--format", "json", NULL
	};
	struct itest_tmacg t;
	char c = 0;

	(void)state;
	ITEST_NEED_ROOT();
	assert_int_equal(itest_tmacg_start(&t, args), 0);
	/* Read one line like `head -n 1`, then go away. */
	while (c != '\n')
		assert_int_equal(read(t.out_fd, &c, 1), 1);
	close(t.out_fd);
	t.out_fd = -1;
	assert_int_equal(itest_tmacg_stop(&t, 0), 0);
	assert_null(strstr(t.err, "cannot"));
	assert_null(strstr(t.err, "Broken pipe"));
	itest_tmacg_free(&t);
}

/* The host's SMT as the kernel says it: 1 on, 0 off, -1 nothing says. */
static int host_smt(void)
{
	char line[256] = "";
	FILE *f = fopen("/sys/devices/system/cpu/smt/active", "r");

	if (!f)
		f = fopen("/sys/devices/system/cpu/cpu0/topology/thread_siblings_list", "r");
	if (!f || !fgets(line, sizeof(line), f)) {
		if (f)
			fclose(f);
		return -1;
	}
	fclose(f);
	return !strcmp(line, "1\n") || strpbrk(line, ",-") != NULL;
}

/* A flag of a line: 1 true, 0 false, -1 null. */
static int line_flag(json_object *line, const char *key)
{
	json_object *v = NULL;

	assert_true(json_object_object_get_ex(line, key, &v));
	return v ? json_object_get_boolean(v) : -1;
}

/*
 * smt is the host's and topdown_fixed whether PERF_METRICS was read (never,
 * with software events), not what a plan away from a host assumes; a replay
 * of the line says the same.
 */
static void live_flags_are_the_hosts(void **state)
{
	const char *args[] = { "--pmu", "software", "--count", "1", "--interval",
			       "100ms", "--format", "json",    NULL };
	char path[] = "/tmp/tmacg-flags-XXXXXX", cmd[512], *out = malloc(1 << 20);
	struct itest_tmacg t;
	json_object **lines, **replayed;
	size_t n, nr;
	int fd;

	(void)state;
	ITEST_NEED_ROOT();
	assert_non_null(out);
	assert_int_equal(itest_tmacg_start(&t, args), 0);
	lines = itest_stop_json(&t, 0, &n);
	assert_true(n >= 1);
	assert_int_equal(line_flag(lines[0], "smt"), host_smt());
	assert_int_equal(line_flag(lines[0], "topdown_fixed"), 0);
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_true(write(fd, t.out, strlen(t.out)) == (ssize_t)strlen(t.out));
	close(fd);
	snprintf(cmd, sizeof(cmd), "'%s' --replay %s --format json", getenv("TMACG"), path);
	assert_int_equal(itest_shell(cmd, out, 1 << 20), 0);
	unlink(path);
	replayed = itest_json_lines(out, &nr);
	assert_non_null(replayed);
	assert_int_equal(nr, n);
	assert_int_equal(line_flag(replayed[0], "smt"), line_flag(lines[0], "smt"));
	assert_int_equal(line_flag(replayed[0], "topdown_fixed"), 0);
	itest_json_free(replayed, nr);
	itest_json_free(lines, n);
	itest_tmacg_free(&t);
	free(out);
}

static void no_pmu_is_explained(void **state)
{
	const char *args[] = { "--count", "1", NULL };
	struct itest_tmacg t;

	(void)state;
	ITEST_NEED_ROOT();
	if (!access("/sys/bus/event_source/devices/cpu/type", F_OK) ||
	    !access("/sys/bus/event_source/devices/cpu_core/type", F_OK))
		skip(); /* this machine has a hardware PMU */
	itest_tmacg_start(&t, args);
	assert_int_not_equal(itest_tmacg_stop(&t, 0), 0);
	assert_non_null(strstr(t.err, "no hardware PMU"));
	assert_non_null(strstr(t.err, "--pmu software"));
	assert_non_null(strstr(t.err, "--replay"));
	itest_tmacg_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(attribution_matches_cpu_stat, itest_cleanup),
		cmocka_unit_test_teardown(no_kernel_btf_takes_btf_file, itest_cleanup),
		cmocka_unit_test_teardown(short_lived_cgroups_are_named, itest_cleanup),
		cmocka_unit_test_teardown(per_task_split, itest_cleanup),
		cmocka_unit_test_teardown(top_limits_task_lines, itest_cleanup),
		cmocka_unit_test_teardown(stdout_written_in_large_writes, itest_cleanup),
		cmocka_unit_test_teardown(sigterm_prints_last_interval_and_detaches, itest_cleanup),
		cmocka_unit_test_teardown(three_valid_json_lines_per_cgroup, itest_cleanup),
		cmocka_unit_test_teardown(table_shows_tree_and_counts, itest_cleanup),
		cmocka_unit_test_teardown(model_software_is_pmu_software, itest_cleanup),
		cmocka_unit_test_teardown(closed_pipe_ends_quietly, itest_cleanup),
		cmocka_unit_test_teardown(no_pmu_is_explained, itest_cleanup),
		cmocka_unit_test_teardown(live_flags_are_the_hosts, itest_cleanup),
	};
	return cmocka_run_group_tests_name("software_path", tests, itest_group_setup, NULL);
}
