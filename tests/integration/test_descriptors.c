// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * tmacg opens one file descriptor per perf event per CPU: a root shell's
 * default soft limit of 1024 stopped icx's level 3 on 32 CPUs at the 1,025th
 * ("Too many open files").  It raises its own soft limit as far as the hard
 * limit allows, and where the hard limit is too low exits 2 before opening
 * anything, saying how many it needs and how to allow them (fd_limit.h).
 * Here, in a shell whose limits are set low, with icx's software stand-in
 * (tests/bench/standin-model: icx's plan, every event a software one) at
 * --level 3: a soft limit below the plan's needs (64, hard 4096) runs and
 * measures; a hard limit below them (100) is exit 2 with the message; and
 * --list-events says what the plan needs here.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "itest.h"
#include "repo_root.h"

static char model_dir[] = "/tmp/tmacg-fd-model-XXXXXX";

/* icx's stand-in, icxsw, made in model_dir. */
static int make_standin(void **state)
{
	char root[4096], cmd[8192], out[256];

	assert_int_equal(repo_root(root, sizeof(root)), 0);
	assert_non_null(mkdtemp(model_dir));
	snprintf(cmd, sizeof(cmd), "%s/tests/bench/standin-model icx %s", root, model_dir);
	assert_int_equal(itest_shell(cmd, out, sizeof(out)), 0);
	assert_non_null(strstr(out, "icxsw"));
	return itest_group_setup(state);
}

static int remove_standin(void **state)
{
	char cmd[256], out[64];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", model_dir);
	return itest_shell(cmd, out, sizeof(out));
}

/* tmacg ARGS at icxsw --level 3 in a shell of limits LIMITS (ulimit's): status, output. */
static int run_limited(const char *limits, const char *args, char *out, size_t len)
{
	char cmd[8192];

	snprintf(cmd, sizeof(cmd), "%s && TMACG_MODEL_DIR=%s %s --model icxsw --level 3 %s 2>&1",
		 limits, model_dir, getenv("TMACG"), args);
	return itest_shell(cmd, out, len);
}

static void low_soft_limit_is_raised(void **state)
{
	static char out[1 << 20];
	int status;

	(void)state;
	ITEST_NEED_ROOT();
	status = run_limited("ulimit -Sn 64 && ulimit -Hn 4096",
			     "--count 1 --interval 200ms --format json", out, sizeof(out));
	if (status != 0 || !strstr(out, "{\"schema\":\"tmacg/1\""))
		fail_msg("soft 64, hard 4096: exit %d:\n%.2000s", status, out);
}

static void low_hard_limit_is_exit_2_saying_why(void **state)
{
	static char out[1 << 16];
	int status;

	(void)state;
	ITEST_NEED_ROOT();
	status = run_limited("ulimit -n 100", "--count 1 --interval 200ms --format json", out,
			     sizeof(out));
	if (status != 2 || !strstr(out, "file descriptors here") ||
	    !strstr(out, "hard limit on open files is 100") || !strstr(out, "ulimit -n") ||
	    !strstr(out, "LimitNOFILE=") || strstr(out, "{\"schema\""))
		fail_msg("hard 100: exit %d, not 2 with the descriptors needed:\n%s", status, out);
}

static void list_events_says_the_descriptors_needed(void **state)
{
	static char out[1 << 16];
	int status, cpus = (int)sysconf(_SC_NPROCESSORS_ONLN), events = 0, own, need;
	const char *line;

	(void)state;
	status = run_limited("true", "--list-events", out, sizeof(out));
	line = strstr(out, "# file descriptors on this host: ");
	if (status != 0 || !line ||
	    sscanf(line,
		   "# file descriptors on this host: %d events x %*d online CPUs + %d of "
		   "tmacg's own = %d",
		   &events, &own, &need) != 3)
		fail_msg("exit %d, no descriptors line:\n%s", status, out);
	assert_true(events > 0);
	assert_int_equal(need, events * cpus + own);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(low_soft_limit_is_raised),
		cmocka_unit_test(low_hard_limit_is_exit_2_saying_why),
		cmocka_unit_test(list_events_says_the_descriptors_needed),
	};

	return cmocka_run_group_tests_name("descriptors", tests, make_standin, remove_standin);
}
