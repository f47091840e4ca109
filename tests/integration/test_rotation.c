// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Levels 4-6 live, multiplexed by the kernel: the fixture model rot
 * (tests/fixtures/rotation: software events standing in for hardware ones,
 * two counters) at --level 6 puts its six events in three groups that the
 * plan says do not fit together (--list-events: one pinned, the others
 * multiplexed).  tmacg enables every group on every CPU for good and leaves
 * the scheduling to the kernel, which has room for every software event: so
 * each group counts all the time.  A burner's Busy (cpu-clock, level 4 only)
 * must come to its CPU time from cpu.stat, per cgroup and per task, with
 * quality.measured 1 in every interval it ran; a group tmacg switched off for
 * part of an interval would show there as a share below 1.  The table and
 * the live view mark no node as measured less than half the interval.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>
#include <sys/wait.h>
#include <unistd.h>

#include "itest.h"

/* Busy against cpu.stat: cpu-clock and cpu.stat sample the burner differently. */
#define BUSY_TOLERANCE 0.05

/*
 * The host's time in interrupts and stolen by the hypervisor so far, in
 * seconds (/proc/stat's cpu line: irq, softirq, steal).  cpu-clock, Busy's
 * event, counts it while the burner is current; cpu.stat leaves it out.  So
 * Busy may exceed the burner's CPU time by at most what the host lost over
 * the run (a loaded CI host: 6 % seen); it falls short only by sampling.
 */
static double host_time_lost_s(void)
{
	unsigned long long user, nice, sys, idle, iowait, irq, softirq, steal;
	FILE *f = fopen("/proc/stat", "r");
	int got = f ? fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &user, &nice, &sys,
			     &idle, &iowait, &irq, &softirq, &steal) :
		      0;

	if (f)
		fclose(f);
	assert_int_equal(got, 8);
	return (double)(irq + softirq + steal) / sysconf(_SC_CLK_TCK);
}

static int setup(void **state)
{
	return itest_fixture_setup(state, "rotation");
}

/*
 * The burner's intervals that it ran through: its share of the interval at
 * least 80 % of its best one's (the host's load sets how much of its duty it
 * gets).  Busy must be measured there; in the interval it starts or ends in
 * it may run too little to tell: those count for cpu.stat only.
 */
#define WHOLE_INTERVAL 0.8

struct busy_sums {
	double busy_s, whole_on_s; /* over the intervals it ran through */
	double on_cpu_s;	   /* over every interval, for cpu.stat */
	double measured_min, measured_max;
	int whole;
};

/* Whether line is cgroup cg's (a task line of the burner when tasks). */
static bool busy_line(json_object *line, const char *cg, bool tasks)
{
	json_object *task;

	if (strcmp(itest_str(line, "cgroup"), cg) ||
	    json_object_object_get_ex(line, "task", &task) != tasks)
		return false;
	/* not the shell that joined the cgroup */
	return !tasks || !strncmp(itest_str(line, "task.comm"), "burn", 4);
}

static double on_share(json_object *line)
{
	return itest_num(line, "counts.on_cpu_s") / itest_num(line, "interval_s");
}

/* Sums over cgroup cg's lines (task lines when tasks). */
static void sum_busy(json_object **lines, size_t n, const char *cg, bool tasks, struct busy_sums *s)
{
	double best = 0;

	*s = (struct busy_sums){ .measured_min = 1 };
	for (size_t i = 0; i < n; i++)
		if (busy_line(lines[i], cg, tasks))
			best = fmax(best, on_share(lines[i]));
	for (size_t i = 0; i < n; i++) {
		double busy = itest_num(lines[i], "metrics.Busy"),
		       on = itest_num(lines[i], "counts.on_cpu_s");
		double m = itest_num(lines[i], "quality.measured.Busy");
		double interval = itest_num(lines[i], "interval_s");

		if (!busy_line(lines[i], cg, tasks))
			continue;
		s->on_cpu_s += on;
		if (on_share(lines[i]) < WHOLE_INTERVAL * best)
			continue; /* the interval it started or ended in */
		if (isnan(busy) || isnan(m))
			fail_msg("%s: Busy %g, measured %g, on_cpu_s %g of %g s: level 4 missing "
				 "from an interval the burner ran through",
				 cg, busy, m, on, interval);
		s->busy_s += busy * interval;
		s->whole_on_s += on;
		s->measured_min = fmin(s->measured_min, m);
		s->measured_max = fmax(s->measured_max, m);
		s->whole++;
	}
}

static void check_busy(json_object **lines, size_t n, const char *cg, bool tasks, double want,
		       double lost_s)
{
	struct busy_sums s;

	sum_busy(lines, n, cg, tasks, &s);
	printf("  %s%s: Busy %.4f s (measured %.3f-%.3f) in %d "
	       "intervals run through, on_cpu_s %.4f s there; %.4f s in all, cpu.stat %.4f s\n",
	       cg, tasks ? " (task)" : "", s.busy_s, s.measured_min, s.measured_max, s.whole,
	       s.whole_on_s, s.on_cpu_s, want);
	printf("  host's irq, softirq and steal time over the run: %.4f s\n", lost_s);
	assert_true(s.whole >= 3);
	/* Every group enabled all the time, and room for all: measured the whole time it ran. */
	if (s.measured_min < 0.99 || s.measured_max > 1)
		fail_msg("%s: measured %.3f-%.3f, want 1: a group was off part of the time", cg,
			 s.measured_min, s.measured_max);
	if (s.busy_s < (1 - BUSY_TOLERANCE) * s.whole_on_s ||
	    s.busy_s > (1 + BUSY_TOLERANCE) * s.whole_on_s + lost_s)
		fail_msg("%s: Busy %.4f s, on_cpu_s %.4f s, host's time lost %.4f s", cg, s.busy_s,
			 s.whole_on_s, lost_s);
	if (!tasks && fabs(s.on_cpu_s - want) > 0.02 * want + 0.01)
		fail_msg("%s: on_cpu_s %.4f s, cpu.stat %.4f s", cg, s.on_cpu_s, want);
}

static void level_6_multiplexed_live(void **state)
{
	char parent[128], mnt[300], child[160], cg[200];
	const char *args[] = { "--model", "rot",      "--level", "6",	       "--cgroup",
			       mnt,	  "--depth",  "1",	 "--per-task", "--interval",
			       "600ms",	  "--format", "json",	 NULL };
	struct itest_tmacg t;
	json_object **lines;
	uint64_t before, after;
	double lost_s;
	pid_t burner;
	size_t n;

	(void)state;
	ITEST_NEED_ROOT();
	assert_int_equal(itest_make_parent("rot", parent, sizeof(parent), mnt, sizeof(mnt)), 0);
	snprintf(child, sizeof(child), "%s/busy", parent);
	snprintf(cg, sizeof(cg), "/%s", child);
	assert_int_equal(itest_mkcg(child), 0);
	assert_int_equal(itest_tmacg_start(&t, args), 0);
	itest_tmacg_drain(&t);
	before = itest_usage_usec(child);
	lost_s = host_time_lost_s();
	burner = itest_burn_in(child, "4", "0.7", NULL);
	assert_int_equal(itest_wait(burner), 0);
	after = itest_usage_usec(child);
	/* the last interval's lines come after the burner ends: their lost time counts too */
	lines = itest_stop_json(&t, SIGTERM, &n);
	lost_s = host_time_lost_s() - lost_s;
	check_busy(lines, n, cg, false, (after - before) / 1e6, lost_s);
	check_busy(lines, n, cg, true, (after - before) / 1e6, lost_s);
	itest_finish(&t, lines, n, parent);
}

/* The table shows levels 4-6, none marked as measured less than half the interval. */
static void table_shows_deep_nodes_unmarked(void **state)
{
	const char *args[] = { "--model", "rot",	"--level", "6",	       "--count",
			       "2",	  "--interval", "300ms",   "--format", "table",
			       "--color", "never",	NULL };
	struct itest_tmacg t;

	(void)state;
	ITEST_NEED_ROOT();
	assert_int_equal(itest_tmacg_start(&t, args), 0);
	assert_int_equal(itest_tmacg_stop(&t, 0), 0);
	if (!strstr(t.out, "Switches_per_busy_ms") || !strstr(t.out, "Busy"))
		fail_msg("table lacks level 6:\n%s", t.out);
	if (strstr(t.out, " ~\n"))
		fail_msg("a node marked measured less than half the interval:\n%s", t.out);
	itest_tmacg_free(&t);
}

/* The last node of a path shown whole ("A.~B.~C  "): where its mark is. */
static const char *path_last_node(const char *path, const char *end)
{
	const char *last = path;

	for (const char *p = path; p < end && *p != ' '; p++)
		if (*p == '.')
			last = p + 1;
	return last;
}

/*
 * The live view's rows below a header with MEAS% (the bottleneck path's
 * deepest node's measured share of the cgroup's run time): every row with a
 * share shows its deepest node marked "~" when that share is under half and
 * unmarked otherwise, the path whole at 200 columns, or "?" (a level its
 * groups never ran in) with 0.  One frame's rows below its header (head: the
 * newline before it); returns the rows whose deepest node was under half,
 * and adds those with a share to *shown.
 */
static int check_frame_measured(const char *head, const char *out, int *shown)
{
	const char *eol = strchr(head + 1, '\n');
	const char *meas = strstr(head, " MEAS% BOTTLENECK");
	size_t col = meas && eol && meas < eol ? (size_t)(meas + 1 - (head + 1)) : 0;
	int rows = 0;

	if (!col)
		fail_msg("no MEAS%% column before the path at --level 6:\n%s", out);
	for (const char *ln = eol + 1; col && *ln && *ln != '\n'; ln = strchr(ln, '\n') + 1) {
		const char *path = ln + col + 6, *end = strchr(ln, '\n'), *last;
		double share;

		if (!end || end < path + 1) {
			fail_msg("a row without MEAS%% and path:\n%s", out);
			break;
		}
		if (sscanf(ln + col, "%lf", &share) != 1)
			continue; /* "-": no path, nothing ran */
		last = path_last_node(path, end);
		if (!(share >= 0 && share <= 100) || (*last == '?' && share != 0) ||
		    (*last != '?' && (share < 50) != (*last == '~')))
			fail_msg("MEAS%% %g, path %.*s: the share not said\n%s", share,
				 (int)(end - path), path, out);
		rows += share < 50;
		++*shown;
	}
	return rows;
}

/* Every frame's rows; returns those under half, over all frames; *shown: those with a share. */
static int check_top_measured(const char *out, int *shown)
{
	const char *head = strstr(out, "\nCGROUP ");
	int rows = 0;

	if (!head)
		fail_msg("no live view header:\n%s", out);
	for (; head; head = strstr(head + 1, "\nCGROUP "))
		rows += check_frame_measured(head, out, shown);
	return rows;
}

/*
 * The live view and the HTML report at --level 6, the groups multiplexed by
 * the kernel: frames into a pipe at every interval, each node's measured
 * share said (MEAS%, the path's "~"), all of the time here (the kernel has
 * room for every software event); a report with every node of the six
 * levels, the cgroups' nodes computed (the root's Busy and
 * Switches_per_busy_ms numbers, not null), and the time measured said as a
 * share of 1.
 */
static void top_and_html_at_level_6(void **state)
{
	const char *top[] = { "--model",    "rot",   "--level", "6", "--format", "top",
			      "--interval", "300ms", "--count", "2", NULL };
	const char *html[] = { "--model", "rot",     "--level", "6", "--interval",
			       "300ms",	  "--count", "2",	NULL };
	char parent[256], mnt[512], child[300];
	struct itest_tmacg t;
	json_object *data, *root, *v, *nodes;
	pid_t burner;
	int shown = 0;
	double q;

	(void)state;
	ITEST_NEED_ROOT();
	/* A row that runs in 10 ms periods, its deepest node measured whenever it ran. */
	assert_int_equal(itest_make_parent("rottop", parent, sizeof(parent), mnt, sizeof(mnt)), 0);
	snprintf(child, sizeof(child), "%s/busy", parent);
	assert_int_equal(itest_mkcg(child), 0);
	setenv("COLUMNS", "200", 1); /* whole paths: a pipe is 80 columns by default */
	assert_int_equal(itest_tmacg_start(&t, top), 0);
	unsetenv("COLUMNS");
	burner = itest_burn_in(child, "1.5", "0.7", NULL);
	itest_tmacg_drain(&t);
	assert_int_equal(itest_tmacg_stop(&t, 0), 0);
	assert_int_equal(itest_wait(burner), 0);
	assert_int_equal(itest_rmcg(parent), 0);
	if (!strstr(t.out, "tmacg ") || !strstr(t.out, "\nCGROUP ") || !strstr(t.out, "RUN%"))
		fail_msg("no live view at --level 6:\n%s", t.out);
	printf("%s", t.out);
	if (check_top_measured(t.out, &shown) || shown < 1)
		fail_msg("%d rows with a share, a deepest node under half among them:\n%s", shown,
			 t.out);
	itest_tmacg_free(&t);

	data = itest_html_run(html);
	assert_int_equal((int)itest_num(data, "level"), 6);
	assert_true(json_object_object_get_ex(data, "nodes", &nodes));
	assert_int_equal((int)json_object_array_length(nodes), 7);
	root = itest_html_cgroup(data, "/");
	assert_true(json_object_object_get_ex(root, "v", &v));
	/* Busy (level 4) and Switches_per_busy_ms (level 6): measured */
	assert_non_null(json_object_array_get_idx(v, 3));
	assert_non_null(json_object_array_get_idx(v, 6));
	q = itest_num(root, "q.running_min");
	/* Every group enabled all the time, and room for every software event. */
	if (!(q > 0.99 && q <= 1))
		fail_msg("running_min %g: a group was off part of the time", q);
	json_object_put(data);
}

/* Live, a --level the model does not have is a usage error: exit 2, with the reason. */
static void level_deeper_than_model_is_exit_2(void **state)
{
	char cmd[4200], out[1024] = "";

	(void)state;
	ITEST_NEED_ROOT();
	snprintf(cmd, sizeof(cmd), "'%s' --model srf --level 6 --count 1 2>&1", getenv("TMACG"));
	assert_int_equal(itest_shell(cmd, out, sizeof(out)), 2);
	if (!strstr(out, "srf has 3 levels"))
		fail_msg("no reason given: %s", out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(level_6_multiplexed_live, itest_cleanup),
		cmocka_unit_test_teardown(table_shows_deep_nodes_unmarked, itest_cleanup),
		cmocka_unit_test_teardown(top_and_html_at_level_6, itest_cleanup),
		cmocka_unit_test(level_deeper_than_model_is_exit_2),
	};

	return cmocka_run_group_tests_name("rotation", tests, setup, NULL);
}
