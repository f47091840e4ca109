// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "model_dir.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int model_dir_make(char *dir, const char *const (*files)[2], size_t n)
{
	char path[PATH_MAX];

	if (!mkdtemp(dir))
		return -1;
	for (size_t i = 0; i < n; i++) {
		FILE *f;
		int bad;

		snprintf(path, sizeof(path), "%s/%s", dir, files[i][0]);
		f = fopen(path, "w");
		bad = !f || fputs(files[i][1], f) < 0;
		if ((f && fclose(f)) || bad) {
			model_dir_remove(dir, files, i + 1);
			return -1;
		}
	}
	return 0;
}

void model_dir_remove(const char *dir, const char *const (*files)[2], size_t n)
{
	char path[PATH_MAX];

	for (size_t i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, files[i][0]);
		unlink(path);
	}
	rmdir(dir);
}
