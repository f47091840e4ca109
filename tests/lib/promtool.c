// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "promtool.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

bool promtool_accepts(const char *text)
{
	char path[] = "/tmp/tmacg-prom-XXXXXX", cmd[256];
	FILE *f;
	int fd, st;

	if (system("command -v promtool >/dev/null 2>&1")) {
		fprintf(stderr, "  promtool not installed (Debian package prometheus; "
				"deploy/install-deps.sh --test installs it)\n");
		return false;
	}
	fd = mkstemp(path);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
	snprintf(cmd, sizeof(cmd), "promtool check metrics < %s 2>&1", path);
	st = system(cmd);
	unlink(path);
	if (!WIFEXITED(st) || WEXITSTATUS(st))
		fail_msg("promtool check metrics rejected:\n%s", text);
	return true;
}
