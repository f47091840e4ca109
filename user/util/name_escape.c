// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "util/name_escape.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The private-use range that carries invalid bytes in JSON: U+EF00 + byte. */
#define ESCAPE_BASE 0xEF00u
#define ESCAPE_FIRST (ESCAPE_BASE + 0x80)
#define ESCAPE_LAST (ESCAPE_BASE + 0xFF)

/* Length (1-4) of the valid UTF-8 sequence at s (n bytes there), 0 if invalid; *cp set. */
static int utf8_sequence(const unsigned char *s, size_t n, uint32_t *cp)
{
	unsigned char b = s[0];
	uint32_t min, c;
	int len;

	if (n == 0)
		return 0;
	if (b < 0x80) {
		*cp = b;
		return 1;
	}
	if (b >= 0xC2 && b <= 0xDF) {
		len = 2, c = b & 0x1F, min = 0x80;
	} else if (b >= 0xE0 && b <= 0xEF) {
		len = 3, c = b & 0x0F, min = 0x800;
	} else if (b >= 0xF0 && b <= 0xF4) {
		len = 4, c = b & 0x07, min = 0x10000;
	} else {
		return 0; /* continuation byte, C0/C1 (overlong), F5..FF */
	}
	if ((size_t)len > n)
		return 0;
	for (int i = 1; i < len; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3F);
	}
	/* Overlong forms, UTF-16 surrogates and code points past Unicode's end. */
	if (c < min || (c >= 0xD800 && c <= 0xDFFF) || c > 0x10FFFF)
		return 0;
	*cp = c;
	return len;
}

static size_t put_escape_char(char *out, unsigned char byte)
{
	uint32_t c = ESCAPE_BASE + byte;

	out[0] = (char)(0xE0 | c >> 12);
	out[1] = (char)(0x80 | (c >> 6 & 0x3F));
	out[2] = (char)(0x80 | (c & 0x3F));
	return 3;
}

/* Length of the sequence at s that JSON keeps as is (valid, not in the escape range); 0: escape. */
static int json_keep(const unsigned char *s, size_t n)
{
	uint32_t cp;
	int len = utf8_sequence(s, n, &cp);

	return len && (cp < ESCAPE_FIRST || cp > ESCAPE_LAST) ? len : 0;
}

const char *name_json_text(const char *s)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t n, i = 0, o = 0;
	char *out;
	int len;

	/* ASCII, as nearly every name is: nothing to check further. */
	while (u[i] && u[i] < 0x80)
		i++;
	if (!u[i])
		return s;
	n = i + strlen(s + i);
	while (i < n && (len = json_keep(u + i, n - i)))
		i += len;
	if (i == n)
		return s;
	out = malloc(3 * n + 1); /* each byte at most one 3-byte character */
	if (!out)
		return NULL;
	memcpy(out, s, i);
	o = i;
	while (i < n) {
		len = json_keep(u + i, n - i);
		if (len) {
			memcpy(out + o, s + i, len);
			o += len;
			i += len;
			continue;
		}
		/* Invalid here, or a valid escape-range character: each of its bytes. */
		len = utf8_sequence(u + i, n - i, &(uint32_t){ 0 });
		for (int k = 0; k < (len ? len : 1); k++)
			o += put_escape_char(out + o, u[i + k]);
		i += len ? len : 1;
	}
	out[o] = '\0';
	return out;
}

char *name_json_bytes(const char *s)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t n = strlen(s), i = 0, o = 0;
	char *out = malloc(n + 1); /* decoding never lengthens */

	if (!out)
		return NULL;
	while (i < n) {
		uint32_t cp = 0;
		int len = utf8_sequence(u + i, n - i, &cp);

		if (len == 3 && cp >= ESCAPE_FIRST && cp <= ESCAPE_LAST) {
			out[o++] = (char)(cp - ESCAPE_BASE);
		} else {
			len = len ? len : 1;
			memcpy(out + o, s + i, len);
			o += len;
		}
		i += len;
	}
	out[o] = '\0';
	return out;
}

/* Printable on a terminal: not a control, not a format or bidirectional control. */
static bool printable(uint32_t cp)
{
	if (cp < 0x20 || (cp >= 0x7F && cp <= 0x9F))
		return false;
	if (cp == 0x00AD || cp == 0x061C || (cp >= 0x200B && cp <= 0x200F) ||
	    (cp >= 0x2028 && cp <= 0x202E) || (cp >= 0x2060 && cp <= 0x206F) || cp == 0xFEFF ||
	    (cp >= 0xFFF9 && cp <= 0xFFFB))
		return false;
	return true;
}

/* backslash: doubled, so that no name prints as another (a message keeps it as it is). */
static char *term_text(const char *s, bool backslash)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *u = (const unsigned char *)s;
	size_t n = strlen(s), i = 0, o = 0;
	char *out = malloc(4 * n + 1); /* each byte at most \xHH */

	if (!out)
		return NULL;
	while (i < n) {
		uint32_t cp = 0;
		int len = utf8_sequence(u + i, n - i, &cp);

		if (len && cp == '\\' && backslash) {
			out[o++] = '\\';
			out[o++] = '\\';
		} else if (len && printable(cp)) {
			memcpy(out + o, s + i, len);
			o += len;
		} else {
			for (int k = 0; k < (len ? len : 1); k++) {
				out[o++] = '\\';
				out[o++] = 'x';
				out[o++] = hex[u[i + k] >> 4];
				out[o++] = hex[u[i + k] & 15];
			}
		}
		i += len ? len : 1;
	}
	out[o] = '\0';
	return out;
}

char *name_term_text(const char *s)
{
	return term_text(s, true);
}

void term_escape_message(char *msg, size_t size)
{
	char *t;

	if (!size)
		return;
	t = term_text(msg, false);
	if (t) {
		snprintf(msg, size, "%s", t);
		free(t);
		return;
	}
	/* Out of memory: each unsafe byte as '?', in place. */
	for (unsigned char *u = (unsigned char *)msg; *u; u++)
		if (*u < 0x20 || *u == 0x7f || *u >= 0x80)
			*u = '?';
}

void name_term_put(FILE *f, const char *s)
{
	char *t = name_term_text(s);

	fputs(t ? t : "(out of memory)", f);
	free(t);
}
