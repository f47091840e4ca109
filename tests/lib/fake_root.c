// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "fake_root.h"

#include <ftw.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

int fake_root_make(char *root)
{
	return mkdtemp(root) ? 0 : -1;
}

void fake_root_put(const char *root, const char *rel, const char *text)
{
	char path[512], *slash;
	FILE *f;

	snprintf(path, sizeof(path), "%s%s", root, rel);
	for (slash = strchr(path + strlen(root) + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		mkdir(path, 0755);
		*slash = '/';
	}
	f = fopen(path, "w");
	if (!f)
		fail_msg("cannot write the fixture %s", path);
	fputs(text, f);
	fclose(f);
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

int fake_root_remove(const char *root)
{
	return nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}
