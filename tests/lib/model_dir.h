/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* A temporary TMACG_MODEL_DIR of model (.tma) and CPU (.cpu) files, for a test. */
#ifndef TMACG_MODEL_DIR_H
#define TMACG_MODEL_DIR_H

#include <stddef.h>

/*
 * mkdtemp(dir) ("/tmp/NAME-XXXXXX"), then files[i][1] written as dir/files[i][0].
 * 0, or -1 with nothing left behind.
 */
int model_dir_make(char *dir, const char *const (*files)[2], size_t n);
/* The files and dir removed. */
void model_dir_remove(const char *dir, const char *const (*files)[2], size_t n);

#endif
