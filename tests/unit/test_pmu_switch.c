// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The order of pmu_switch_cpu's ioctls (the BPF-time bench's on= groups, the
 * tests that leave groups off): CPU by CPU, the groups going on then those
 * going off, so that a CPU always has a group enabled, each by its leader
 * alone.  The perf events are fake file descriptors: ioctl is wrapped
 * (test_pmu_switch.wrap) and records what it is asked.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <linux/perf_event.h>
#include <stdbool.h>
#include <string.h>
#include <sys/ioctl.h>

#include "pmu_drive.h"
#include "pmu/pmu.h"

/* Fake event fds: FAKE_FD + event * NCPUS + cpu. */
#define FAKE_FD 10000
#define NCPUS 3
#define NEVENTS 5

static struct {
	int fd;
	unsigned long req;
} calls[64];
static int ncalls;

int __real_ioctl(int fd, unsigned long req, ...);
int __wrap_ioctl(int fd, unsigned long req, ...)
{
	va_list ap;
	void *arg;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (fd < FAKE_FD)
		return __real_ioctl(fd, req, arg);
	if (ncalls < 64)
		calls[ncalls++] = (typeof(calls[0])){ fd, req };
	return 0;
}

static int cpu_of(int fd)
{
	return (fd - FAKE_FD) % NCPUS;
}

static int event_of(int fd)
{
	return (fd - FAKE_FD) / NCPUS;
}

/* Three groups: 0 = events 0-1, 1 = events 2-3, 2 = event 4; open on every CPU. */
static void fake_set(struct pmu_set *s, bool *leader, int *fds)
{
	static const bool leads[NEVENTS] = { true, false, true, false, true };

	memset(s, 0, sizeof(*s));
	memcpy(leader, leads, sizeof(leads));
	for (int i = 0; i < NEVENTS * NCPUS; i++)
		fds[i] = FAKE_FD + i;
	s->nevents = NEVENTS;
	s->ngroups = 3;
	s->ncpus = NCPUS;
	s->leader = leader;
	s->fds = fds;
	ncalls = 0;
}

static void switch_is_cpu_by_cpu_on_then_off(void **state)
{
	bool leader[NEVENTS];
	int fds[NEVENTS * NCPUS];
	struct pmu_set s;

	(void)state;
	fake_set(&s, leader, fds);
	/* Slice change: group 0 off, group 1 on, group 2 stays on (not touched). */
	assert_int_equal(pmu_switch_groups(&s, 1u << 1 | 1u << 2, 1u << 0), 0);
	assert_int_equal(ncalls, 3 * NCPUS);
	for (int i = 0; i < ncalls; i++) {
		int cpu = i / 3, k = i % 3;

		/* Leaders only, and every ioctl on a CPU before the next CPU's. */
		assert_true(leader[event_of(calls[i].fd)]);
		assert_int_equal(cpu_of(calls[i].fd), cpu);
		if (k == 2) {
			assert_int_equal(event_of(calls[i].fd), 0); /* group 0 off last */
			assert_int_equal(calls[i].req, PERF_EVENT_IOC_DISABLE);
		} else {
			assert_int_equal(calls[i].req, PERF_EVENT_IOC_ENABLE);
		}
	}
}

/* A group both on and off is left on; a CPU where a group is not open is skipped. */
static void on_wins_and_closed_events_are_skipped(void **state)
{
	bool leader[NEVENTS];
	int fds[NEVENTS * NCPUS];
	struct pmu_set s;

	(void)state;
	fake_set(&s, leader, fds);
	fds[2 * NCPUS + 1] = -1; /* group 1's leader not open on CPU 1 */
	assert_int_equal(pmu_switch_groups(&s, 1u << 1, 1u << 1 | 1u << 0), 0);
	assert_int_equal(ncalls, 2 * NCPUS - 1);
	for (int i = 0; i < ncalls; i++)
		assert_true(calls[i].req == PERF_EVENT_IOC_DISABLE ?
				    event_of(calls[i].fd) == 0 :
				    event_of(calls[i].fd) == 2 && cpu_of(calls[i].fd) != 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(switch_is_cpu_by_cpu_on_then_off),
		cmocka_unit_test(on_wins_and_closed_events_are_skipped),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
