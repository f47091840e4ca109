/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * A streaming JSON writer into one growing buffer: values are appended as they
 * come, commas and nesting tracked here, so a line costs no allocation (json-c
 * built and freed a tree of objects for every line).  Strings go
 * through name_json_text (util/name_escape.h), so any byte string comes out as
 * strict UTF-8, then escaped as json-c escapes ('"', '\\', control characters;
 * '/' left as it is).  Numbers: util/double_text.h; NaN and infinities
 * are written as null.  Every call checks the room it writes in itself.
 *
 * Errors stick: once out of memory (or nested past JSON_WRITER_MAX_DEPTH),
 * every call is a no-op and json_writer_failed says so.
 */
#ifndef TMACG_JSON_WRITER_H
#define TMACG_JSON_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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
size_t json_writer_length(const struct json_writer *w);
/* Empties w for new text, keeping the buffer it grew (and failing no more). */
void json_writer_empty(struct json_writer *w);
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
/* How a number is written (util/double_text.h). */
enum jw_form {
	JW_EXACT, /* shortest_double: what a line measures */
	JW_RATIO, /* ratio_text: the metrics */
	JW_SHARE, /* share_text: quality.measured */
};

/* Not finite: null.  jw_double is JW_EXACT. */
void jw_double(struct json_writer *w, double d);
void jw_number(struct json_writer *w, double d, enum jw_form form);
/*
 * The keys of an object of many alike (counts, metrics, quality.measured),
 * each made once into its text, "name": with the name escaped as jw_key
 * escapes it: a printer makes them from the model once, every line writes
 * them.  names[i] NULL: "".  NULL: out of memory.
 */
struct jw_keys;
struct jw_keys *jw_keys_new(int n, const char *const *names);
void jw_keys_free(struct jw_keys *k);

/*
 * The first n members of such an object (a level-6 line's 315) in one
 * call: member j is key j of keys (n 0: keys may be NULL), its value
 * values[index[j]] (values[j] where index is NULL) in form, or in
 * forms[j] where forms is not NULL; a NaN value with skip_nan leaves the
 * member out.  The room for all n is made once, from the most each key's
 * member takes (counted when the keys were made): no check and no call a
 * member but the number's.
 */
void jw_number_members(struct json_writer *w, const struct jw_keys *keys, int n,
		       const double *values, const int *index, enum jw_form form,
		       const unsigned char *forms, bool skip_nan);

void jw_uint(struct json_writer *w, uint64_t v);
void jw_int(struct json_writer *w, int64_t v);
void jw_bool(struct json_writer *w, bool v);
void jw_null(struct json_writer *w);
/* Bytes outside any value (the newline ending a JSON line). */
void jw_raw(struct json_writer *w, const char *text, size_t len);
/*
 * Members another writer made (the text after an object's '{': "k":v,...),
 * appended to the object open in w as if written here one by one.
 */
void jw_members_text(struct json_writer *w, const char *text, size_t len);

#endif
