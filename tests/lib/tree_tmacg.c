// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "tree_tmacg.h"

#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <unistd.h>

#include <setjmp.h>
#include <stdarg.h>
#include <cmocka.h>

void tree_tmacg(char *buf, size_t len)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	assert_true(n > 0);
	exe[n] = '\0';
	snprintf(buf, len, "%s/../../tmacg", dirname(exe));
}
