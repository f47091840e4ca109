// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "test_models.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/model.h"
#include "model/model_impl.h"

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

struct tma_model *test_model_text(const char *text, const char *file)
{
	char err[512] = "";
	struct tma_model *m = model_load(text, strlen(text), file, err, sizeof(err));

	if (!m)
		fail_msg("%s does not load: %s", file, err);
	return m;
}

struct tma_model *test_model_builtin(const char *id)
{
	char err[512] = "";
	struct tma_model *m = model_load_builtin(id, err, sizeof(err));

	if (!m)
		fail_msg("built-in model %s does not load: %s", id, err);
	return m;
}

struct tma_model *test_model_plain(struct tma_model *m)
{
	model_code_free(&m->code);
	assert_int_equal(model_compile(m, true), 0);
	return m;
}
