/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* The tmacg binary built beside a unit test, for tests that run it. */
#ifndef TMACG_TREE_TMACG_H
#define TMACG_TREE_TMACG_H

#include <stddef.h>

/* <tree>/tests/unit/test_x -> <tree>/tmacg: the binary of the same tree (plain or sanitizer). */
void tree_tmacg(char *buf, size_t len);

#endif
