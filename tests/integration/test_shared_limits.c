// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * What one user can do to everyone's numbers, and what two tmacg do to each
 * other: a full cgroup map is shown in every line, a burst of cgroups created
 * and removed while tmacg cannot poll is still named, and two instances at
 * once both agree with cpu.stat and tell their lines apart.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "itest.h"
#include "itest_counts.h"

/* More busy cgroups than --max-cgroups: map_full in the JSON quality and the table's header. */
static void full_map_shows_in_every_line(void **state)
{
	enum { NCG = 40 };
	char parent[128], mnt_parent[300];
	const char *json_args[] = { "--pmu",	  "software", "--cgroup",      mnt_parent,
				    "--depth",	  "1",	      "--max-cgroups", "16",
				    "--interval", "30s",      "--format",      "json",
				    NULL };
	const char *table_args[] = { "--pmu",	   "software", "--cgroup",	mnt_parent,
				     "--depth",	   "1",	       "--max-cgroups", "16",
				     "--interval", "30s",      "--format",	"table",
				     NULL };
	struct itest_tmacg tj, tt;
	json_object **lines;
	size_t n;

	(void)state;
	ITEST_NEED_ROOT();
	assert_int_equal(itest_make_parent("mapfull", parent, sizeof(parent), mnt_parent,
					   sizeof(mnt_parent)),
			 0);
	assert_int_equal(itest_tmacg_start(&tj, json_args), 0);
	itest_tmacg_drain(&tj);
	assert_int_equal(itest_tmacg_start(&tt, table_args), 0);
	itest_tmacg_drain(&tt);
	for (int i = 0; i < NCG; i++) {
		char cg[200];

		snprintf(cg, sizeof(cg), "%s/m%02d", parent, i);
		assert_int_equal(itest_mkcg(cg), 0);
		assert_int_equal(itest_wait(itest_burn_in(cg, "0.01", "1", NULL)), 0);
	}
	assert_int_equal(itest_tmacg_stop(&tj, SIGTERM), 0);
	assert_int_equal(itest_tmacg_stop(&tt, SIGTERM), 0);
	lines = itest_json_lines(tj.out, &n);
	assert_non_null(lines);
	assert_true(n >= NCG);
	for (size_t i = 0; i < n; i++) {
		double full = itest_num(lines[i], "quality.map_full");

		if (!(full > 0))
			fail_msg("line %zu: quality.map_full is %g, want > 0", i, full);
		assert_true(itest_num(lines[i], "quality.dropped") >= full);
	}
	assert_non_null(strstr(tj.err, "raise --max-cgroups"));
	assert_non_null(strstr(tt.out, "map full: "));
	assert_non_null(strstr(tt.out, "dropped, raise --max-cgroups"));
	itest_json_free(lines, n);
	itest_tmacg_free(&tj);
	itest_tmacg_free(&tt);
	assert_int_equal(itest_rmcg(parent), 0);
}

static int write_pid(const char *dir, pid_t pid)
{
	char p[4200], text[32];
	int fd, len = snprintf(text, sizeof(text), "%d\n", (int)pid);
	ssize_t w;

	snprintf(p, sizeof(p), "%s/cgroup.procs", dir);
	fd = open(p, O_WRONLY);
	if (fd < 0)
		return -errno;
	w = write(fd, text, len);
	close(fd);
	return w == len ? 0 : -errno;
}

static void spin_ns(long ns)
{
	struct timespec a, b;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a);
	do
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b);
	while ((b.tv_sec - a.tv_sec) * 1000000000L + (b.tv_nsec - a.tv_nsec) < ns);
}

/*
 * A child creates NCG cgroups, runs in each for a moment and removes it, while
 * tmacg is stopped: 2 x NCG ring records (mkdir and rmdir) with no poll between,
 * more than the old fixed 2 MiB ring held (3,855).  The cgroups are gone when
 * tmacg reads again, so only their events can name them.
 */
static void burst_beyond_old_ring_is_named(void **state)
{
	enum { NCG = 3000 };
	char parent[128], mnt_parent[300];
	const char *args[] = { "--pmu",	     "software", "--cgroup", mnt_parent, "--depth", "1",
			       "--interval", "1s",	 "--format", "json",	 NULL };
	struct itest_tmacg t;
	json_object **lines;
	pid_t child;
	size_t n;
	int missing = 0;

	(void)state;
	ITEST_NEED_ROOT();
	assert_int_equal(
		itest_make_parent("burst", parent, sizeof(parent), mnt_parent, sizeof(mnt_parent)),
		0);
	assert_int_equal(itest_tmacg_start(&t, args), 0);
	itest_tmacg_drain(&t);
	assert_int_equal(kill(t.pid, SIGSTOP), 0);
	child = fork();
	if (child == 0) {
		char home[4200], dir[4200];

		/* Back to the test's parent cgroup between children: no child's work. */
		snprintf(home, sizeof(home), "%s", mnt_parent);
		if (write_pid(home, getpid()))
			_exit(1);
		for (int i = 0; i < NCG; i++) {
			snprintf(dir, sizeof(dir), "%s/b%04d", mnt_parent, i);
			if (mkdir(dir, 0755) || write_pid(dir, getpid()))
				_exit(2);
			spin_ns(200000);
			if (write_pid(home, getpid()) || rmdir(dir))
				_exit(3);
		}
		_exit(0);
	}
	assert_true(child > 0);
	assert_int_equal(itest_wait(child), 0);
	assert_int_equal(kill(t.pid, SIGCONT), 0);
	usleep(3500000); /* the next intervals: read, named, reported */
	lines = itest_stop_json(&t, SIGTERM, &n);
	for (int i = 0; i < NCG; i++) {
		char cg[200];
		int seen;
		double got;

		snprintf(cg, sizeof(cg), "/%s/b%04d", parent, i);
		got = itest_on_cpu_of(lines, n, cg, &seen);
		if (!seen || !(got > 0)) {
			if (missing++ < 5)
				fprintf(stderr, "  not named or no time: %s (%d lines, %.6f s)\n",
					cg, seen, got);
		}
	}
	if (missing)
		fail_msg("%d of %d cgroups of the burst not named", missing, NCG);
	assert_non_null(strstr(t.err, "cgroup events lost 0,"));
	itest_json_free(lines, n);
	itest_tmacg_free(&t);
	assert_int_equal(itest_rmcg(parent), 0);
}

/* "<pid>@<time>" with the pid tmacg has. */
static void assert_instance_is(json_object *line, pid_t pid)
{
	const char *inst = itest_str(line, "quality.instance");
	char want[32];

	assert_non_null(inst);
	snprintf(want, sizeof(want), "%d@", (int)pid);
	if (strncmp(inst, want, strlen(want)) || !strchr(inst, 'Z'))
		fail_msg("quality.instance %s, want %s<start time>", inst, want);
}

static void two_instances_agree_and_tell_apart(void **state)
{
	char parent[128], mnt_parent[300], cg[200];
	const char *args[] = { "--pmu", "software", "--cgroup", mnt_parent, "--interval",
			       "30s",	"--format", "json",	NULL };
	struct itest_tmacg t[2];
	json_object **lines[2];
	size_t n[2];
	uint64_t before, after;
	double want;

	(void)state;
	ITEST_NEED_ROOT();
	assert_int_equal(
		itest_make_parent("two", parent, sizeof(parent), mnt_parent, sizeof(mnt_parent)),
		0);
	snprintf(cg, sizeof(cg), "/%s", parent);
	for (int i = 0; i < 2; i++) {
		assert_int_equal(itest_tmacg_start(&t[i], args), 0);
		itest_tmacg_drain(&t[i]);
	}
	before = itest_usage_usec(parent);
	assert_int_equal(itest_wait(itest_burn_in(parent, "2", "0.6", NULL)), 0);
	after = itest_usage_usec(parent);
	want = (after - before) / 1e6;
	for (int i = 0; i < 2; i++)
		assert_int_equal(itest_tmacg_stop(&t[i], SIGTERM), 0);
	for (int i = 0; i < 2; i++) {
		int seen;
		double got;

		lines[i] = itest_json_lines(t[i].out, &n[i]);
		assert_non_null(lines[i]);
		got = itest_on_cpu_of(lines[i], n[i], cg, &seen);
		assert_true(seen >= 1);
		printf("  instance %d: tmacg %.4f s, cpu.stat %.4f s, error %.2f%%\n", i, got, want,
		       100 * (got - want) / want);
		if (!(fabs(got - want) <= fmax(0.02 * want, 0.02)))
			fail_msg("instance %d: %.4f s, cpu.stat %.4f s", i, got, want);
		for (size_t k = 0; k < n[i]; k++)
			assert_instance_is(lines[i][k], t[i].pid);
	}
	assert_string_not_equal(itest_str(lines[0][0], "quality.instance"),
				itest_str(lines[1][0], "quality.instance"));
	for (int i = 0; i < 2; i++) {
		itest_json_free(lines[i], n[i]);
		itest_tmacg_free(&t[i]);
	}
	assert_int_equal(itest_rmcg(parent), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(full_map_shows_in_every_line, itest_cleanup),
		cmocka_unit_test_teardown(burst_beyond_old_ring_is_named, itest_cleanup),
		cmocka_unit_test_teardown(two_instances_agree_and_tell_apart, itest_cleanup),
	};
	return cmocka_run_group_tests_name("shared_limits", tests, itest_group_setup, NULL);
}
