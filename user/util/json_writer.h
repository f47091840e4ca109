/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * A streaming JSON writer into one growing buffer: values are appended as they
 * come, commas and nesting tracked here, so a line costs no allocation (json-c
 * built and freed a tree of objects for every line: issue 21).  Strings go
 * through name_json_text (util/name_escape.h), so any byte string comes out as
 * strict UTF-8, then escaped as json-c escapes ('"', '\\', control characters;
 * '/' left as it is).  Numbers: util/shortest_double.h; NaN and infinities
 * are written as null.
 *
 * Errors stick: once out of memory (or nested past JSON_WRITER_MAX_DEPTH),
 * every call is a no-op and json_writer_failed says so.
 */
#ifndef TMACG_JSON_WRITER_H
#define TMACG_JSON_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define JSON_WRITER_MAX_DEPTH 32
/* Kept inside the writer: a line of tmacg's fits without touching the heap. */
#define JSON_WRITER_INLINE 16384

struct json_writer {
	char *buf;
	size_t len, cap;
	bool failed;
	bool after_key;	   /* the next value completes a "key": pair */
	int depth;	   /* open objects and arrays */
	uint32_t has_item; /* bit d: the container at depth d already holds an item */
	char inline_buf[JSON_WRITER_INLINE];
};

void json_writer_init(struct json_writer *w);
/* Frees what the writer allocated (nothing when the text fit inline). */
void json_writer_release(struct json_writer *w);
/* The text so far (not NUL-terminated) and its length. */
const char *json_writer_text(const struct json_writer *w, size_t *len);
bool json_writer_failed(const struct json_writer *w);

void jw_begin_object(struct json_writer *w);
void jw_end_object(struct json_writer *w);
void jw_begin_array(struct json_writer *w);
void jw_end_array(struct json_writer *w);
/* An object's key, escaped as a string; the next call writes its value. */
void jw_key(struct json_writer *w, const char *key);

/*
 * A key the program spells: a string literal of printable ASCII without '"'
 * or '\\' (tests/unit/test_output_json reads a line with every key back),
 * copied without the scan.  JW_KEY(w, "schema").
 */
void jw_key_plain(struct json_writer *w, const char *key, size_t len);
#define JW_KEY(w, literal) jw_key_plain(w, "" literal "", sizeof(literal) - 1)

/*
 * strlen(s) when s needs no escape (printable ASCII without '"' or '\\'), as
 * jw_key_plain() takes keys; else 0.  For names found once
 * and written on every line.
 */
size_t jw_plain_length(const char *s);
/* s NULL: null. */
void jw_string(struct json_writer *w, const char *s);
/*
 * A string known to need no escape, copied without the scan: printable ASCII
 * without '"' or '\\', as a model's node names are (model_load admits
 * [A-Za-z0-9_] only); jw_key_plain() writes such a key.
 */
void jw_string_plain(struct json_writer *w, const char *s, size_t len);
/* Not finite: null. */
void jw_double(struct json_writer *w, double d);
/*
 * A run of members the caller writes straight into the line, for an object
 * of many alike ("counts", "metrics", quality.measured: a level-6 line's 315
 * members).  Through jw_member_*, each member was a call, the separator's
 * bookkeeping, a room check and two copy calls: a fifth of the line's
 * instructions (callgrind on outpath, issue 27).  Inside an open object
 * (or an array, whose items are written as jw_run_quoted_key's keys are:
 * a comma before all but the first):
 *
 *   jw_run_begin(w, &run);
 *   for (...) {
 *           if (!jw_run_room(&run, 1 + JW_QUOTED_COPY + keylen + most))
 *                   break;                        (out of memory: w failed)
 *           o = jw_run_quoted_key(&run, key, keylen);  (its comma, "key":)
 *           o += text(value, o);                  (at most `most` bytes)
 *           run.at = o;
 *   }
 *   jw_run_end(&run);
 */
struct jw_run {
	struct json_writer *w;
	char *at;   /* where the next member goes */
	char *end;  /* the end of the room */
	bool comma; /* the object holds a member: the next one needs a comma */
};

void jw_run_begin(struct json_writer *w, struct jw_run *run);
/* jw_run_room()'s slow path. */
bool jw_run_grow(struct jw_run *run, size_t n);
void jw_run_end(struct jw_run *run);

/* Room for the next member, n bytes at most (its comma and key included); false: out of memory. */
static inline bool jw_run_room(struct jw_run *run, size_t n)
{
	return (size_t)(run->end - run->at) >= n || jw_run_grow(run, n);
}

/*
 * The bytes jw_run_quoted_key() copies of a key no longer than this: the
 * table it reads from has them after every key (model_json_keys), and the
 * room asked for the member counts them.
 */
#define JW_QUOTED_COPY 64

/*
 * Writes [,] and a key already quoted with its colon ("key":, len bytes) at
 * run->at, in one copy of JW_QUOTED_COPY bytes where it fits: no branch on
 * the key's length.  Returns where the value goes.
 */
static inline char *jw_run_quoted_key(struct jw_run *run, const char *quoted, size_t len)
{
	char *o = run->at;

	*o = ',';
	o += run->comma;
	run->comma = true;
	if (len <= JW_QUOTED_COPY)
		memcpy(o, quoted, JW_QUOTED_COPY);
	else
		memcpy(o, quoted, len);
	return o + len;
}

void jw_uint(struct json_writer *w, uint64_t v);
void jw_int(struct json_writer *w, int64_t v);
void jw_bool(struct json_writer *w, bool v);
void jw_null(struct json_writer *w);
/* Bytes outside any value (the newline ending a JSON line). */
void jw_raw(struct json_writer *w, const char *text, size_t len);

#endif
