// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Issue 17.6: with the capabilities there, an EPERM from bpf() or
 * perf_event_open() says whether a seccomp filter is in force.  The filter
 * here allows everything: only its presence (Seccomp: 2) is under test.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/privileges.h"

/* Run inside a container with a filter, the first case cannot be seen. */
static bool filtered_already(void)
{
	FILE *f = fopen("/proc/self/status", "re");
	char line[256];
	bool yes = false;

	while (f && fgets(line, sizeof(line), f))
		yes |= !strcmp(line, "Seccomp:\t2\n");
	if (f)
		fclose(f);
	return yes;
}

static void no_filter_blames_lockdown_or_lsm(void **state)
{
	(void)state;
	if (filtered_already())
		skip();
	assert_non_null(strstr(privileges_denied_hint(), "kernel lockdown, an LSM"));
	assert_null(strstr(privileges_denied_hint(), "seccomp"));
}

static void seccomp_filter_named(void **state)
{
	int status;
	pid_t pid;

	(void)state;
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		struct sock_filter allow[] = { BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW) };
		struct sock_fprog prog = { .len = 1, .filter = allow };

		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
		    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0))
			_exit(2);
		/* Named, with the profile that fixes it and how to use it on Kubernetes. */
		_exit(strstr(privileges_denied_hint(), "a seccomp filter is in force") &&
				      strstr(privileges_denied_hint(),
					     "deploy/seccomp/tmacg.json") &&
				      strstr(privileges_denied_hint(), "type Localhost") &&
				      !strstr(privileges_denied_hint(), "Unconfined") ?
			      0 :
			      1);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(no_filter_blames_lockdown_or_lsm),
		cmocka_unit_test(seccomp_filter_named),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
