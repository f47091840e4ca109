// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The offline modes' errors keep their reason: when no model is named and
 * the CPU cannot be told (here: a machine root without /proc/cpuinfo), the
 * message says why the CPU could not pick one, not only "no TMA model given".
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "offline_capture.h"

#include "offline.h"
#include "options.h"

static void undetectable_cpu_says_why(void **state)
{
	char root[] = "/tmp/tmacg-offline-root-XXXXXX", text[4096];
	const char *argv[] = { "tmacg", "--list-events", NULL };

	(void)state;
	assert_non_null(mkdtemp(root));
	assert_int_equal(offline_capture(STDERR_FILENO, root, 2, argv, text, sizeof(text)), 2);
	rmdir(root);
	/* What to do, and why the CPU did not choose: cpu_detect's own words. */
	if (!strstr(text, "--model") || !strstr(text, "/proc/cpuinfo"))
		fail_msg("message lacks the fix or the reason: %s", text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(undetectable_cpu_says_why),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
