/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * The tests' own model files (tests/models, or $TMACG_TEST_MODELS), and
 * models loaded for a test that fails, with the loader's reason, when one
 * does not load.
 */
#ifndef TMACG_TEST_MODELS_H
#define TMACG_TEST_MODELS_H

#include <stddef.h>

struct tma_model;

/* The path of the test model file name ("software_test.tma") into path. */
void test_model_path(char *path, size_t len, const char *name);
/*
 * The same, for a group setup: 0, or -1 when the file cannot be read, with
 * how to fix it on stderr.
 */
int test_model_find(char *path, size_t len, const char *name);

/* The model in text (a .tma file's contents, named file in messages); fails the test when it does not load. */
struct tma_model *test_model_text(const char *text, const char *file);
/* The built-in model id; fails the test when it does not load. */
struct tma_model *test_model_builtin(const char *id);

/*
 * m compiled again plain (model_compile's plain: every threshold link as
 * written): what the rewritten code must give the same results as.  Returns m.
 */
struct tma_model *test_model_plain(struct tma_model *m);

#endif
