/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* --replay FILE...: every file opened before any is read, then read one after the other. */
#ifndef TMACG_REPLAY_INPUTS_H
#define TMACG_REPLAY_INPUTS_H

#include <stddef.h>
#include <stdio.h>

#include "replay/replay_read.h"

struct replay_source;

struct replay_inputs {
	int n;
	FILE **files;
	struct replay_reader *readers;
	char label[512]; /* "a.jsonl", or "a.jsonl and 2 more" */
};

/*
 * first, then the nmore paths of more ("-": stdin), opened: 0, or -1 with
 * the first that fails said in err (nothing left open).
 */
int replay_inputs_open(struct replay_inputs *in, const char *first, const char *const *more,
		       int nmore, char *err, size_t errlen);
/* src reading them in turn, bad lines named on err. */
void replay_inputs_source(struct replay_inputs *in, struct replay_source *src, FILE *err);
void replay_inputs_close(struct replay_inputs *in);

#endif /* TMACG_REPLAY_INPUTS_H */
