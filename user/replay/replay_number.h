/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * Numbers of a replay line, read so that each is written back as it came or
 * refused: json-c clamps an integer past 64 bits and rounds one past 2^53
 * into a double, so the text and the type decide, not json-c's value alone.
 */
#ifndef TMACG_REPLAY_NUMBER_H
#define TMACG_REPLAY_NUMBER_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The first integer literal of the JSON text s (outside strings) that no
 * 64-bit integer holds (above 2^64-1, below -2^63): its start, *n its length;
 * NULL: none.  json-c would read it as the nearest 64-bit one.
 */
const char *replay_huge_integer(const char *s, size_t len, size_t *n);

/*
 * v as a double that writes back as the same number: false when v is not a
 * number, an integer a double does not hold exactly (past 2^53), or a
 * fraction out of a double's range (1e400, 1e-400).
 */
bool replay_exact_double(json_object *v, double *out);

/* v as an integer from lo to hi: false when not an integer or out of that range. */
bool replay_int_in(json_object *v, int64_t lo, uint64_t hi, uint64_t *out);

#endif /* TMACG_REPLAY_NUMBER_H */
