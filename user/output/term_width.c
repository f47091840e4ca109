// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "output/term_width.h"

#include <limits.h>
#include <locale.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <wchar.h>

/* (locale_t)0 until the first call; C.UTF-8 ships with glibc 2.35 and Debian's older ones. */
static locale_t utf8_locale;
static bool utf8_tried;

static locale_t utf8(void)
{
	if (!utf8_tried) {
		utf8_tried = true;
		utf8_locale = newlocale(LC_CTYPE_MASK, "C.UTF-8", (locale_t)0);
	}
	return utf8_locale;
}

/*
 * Characters a terminal does not print but acts on: the bidirectional
 * embeddings, overrides and isolates can reorder the rest of the line, so a
 * name could make another row read differently.  wcwidth() gives them 0.
 */
static bool is_bidi_control(wchar_t c)
{
	return c == 0x061C || c == 0x200E || c == 0x200F || (c >= 0x202A && c <= 0x202E) ||
	       (c >= 0x2066 && c <= 0x2069);
}

/* One unit of the safe copy: a character kept as is, or one escaped byte. */
struct unit {
	size_t in_len; /* bytes of s it consumes */
	int cols;
	bool escape; /* print "\xNN" for the first byte instead */
};

static struct unit next_unit(const char *s, locale_t loc)
{
	struct unit u = { 1, 4, true };
	unsigned char b = (unsigned char)*s;
	mbstate_t st;
	wchar_t wc;
	size_t n;
	int w;

	if (b >= 0x20 && b < 0x7f)
		return (struct unit){ 1, 1, false };
	if (b < 0x80 || loc == (locale_t)0)
		return u; /* C0 control, DEL; without the locale any non-ASCII byte */
	memset(&st, 0, sizeof(st));
	{
		locale_t old = uselocale(loc);

		n = mbrtowc(&wc, s, strnlen(s, MB_LEN_MAX), &st);
		w = n > 0 && n <= MB_LEN_MAX ? wcwidth(wc) : -1;
		uselocale(old);
	}
	if (n == 0 || n > MB_LEN_MAX || w < 0 || is_bidi_control(wc))
		return u; /* invalid or truncated sequence, C1 control, unassigned */
	return (struct unit){ n, w, false };
}

int term_fit(const char *s, int max_cols, char *out, size_t outlen)
{
	locale_t loc = utf8();
	size_t o = 0;
	int cols = 0, limit = max_cols;
	bool cut = false;

	if (!outlen)
		return 0;
	out[0] = '\0';
	if (max_cols < 1)
		return 0;
	if (term_width(s) > max_cols)
		limit--; /* room for the cut mark */
	while (*s) {
		struct unit u = next_unit(s, loc);
		size_t bytes = u.escape ? 4 : u.in_len;

		/* Leave room for the mark's byte too. */
		if (cols + u.cols > limit || o + bytes + 1 + 1 > outlen) {
			cut = true;
			break;
		}
		if (u.escape)
			snprintf(out + o, 5, "\\x%02x", (unsigned char)*s);
		else
			memcpy(out + o, s, u.in_len);
		o += bytes;
		cols += u.cols;
		s += u.in_len;
	}
	/* Cut only by the buffer, on the last column: no room for the mark. */
	if (cut && cols < max_cols) {
		memcpy(out + o, TERM_CUT_MARK, sizeof(TERM_CUT_MARK) - 1);
		o += sizeof(TERM_CUT_MARK) - 1;
		cols++;
	}
	out[o] = '\0';
	return cols;
}

int term_fit_tail(const char *s, int max_cols, char *out, size_t outlen)
{
	locale_t loc = utf8();
	int width = term_width(s), cols;

	if (width <= max_cols || max_cols < 1 || !outlen)
		return term_fit(s, max_cols, out, outlen);
	/* Skip from the start until the rest and the mark fit, then whatever is zero-width. */
	while (*s && width > max_cols - 1) {
		struct unit u = next_unit(s, loc);

		width -= u.cols;
		s += u.in_len;
	}
	while (*s) {
		struct unit u = next_unit(s, loc);

		if (u.cols)
			break;
		s += u.in_len;
	}
	if (outlen < sizeof(TERM_CUT_MARK))
		return term_fit(s, 0, out, outlen);
	memcpy(out, TERM_CUT_MARK, sizeof(TERM_CUT_MARK) - 1);
	cols = term_fit(s, max_cols - 1, out + sizeof(TERM_CUT_MARK) - 1,
			outlen - (sizeof(TERM_CUT_MARK) - 1));
	return cols + 1;
}

int term_width(const char *s)
{
	locale_t loc = utf8();
	int cols = 0;

	while (*s) {
		struct unit u = next_unit(s, loc);

		if (cols > INT_MAX - u.cols)
			return INT_MAX;
		cols += u.cols;
		s += u.in_len;
	}
	return cols;
}

int term_pad(char *out, size_t outlen, int n)
{
	if (n <= 0 || !outlen) {
		if (outlen)
			out[0] = '\0';
		return 0;
	}
	if ((size_t)n >= outlen)
		n = (int)outlen - 1;
	memset(out, ' ', n);
	out[n] = '\0';
	return n;
}
