// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "itest_counts.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "itest.h"

double itest_count_of(json_object **lines, size_t n, const char *cgroup, const char *key, int *seen)
{
	char path[64];
	double sum = 0;

	snprintf(path, sizeof(path), "counts.%s", key);
	*seen = 0;
	for (size_t i = 0; i < n; i++) {
		const char *cg = itest_str(lines[i], "cgroup");

		if (cg && !strcmp(cg, cgroup) && !json_object_object_get(lines[i], "task")) {
			double v = itest_num(lines[i], path);

			sum += isnan(v) ? 0 : v;
			(*seen)++;
		}
	}
	return sum;
}

double itest_on_cpu_of(json_object **lines, size_t n, const char *cgroup, int *seen)
{
	return itest_count_of(lines, n, cgroup, "on_cpu_s", seen);
}
