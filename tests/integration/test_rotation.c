// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Levels 4-6 live, in turns (issue 27): the fixture model rot
 * (tests/fixtures/rotation: software events standing in for hardware ones,
 * two counters) at --level 6 puts its six events in three groups that take
 * turns within each interval, tmacg enabling one slice's group at a time.
 * cpu-clock is read at level 4 only, so its group is on a third of the time:
 * scaled by enabled / running, a burner's Busy must still come to its CPU
 * time from cpu.stat, per cgroup and per task, with quality.measured saying
 * a third; the table marks the level 4-6 nodes "~".
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

/* Busy against cpu.stat: the burner's slices are not all alike on a shared machine. */
#define BUSY_TOLERANCE 0.05

static int setup(void **state)
{
	return itest_fixture_setup(state, "rotation");
}

/*
 * The burner's intervals that it ran through: its share of the interval at
 * least 80 % of its best one's (the host's load sets how much of its duty it
 * gets).  Any stretch of 80 % of an interval touches each of its three
 * slices, so Busy must be measured there.  In the interval it starts or ends
 * in it may run in one or two slices only, and Busy is rightly null when its
 * group's slice is not among them: those count for cpu.stat only.
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

static void check_busy(json_object **lines, size_t n, const char *cg, bool tasks, double want)
{
	struct busy_sums s;

	sum_busy(lines, n, cg, tasks, &s);
	printf("  %s%s: Busy %.4f s from a third of the time (measured %.3f-%.3f) in %d "
	       "intervals run through, on_cpu_s %.4f s there; %.4f s in all, cpu.stat %.4f s\n",
	       cg, tasks ? " (task)" : "", s.busy_s, s.measured_min, s.measured_max, s.whole,
	       s.whole_on_s, s.on_cpu_s, want);
	assert_true(s.whole >= 3);
	/*
	 * Three slices: the level 4 node measured about a third of the time the
	 * cgroup ran (more or less, as the burner's duty cycle falls on its slice).
	 */
	if (s.measured_min < 0.15 || s.measured_max > 0.55)
		fail_msg("%s: measured %.3f-%.3f, want about 1/3", cg, s.measured_min,
			 s.measured_max);
	if (fabs(s.busy_s - s.whole_on_s) > BUSY_TOLERANCE * s.whole_on_s)
		fail_msg("%s: Busy %.4f s from its turns, on_cpu_s %.4f s", cg, s.busy_s,
			 s.whole_on_s);
	if (!tasks && fabs(s.on_cpu_s - want) > 0.02 * want + 0.01)
		fail_msg("%s: on_cpu_s %.4f s, cpu.stat %.4f s", cg, s.on_cpu_s, want);
}

static void level_6_rotates_live(void **state)
{
	char parent[128], mnt[300], child[160], cg[200];
	const char *args[] = { "--model", "rot",      "--level", "6",	       "--cgroup",
			       mnt,	  "--depth",  "1",	 "--per-task", "--interval",
			       "600ms",	  "--format", "json",	 NULL };
	struct itest_tmacg t;
	json_object **lines;
	uint64_t before, after;
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
	burner = itest_burn_in(child, "4", "0.7", NULL);
	assert_int_equal(itest_wait(burner), 0);
	after = itest_usage_usec(child);
	lines = itest_stop_json(&t, SIGTERM, &n);
	check_busy(lines, n, cg, false, (after - before) / 1e6);
	check_busy(lines, n, cg, true, (after - before) / 1e6);
	itest_finish(&t, lines, n, parent);
}

/* The table shows levels 4-6 and marks them measured less than half the interval. */
static void table_marks_rotated_nodes(void **state)
{
	const char *args[] = { "--model", "rot",	"--level", "6",	       "--count",
			       "2",	  "--interval", "300ms",   "--format", "table",
			       "--color", "never",	NULL };
	struct itest_tmacg t;

	(void)state;
	ITEST_NEED_ROOT();
	assert_int_equal(itest_tmacg_start(&t, args), 0);
	assert_int_equal(itest_tmacg_stop(&t, 0), 0);
	if (!strstr(t.out, "Switches_per_busy_ms") || !strstr(t.out, " ~\n") ||
	    !strstr(t.out, "~ measured less than half the interval"))
		fail_msg("table lacks level 6 or its marks:\n%s", t.out);
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
 * groups never ran in) with 0.  Which share a row has depends on when its
 * cgroup ran: a burner across the interval sees a third (rot's three groups
 * each take a third), the root's tasks, in bursts, may fall in one slice.
 * One frame's rows below its header (head: the newline before it); returns
 * the rows whose deepest node was under half.
 */
static int check_frame_measured(const char *head, const char *out)
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
			fail_msg("MEAS%% %g, path %.*s: the turns not said\n%s", share,
				 (int)(end - path), path, out);
		rows += share < 50;
	}
	return rows;
}

/* Every frame's rows; returns those under half, over all frames. */
static int check_top_measured(const char *out)
{
	const char *head = strstr(out, "\nCGROUP ");
	int rows = 0;

	if (!head)
		fail_msg("no live view header:\n%s", out);
	for (; head; head = strstr(head + 1, "\nCGROUP "))
		rows += check_frame_measured(head, out);
	return rows;
}

/*
 * The live view and the HTML report at --level 6, groups in turns: frames
 * into a pipe at every interval, each node's measured share said (MEAS%, the
 * path's "~"); a report with every node of the six levels,
 * the cgroups' nodes computed from their turns (the root's Busy and
 * Switches_per_busy_ms numbers, not null), and the time measured said as a
 * share below 1 (the groups took turns), not as nothing.
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
	double q;

	(void)state;
	ITEST_NEED_ROOT();
	/* A row that runs in every slice (10 ms periods), whose deepest node sees a third. */
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
	if (check_top_measured(t.out) < 1)
		fail_msg("no row with its deepest node under half (the burner's):\n%s", t.out);
	itest_tmacg_free(&t);

	data = itest_html_run(html);
	assert_int_equal((int)itest_num(data, "level"), 6);
	assert_true(json_object_object_get_ex(data, "nodes", &nodes));
	assert_int_equal((int)json_object_array_length(nodes), 7);
	root = itest_html_cgroup(data, "/");
	assert_true(json_object_object_get_ex(root, "v", &v));
	/* Busy (level 4) and Switches_per_busy_ms (level 6): measured in their turns */
	assert_non_null(json_object_array_get_idx(v, 3));
	assert_non_null(json_object_array_get_idx(v, 6));
	q = itest_num(root, "q.running_min");
	/*
	 * Above 0, below 1: how far below depends on when the host's tasks ran
	 * in 300 ms of slices (0.05 seen on a busy machine), not on tmacg.
	 */
	if (!(q > 0 && q < 0.9))
		fail_msg("running_min %g: the groups' turns not said", q);
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
		cmocka_unit_test_teardown(level_6_rotates_live, itest_cleanup),
		cmocka_unit_test_teardown(table_marks_rotated_nodes, itest_cleanup),
		cmocka_unit_test_teardown(top_and_html_at_level_6, itest_cleanup),
		cmocka_unit_test(level_deeper_than_model_is_exit_2),
	};

	return cmocka_run_group_tests_name("rotation", tests, setup, NULL);
}
