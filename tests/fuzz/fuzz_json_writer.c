// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The JSON writer on any bytes: the first 8 are a double (any bit pattern),
 * the rest a name (any bytes but NUL, of any length) written as a key and a
 * value, and, where it needs no escape (jw_plain_length), as the key of a
 * member of each number form (jw_number_members: the writer's own room
 * for a key of that length); any name as a member's key (jw_keys) the
 * same text as jw_key's.  The text must parse with json-c, be strict
 * UTF-8 (the tests' own check), give the name back through docs/output.md's
 * decoding, give the double back exactly (strtod on the number's text), or
 * null when it is not finite, and each form's member its formatter's text.
 */
#include <json-c/json.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/utf8_check.c"
#include "util/double_text.h"
#include "util/json_writer.h"

/* The name (plain, of len bytes) as the key of a member of each form: each its formatter's text. */
static void members_of_each_form(const char *name, size_t len, double d)
{
	static size_t (*const text[])(double, char *) = { shortest_double, ratio_text, share_text };
	const char *const names[] = { name };
	struct jw_keys *keys = jw_keys_new(1, names);
	struct json_writer w;
	char want[DOUBLE_TEXT_MAX];
	const char *t;
	size_t n;

	if (!keys)
		abort();

	for (int form = JW_EXACT; form <= JW_SHARE; form++) {
		json_writer_init(&w);
		jw_begin_object(&w);
		jw_number_members(&w, keys, 1, &d, NULL, (enum jw_form)form, NULL, false);
		jw_end_object(&w);
		t = json_writer_text(&w, &n);
		if (isfinite(d))
			text[form](d, want);
		else
			strcpy(want, "null");
		if (json_writer_failed(&w) || n != len + strlen(want) + 5 || t[0] != '{' ||
		    t[1] != '"' || memcmp(t + 2, name, len) || memcmp(t + 2 + len, "\":", 2) ||
		    memcmp(t + 4 + len, want, strlen(want)) || t[n - 1] != '}')
			abort();
		json_writer_release(&w);
	}
	jw_keys_free(keys);
}

/* Any name as a member's key (jw_keys): the same text as jw_key's, whatever it escapes. */
static void member_key_as_jw_key(const char *name)
{
	const char *const names[] = { name };
	struct jw_keys *keys = jw_keys_new(1, names);
	struct json_writer a, b;
	const char *ta, *tb;
	size_t na, nb;
	double one = 1;

	if (!keys)
		abort();
	json_writer_init(&a);
	jw_begin_object(&a);
	jw_key(&a, name);
	jw_uint(&a, 1);
	jw_end_object(&a);
	json_writer_init(&b);
	jw_begin_object(&b);
	jw_number_members(&b, keys, 1, &one, NULL, JW_EXACT, NULL, false);
	jw_end_object(&b);
	ta = json_writer_text(&a, &na);
	tb = json_writer_text(&b, &nb);
	if (json_writer_failed(&a) || json_writer_failed(&b) || na != nb || memcmp(ta, tb, na))
		abort();
	json_writer_release(&a);
	json_writer_release(&b);
	jw_keys_free(keys);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct json_writer w;
	double d = 0;
	char *name, *text, *back, *number;
	const char *t;
	size_t len;
	json_object *o, *v, *n;

	if (size >= sizeof(d)) {
		memcpy(&d, data, sizeof(d));
		data += sizeof(d);
		size -= sizeof(d);
	}
	name = malloc(size + 1);
	back = malloc(size + 1);
	if (!name || !back)
		abort();
	memcpy(name, data, size);
	name[size] = '\0';
	json_writer_init(&w);
	jw_begin_object(&w);
	jw_key(&w, name);
	jw_string(&w, name);
	JW_KEY(&w, "n");
	jw_double(&w, d);
	jw_end_object(&w);
	t = json_writer_text(&w, &len);
	if (json_writer_failed(&w))
		abort();
	text = strndup(t, len);
	if (!text || !utf8_check_strict((const unsigned char *)text, len))
		abort();
	o = json_tokener_parse(text);
	if (!o || !json_object_object_get_ex(o, "n", &n))
		abort();
	json_object_object_foreach(o, key, val) {
		if (!strcmp(key, "n") && strcmp(name, "n"))
			continue;
		utf8_check_name_bytes(key, back);
		if (strcmp(back, name))
			abort();
		v = val;
		if (strcmp(name, "n")) {
			utf8_check_name_bytes(json_object_get_string(v), back);
			if (strcmp(back, name))
				abort();
		}
		break;
	}
	if (!isfinite(d)) {
		if (!json_object_is_type(n, json_type_null))
			abort();
	} else {
		/* The number's own text, from after "n": to the closing brace. */
		number = strstr(text, "\"n\":");
		while (number && strstr(number + 1, "\"n\":"))
			number = strstr(number + 1, "\"n\":");
		if (!number || strtod(number + 4, NULL) != d ||
		    signbit(strtod(number + 4, NULL)) != signbit(d))
			abort();
	}
	json_object_put(o);
	free(text);
	json_writer_release(&w);
	len = jw_plain_length(name);
	if (len)
		members_of_each_form(name, len, d);
	member_key_as_jw_key(name);
	free(name);
	free(back);
	return 0;
}
