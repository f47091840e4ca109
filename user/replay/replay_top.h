/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* tmacg --replay FILE --format top: recorded counts as the live view's frames. */
#ifndef TMACG_REPLAY_TOP_H
#define TMACG_REPLAY_TOP_H

#include <stdbool.h>
#include <stdio.h>

struct tma_model;
struct replay_data;

/*
 * One frame per recorded interval: a frame ends where the first cgroup of it
 * comes again.  Frames follow each other as in a pipe (no cursor escapes: a
 * replay has no time to wait for), fitted to the terminal's width.  Returns
 * the process exit code: 0, or 1 with the reason on err.
 */
int replay_top(const char *path, const struct tma_model *m, int level, bool color, FILE *out,
	       FILE *err);

/* The same on records already read, at a given screen width. */
int replay_top_data(const struct replay_data *d, const struct tma_model *m, int level, bool color,
		    int width, FILE *out, FILE *err);

#endif /* TMACG_REPLAY_TOP_H */
