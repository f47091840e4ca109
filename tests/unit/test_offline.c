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

/*
 * --replay --format html -o FILE: a FILE that cannot be written is refused before
 * the input is read (a pipe from a live tmacg could run for hours first): here the
 * input does not exist either, and the report's path is what is named, exit 2.
 */
static void unwritable_report_refused_before_reading(void **state)
{
	char text[4096];
	const char *argv[] = { "tmacg", "--replay", "/nonexistent/rec.jsonl", "--format",
			       "html",	"-o",	    "/nonexistent/r.html",    NULL };

	(void)state;
	assert_int_equal(offline_capture(STDERR_FILENO, NULL, 7, argv, text, sizeof(text)), 2);
	if (!strstr(text, "/nonexistent/r.html: cannot write there"))
		fail_msg("not refused first: %s", text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(undetectable_cpu_says_why),
		cmocka_unit_test(unwritable_report_refused_before_reading),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
