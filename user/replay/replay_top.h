/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* tmacg --replay FILE --format top: recorded counts as the live view's frames. */
#ifndef TMACG_REPLAY_TOP_H
#define TMACG_REPLAY_TOP_H

#include <stdbool.h>
#include <stdio.h>

struct tma_model;
struct replay_source;

/*
 * One frame per recorded interval: a frame ends where the first cgroup of it
 * comes again, and is drawn then (a live pipe's interval as the next one
 * begins to arrive).  Frames follow each other as in a pipe (no cursor
 * escapes), fitted to width.  Returns 0, or 1 with the reason on err; the
 * input's own end is the caller's (replay_source_end).
 */
int replay_top_from(struct replay_source *src, const struct tma_model *m, int level, bool color,
		    int width, FILE *out, FILE *err);

#endif /* TMACG_REPLAY_TOP_H */
