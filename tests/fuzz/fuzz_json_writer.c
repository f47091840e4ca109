// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The JSON writer on any bytes: the first 8 are a double (any bit pattern),
 * the rest a name (any bytes but NUL) written as a key and a value.  The text
 * must parse with json-c, be strict UTF-8 (the tests' own check), give the
 * name back through docs/output.md's decoding, and give the double back
 * exactly (strtod on the number's text), or null when it is not finite.
 */
#include <json-c/json.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/utf8_check.c"
#include "util/json_writer.h"

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
	free(name);
	free(back);
	return 0;
}
