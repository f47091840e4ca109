// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "cgroup_cpu_stat.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

int cgroup_read_cpu_stat(const struct cgroup_mount *mnt, const char *path, const char *key,
			 uint64_t *value)
{
	char dir[CGROUP_PATH_MAX], file[CGROUP_PATH_MAX + 16], name[64];
	unsigned long long v;
	int err = cgroup_dir_of(mnt, path, dir, sizeof(dir));
	FILE *f;

	if (err)
		return err;
	snprintf(file, sizeof(file), "%s/cpu.stat", dir);
	f = fopen(file, "re");
	if (!f)
		return -errno;
	err = -ENOENT;
	while (fscanf(f, "%63s %llu", name, &v) == 2) {
		if (!strcmp(name, key)) {
			*value = v;
			err = 0;
			break;
		}
	}
	fclose(f);
	return err;
}
