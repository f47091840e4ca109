// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "util/json_writer.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/int_text.h"
#include "util/name_escape.h"
#include "util/double_text.h"

void json_writer_init(struct json_writer *w)
{
	w->buf = w->inline_buf;
	w->len = 0;
	w->cap = sizeof(w->inline_buf);
	w->failed = false;
	w->after_key = false;
	w->depth = 0;
	w->has_item = 0;
}

void json_writer_release(struct json_writer *w)
{
	if (w->buf != w->inline_buf)
		free(w->buf);
	json_writer_init(w);
}

void json_writer_empty(struct json_writer *w)
{
	char *buf = w->buf;
	size_t cap = w->cap;

	json_writer_init(w);
	w->buf = buf;
	w->cap = cap;
}

size_t json_writer_length(const struct json_writer *w)
{
	return w->len;
}

const char *json_writer_text(const struct json_writer *w, size_t *len)
{
	*len = w->len;
	return w->buf;
}

bool json_writer_failed(const struct json_writer *w)
{
	return w->failed;
}

/* reserve's slow path: a bigger buffer, or failed from then on. */
static bool grow(struct json_writer *w, size_t more)
{
	size_t cap = w->cap;
	char *grown;

	if (w->failed)
		return false;
	while (cap < w->len + more)
		cap *= 2;
	grown = w->buf == w->inline_buf ? malloc(cap) : realloc(w->buf, cap);
	if (!grown) {
		w->failed = true;
		return false;
	}
	if (w->buf == w->inline_buf)
		memcpy(grown, w->buf, w->len);
	w->buf = grown;
	w->cap = cap;
	return true;
}

/* Room for more bytes at the end; false (and failed from then on) when there is none. */
static inline bool reserve(struct json_writer *w, size_t more)
{
	if (w->len + more <= w->cap && !w->failed)
		return true;
	return grow(w, more);
}

static void put(struct json_writer *w, const char *s, size_t n)
{
	if (!reserve(w, n))
		return;
	memcpy(w->buf + w->len, s, n);
	w->len += n;
}

/* One byte: no memcpy call for the commas and brackets between every value. */
static inline void put_byte(struct json_writer *w, char c)
{
	if (reserve(w, 1))
		w->buf[w->len++] = c;
}

/*
 * Before an item: the comma that separates it from the previous one where
 * one is due, in the room taken for it and room more bytes; where the item
 * goes (w->len not yet moved past the comma), NULL when there is no room.
 */
static inline char *begin_item(struct json_writer *w, size_t room)
{
	bool comma = false;
	char *o;

	if (w->after_key) {
		w->after_key = false;
	} else if (w->depth) {
		uint32_t bit = UINT32_C(1) << (w->depth - 1);

		comma = w->has_item & bit;
		w->has_item |= bit;
	}
	if (!reserve(w, room + 1))
		return NULL;
	o = w->buf + w->len;
	*o = ',';
	return o + comma;
}

/* The item's text ends at end: w->len past it. */
static inline void end_item(struct json_writer *w, const char *end)
{
	w->len = (size_t)(end - w->buf);
}

/* Before an item written by calls that take their own room: its comma. */
static inline void separate(struct json_writer *w)
{
	char *o = begin_item(w, 0);

	if (o)
		end_item(w, o);
}

static void open_container(struct json_writer *w, char c)
{
	char *o = begin_item(w, 1);

	if (!o)
		return;
	if (w->depth == JSON_WRITER_MAX_DEPTH) {
		w->failed = true;
		return;
	}
	*o = c;
	end_item(w, o + 1);
	w->depth++;
	w->has_item &= ~(UINT32_C(1) << (w->depth - 1));
}

static void close_container(struct json_writer *w, char c)
{
	if (!w->depth) {
		w->failed = true;
		return;
	}
	w->depth--;
	put_byte(w, c);
}

void jw_begin_object(struct json_writer *w)
{
	open_container(w, '{');
}

void jw_end_object(struct json_writer *w)
{
	close_container(w, '}');
}

void jw_begin_array(struct json_writer *w)
{
	open_container(w, '[');
}

void jw_end_array(struct json_writer *w)
{
	close_container(w, ']');
}

/* Bytes a JSON string holds as they are: printable ASCII but '"' and '\\'. */
static const bool plain_byte[256] = {
	[0x20 ... 0x21] = true, /* '"' is 0x22 */
	[0x23 ... 0x5b] = true, /* '\\' is 0x5c */
	[0x5d ... 0x7f] = true,
};

static bool plain(unsigned char c)
{
	return plain_byte[c];
}

/* text (valid UTF-8) as a JSON string, escaping what JSON requires. */
static void put_escaped(struct json_writer *w, const char *text)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *u = (const unsigned char *)text;
	size_t n = strlen(text);

	/* Each byte at most 6 (\u00XX), and the quotes. */
	if (!reserve(w, 6 * n + 2))
		return;
	w->buf[w->len++] = '"';
	for (size_t i = 0; i < n; i++) {
		unsigned char c = u[i];
		char *o = w->buf + w->len;

		if (plain(c) || c >= 0x80) {
			*o = (char)c;
			w->len++;
			continue;
		}
		o[0] = '\\';
		switch (c) {
		case '"':
		case '\\':
			o[1] = (char)c;
			break;
		case '\b':
			o[1] = 'b';
			break;
		case '\f':
			o[1] = 'f';
			break;
		case '\n':
			o[1] = 'n';
			break;
		case '\r':
			o[1] = 'r';
			break;
		case '\t':
			o[1] = 't';
			break;
		default:
			memcpy(o + 1, "u00", 3);
			o[4] = hex[c >> 4];
			o[5] = hex[c & 15];
			w->len += 4;
			break;
		}
		w->len += 2;
	}
	w->buf[w->len++] = '"';
}

#define BYTES(c) (UINT64_C(0x0101010101010101) * (c))

/*
 * Whether the n bytes at s are all plain (plain_byte), eight at a time: no
 * byte below 0x20 or from 0x80, none '"' or '\\' (the classic tests for a
 * zero byte and a byte below a bound, each exact about whether one exists).
 * A node's or count's name is some twenty bytes: three words, not twenty
 * table lookups (a level-6 line writes three times the names).
 */
static bool all_plain(const char *s, size_t n)
{
	size_t i = 0;

	for (; i + 8 <= n; i += 8) {
		uint64_t x, quote, backslash;

		memcpy(&x, s + i, sizeof(x));
		quote = x ^ BYTES('"');
		backslash = x ^ BYTES('\\');
		if ((((x - BYTES(0x20)) & ~x) | ((quote - BYTES(1)) & ~quote) |
		     ((backslash - BYTES(1)) & ~backslash) | x) &
		    BYTES(0x80))
			return false;
	}
	for (; i < n; i++)
		if (!plain((unsigned char)s[i]))
			return false;
	return true;
}

/* The string without separate(): keys and values share it. */
static void put_string(struct json_writer *w, const char *s)
{
	const char *text;
	size_t n = strlen(s);

	/* Nearly every name is plain ASCII: copied in one go. */
	if (all_plain(s, n)) {
		if (reserve(w, n + 2)) {
			w->buf[w->len++] = '"';
			memcpy(w->buf + w->len, s, n);
			w->len += n;
			w->buf[w->len++] = '"';
		}
		return;
	}
	text = name_json_text(s);
	if (!text) {
		put(w, "null", 4); /* out of memory: as json-c did, "could not be given" */
		return;
	}
	put_escaped(w, text);
	if (text != s)
		free((char *)text);
}

size_t jw_plain_length(const char *s)
{
	size_t n = s ? strlen(s) : 0;

	return all_plain(s, n) ? n : 0;
}

/*
 * "s" (len bytes needing no escape) as an item, and its colon where colon:
 * the room taken once, the bytes stored through a local pointer (a store
 * through w->buf would make the compiler load w->len again after each).
 */
static inline void put_plain(struct json_writer *w, const char *s, size_t len, bool colon)
{
	char *o = begin_item(w, len + 3);

	if (!o)
		return;
	o[0] = '"';
	memcpy(o + 1, s, len);
	o[len + 1] = '"';
	o[len + 2] = ':'; /* inside the room taken; counted only for a key */
	end_item(w, o + len + 2 + colon);
}

void jw_key_plain(struct json_writer *w, const char *key, size_t len)
{
	put_plain(w, key, len, true);
	w->after_key = true;
}

void jw_key(struct json_writer *w, const char *key)
{
	separate(w);
	put_string(w, key ? key : "");
	put_byte(w, ':');
	w->after_key = true;
}

void jw_string(struct json_writer *w, const char *s)
{
	separate(w);
	if (s)
		put_string(w, s);
	else
		put(w, "null", 4);
}

void jw_string_plain(struct json_writer *w, const char *s, size_t len)
{
	put_plain(w, s, len, false);
}

/* d's text at o (room for DOUBLE_TEXT_MAX bytes), or null; its length. */
static inline __attribute__((always_inline)) size_t number_text(double d, enum jw_form form,
								char *o)
{
	if (!isfinite(d)) {
		memcpy(o, "null", 4);
		return 4;
	}
	switch (form) {
	case JW_RATIO:
		return ratio_text(d, o);
	case JW_SHARE:
		return share_text(d, o);
	default:
		return shortest_double(d, o);
	}
}

void jw_number(struct json_writer *w, double d, enum jw_form form)
{
	char *o = begin_item(w, DOUBLE_TEXT_MAX);

	if (o)
		end_item(w, o + number_text(d, form, o));
}

void jw_double(struct json_writer *w, double d)
{
	jw_number(w, d, JW_EXACT);
}

/*
 * A key's text is copied in blocks of KEY_BLOCK bytes (two vector moves
 * each, not a call to memcpy): the table holds KEY_BLOCK bytes after its
 * last text, so a block never reads past the table, and the last block's
 * bytes past the key land where the member's number goes, in its room.
 */
#define KEY_BLOCK 32
_Static_assert(DOUBLE_TEXT_MAX >= KEY_BLOCK, "a key's last block spills into the number's room");

struct jw_keys {
	int n;
	size_t *at, *len; /* key i: len[i] bytes from text + at[i] */
	/* room[j]: the most members 0..j-1 take, each a comma, its key (a block at least), a number */
	size_t *room;
	char *text; /* the keys one after another, KEY_BLOCK zeros after the last */
};

void jw_keys_free(struct jw_keys *k)
{
	if (!k)
		return;
	free(k->at);
	free(k->len);
	free(k->room);
	free(k->text);
	free(k);
}

struct jw_keys *jw_keys_new(int n, const char *const *names)
{
	struct jw_keys *k = calloc(1, sizeof(*k));
	struct json_writer w;

	if (!k)
		return NULL;
	k->n = n;
	k->at = calloc((size_t)n + 1, sizeof(*k->at));
	k->len = calloc((size_t)n + 1, sizeof(*k->len));
	k->room = calloc((size_t)n + 1, sizeof(*k->room));
	json_writer_init(&w);
	for (int i = 0; i < n && k->at && k->len && k->room; i++) {
		k->at[i] = w.len;
		put_string(&w, names[i] ? names[i] : "");
		put_byte(&w, ':');
		k->len[i] = w.len - k->at[i];
		k->room[i + 1] = k->room[i] + 1 + (k->len[i] > KEY_BLOCK ? k->len[i] : KEY_BLOCK) +
				 DOUBLE_TEXT_MAX;
	}
	if (k->at && k->len && k->room && !w.failed)
		k->text = malloc(w.len + KEY_BLOCK);
	if (!k->text) {
		json_writer_release(&w);
		jw_keys_free(k);
		return NULL;
	}
	memcpy(k->text, w.buf, w.len);
	memset(k->text + w.len, 0, KEY_BLOCK);
	json_writer_release(&w);
	return k;
}

/* Shares whose text one jw_number_members call remembers: slots of a table by the value's bits. */
#define SHARE_SLOTS 32

struct share_seen {
	uint64_t bits;
	size_t at, len; /* len 0: an empty slot */
};

/* The slot of a share's bits: their top five after a multiplicative hash. */
static inline struct share_seen *share_slot(struct share_seen *seen, uint64_t bits)
{
	return &seen[(bits * UINT64_C(0x9e3779b97f4a7c15)) >> 59];
}

/*
 * A share's text, len bytes written earlier in the buffer at from, again at
 * o (room for DOUBLE_TEXT_MAX): one block of SHARE_BLOCK where it is no
 * longer, read whole before it is written (the two may overlap where the
 * key between them is short), not a call to memcpy.
 */
#define SHARE_BLOCK 16

static inline void copy_earlier(char *o, const char *from, size_t len)
{
	char block[SHARE_BLOCK];

	if (len > SHARE_BLOCK) {
		memmove(o, from, len);
		return;
	}
	memcpy(block, from, SHARE_BLOCK);
	memcpy(o, block, SHARE_BLOCK);
}

/*
 * jw_number_members' loop, inlined where form and forms are constants (one
 * copy for each way a printer calls it: no choice of form per member), and
 * once more for every other call.
 * The room for all n members is there already.  comma_out: whether the
 * object has a member before, then after them.
 */
static inline __attribute__((always_inline)) char *
number_members(struct json_writer *w, const struct jw_keys *keys, int n, const double *values,
	       const int *index, enum jw_form form, const unsigned char *forms, bool skip_nan,
	       char *o, bool *comma_out)
{
	bool comma = *comma_out;
	/*
	 * The shares of a line repeat (quality.measured: one per set of perf
	 * groups, some 19 for a level-6 line's 88 nodes): each one's text is
	 * made once and copied from where it was written, earlier in the text;
	 * two shares in one slot: the later one's is remembered.
	 */
	struct share_seen seen[SHARE_SLOTS];

	if (form == JW_SHARE)
		memset(seen, 0, sizeof(seen));
	for (int j = 0; j < n; j++) {
		double v = values[index ? index[j] : j];
		const char *key = keys->text + keys->at[j];
		size_t len = keys->len[j];
		struct share_seen *slot;
		uint64_t bits;

		if (skip_nan && isnan(v))
			continue;
		*o = ',';
		o += comma;
		comma = true;
		memcpy(o, key, KEY_BLOCK);
		/* a long key's other blocks, the last one's bytes past it within the number's room */
		for (size_t at = KEY_BLOCK; at < len; at += KEY_BLOCK)
			memcpy(o + at, key + at, KEY_BLOCK);
		o += len;
		if (form != JW_SHARE) {
			o += number_text(v, forms ? (enum jw_form)forms[j] : form, o);
			continue;
		}
		memcpy(&bits, &v, sizeof(bits));
		slot = share_slot(seen, bits);
		if (slot->len && slot->bits == bits) {
			copy_earlier(o, w->buf + slot->at, slot->len);
		} else {
			slot->bits = bits;
			slot->at = (size_t)(o - w->buf);
			slot->len = number_text(v, form, o);
		}
		o += slot->len;
	}
	*comma_out = comma;
	return o;
}

void jw_number_members(struct json_writer *w, const struct jw_keys *keys, int n,
		       const double *values, const int *index, enum jw_form form,
		       const unsigned char *forms, bool skip_nan)
{
	bool comma;
	char *o;

	if (!n || w->failed)
		return;
	if (w->after_key || !w->depth || n > keys->n) {
		w->failed = true;
		return;
	}
	/* room for every member at once: each one's most, summed when the keys were made */
	if (w->cap - w->len < keys->room[n] && !grow(w, keys->room[n]))
		return;
	o = w->buf + w->len;
	comma = (w->has_item >> (w->depth - 1)) & 1;
	/* the printers' three calls, each its own copy of the loop; any other, one generic copy */
	if (forms && !index) /* a line's counts */
		o = number_members(w, keys, n, values, NULL, JW_EXACT, forms, skip_nan, o, &comma);
	else if (!forms && form == JW_RATIO) /* its metrics */
		o = number_members(w, keys, n, values, index, JW_RATIO, NULL, skip_nan, o, &comma);
	else if (!forms && form == JW_SHARE) /* quality.measured */
		o = number_members(w, keys, n, values, index, JW_SHARE, NULL, skip_nan, o, &comma);
	else /* forms, when given, decide: no member is then a remembered share */
		o = number_members(w, keys, n, values, index, forms ? JW_EXACT : form, forms,
				   skip_nan, o, &comma);
	w->has_item |= (uint32_t)comma << (w->depth - 1);
	w->len = (size_t)(o - w->buf);
}

void jw_uint(struct json_writer *w, uint64_t v)
{
	char *o = begin_item(w, INT_TEXT_MAX);

	if (o)
		end_item(w, o + uint_text(v, o));
}

void jw_int(struct json_writer *w, int64_t v)
{
	char *o = begin_item(w, INT_TEXT_MAX);

	if (o)
		end_item(w, o + int_text(v, o));
}

/* A literal of at most 5 bytes ("false") as an item. */
static inline void put_word(struct json_writer *w, const char *word, size_t len)
{
	char *o = begin_item(w, 5);

	if (!o)
		return;
	memcpy(o, word, 5);
	end_item(w, o + len);
}

void jw_bool(struct json_writer *w, bool v)
{
	if (v)
		put_word(w, "true", 4);
	else
		put_word(w, "false", 5);
}

void jw_null(struct json_writer *w)
{
	put_word(w, "null", 4);
}

void jw_raw(struct json_writer *w, const char *text, size_t len)
{
	put(w, text, len);
}

void jw_members_text(struct json_writer *w, const char *text, size_t len)
{
	if (!len || w->failed)
		return;
	if (w->after_key || !w->depth) { /* members belong in an object, not after a key */
		w->failed = true;
		return;
	}
	separate(w);
	put(w, text, len);
}
