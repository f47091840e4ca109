// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The owner of every CPU's perf events (cpus/cpu_events.h), against a fake
 * PMU and BPF side (test_cpu_events.wrap wraps what it calls of pmu/ and
 * collect/ and writes each call into a log): every group enabled at start on
 * the CPUs that count, once, and never switched again; a CPU gone closed, a
 * CPU back reopened alone with every group (read once before they go on), a
 * flush that finds a CPU offline, a group refused by a CPU coming back (left
 * out everywhere, the clock moved off it), a CPU whose events fail to open
 * (tried again, its counts counted as lost), one gone again while it is
 * reopened, and a CPU whose events' time stood still.  The real system calls
 * are the guest's (tests/guest: hotplug, hp-rot, wide) and the integration
 * tests'.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "collect/collector.h"
#include "cpus/cpu_events.h"

#define NCPUS 4

static char log_text[8192];
static char online_path[] = "/tmp/tmacg-cpu-events-XXXXXX";
static int refuse_open;		/* pmu_open_cpu: -errno for every group, or 0 */
static uint64_t refuse_group;	/* pmu_open_cpu: this group (bit) refused */
static int flush_gone = -1;	/* collector_flush_cpu: -ENXIO on this CPU */
static uint64_t enabled[NCPUS]; /* pmu_cpu_enabled_ns */

static void say(const char *fmt, ...)
{
	size_t len = strlen(log_text);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(log_text + len, sizeof(log_text) - len, fmt, ap);
	va_end(ap);
}

/* The log since the last call, and a new one started. */
static const char *calls(void)
{
	static char seen[sizeof(log_text)];

	memcpy(seen, log_text, sizeof(seen));
	log_text[0] = '\0';
	return seen;
}

int __wrap_pmu_open(struct pmu_set *s, const struct pmu_event *events, int nevents, int ncpus,
		    char *err, size_t errlen)
{
	(void)err;
	(void)errlen;
	memset(s, 0, sizeof(*s));
	s->events = events;
	s->nevents = nevents;
	s->ngroups = 3;
	s->ncpus = ncpus;
	s->clock_group = -1;
	s->online = calloc(ncpus, sizeof(*s->online));
	/* The test's online list: a CPU offline at start gets no events. */
	return pmu_read_online(online_path, s->online, ncpus);
}

void __wrap_pmu_close(struct pmu_set *s)
{
	free(s->online);
	for (int g = 0; g < 64; g++)
		free(s->unopened_why[g]);
	memset(s, 0, sizeof(*s));
}

int __wrap_pmu_open_cpu(struct pmu_set *s, int cpu, char *err, size_t errlen)
{
	say("open %d;", cpu);
	if (refuse_open) {
		snprintf(err, errlen, "refused");
		return refuse_open;
	}
	if (refuse_group && !(s->unopened & refuse_group)) {
		s->unopened |= refuse_group;
		s->unopened_why[__builtin_ctzll(refuse_group)] = strdup("cannot open event C");
	}
	s->online[cpu] = true;
	return 0;
}

void __wrap_pmu_close_cpu(struct pmu_set *s, int cpu)
{
	s->online[cpu] = false;
	say("close %d;", cpu);
}

int __wrap_pmu_enable_cpu(struct pmu_set *s, int cpu)
{
	(void)s;
	say("enable %d;", cpu);
	return 0;
}

int __wrap_pmu_cpu_enabled_ns(const struct pmu_set *s, int cpu, uint64_t *ns)
{
	(void)s;
	*ns = enabled[cpu];
	return 0;
}

int __wrap_collector_put_cpu_events(struct collector *c, const struct pmu_set *pmu, int cpu,
				    char *err, size_t errlen)
{
	(void)c, (void)pmu, (void)err, (void)errlen;
	say("put %d;", cpu);
	return 0;
}

void __wrap_collector_drop_cpu_events(struct collector *c, int cpu)
{
	(void)c;
	say("drop %d;", cpu);
}

int __wrap_collector_flush_cpu(struct collector *c, int cpu)
{
	(void)c;
	say("flush %d;", cpu);
	return cpu == flush_gone ? -ENXIO : 0;
}

void __wrap_collector_set_active(struct collector *c, uint64_t groups)
{
	(void)c;
	say("active %llx;", (unsigned long long)groups);
}

void __wrap_collector_leave_out(struct collector *c, uint64_t groups)
{
	(void)c;
	say("leave out %llx;", (unsigned long long)groups);
}

int __wrap_collector_hotplug_count(struct collector *c, int cpu, uint64_t *n)
{
	(void)c, (void)cpu, (void)n;
	return -ENOENT; /* no cpuhp_enter: the list and the events' time tell */
}

/* A look later: every counting CPU's clock group has run on (its enabled time grown). */
static int follow(struct cpu_events *ev)
{
	for (int cpu = 0; cpu < NCPUS; cpu++)
		enabled[cpu] += 1000;
	return cpu_events_follow(ev);
}

static void set_online(const char *list)
{
	FILE *f = fopen(online_path, "w");

	assert_non_null(f);
	fputs(list, f);
	fclose(f);
}

static struct pmu_event events[3];
static struct collector col = { .ncpus = NCPUS };

/* Opened and started on 4 CPUs, all online; the log of the start checked. */
static void open_started(struct cpu_events *ev)
{
	char err[256];

	refuse_open = 0;
	refuse_group = 0;
	flush_gone = -1;
	for (int cpu = 0; cpu < NCPUS; cpu++)
		enabled[cpu] = 1000;
	set_online("0-3\n");
	calls();
	assert_int_equal(cpu_events_open(ev, &col, events, 3, err, sizeof(err)), 0);
	ev->online_path = online_path;
	assert_string_equal(calls(), "active 7;put 0;put 1;put 2;put 3;");
	assert_int_equal(cpu_events_start(ev), 0);
	/* Every group read once, then every group on, one enable per CPU. */
	assert_string_equal(calls(), "flush 0;flush 1;flush 2;flush 3;"
				     "enable 0;enable 1;enable 2;enable 3;");
	/* Every group always enabled: the lowest tells whether a CPU still counts. */
	assert_int_equal(ev->pmu.clock_group, 0);
	assert_int_equal(cpu_events_take_refused(ev), 0);
}

/*
 * The kernel multiplexes the groups: once enabled, nothing is switched again,
 * however long the run, the intervals' flushes and looks aside.
 */
static void groups_enabled_once_for_good(void **state)
{
	struct cpu_events ev;

	(void)state;
	open_started(&ev);
	for (int i = 0; i < 3; i++) {
		cpu_events_flush(&ev);
		assert_string_equal(calls(), "flush 0;flush 1;flush 2;flush 3;");
		assert_int_equal(follow(&ev), 0);
		assert_string_equal(calls(), "");
	}
	cpu_events_close(&ev);
}

/* A CPU offline at start: nothing opened, flushed or enabled there. */
static void cpu_offline_at_start_left_alone(void **state)
{
	struct cpu_events ev;
	char err[256];

	(void)state;
	set_online("0-1,3\n");
	calls();
	assert_int_equal(cpu_events_open(&ev, &col, events, 3, err, sizeof(err)), 0);
	assert_string_equal(calls(), "active 7;put 0;put 1;put 3;");
	assert_int_equal(ev.cpu[2].state, CPU_OFFLINE);
	assert_int_equal(cpu_events_start(&ev), 0);
	assert_string_equal(calls(), "flush 0;flush 1;flush 3;enable 0;enable 1;enable 3;");
	cpu_events_close(&ev);
}

static void cpu_gone_closed_and_back_alone(void **state)
{
	struct cpu_events ev;

	(void)state;
	open_started(&ev);
	assert_int_equal(follow(&ev), 0);
	assert_string_equal(calls(), ""); /* nothing changed */
	set_online("0-1,3\n");
	assert_true(cpu_events_due(&ev));
	assert_int_equal(follow(&ev), 0);
	assert_string_equal(calls(), "drop 2;close 2;");
	assert_int_equal(ev.gone, 1);
	assert_false(cpu_events_due(&ev));
	cpu_events_flush(&ev);
	assert_string_equal(calls(), "flush 0;flush 1;flush 3;"); /* not the CPU gone */
	/* Back: it alone, read before every group goes on; no other CPU touched. */
	set_online("0-3\n");
	assert_true(cpu_events_due(&ev));
	assert_int_equal(follow(&ev), 1);
	assert_string_equal(calls(), "drop 2;flush 2;open 2;put 2;flush 2;enable 2;");
	assert_int_equal(ev.back, 1);
	assert_int_equal(ev.lost, 0);
	cpu_events_close(&ev);
}

static void flush_finding_a_cpu_gone_loses_it_until_the_next_look(void **state)
{
	struct cpu_events ev;

	(void)state;
	open_started(&ev);
	flush_gone = 3;
	cpu_events_flush(&ev);
	assert_string_equal(calls(), "flush 0;flush 1;flush 2;flush 3;");
	assert_int_equal(ev.cpu[3].state, CPU_LOST);
	cpu_events_flush(&ev);
	assert_string_equal(calls(), "flush 0;flush 1;flush 2;"); /* no longer asked */
	set_online("0-2\n");
	assert_int_equal(follow(&ev), 0);
	assert_string_equal(calls(), "drop 3;close 3;"); /* its dead events closed */
	assert_int_equal(ev.cpu[3].state, CPU_OFFLINE);
	cpu_events_close(&ev);
}

/* Started, CPU 1 gone, then back refusing group g (bit): reopened, the log cleared before. */
static void back_refusing(struct cpu_events *ev, uint64_t g)
{
	open_started(ev);
	set_online("0,2-3\n");
	follow(ev);
	calls();
	refuse_group = g;
	set_online("0-3\n");
	assert_int_equal(follow(ev), 1);
}

static void group_refused_by_a_cpu_back_is_left_out(void **state)
{
	struct cpu_events ev;

	(void)state;
	back_refusing(&ev, 1u << 2);
	/* Out everywhere (no longer read); the other CPUs' groups untouched. */
	assert_string_equal(calls(), "drop 1;flush 1;open 1;leave out 4;put 1;flush 1;enable 1;");
	assert_int_equal(cpu_events_take_refused(&ev), 1u << 2);
	assert_int_equal(cpu_events_take_refused(&ev), 0); /* told once */
	assert_string_equal(cpu_events_refusals(&ev)[2], "cannot open event C");
	assert_int_equal(ev.pmu.clock_group, 0);
	cpu_events_close(&ev);
}

/*
 * The clock group refused by a CPU back: the clock moves to the lowest group
 * left, and the CPUs' enabled times, read under the old one, are forgotten
 * (one leader's time against another's would look like a CPU stopped).
 */
static void clock_moves_off_a_group_refused(void **state)
{
	struct cpu_events ev;

	(void)state;
	back_refusing(&ev, 1u << 0);
	assert_int_equal(cpu_events_take_refused(&ev), 1u << 0);
	assert_int_equal(ev.pmu.clock_group, 1);
	/* The next look: times unknown, so nothing reopened for a time that "stood still". */
	for (int cpu = 0; cpu < NCPUS; cpu++)
		enabled[cpu] = 0;
	calls();
	assert_int_equal(cpu_events_follow(&ev), 0);
	assert_string_equal(calls(), "");
	for (int cpu = 0; cpu < NCPUS; cpu++)
		assert_int_equal(ev.cpu[cpu].enabled_ns, 0);
	cpu_events_close(&ev);
}

static void cpu_failing_to_reopen_is_tried_again(void **state)
{
	struct cpu_events ev;

	(void)state;
	open_started(&ev);
	set_online("0,2-3\n");
	follow(&ev);
	calls();
	refuse_open = -EBUSY;
	set_online("0-3\n");
	assert_int_equal(follow(&ev), 0);
	assert_string_equal(calls(), "drop 1;flush 1;open 1;close 1;drop 1;");
	assert_int_equal(ev.cpu[1].state, CPU_FAILED);
	assert_int_equal(ev.lost, 1);
	assert_false(cpu_events_due(&ev)); /* not at every wait: at the interval's end */
	refuse_open = 0;
	assert_int_equal(follow(&ev), 1);
	assert_int_equal(ev.cpu[1].state, CPU_COUNTING);
	assert_int_equal(ev.back, 1);
	cpu_events_close(&ev);
}

/* Gone again while it was reopened: nothing left open, nothing counted lost twice. */
static void cpu_gone_again_while_reopened(void **state)
{
	struct cpu_events ev;

	(void)state;
	open_started(&ev);
	set_online("0,2-3\n");
	follow(&ev);
	calls();
	flush_gone = 1; /* its flush finds it offline (and counts what it strands) */
	set_online("0-3\n");
	assert_int_equal(follow(&ev), 0);
	assert_string_equal(calls(), "drop 1;flush 1;close 1;drop 1;");
	assert_int_equal(ev.lost, 0);
	assert_int_equal(ev.back, 0);
	set_online("0,2-3\n");
	follow(&ev);
	assert_string_equal(calls(), ""); /* nothing open to close */
	assert_int_equal(ev.cpu[1].state, CPU_OFFLINE);
	cpu_events_close(&ev);
}

/* Off and on between two looks, unseen by the list: its clock group's time stood still. */
static void cpu_whose_time_stood_still_is_reopened(void **state)
{
	struct cpu_events ev;

	(void)state;
	open_started(&ev);
	cpu_events_follow(&ev); /* the first look: times known from now */
	for (int cpu = 0; cpu < NCPUS; cpu++)
		enabled[cpu] += 1000;
	cpu_events_follow(&ev);
	calls();
	for (int cpu = 0; cpu < NCPUS; cpu++)
		enabled[cpu] += cpu == 2 ? 0 : 1000;
	assert_int_equal(cpu_events_follow(&ev), 1);
	assert_string_equal(calls(), "drop 2;flush 2;open 2;put 2;flush 2;enable 2;");
	assert_int_equal(ev.lost, 1); /* what it read since, from still events */
	cpu_events_close(&ev);
}

static int setup(void **state)
{
	int fd = mkstemp(online_path);

	(void)state;
	close(fd);
	return fd < 0;
}

static int teardown(void **state)
{
	(void)state;
	return unlink(online_path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(groups_enabled_once_for_good),
		cmocka_unit_test(cpu_offline_at_start_left_alone),
		cmocka_unit_test(cpu_gone_closed_and_back_alone),
		cmocka_unit_test(flush_finding_a_cpu_gone_loses_it_until_the_next_look),
		cmocka_unit_test(group_refused_by_a_cpu_back_is_left_out),
		cmocka_unit_test(clock_moves_off_a_group_refused),
		cmocka_unit_test(cpu_failing_to_reopen_is_tried_again),
		cmocka_unit_test(cpu_gone_again_while_reopened),
		cmocka_unit_test(cpu_whose_time_stood_still_is_reopened),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
