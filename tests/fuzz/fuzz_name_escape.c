// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Names are any bytes but NUL: the JSON text must be strict UTF-8 and decode
 * back to the same bytes, the table text must hold no control byte.  The
 * judge is the tests' own UTF-8 check, independent of name_escape.c.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/utf8_check.c"
#include "util/name_escape.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *name = malloc(size + 1), *back = malloc(size + 1), *term;
	const char *json;

	if (!name || !back)
		abort();
	memcpy(name, data, size);
	name[size] = '\0';
	json = name_json_text(name);
	if (!json || !utf8_check_strict((const unsigned char *)json, strlen(json)))
		abort();
	if (strlen(json) > 3 * strlen(name))
		abort();
	utf8_check_name_bytes(json, back);
	if (strcmp(back, name))
		abort();
	term = name_term_text(name);
	if (!term)
		abort();
	for (const unsigned char *p = (const unsigned char *)term; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			abort();
	if (!utf8_check_strict((const unsigned char *)term, strlen(term)))
		abort();
	if (json != name)
		free((char *)json);
	free(term);
	free(name);
	free(back);
	return 0;
}
