// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * A perf group the kernel refuses only on a CPU coming back (pmu_open_cpu(),
 * CPU hotplug): left out as a group refused at start, named once, not tried
 * again at every interval (the CPU's other groups open and count).  When the
 * CPU refuses every group, it is that CPU's trouble: nothing is left out and
 * the CPU is tried again later.  Real software events stand in for the
 * PMU's; the refusal is a config no kernel has, set after the first open.
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

#include "pmu/group_health.h"
#include "pmu/pmu.h"

#define NGROUPS 3
#define NO_SUCH_SOFTWARE_EVENT 0x7fff

struct fixture {
	struct pmu_event ev[NGROUPS];
	struct pmu_set s;
	int ncpus;
};

static int open_groups(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));
	char err[256];
	int ret;

	assert_non_null(f);
	f->ncpus = (int)sysconf(_SC_NPROCESSORS_CONF);
	for (int g = 0; g < NGROUPS; g++) {
		f->ev[g].name = g == 0 ? "A.X" : g == 1 ? "B.X" : "C.X";
		f->ev[g].group = g;
		f->ev[g].attr.type = PERF_TYPE_SOFTWARE;
		f->ev[g].attr.config = PERF_COUNT_SW_CPU_CLOCK;
		f->ev[g].attr.read_format =
			PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	}
	*state = f;
	ret = pmu_open(&f->s, f->ev, NGROUPS, f->ncpus, err, sizeof(err));
	/* CPU-wide events need root or perf_event_paranoid <= 0; qemu-user has no perf_event_open. */
	if (ret == -EACCES || ret == -EPERM || ret == -ENOSYS) {
		f->s.fds = NULL;
		return 0;
	}
	assert_int_equal(ret, 0);
	assert_int_equal(f->s.unopened, 0);
	return 0;
}

static int close_groups(void **state)
{
	struct fixture *f = *state;

	if (f->s.fds)
		pmu_close(&f->s);
	free(f);
	return 0;
}

/* The first online CPU, the one pmu_open() surely opened. */
static int first_online(const struct fixture *f)
{
	for (int cpu = 0; cpu < f->ncpus; cpu++)
		if (f->s.online[cpu])
			return cpu;
	return -1;
}

static bool group_open_on(const struct fixture *f, int g, int cpu)
{
	return f->s.fds[g * f->ncpus + cpu] >= 0; /* one event a group: event g */
}

static void group_refused_on_return_is_left_out_everywhere(void **state)
{
	struct fixture *f = *state;
	struct group_health h = { 0 };
	char err[256], *text = NULL;
	size_t len;
	FILE *out;
	int cpu;

	if (!f->s.fds)
		skip();
	cpu = first_online(f);
	assert_true(cpu >= 0);
	f->ev[1].attr.config = NO_SUCH_SOFTWARE_EVENT; /* the kernel refuses B.X from now on */
	assert_int_equal(pmu_open_cpu(&f->s, cpu, err, sizeof(err)), 0);
	assert_int_equal(f->s.unopened, 1u << 1);
	assert_non_null(f->s.unopened_why[1]);
	assert_non_null(strstr(f->s.unopened_why[1], "cannot open event B.X on CPU"));
	for (int c = 0; c < f->ncpus; c++) {
		assert_false(group_open_on(f, 1, c)); /* closed everywhere, as at start */
		assert_true(group_open_on(f, 0, c) == f->s.online[c]);
		assert_true(group_open_on(f, 2, c) == f->s.online[c]);
	}
	assert_int_equal(pmu_open_groups(&f->s), 1u << 0 | 1u << 2);

	/* Named once: at the refusal, never again (not at the next interval, not per CPU). */
	out = open_memstream(&text, &len);
	assert_non_null(out);
	assert_int_equal(group_health_unopened(&h, f->s.events, f->s.nevents, f->s.unopened,
					       f->s.unopened_why, out),
			 1u << 1);
	assert_int_equal(group_health_unopened(&h, f->s.events, f->s.nevents, f->s.unopened,
					       f->s.unopened_why, out),
			 0);
	assert_int_equal(pmu_open_cpu(&f->s, cpu, err, sizeof(err)), 0); /* left out: not retried */
	assert_int_equal(f->s.unopened, 1u << 1);
	assert_int_equal(group_health_unopened(&h, f->s.events, f->s.nevents, f->s.unopened,
					       f->s.unopened_why, out),
			 0);
	fclose(out);
	assert_non_null(strstr(text, "B.X"));
	assert_non_null(strstr(text, " left out: "));
	assert_null(strstr(strstr(text, " left out: ") + 1, " left out: ")); /* one line */
	free(text);
}

static void cpu_refusing_every_group_leaves_none_out(void **state)
{
	struct fixture *f = *state;
	char err[256];
	int cpu;

	if (!f->s.fds)
		skip();
	cpu = first_online(f);
	for (int g = 0; g < NGROUPS; g++)
		f->ev[g].attr.config = NO_SUCH_SOFTWARE_EVENT;
	assert_true(pmu_open_cpu(&f->s, cpu, err, sizeof(err)) < 0);
	assert_non_null(strstr(err, "cannot open event"));
	assert_int_equal(f->s.unopened, 0); /* that CPU's trouble: tried again later */
	for (int g = 0; g < NGROUPS; g++) {
		assert_null(f->s.unopened_why[g]);
		assert_false(group_open_on(f, g, cpu));
		for (int c = 0; c < f->ncpus; c++)
			if (c != cpu)
				assert_true(group_open_on(f, g, c) == f->s.online[c]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(group_refused_on_return_is_left_out_everywhere,
						open_groups, close_groups),
		cmocka_unit_test_setup_teardown(cpu_refusing_every_group_leaves_none_out,
						open_groups, close_groups),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
