// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * CPU hotplug (cpus/cpu_state.h, cpus/cpu_events.h): which CPUs get new
 * events and which lose theirs, from each CPU's state, the online list and
 * the events' enabled time; and the online list as the kernel writes it.
 * The hotplug itself is the guest's (the guest matrix: tests/guest/init,
 * run_hotplug).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pmu_drive.h"
#include "collect/collector.h"
#include "cpus/cpu_events.h"
#include "cpus/cpu_state.h"
#include "pmu/pmu.h"

static enum cpu_action decide(bool counting, bool online, bool known, uint64_t was, uint64_t now)
{
	struct cpu_seen s = {
		.online = online, .enabled_known = known, .enabled_was = was, .enabled_now = now
	};

	return cpu_state_action(counting ? CPU_COUNTING : CPU_OFFLINE, &s);
}

static void online_and_counting_is_kept(void **state)
{
	(void)state;
	assert_int_equal(decide(true, true, true, 100, 200), CPU_KEEP);
	assert_int_equal(decide(true, true, false, 0, 0), CPU_KEEP); /* first look */
}

static void gone_offline_is_closed(void **state)
{
	(void)state;
	assert_int_equal(decide(true, false, false, 100, 0), CPU_CLOSE);
	assert_int_equal(decide(false, false, false, 0, 0), CPU_KEEP); /* closed already */
}

static void back_online_is_reopened(void **state)
{
	(void)state;
	/* Offline at start or at the last look, online now: new events. */
	assert_int_equal(decide(false, true, false, 0, 0), CPU_REOPEN);
}

/* Off and on within one interval: the list did not change, the events stopped. */
static void stopped_events_are_reopened(void **state)
{
	(void)state;
	assert_int_equal(decide(true, true, true, 500, 500), CPU_REOPEN);
	assert_int_equal(decide(true, true, true, 500, 400), CPU_REOPEN);
}

/* The BPF side saw its hotplug steps: reopened even while its events' time still moved. */
static void hotplugged_cpu_is_reopened(void **state)
{
	struct cpu_seen s = { .online = true,
			      .hotplugged = true,
			      .enabled_known = true,
			      .enabled_was = 100,
			      .enabled_now = 900 };

	(void)state;
	assert_int_equal(cpu_state_action(CPU_COUNTING, &s), CPU_REOPEN);
	s.online = false;
	assert_int_equal(cpu_state_action(CPU_COUNTING, &s),
			 CPU_CLOSE); /* and offline now: closed */
}

/* Two groups of one cpu-clock each on CPU 0, opened disabled; false: no perf_event_open here. */
static bool open_two_groups(struct pmu_set *s, struct pmu_event *ev)
{
	char err[256];
	int ret;

	memset(ev, 0, 2 * sizeof(*ev));
	for (int g = 0; g < 2; g++) {
		ev[g].name = g ? "B" : "A";
		ev[g].group = g;
		ev[g].attr.type = PERF_TYPE_SOFTWARE;
		ev[g].attr.config = PERF_COUNT_SW_CPU_CLOCK;
		ev[g].attr.read_format =
			PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	}
	ret = pmu_open(s, ev, 2, 1, err, sizeof(err));
	/* CPU-wide events need root or perf_event_paranoid <= 0; qemu-user has no perf_event_open. */
	if (ret == -EACCES || ret == -EPERM || ret == -ENOSYS)
		return false;
	assert_int_equal(ret, 0);
	return true;
}

/* CPU 0's enabled time over 20 ms: whether it grew by 10 ms at least, else whether it stood still. */
static bool enabled_grows(const struct pmu_set *s)
{
	uint64_t before, after;

	assert_int_equal(pmu_cpu_enabled_ns(s, 0, &before), 0);
	usleep(20000);
	assert_int_equal(pmu_cpu_enabled_ns(s, 0, &after), 0);
	if (after >= before + 10000000)
		return true;
	assert_true(after == before);
	return false;
}

/*
 * Without a clock group, the CPU's enabled time is every group's, which
 * grows while any is enabled: a group someone disabled stands still as when
 * the kernel turns a CPU's events off, and read alone would make the CPU
 * look unplugged.
 */
static void enabled_time_grows_while_any_group_is_on(void **state)
{
	struct pmu_event ev[2];
	struct pmu_set s;

	(void)state;
	if (!open_two_groups(&s, ev))
		skip();
	assert_int_equal(s.clock_group, -1);			/* none known: every leader */
	assert_int_equal(pmu_switch_groups(&s, 1u << 1, 0), 0); /* the second group on */
	assert_true(enabled_grows(&s));
	assert_int_equal(pmu_switch_groups(&s, 0, 3), 0); /* none on: stands still */
	assert_false(enabled_grows(&s));
	pmu_close(&s);
}

/*
 * With a clock group (one always enabled, cpus/cpu_events.c), its leader
 * alone is read: one read per CPU each interval, not one per group (20 at
 * spr's level 6).  Shown by the other group on alone: the time stands still.
 */
static void enabled_time_is_the_clock_groups(void **state)
{
	struct pmu_event ev[2];
	struct pmu_set s;

	(void)state;
	if (!open_two_groups(&s, ev))
		skip();
	s.clock_group = 1;
	assert_int_equal(pmu_switch_groups(&s, 1u << 0, 0), 0); /* group 0 on, the clock off */
	assert_false(enabled_grows(&s));
	assert_int_equal(pmu_switch_groups(&s, 1u << 1, 0), 0);
	assert_true(enabled_grows(&s));
	pmu_close(&s);
}

/*
 * Mid-hotplug (its hotplug state not yet its target), a CPU to reopen waits:
 * the kernel lists a CPU coming up as online before its last steps, whose
 * count moving again reopened it a second time ("CPUs back online 2").  One
 * going offline is closed whatever its state.
 */
static void settling_cpu_waits(void **state)
{
	struct cpu_seen s = { .online = true, .hotplugged = true, .settling = true };

	(void)state;
	assert_int_equal(cpu_state_action(CPU_COUNTING, &s), CPU_WAIT);
	s.hotplugged = false;
	/* nothing to do: no wait either */
	assert_int_equal(cpu_state_action(CPU_COUNTING, &s), CPU_KEEP);
	assert_int_equal(cpu_state_action(CPU_OFFLINE, &s), CPU_WAIT); /* coming up */
	s.settling = false;
	assert_int_equal(cpu_state_action(CPU_OFFLINE, &s), CPU_REOPEN); /* up */
	s.online = false;
	s.settling = true;
	assert_int_equal(cpu_state_action(CPU_COUNTING, &s), CPU_CLOSE);
}

/*
 * The states between looks: a flush that finds a CPU offline leaves it LOST
 * (its events dead, still open) until a look closes them or reopens it; a
 * reopen that fails leaves it FAILED, tried again while it is listed online
 * and simply gone once it is not (nothing open to close).
 */
static void states_follow_the_actions(void **state)
{
	struct cpu_seen on = { .online = true }, off = { .online = false };

	(void)state;
	assert_int_equal(cpu_state_after(CPU_OFFLINE, CPU_REOPEN, true, true), CPU_COUNTING);
	assert_int_equal(cpu_state_after(CPU_OFFLINE, CPU_REOPEN, false, true), CPU_FAILED);
	assert_int_equal(cpu_state_after(CPU_COUNTING, CPU_CLOSE, false, false), CPU_OFFLINE);
	assert_int_equal(cpu_state_after(CPU_COUNTING, CPU_WAIT, false, true), CPU_COUNTING);
	assert_int_equal(cpu_state_after(CPU_COUNTING, CPU_KEEP, false, true), CPU_COUNTING);

	assert_int_equal(cpu_state_action(CPU_LOST, &off), CPU_CLOSE);	 /* dead events closed */
	assert_int_equal(cpu_state_action(CPU_LOST, &on), CPU_REOPEN);	 /* back already */
	assert_int_equal(cpu_state_action(CPU_FAILED, &on), CPU_REOPEN); /* tried again */
	assert_int_equal(cpu_state_action(CPU_FAILED, &off), CPU_KEEP);
	assert_int_equal(cpu_state_after(CPU_FAILED, CPU_KEEP, false, false), CPU_OFFLINE);
	assert_int_equal(cpu_state_action(CPU_OFFLINE, &off), CPU_KEEP);
	assert_int_equal(cpu_state_after(CPU_OFFLINE, CPU_KEEP, false, false), CPU_OFFLINE);
}

static void write_number(const char *dir, const char *name, long v)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fprintf(f, "%ld\n", v);
	fclose(f);
}

/* cpuN/hotplug/state and target, beside the online list, as sysfs has them. */
static void settling_read_from_sysfs_files(void **state)
{
	char dir[] = "/tmp/tmacg-cpus-XXXXXX", online[64], hp[96], cmd[128];

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(online, sizeof(online), "%s/online", dir);
	snprintf(hp, sizeof(hp), "%s/cpu1/hotplug", dir);
	snprintf(cmd, sizeof(cmd), "mkdir -p %s", hp);
	assert_int_equal(system(cmd), 0);
	assert_false(cpu_state_settling(online, 1)); /* no files: not known, not waited for */
	write_number(hp, "state", 120);
	write_number(hp, "target", 233);
	assert_true(cpu_state_settling(online, 1));
	assert_false(cpu_state_settling(online, 0));
	write_number(hp, "state", 233);
	assert_false(cpu_state_settling(online, 1));
	snprintf(cmd, sizeof(cmd), "rm -r %s", dir);
	assert_int_equal(system(cmd), 0);
}

static void online_list_file(void **state)
{
	char path[] = "/tmp/tmacg-online-XXXXXX";
	bool mask[8];
	FILE *f;
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	fputs("0,2-3,6\n", f);
	fclose(f);
	assert_int_equal(pmu_read_online(path, mask, 8), 0);
	assert_true(mask[0] && !mask[1] && mask[2] && mask[3] && !mask[4] && !mask[5] && mask[6] &&
		    !mask[7]);
	unlink(path);
	assert_int_equal(pmu_read_online(path, mask, 8), -ENOENT);
}

static void write_online(const char *path, const char *list)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(list, f);
	fclose(f);
}

/*
 * Between waits: a CPU gone or back since cpu_events_follow()'s last look is
 * due at once; an unchanged list is not, even with a CPU whose reopening
 * failed (that one is tried again at the interval's end, not at every wait).
 */
static void online_change_is_due(void **state)
{
	char path[] = "/tmp/tmacg-online-XXXXXX";
	struct cpu_slot cpu[4];
	bool seen[4];
	struct collector col = { .ncpus = 4 }; /* no BPF: no hotplug count */
	struct cpu_events ev = { .col = &col,
				 .online_path = path,
				 .ncpus = 4,
				 .cpu = cpu,
				 .seen = seen,
				 .looked = true };
	int fd = mkstemp(path);

	(void)state;
	for (int c = 0; c < 4; c++)
		cpu[c] = (struct cpu_slot){ .state = CPU_COUNTING, .listed = true };
	assert_true(fd >= 0);
	close(fd);
	write_online(path, "0-3\n");
	assert_false(cpu_events_due(&ev));
	write_online(path, "0,2-3\n");
	assert_true(cpu_events_due(&ev)); /* CPU 1 went */
	cpu[1].listed = false;
	assert_false(cpu_events_due(&ev)); /* seen: in line again */
	write_online(path, "0-3\n");
	assert_true(cpu_events_due(&ev)); /* back */
	cpu[1].listed = true;
	cpu[1].state = CPU_FAILED; /* its reopening failed */
	assert_false(cpu_events_due(&ev));
	ev.settling = 1; /* mid-hotplug at the last look: looked at until it settles */
	assert_true(cpu_events_due(&ev));
	ev.settling = 0;
	ev.looked = false;
	assert_false(cpu_events_due(&ev)); /* before the first look: the interval's end */
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(online_and_counting_is_kept),
		cmocka_unit_test(gone_offline_is_closed),
		cmocka_unit_test(back_online_is_reopened),
		cmocka_unit_test(stopped_events_are_reopened),
		cmocka_unit_test(hotplugged_cpu_is_reopened),
		cmocka_unit_test(enabled_time_grows_while_any_group_is_on),
		cmocka_unit_test(enabled_time_is_the_clock_groups),
		cmocka_unit_test(settling_cpu_waits),
		cmocka_unit_test(states_follow_the_actions),
		cmocka_unit_test(settling_read_from_sysfs_files),
		cmocka_unit_test(online_list_file),
		cmocka_unit_test(online_change_is_due),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
