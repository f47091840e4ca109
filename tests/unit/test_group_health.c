// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * A perf group that was enabled but never on the PMU, in any cgroup of an
 * interval, or a pinned one the kernel put in its error state, is reported
 * once by name with what to do; groups that counted, even multiplexed or in
 * one cgroup only, and groups nothing enabled, are not.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <linux/perf_event.h>

#include "pmu_drive.h"
#include "pmu/group_health.h"
#include "measure.h"

/* Three groups: 0 {A.X, A.Y}, 1 {B.X}, 2 {C.X, C.Y, C.Z}. */
static void fake_measure(struct measure *ms)
{
	static const char *const names[] = { "A.X", "A.Y", "B.X", "C.X", "C.Y", "C.Z" };
	static const int group[] = { 0, 0, 1, 2, 2, 2 };

	memset(ms, 0, sizeof(*ms));
	ms->nevents = 6;
	ms->ngroups = 3;
	for (int e = 0; e < 6; e++) {
		ms->events[e].name = names[e];
		ms->events[e].group = group[e];
	}
}

/* fake_measure()'s layout: 6 events in 3 groups. */
static const struct acc_layout six_in_three = { 6, 3 };

static union acc_room delta(__u64 en0, __u64 run0, __u64 en1, __u64 run1, __u64 en2, __u64 run2)
{
	const struct acc_layout *l = &six_in_three;
	union acc_room d;

	memset(&d, 0, sizeof(d));
	*acc_enabled(l, &d.acc, 0) = en0;
	*acc_running(l, &d.acc, 0) = run0;
	*acc_enabled(l, &d.acc, 1) = en1;
	*acc_running(l, &d.acc, 1) = run1;
	*acc_enabled(l, &d.acc, 2) = en2;
	*acc_running(l, &d.acc, 2) = run2;
	return d;
}

/* Runs one interval's check; its stderr text (caller frees) through *text. */
static int check(struct group_health *h, const struct measure *ms, char **text)
{
	size_t len = 0;
	FILE *f;
	int dead;

	*text = NULL;
	f = open_memstream(text, &len);
	assert_non_null(f);
	dead = group_health_check(h, ms->events, ms->nevents, ms->ngroups, f);
	fclose(f);
	return dead;
}

static void test_healthy_groups_are_quiet(void **state)
{
	struct group_health h = { 0 };
	struct measure ms;
	union acc_room a = delta(100, 100, 100, 40, 100, 1);
	char *text;

	(void)state;
	fake_measure(&ms);
	group_health_add(&h, &six_in_three, &a.acc);
	/* Multiplexed (40 %, 1 %) is not dead: the counts are scaled, not missing. */
	assert_int_equal(check(&h, &ms, &text), 0);
	assert_string_equal(text, "");
	free(text);
	/* An interval where nothing ran anywhere: nothing to judge. */
	assert_int_equal(check(&h, &ms, &text), 0);
	assert_string_equal(text, "");
	free(text);
}

static void test_dead_group_is_named_once(void **state)
{
	struct group_health h = { 0 };
	struct measure ms;
	union acc_room a = delta(1000000000, 1000000000, 0, 0, 600000000, 0);
	union acc_room b = delta(500000000, 500000000, 0, 0, 400000000, 0);
	char *text;

	(void)state;
	fake_measure(&ms);
	group_health_add(&h, &six_in_three, &a.acc);
	group_health_add(&h, &six_in_three, &b.acc);
	assert_int_equal(check(&h, &ms, &text), 1);
	assert_non_null(strstr(text, "perf group 2 (C.X, C.Y, C.Z) never counted"));
	assert_null(strstr(text, "A.X"));
	assert_null(strstr(text, "B.X"));
	/* Enabled over both cgroups: 0.6 + 0.4 s. */
	assert_non_null(strstr(text, "enabled 1.000 s"));
	assert_non_null(strstr(text, "null"));
	assert_non_null(strstr(text, "--level"));
	assert_non_null(strstr(text, "nmi_watchdog"));
	assert_non_null(strstr(text, "perf users"));
	assert_int_equal(strchr(text, '\n') - text + 1, (long)strlen(text)); /* one line */
	free(text);
	/* Still dead in the next interval: counted, not repeated. */
	group_health_add(&h, &six_in_three, &a.acc);
	assert_int_equal(check(&h, &ms, &text), 1);
	assert_string_equal(text, "");
	free(text);
}

/*
 * A pinned group (levels 4-6 keep it on all the time) the kernel found no room
 * for: it holds the group in its error state, where the leader's read(2)
 * gives end of file, and the BPF side reads it as neither enabled nor
 * running, so the sums say nothing.  Named once, as pinned, with the fix,
 * and counted in every interval it stays so; a pinned group that reads its
 * times, or an unpinned one, is not named.  The leaders' descriptors are
 * files: /dev/null reads as the error state, a file of three numbers as an
 * event's count and times.
 */
static void test_pinned_group_off_the_pmu_named(void **state)
{
	char times_path[] = "/tmp/tmacg-health-XXXXXX";
	const uint64_t v[3] = { 5, 100, 100 };
	struct group_health h = { 0 };
	struct pmu_set s = { 0 };
	struct measure ms;
	int fds[6], off, ok;
	char *text;

	(void)state;
	fake_measure(&ms);
	off = open("/dev/null", O_RDONLY);
	ok = mkstemp(times_path);
	assert_true(off >= 0 && ok >= 0);
	assert_int_equal(write(ok, v, sizeof(v)), (int)sizeof(v));
	unlink(times_path);
	for (int e = 0; e < ms.nevents; e++) {
		ms.events[e].attr.read_format =
			PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
		fds[e] = ms.events[e].group == 2 ? off : ok;
	}
	ms.events[0].attr.pinned = 1; /* A.X: group 0, pinned, reading its times */
	ms.events[3].attr.pinned = 1; /* C.X: group 2, pinned, off the PMU */
	s = (struct pmu_set){
		.events = ms.events, .nevents = 6, .ngroups = 3, .ncpus = 1, .fds = fds
	};
	h.pmu = &s;
	for (int i = 0; i < 2; i++) {
		lseek(ok, 0, SEEK_SET); /* read(2) from the start: one event's numbers */
		assert_int_equal(check(&h, &ms, &text), 1);
		if (i == 0) {
			assert_non_null(strstr(text,
					       "perf group 2 (C.X, C.Y, C.Z) not counting: it "
					       "is pinned (on all the time at levels 4-6)"));
			assert_non_null(strstr(text, "nmi_watchdog"));
			assert_non_null(strstr(text, "--level"));
			assert_null(strstr(text, "perf group 0"));
			assert_int_equal(strchr(text, '\n') - text + 1, (long)strlen(text));
		} else {
			assert_string_equal(text, ""); /* counted, not repeated */
		}
		free(text);
	}
	/* Not pinned: not asked, whatever its descriptor reads. */
	ms.events[3].attr.pinned = 0;
	lseek(ok, 0, SEEK_SET);
	assert_int_equal(check(&h, &ms, &text), 0);
	assert_string_equal(text, "");
	free(text);
	close(off);
	close(ok);
}

/* Running in one cgroup is enough: the group counts, other cgroups just did not run it. */
static void test_running_anywhere_counts(void **state)
{
	struct group_health h = { 0 };
	struct measure ms;
	union acc_room a = delta(100, 100, 100, 0, 100, 100);
	union acc_room b = delta(100, 100, 100, 7, 100, 100);
	char *text;

	(void)state;
	fake_measure(&ms);
	group_health_add(&h, &six_in_three, &a.acc);
	group_health_add(&h, &six_in_three, &b.acc);
	assert_int_equal(check(&h, &ms, &text), 0);
	assert_string_equal(text, "");
	free(text);
}

/* Each interval is judged on its own: an earlier interval's running time does not carry. */
static void test_sums_restart_each_interval(void **state)
{
	struct group_health h = { 0 };
	struct measure ms;
	union acc_room ok = delta(100, 100, 100, 100, 100, 100);
	union acc_room stuck = delta(100, 100, 100, 0, 100, 100);
	char *text;

	(void)state;
	fake_measure(&ms);
	group_health_add(&h, &six_in_three, &ok.acc);
	assert_int_equal(check(&h, &ms, &text), 0);
	free(text);
	group_health_add(&h, &six_in_three, &stuck.acc);
	assert_int_equal(check(&h, &ms, &text), 1);
	assert_non_null(strstr(text, "perf group 1 (B.X) never counted"));
	free(text);
}

/* Groups beyond the measure's are ignored; a bad count reads nothing out of bounds. */
static void test_bounds(void **state)
{
	struct group_health h = { 0 };
	struct measure ms;
	const struct acc_layout many = { 1, TMACG_MAX_GROUPS + 10 }, none = { 1, -1 };
	const struct acc_layout all = { 1, TMACG_MAX_GROUPS }, three = { 1, 3 };
	union acc_room d;
	char *text;

	(void)state;
	fake_measure(&ms);
	memset(&d, 0, sizeof(d));
	for (int g = 0; g < TMACG_MAX_GROUPS; g++)
		*acc_enabled(&all, &d.acc, g) = 5; /* none running */
	group_health_add(&h, &many, &d.acc);	   /* read as far as TMACG_MAX_GROUPS only */
	group_health_add(&h, &none, &d.acc);
	assert_int_equal(check(&h, &ms, &text), 3); /* only the measure's 3 groups */
	free(text);
	ms.ngroups = 0;
	group_health_add(&h, &all, &d.acc);
	assert_int_equal(check(&h, &ms, &text), 0);
	free(text);
	/* No stream: counted, nothing written. */
	ms.ngroups = 3;
	group_health_add(&h, &three, &d.acc);
	assert_int_equal(group_health_check(&h, ms.events, ms.nevents, ms.ngroups, NULL), 3);
}

/*
 * Multiplexed, a group is enabled the whole interval in the sums but runs only
 * in its turns: cgroups that ran only in the others' leave it "enabled, never
 * running".  The kernel's own times decide then: a group that ran is not
 * named, one that never did is.  Real software events on every CPU: group 0
 * enabled (it runs), group 1 opened but never enabled.
 */
static void test_kernel_times_decide(void **state)
{
	struct pmu_event ev[2];
	struct pmu_set s = { 0 };
	struct group_health h = { 0 };
	struct measure ms;
	char err[256], *text;
	long ncpus = sysconf(_SC_NPROCESSORS_CONF);
	int ret;

	(void)state;
	memset(ev, 0, sizeof(ev));
	for (int g = 0; g < 2; g++) {
		ev[g].name = g ? "B.X" : "A.X";
		ev[g].group = g;
		ev[g].attr.size = sizeof(ev[g].attr);
		ev[g].attr.type = PERF_TYPE_SOFTWARE;
		ev[g].attr.config = PERF_COUNT_SW_CPU_CLOCK;
		ev[g].attr.read_format =
			PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	}
	ret = pmu_open(&s, ev, 2, (int)ncpus, err, sizeof(err));
	/* CPU-wide events need root or perf_event_paranoid <= 0; qemu-user has no perf_event_open. */
	if (ret == -EACCES || ret == -EPERM || ret == -ENOSYS)
		skip();
	assert_int_equal(ret, 0);
	assert_int_equal(pmu_switch_groups(&s, 1, 0), 0);
	usleep(20000);
	assert_int_equal(pmu_group_ran(&s, 0), 1);
	assert_int_equal(pmu_group_ran(&s, 1), 0);
	assert_int_equal(pmu_group_ran(&s, 5), -EOPNOTSUPP); /* no such group */

	fake_measure(&ms);
	ms.ngroups = 2;
	h.pmu = &s;
	h.enabled[0] = h.enabled[1] = 1000000000; /* no cgroup saw either run */
	assert_int_equal(check(&h, &ms, &text), 1);
	assert_null(strstr(text, "perf group 0"));
	assert_non_null(strstr(text, "perf group 1 (B.X) never counted"));
	free(text);
	/* Without the kernel's times the sums alone decide: both are named. */
	memset(&h, 0, sizeof(h));
	h.enabled[0] = h.enabled[1] = 1000000000;
	assert_int_equal(check(&h, &ms, &text), 2);
	free(text);
	pmu_close(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_healthy_groups_are_quiet),
		cmocka_unit_test(test_dead_group_is_named_once),
		cmocka_unit_test(test_pinned_group_off_the_pmu_named),
		cmocka_unit_test(test_running_anywhere_counts),
		cmocka_unit_test(test_sums_restart_each_interval),
		cmocka_unit_test(test_bounds),
		cmocka_unit_test(test_kernel_times_decide),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
