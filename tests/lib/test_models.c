// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "test_models.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

void test_model_path(char *path, size_t len, const char *name)
{
	const char *dir = getenv("TMACG_TEST_MODELS");

	snprintf(path, len, "%s/%s", dir && *dir ? dir : "tests/models", name);
}

int test_model_find(char *path, size_t len, const char *name)
{
	test_model_path(path, len, name);
	if (access(path, R_OK)) {
		fprintf(stderr,
			"cannot read %s: run from the repository root or set TMACG_TEST_MODELS\n",
			path);
		return -1;
	}
	return 0;
}
