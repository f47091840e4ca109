/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* tmacg --replay FILE: the model on recorded counts, printed like live output. */
#ifndef TMACG_REPLAY_RUN_H
#define TMACG_REPLAY_RUN_H

#include <stdbool.h>
#include <stdio.h>

struct tma_model;
struct replay_data;
struct replay_record;
struct model_result;

/*
 * Evaluates one record: its counters into events[model_event_count(m) + 1]
 * (absent ones 0), then the model to level.  0 or -errno from the model.
 */
int replay_eval(const struct replay_record *rec, const struct tma_model *m, double *events,
		struct model_result *res, int level, bool info);

/*
 * Reads and checks all of path ("-": stdin) first, then prints one JSON line
 * (json) or one tree block per record.  Returns the process exit code: 0, or
 * 1 with the reason on err (bad input, or output that could not be written).
 */
int replay_run(const char *path, const struct tma_model *m, int level, bool json, bool color,
	       bool info, FILE *out, FILE *err);

/* The printing half, on records already read. */
int replay_run_data(const struct replay_data *d, const struct tma_model *m, int level, bool json,
		    bool color, bool info, FILE *out, FILE *err);

#endif /* TMACG_REPLAY_RUN_H */
