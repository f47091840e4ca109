/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Which model a golden file (tests/golden/) is for, as its README's table names it. */
#ifndef TMACG_TESTS_GOLDEN_MODEL_H
#define TMACG_TESTS_GOLDEN_MODEL_H

#include <stddef.h>

/*
 * The model a golden file is for, as tests/golden/README.md's table names it
 * ("| `icx-tma4.5.jsonl` | `icx --tma-version 4.5` |"): "--model", then its words,
 * in words[] (at most max, kept in buf).  Every file must have its row (a
 * cmocka failure otherwise).  Run from the repository root.
 */
int golden_model(const char *file, char *buf, size_t len, char **words, int max);

#endif
