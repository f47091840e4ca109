/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Replay input from a string, for the replay tests. */
#ifndef TMACG_REPLAY_TEXT_H
#define TMACG_REPLAY_TEXT_H

#include <stddef.h>

struct replay_data;

/* replay_read_stream() on text, named "in.jsonl" in messages. */
int replay_read_text(const char *text, struct replay_data *d, char *err, size_t errlen);

/* text written to a new temporary file: its path (a static buffer, the next call's), NULL: failed. */
const char *replay_temp_file(const char *text);

#endif
