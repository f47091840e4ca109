// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "repo_root.h"

#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int repo_root(char *root, size_t len)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *dir = exe;

	if (n <= 0)
		return -1;
	exe[n] = '\0';
	for (int i = 0; i < 4; i++)
		dir = dirname(dir); /* may point into exe, or at a static "/" */
	return (size_t)snprintf(root, len, "%s", dir) < len ? 0 : -1;
}
