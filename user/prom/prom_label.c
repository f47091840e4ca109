// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "prom_label.h"

#include <stdint.h>
#include <string.h>
#include <unistr.h>

/* A valid UTF-8 run: only the three escapes the format defines, the rest in spans. */
static void escape_valid(FILE *f, const char *s, size_t n)
{
	while (n) {
		size_t plain = strcspn(s, "\\\"\n");

		if (plain >= n) {
			fwrite(s, 1, n, f);
			return;
		}
		fwrite(s, 1, plain, f);
		fputs(s[plain] == '\n' ? "\\n" : s[plain] == '"' ? "\\\"" : "\\\\", f);
		s += plain + 1;
		n -= plain + 1;
	}
}

void prom_label_value(FILE *f, const char *value)
{
	const uint8_t *s = (const uint8_t *)value;
	size_t n = strlen(value);

	/* libunistring finds the first invalid sequence; it is replaced byte by byte. */
	while (n) {
		const uint8_t *bad = u8_check(s, n);
		size_t good = bad ? (size_t)(bad - s) : n;

		escape_valid(f, (const char *)s, good);
		if (!bad)
			break;
		fputs("\xef\xbf\xbd", f);	/* U+FFFD REPLACEMENT CHARACTER */
		s = bad + 1;
		n -= good + 1;
	}
}

void prom_label(FILE *f, const char *name, const char *value)
{
	fprintf(f, "%s=\"", name);
	prom_label_value(f, value);
	fputc('"', f);
}
