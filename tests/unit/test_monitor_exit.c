// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * monitor_run's exit code follows the kind of failure (util/run_error.h),
 * never its errno value: a kernel's EINVAL while measuring (an event the
 * kernel rejects, BPF programs it refuses to load) is the run failing, exit
 * 1, not a usage error; a --cgroup that does not exist is one, exit 2.  The
 * kernel's answers are played by wrapping perf_event_open (through syscall)
 * and libbpf's skeleton load (test_monitor_exit.wrap).  As root only:
 * tmacg checks its privileges before it gets that far.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <bpf/libbpf.h>
#include <cmocka.h>

#include "monitor_capture.h"

static bool refuse_events, refuse_load; /* the kernel's EINVAL, where */

long __real_syscall(long nr, ...);
long __wrap_syscall(long nr, ...)
{
	va_list ap;
	long a[5];

	va_start(ap, nr);
	for (int i = 0; i < 5; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	if (nr == SYS_perf_event_open && refuse_events) {
		errno = EINVAL;
		return -1;
	}
	return __real_syscall(nr, a[0], a[1], a[2], a[3], a[4]);
}

int __real_bpf_object__load_skeleton(struct bpf_object_skeleton *s);
int __wrap_bpf_object__load_skeleton(struct bpf_object_skeleton *s)
{
	return refuse_load ? -EINVAL : __real_bpf_object__load_skeleton(s);
}

static const char *const software[] = { "--pmu", "software", "--count", "1", "--interval",
					"100ms", "--format", "json",	NULL };

static void kernel_einval_on_events_is_exit_1(void **state)
{
	char err[8192];
	int code;

	(void)state;
	if (geteuid())
		skip();
	refuse_events = true;
	code = monitor_capture(software, err, sizeof(err));
	refuse_events = false;
	if (code != 1 || !strstr(err, "cannot open event") || !strstr(err, "Invalid argument"))
		fail_msg("exit %d, not 1 with the kernel's refusal:\n%s", code, err);
}

static void kernel_einval_on_bpf_load_is_exit_1(void **state)
{
	char err[8192];
	int code;

	(void)state;
	if (geteuid())
		skip();
	refuse_load = true;
	code = monitor_capture(software, err, sizeof(err));
	refuse_load = false;
	if (code != 1 || !strstr(err, "cannot load the BPF programs: Invalid argument"))
		fail_msg("exit %d, not 1 with the kernel's refusal:\n%s", code, err);
}

/* The same run, untouched, measures: the refusals above were the wraps'. */
static void untouched_run_is_exit_0(void **state)
{
	char err[8192];
	int code;

	(void)state;
	if (geteuid())
		skip();
	code = monitor_capture(software, err, sizeof(err));
	if (code != 0)
		fail_msg("exit %d:\n%s", code, err);
}

static void missing_cgroup_is_exit_2(void **state)
{
	const char *const args[] = { "--pmu", "software", "--count",
				     "1",     "--cgroup", "/no/such/cgroup/here",
				     NULL };
	char err[8192];
	int code;

	(void)state;
	code = monitor_capture(args, err, sizeof(err));
	if (code != 2 || !strstr(err, "cgroup '/no/such/cgroup/here' not found"))
		fail_msg("exit %d, not 2 naming the cgroup:\n%s", code, err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(kernel_einval_on_events_is_exit_1),
		cmocka_unit_test(kernel_einval_on_bpf_load_is_exit_1),
		cmocka_unit_test(untouched_run_is_exit_0),
		cmocka_unit_test(missing_cgroup_is_exit_2),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
