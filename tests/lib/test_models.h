/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* The tests' own model files: tests/models, or $TMACG_TEST_MODELS. */
#ifndef TMACG_TEST_MODELS_H
#define TMACG_TEST_MODELS_H

#include <stddef.h>

/* The path of the test model file name ("software_test.tma") into path. */
void test_model_path(char *path, size_t len, const char *name);
/*
 * The same, for a group setup: 0, or -1 when the file cannot be read, with
 * how to fix it on stderr.
 */
int test_model_find(char *path, size_t len, const char *name);

#endif
