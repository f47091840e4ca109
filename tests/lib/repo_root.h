/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* The repository a test program was built in, for tests that read its files. */
#ifndef TMACG_REPO_ROOT_H
#define TMACG_REPO_ROOT_H

#include <stddef.h>

/*
 * The directory four levels above the running binary, which is
 * <root>/<build tree>/tests/<kind>/<test>: 0, or -1 when /proc/self/exe
 * cannot be read or the path does not fit in len.
 */
int repo_root(char *root, size_t len);

#endif
