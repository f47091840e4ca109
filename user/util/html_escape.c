// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "util/html_escape.h"
#include "util/out_stream.h"

#include <errno.h>
#include <string.h>

/* The escape for the byte sequence at s (n bytes left), and how many bytes it replaces. */
static const char *escape_of(const unsigned char *s, size_t n, size_t *taken)
{
	*taken = 1;
	switch (s[0]) {
	case '<':
		return "\\u003c";
	case '>':
		return "\\u003e";
	case '&':
		return "\\u0026";
	case 0xe2: /* U+2028 is E2 80 A8, U+2029 E2 80 A9 in UTF-8 */
		if (n >= 3 && s[1] == 0x80 && (s[2] == 0xa8 || s[2] == 0xa9)) {
			*taken = 3;
			return s[2] == 0xa8 ? "\\u2028" : "\\u2029";
		}
		return NULL;
	default:
		return NULL;
	}
}

int html_script_json_write(FILE *f, const char *json, size_t len)
{
	const unsigned char *s = (const unsigned char *)json;
	size_t start = 0, i = 0;

	while (i < len) {
		size_t taken;
		const char *esc = escape_of(s + i, len - i, &taken);

		if (!esc) {
			i++;
			continue;
		}
		if (fwrite(json + start, 1, i - start, f) != i - start || fputs(esc, f) == EOF)
			break;
		i += taken;
		start = i;
	}
	if (i >= len && start < len)
		fwrite(json + start, 1, len - start, f);
	if (ferror(f))
		return out_stream_error(f);
	return 0;
}
