// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The streaming JSON writer: commas and nesting, every value kind, strings of
 * any bytes (read back by json-c and the independent UTF-8 check of
 * tests/lib/utf8_check.c), growth past the inline buffer, and misuse flagged.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <json-c/json.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/double_text.h"
#include "util/json_writer.h"
#include "utf8_check.h"

/* The writer's text as a NUL-terminated copy (malloc'd). */
static char *text_of(struct json_writer *w)
{
	size_t len;
	const char *t = json_writer_text(w, &len);
	char *copy = malloc(len + 1);

	assert_non_null(copy);
	memcpy(copy, t, len);
	copy[len] = '\0';
	return copy;
}

static void commas_and_nesting(void **state)
{
	struct json_writer w;
	char *t;

	(void)state;
	json_writer_init(&w);
	jw_begin_object(&w);
	jw_key(&w, "a");
	jw_begin_array(&w);
	jw_uint(&w, 1);
	jw_int(&w, -2);
	jw_begin_object(&w);
	jw_key(&w, "b");
	jw_null(&w);
	jw_end_object(&w);
	jw_begin_array(&w);
	jw_end_array(&w);
	jw_end_array(&w);
	jw_key(&w, "c");
	jw_begin_object(&w);
	jw_end_object(&w);
	jw_key(&w, "d");
	jw_bool(&w, true);
	jw_key(&w, "e");
	jw_bool(&w, false);
	jw_key(&w, "f");
	jw_string(&w, NULL);
	jw_key(&w, "g");
	jw_double(&w, 0.5);
	jw_end_object(&w);
	assert_false(json_writer_failed(&w));
	t = text_of(&w);
	assert_string_equal(t, "{\"a\":[1,-2,{\"b\":null},[]],\"c\":{},\"d\":true,\"e\":false,"
			       "\"f\":null,\"g\":0.5}");
	free(t);
	json_writer_release(&w);
}

static void integer_extremes(void **state)
{
	struct json_writer w;
	char *t;

	(void)state;
	json_writer_init(&w);
	jw_begin_array(&w);
	jw_uint(&w, UINT64_MAX);
	jw_int(&w, INT64_MIN);
	jw_int(&w, INT64_MAX);
	jw_uint(&w, 0);
	jw_int(&w, 0);
	jw_end_array(&w);
	t = text_of(&w);
	assert_string_equal(t,
			    "[18446744073709551615,-9223372036854775808,9223372036854775807,0,0]");
	free(t);
	json_writer_release(&w);
}

/* NaN and infinities have no JSON spelling: null, as tmacg's lines always wrote them. */
static void non_finite_is_null(void **state)
{
	struct json_writer w;
	char *t;

	(void)state;
	json_writer_init(&w);
	jw_begin_array(&w);
	jw_double(&w, NAN);
	jw_double(&w, INFINITY);
	jw_double(&w, -INFINITY);
	jw_double(&w, -0.0);
	jw_double(&w, 1e-9);
	jw_end_array(&w);
	t = text_of(&w);
	assert_string_equal(t, "[null,null,null,-0,1e-09]");
	free(t);
	json_writer_release(&w);
}

/*
 * Each kind of byte at each place of a 17-byte name (the plain scan takes
 * eight at a time, then the rest one by one): escaped as JSON wants wherever
 * it falls, and a plain name copied as it is.
 */
static void every_byte_at_every_place(void **state)
{
	static const struct {
		char c;
		const char *as;
	} kinds[] = { { 0x01, "\\u0001" }, { 0x1f, "\\u001f" }, { '\n', "\\n" },
		      { '"', "\\\"" },	   { '\\', "\\\\" },	{ ' ', " " },
		      { 0x7f, "\x7f" },	   { '~', "~" },	{ '!', "!" } };

	(void)state;
	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++)
		for (int at = 0; at < 17; at++) {
			struct json_writer w;
			char name[18], want[64];
			char *t;

			memset(name, 'a', 17);
			name[17] = '\0';
			name[at] = kinds[k].c;
			snprintf(want, sizeof(want), "\"%.*s%s%s\"", at, name, kinds[k].as,
				 name + at + 1);
			json_writer_init(&w);
			jw_string(&w, name);
			t = text_of(&w);
			if (strcmp(t, want))
				fail_msg("byte 0x%02x at %d: %s, want %s",
					 (unsigned char)kinds[k].c, at, t, want);
			free(t);
			json_writer_release(&w);
		}
}

/* Fractional values written again read as the first time, and others as ever. */
static void repeated_values_same_text(void **state)
{
	struct json_writer w;
	char *once, *twice, want[4096];

	(void)state;
	json_writer_init(&w);
	jw_begin_array(&w);
	for (int i = 1; i <= 40; i++)
		jw_double(&w, 1.0 / i);
	jw_end_array(&w);
	once = text_of(&w);
	json_writer_release(&w);
	json_writer_init(&w);
	jw_begin_array(&w);
	for (int r = 0; r < 2; r++)
		for (int i = 1; i <= 40; i++)
			jw_double(&w, 1.0 / i);
	jw_double(&w, -0.5);
	jw_double(&w, 0.5);
	jw_double(&w, 3);
	jw_end_array(&w);
	twice = text_of(&w);
	once[strlen(once) - 1] = '\0';
	snprintf(want, sizeof(want), "%s,%s,-0.5,0.5,3]", once, once + 1);
	assert_string_equal(twice, want);
	assert_non_null(strstr(twice, ",0.3333333333333333,"));
	free(once);
	free(twice);
	json_writer_release(&w);
}

/*
 * quality.measured's shares repeat within a call, and a call remembers
 * each one's text in a slot of a small table: 300 members of 90 values
 * (more than the slots, so values share slots), -0 and 0 among them,
 * each written as share_text writes it alone.
 */
static void repeated_shares_in_one_call(void **state)
{
	enum { MEMBERS = 300, VALUES = 90 };
	static char names[MEMBERS][8];
	const char *names_of[MEMBERS];
	struct jw_keys *keys;
	double values[MEMBERS];
	struct json_writer w;
	char want[MEMBERS * (8 + 4 + DOUBLE_TEXT_MAX) + 3], *o = want;
	const char *t;
	size_t len;

	(void)state;
	*o++ = '{';
	for (int j = 0; j < MEMBERS; j++) {
		int v = (j * 37) % VALUES;

		snprintf(names[j], sizeof(names[j]), "n%d", j);
		names_of[j] = names[j];
		values[j] = v == 0 ? -0.0 : v == 1 ? 0.0 : 1.0 / (v + 1) + v * 1e-7;
		o += sprintf(o, "%s\"%s\":", j ? "," : "", names[j]);
		o += share_text(values[j], o);
	}
	strcpy(o, "}");
	keys = jw_keys_new(MEMBERS, names_of);
	assert_non_null(keys);
	json_writer_init(&w);
	jw_begin_object(&w);
	jw_number_members(&w, keys, MEMBERS, values, NULL, JW_SHARE, NULL, false);
	jw_end_object(&w);
	jw_keys_free(keys);
	t = json_writer_text(&w, &len);
	assert_false(json_writer_failed(&w));
	assert_int_equal(len, strlen(want));
	assert_memory_equal(t, want, len);
	json_writer_release(&w);
}

/* Every byte 1..255 in a key and a value: strict UTF-8 JSON, read back as the same bytes. */
static void hostile_strings_read_back(void **state)
{
	static const char *const extra[] = { "\"",
					     "\\",
					     "a\"b\\c",
					     "\xef\xbe\x80",
					     "\xc0\xaf",
					     "\xed\xa0\x80",
					     "\xf4\x90\x80\x80",
					     "/end\\",
					     "\x7f",
					     "tab\there\nnew" };
	char all[256];

	(void)state;
	for (int i = 1; i < 256; i++)
		all[i - 1] = (char)i;
	all[255] = '\0';
	for (size_t i = 0; i <= sizeof(extra) / sizeof(extra[0]); i++) {
		const char *name = i < sizeof(extra) / sizeof(extra[0]) ? extra[i] : all;
		struct json_writer w;
		json_object *o, *v;
		char *t, *bytes;

		json_writer_init(&w);
		jw_begin_object(&w);
		jw_key(&w, name);
		jw_string(&w, name);
		jw_end_object(&w);
		t = text_of(&w);
		assert_true(utf8_check_strict((const unsigned char *)t, strlen(t)));
		for (const char *p = t; *p; p++)
			assert_true((unsigned char)*p >= 0x20); /* control characters escaped */
		o = json_tokener_parse(t);
		if (!o)
			fail_msg("not JSON: %s", t);
		json_object_object_foreach(o, key, val) {
			bytes = malloc(strlen(key) + 1);
			assert_non_null(bytes);
			utf8_check_name_bytes(key, bytes);
			assert_string_equal(bytes, name);
			free(bytes);
			v = val;
			bytes = malloc(strlen(json_object_get_string(v)) + 1);
			assert_non_null(bytes);
			utf8_check_name_bytes(json_object_get_string(v), bytes);
			assert_string_equal(bytes, name);
			free(bytes);
		}
		json_object_put(o);
		free(t);
		json_writer_release(&w);
	}
}

/* Past the inline buffer the text moves to the heap, whole. */
static void grows_past_inline_buffer(void **state)
{
	size_t n = 3 * JSON_WRITER_INLINE;
	char *big = malloc(n + 1);
	struct json_writer w;
	json_object *o;
	char *t;

	(void)state;
	assert_non_null(big);
	for (size_t i = 0; i < n; i++)
		big[i] = (char)('a' + i % 26);
	big[n] = '\0';
	json_writer_init(&w);
	jw_begin_array(&w);
	for (int i = 0; i < 3000; i++)
		jw_double(&w, i / 7.0);
	jw_string(&w, big);
	jw_end_array(&w);
	assert_false(json_writer_failed(&w));
	t = text_of(&w);
	o = json_tokener_parse(t);
	assert_non_null(o);
	assert_int_equal(json_object_array_length(o), 3001);
	for (int i = 0; i < 3000; i++)
		assert_true(json_object_get_double(json_object_array_get_idx(o, i)) == i / 7.0);
	assert_string_equal(json_object_get_string(json_object_array_get_idx(o, 3000)), big);
	json_object_put(o);
	free(t);
	free(big);
	json_writer_release(&w);
}

/* One member "key":d (key of len bytes), as jw_number_members writes each of an object's many. */
static void number_member(struct json_writer *w, const char *key, size_t len, double d,
			  enum jw_form form)
{
	char *name = strndup(key, len);
	const char *names[] = { name };
	struct jw_keys *keys;

	assert_non_null(name);
	keys = jw_keys_new(1, names);
	assert_non_null(keys);
	jw_number_members(w, keys, 1, &d, NULL, form, NULL, false);
	jw_keys_free(keys);
	free(name);
}

/* Members "k<i>":<i> for i in [from, to), each key's number padded to pad digits. */
static void number_members(struct json_writer *w, int from, int to, int pad)
{
	for (int i = from; i < to; i++) {
		char key[256];
		int len = snprintf(key, sizeof(key), "k%0*d", pad, i);

		number_member(w, key, (size_t)len, i, JW_EXACT);
	}
}

/*
 * Members written a call each take their commas as the writer's other
 * calls do: in an empty object, after and before the writer's members,
 * none, and many that outgrow the inline buffer, into the heap.
 */
static void number_members_mix_with_members(void **state)
{
	struct json_writer w;
	json_object *o, *v;
	char *t;

	(void)state;
	json_writer_init(&w);
	jw_begin_object(&w);
	JW_KEY(&w, "inner");
	jw_begin_object(&w);
	number_members(&w, 0, 0, 1); /* none: the object stays {} */
	jw_end_object(&w);
	number_members(&w, 0, 3, 1);
	JW_KEY(&w, "own");
	jw_uint(&w, 7);
	number_members(&w, 3, 3, 1);
	number_members(&w, 3, 2003, 40);     /* some 90 KB: grows on the way */
	number_members(&w, 2003, 2005, 100); /* long keys */
	JW_KEY(&w, "last");
	jw_bool(&w, true);
	jw_end_object(&w);
	assert_false(json_writer_failed(&w));
	t = text_of(&w);
	assert_true(strlen(t) > 2 * JSON_WRITER_INLINE);
	assert_non_null(strstr(t, "{\"inner\":{},\"k0\":0,\"k1\":1,\"k2\":2,\"own\":7,\"k"));
	o = json_tokener_parse(t);
	if (!o)
		fail_msg("not JSON: %.200s", t);
	assert_int_equal(json_object_object_length(o), 1 + 3 + 1 + 2000 + 2 + 1);
	for (int i = 3; i < 2005; i++) {
		char key[128];

		snprintf(key, sizeof(key), "k%0*d", i < 2003 ? 40 : 100, i);
		assert_true(json_object_object_get_ex(o, key, &v));
		assert_int_equal(json_object_get_int(v), i);
	}
	json_object_put(o);
	free(t);
	json_writer_release(&w);

	/* A member is in an open object: never after a key, nor outside any container. */
	json_writer_init(&w);
	number_member(&w, "k", 1, 1, JW_EXACT);
	assert_true(json_writer_failed(&w));
	json_writer_release(&w);
	json_writer_init(&w);
	jw_begin_object(&w);
	JW_KEY(&w, "k");
	number_member(&w, "k", 1, 1, JW_EXACT);
	assert_true(json_writer_failed(&w));
	json_writer_release(&w);
}

/*
 * Keys and names of every length from 0 to 200, each in a buffer of its
 * own length (no NUL, no byte after it: AddressSanitizer stops a read past
 * it), written at every offset of the writer's buffer: each comes back
 * whole, as key and as string, and nothing else is in the text.
 */
static void keys_of_every_length(void **state)
{
	(void)state;
	for (int pre = 0; pre < 8; pre++) {
		for (size_t n = 0; n <= 200; n++) {
			struct json_writer w;
			char *key = malloc(n ? n : 1), *t, want[1024];
			size_t len;

			assert_non_null(key);
			for (size_t i = 0; i < n; i++)
				key[i] = (char)('a' + (i + n) % 26);
			json_writer_init(&w);
			jw_begin_array(&w);
			for (int i = 0; i < pre; i++) /* the key starts at another offset */
				jw_raw(&w, " ", 1);
			jw_begin_object(&w);
			number_member(&w, key, n, 0.5, JW_EXACT);
			jw_key_plain(&w, key, n);
			jw_string_plain(&w, key, n);
			jw_end_object(&w);
			jw_end_array(&w);
			assert_false(json_writer_failed(&w));
			t = (char *)json_writer_text(&w, &len);
			snprintf(want, sizeof(want), "[%*s{\"%.*s\":0.5,\"%.*s\":\"%.*s\"}]", pre,
				 "", (int)n, key, (int)n, key, (int)n, key);
			if (len != strlen(want) || memcmp(t, want, len))
				fail_msg("key of %zu bytes: \"%.*s\", want \"%s\"", n, (int)len, t,
					 want);
			json_writer_release(&w);
			free(key);
		}
	}
}

/*
 * One call's members take no more than the room it makes for them at once:
 * 20 members, keys of 33 to 52 bytes (longer than the block a short key is
 * copied as, which leaves no room to spare), each number the longest text
 * of its form, written with the heap buffer (AddressSanitizer watches its
 * end) filled to leave every room from none to more than theirs, so that
 * some calls find just the room they asked for.  Each text is the one
 * written a member at a time.  Fails (under AddressSanitizer) where the
 * room counted for a member is short of what it writes.
 */
static void members_fit_the_room_they_make(void **state)
{
	static const double longest[] = { -1.2345678901234567e-308, -1.23456789e-100,
					  -1.2345678901234567e-308 };
	static const enum jw_form forms[] = { JW_EXACT, JW_RATIO, JW_SHARE };
	static char spaces[2096];
	char names[20][80];
	const char *name[20];
	double values[20];
	struct jw_keys *keys;

	(void)state;
	memset(spaces, ' ', sizeof(spaces));
	for (int j = 0; j < 20; j++) {
		memset(names[j], 'a' + j % 26, (size_t)(33 + j));
		names[j][33 + j] = '\0';
		name[j] = names[j];
	}
	keys = jw_keys_new(20, name);
	assert_non_null(keys);
	for (int f = 0; f < 3; f++) {
		for (int j = 0; j < 20; j++) /* shares in threes: copied from an earlier one */
			values[j] = longest[f] * (forms[f] == JW_SHARE ? 1 - j % 3 / 1024.0 : 1);
		for (int room = 0; room < 2000; room++) {
			/* the bytes before: the buffer grown once (to twice the inline) holds room more */
			int before = 2 * JSON_WRITER_INLINE - room;
			struct json_writer w, one;
			const char *a, *b;
			size_t na, nb;

			json_writer_init(&w);
			json_writer_init(&one);
			for (int i = 0; i < before; i += (int)sizeof(spaces))
				jw_raw(&w, spaces,
				       before - i < (int)sizeof(spaces) ? (size_t)(before - i) :
									  sizeof(spaces));
			jw_begin_object(&w);
			jw_number_members(&w, keys, 20, values, NULL, forms[f], NULL, false);
			jw_end_object(&w);
			jw_begin_object(&one);
			for (int j = 0; j < 20; j++) {
				jw_key(&one, name[j]);
				jw_number(&one, values[j], forms[f]);
			}
			jw_end_object(&one);
			assert_false(json_writer_failed(&w));
			a = json_writer_text(&w, &na);
			b = json_writer_text(&one, &nb);
			assert_true(na > nb);
			assert_int_equal(na - nb, (size_t)before);
			assert_memory_equal(a + na - nb, b, nb);
			json_writer_release(&w);
			json_writer_release(&one);
		}
	}
	jw_keys_free(keys);
}

/*
 * Members in forms of their own (forms), taken through an index or in
 * order, and with whatever form the call names beside them: each member as
 * jw_number writes its value in its own form (forms decide, so no member
 * is a remembered share, even when the call names JW_SHARE).
 */
static void members_in_forms_of_their_own(void **state)
{
	static const char *const name[] = { "a", "b", "c", "d", "e", "f" };
	static const double values[] = { 0.04685, 1.0 / 3, 2.5e20, 0.04685, 1.0 / 3, 260 };
	static const unsigned char forms[] = { JW_SHARE, JW_RATIO, JW_EXACT,
					       JW_SHARE, JW_EXACT, JW_RATIO };
	static const int index[] = { 5, 0, 4, 3, 1, 2 };
	static const enum jw_form named[] = { JW_EXACT, JW_RATIO, JW_SHARE };
	struct jw_keys *keys = jw_keys_new(6, name);

	(void)state;
	assert_non_null(keys);
	for (int by_index = 0; by_index < 2; by_index++) {
		for (int f = 0; f < 3; f++) {
			struct json_writer w, one;
			const char *a, *b;
			size_t na, nb;

			json_writer_init(&w);
			json_writer_init(&one);
			jw_begin_object(&w);
			jw_number_members(&w, keys, 6, values, by_index ? index : NULL, named[f],
					  forms, false);
			jw_end_object(&w);
			jw_begin_object(&one);
			for (int j = 0; j < 6; j++) {
				jw_key(&one, name[j]);
				jw_number(&one, values[by_index ? index[j] : j],
					  (enum jw_form)forms[j]);
			}
			jw_end_object(&one);
			a = json_writer_text(&w, &na);
			b = json_writer_text(&one, &nb);
			assert_false(json_writer_failed(&w));
			assert_int_equal(na, nb);
			assert_memory_equal(a, b, na);
			json_writer_release(&w);
			json_writer_release(&one);
		}
	}
	jw_keys_free(keys);
}

/*
 * Each form writes its formatter's text (util/double_text.h), null where
 * the value is not finite: values and those whose bits differ by one or
 * two, -0 beside 0.
 */
static void numbers_in_their_forms(void **state)
{
	static const enum jw_form forms[] = { JW_EXACT, JW_RATIO, JW_SHARE };
	static size_t (*const text[])(double, char *) = { shortest_double, ratio_text, share_text };
	double values[] = { 0.25, 0.04685, 1.0 / 3, 0.0, -0.0, 1, 1e-7, 2.5e20, NAN, INFINITY };

	(void)state;
	for (size_t f = 0; f < 3; f++) {
		for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
			for (int step = -2; step <= 2; step++) {
				double v = values[i];
				uint64_t bits;
				struct json_writer w;
				char want[DOUBLE_TEXT_MAX + 8] = "[";
				const char *t;
				size_t len;

				memcpy(&bits, &v, sizeof(bits));
				bits += (uint64_t)(int64_t)step;
				memcpy(&v, &bits, sizeof(v));
				if (isfinite(v))
					text[f](v, want + 1);
				else
					strcpy(want + 1, "null");
				strcat(want, "]");
				json_writer_init(&w);
				jw_begin_array(&w);
				jw_number(&w, v, forms[f]);
				jw_end_array(&w);
				t = json_writer_text(&w, &len);
				assert_int_equal(len, strlen(want));
				assert_memory_equal(t, want, len);
				json_writer_release(&w);
			}
		}
	}
}

/*
 * Members another writer made, appended as a run: first in an object (no
 * comma), between members (commas either side), and an object's last;
 * none where a value is due (after a key) or outside any object.
 */
static void members_text_joins_an_object(void **state)
{
	static const char run[] = "\"x\":1,\"y\":\"z\"";
	struct json_writer w;
	char *t;

	(void)state;
	json_writer_init(&w);
	jw_begin_object(&w);
	jw_members_text(&w, run, strlen(run));
	jw_key(&w, "a");
	jw_begin_object(&w);
	jw_members_text(&w, run, 0); /* nothing: the object stays empty */
	jw_end_object(&w);
	jw_members_text(&w, run, strlen(run));
	jw_key(&w, "b");
	jw_bool(&w, true);
	jw_end_object(&w);
	assert_false(json_writer_failed(&w));
	t = text_of(&w);
	assert_string_equal(t, "{\"x\":1,\"y\":\"z\",\"a\":{},\"x\":1,\"y\":\"z\",\"b\":true}");
	free(t);
	json_writer_release(&w);

	json_writer_init(&w);
	jw_begin_object(&w);
	jw_key(&w, "a");
	jw_members_text(&w, run, strlen(run)); /* a value is due */
	assert_true(json_writer_failed(&w));
	json_writer_release(&w);

	json_writer_init(&w);
	jw_members_text(&w, run, strlen(run)); /* no object */
	assert_true(json_writer_failed(&w));
	json_writer_release(&w);
}

static void misuse_is_flagged(void **state)
{
	struct json_writer w;

	(void)state;
	json_writer_init(&w);
	jw_end_object(&w); /* nothing open */
	assert_true(json_writer_failed(&w));
	json_writer_release(&w);

	json_writer_init(&w);
	for (int i = 0; i <= JSON_WRITER_MAX_DEPTH; i++)
		jw_begin_array(&w);
	assert_true(json_writer_failed(&w));
	json_writer_release(&w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(commas_and_nesting),
		cmocka_unit_test(integer_extremes),
		cmocka_unit_test(non_finite_is_null),
		cmocka_unit_test(hostile_strings_read_back),
		cmocka_unit_test(every_byte_at_every_place),
		cmocka_unit_test(repeated_values_same_text),
		cmocka_unit_test(repeated_shares_in_one_call),
		cmocka_unit_test(grows_past_inline_buffer),
		cmocka_unit_test(number_members_mix_with_members),
		cmocka_unit_test(keys_of_every_length),
		cmocka_unit_test(members_fit_the_room_they_make),
		cmocka_unit_test(members_in_forms_of_their_own),
		cmocka_unit_test(numbers_in_their_forms),
		cmocka_unit_test(members_text_joins_an_object),
		cmocka_unit_test(misuse_is_flagged),
	};
	return cmocka_run_group_tests_name("json_writer", tests, NULL, NULL);
}
