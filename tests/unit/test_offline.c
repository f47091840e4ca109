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

#include "offline.h"
#include "options.h"

/* offline_run(argv) under TMACG_SYSFS_ROOT=root: its stderr in text; the exit code. */
static int run_offline(const char *root, int argc, const char **argv, char *text, size_t len)
{
	char err_path[] = "/tmp/tmacg-offline-err-XXXXXX";
	int fd = mkstemp(err_path), saved = dup(STDERR_FILENO), code;
	struct options o;
	FILE *f;

	assert_true(fd >= 0);
	assert_int_equal(options_parse(&o, argc, (char **)argv, stdout, stderr), 0);
	setenv("TMACG_SYSFS_ROOT", root, 1);
	fflush(stderr);
	dup2(fd, STDERR_FILENO);
	code = offline_run(&o);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	unsetenv("TMACG_SYSFS_ROOT");
	f = fdopen(fd, "r");
	rewind(f);
	text[fread(text, 1, len - 1, f)] = '\0';
	fclose(f);
	remove(err_path);
	return code;
}

static void undetectable_cpu_says_why(void **state)
{
	char root[] = "/tmp/tmacg-offline-root-XXXXXX", text[4096];
	const char *argv[] = { "tmacg", "--list-events", NULL };

	(void)state;
	assert_non_null(mkdtemp(root));
	assert_int_equal(run_offline(root, 2, argv, text, sizeof(text)), 2);
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
