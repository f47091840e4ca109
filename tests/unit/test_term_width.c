// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Display width and the escaped, cut copy of names, on hand-worked examples. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <string.h>

#include "output/term_width.h"

struct fit_case {
	const char *in;
	int max_cols;
	const char *out;
	int cols;
};

static void check(const struct fit_case *c, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char out[128];
		int cols = term_fit(c[i].in, c[i].max_cols, out, sizeof(out));

		print_message("case %zu: max %d\n", i, c[i].max_cols);
		assert_string_equal(out, c[i].out);
		assert_int_equal(cols, c[i].cols);
	}
}

static void test_ascii(void **state)
{
	static const struct fit_case c[] = {
		{ "/system.slice", 20, "/system.slice", 13 },
		{ "/system.slice", 13, "/system.slice", 13 },
		{ "/system.slice", 12, "/system.sli~", 12 },
		{ "/system.slice", 1, "~", 1 },
		{ "/system.slice", 0, "", 0 },
		{ "", 5, "", 0 },
		/* systemd's own escapes stay as they are: backslash is printable */
		{ "serial\\x2dgetty", 20, "serial\\x2dgetty", 15 },
	};

	(void)state;
	check(c, sizeof(c) / sizeof(c[0]));
	assert_int_equal(term_width("/system.slice"), 13);
}

static void test_wide_and_combining(void **state)
{
	static const struct fit_case c[] = {
		/* 日本語: three wide characters, two columns each */
		{ "\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e", 6, "\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e",
		  6 },
		{ "\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e", 5, "\xe6\x97\xa5\xe6\x9c\xac~", 5 },
		/* a wide character never straddles the limit: 日 + mark, one column left over */
		{ "\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e", 4, "\xe6\x97\xa5~", 3 },
		{ "\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e", 2, "~", 1 },
		/* cafe + U+0301 COMBINING ACUTE ACCENT: four columns, the mark kept with its e */
		{ "cafe\xcc\x81", 4, "cafe\xcc\x81", 4 },
		{ "cafe\xcc\x81!", 4, "caf~", 4 },
		/* full-width Ａ (U+FF21) */
		{ "\xef\xbc\xa1"
		  "b",
		  3,
		  "\xef\xbc\xa1"
		  "b",
		  3 },
	};

	(void)state;
	check(c, sizeof(c) / sizeof(c[0]));
	assert_int_equal(term_width("pod-\xe6\x97\xa5\xe6\x9c\xac"), 8);
	assert_int_equal(term_width("e\xcc\x81\xcc\x82"), 1);
}

static void test_invalid_utf8(void **state)
{
	static const struct fit_case c[] = {
		{ "a\xff"
		  "b",
		  10, "a\\xffb", 6 },
		/* the first two bytes of 日, then the end */
		{ "a\xe6\x97", 10, "a\\xe6\\x97", 9 },
		/* a lone continuation byte, an overlong '/', a UTF-16 surrogate */
		{ "\x80", 10, "\\x80", 4 },
		{ "\xc0\xaf", 10, "\\xc0\\xaf", 8 },
		{ "\xed\xa0\x80", 20, "\\xed\\xa0\\x80", 12 },
		/* valid text resumes after the bad byte */
		{ "\xff\xe6\x97\xa5", 10, "\\xff\xe6\x97\xa5", 6 },
	};

	(void)state;
	check(c, sizeof(c) / sizeof(c[0]));
}

static void test_hostile(void **state)
{
	static const struct fit_case c[] = {
		/* a name that would clear the screen, move the cursor, ring the bell */
		{ "\x1b[2J", 10, "\\x1b[2J", 7 },
		{ "x\x1b[1;1Hy", 20, "x\\x1b[1;1Hy", 11 },
		{ "a\nb\tc\r\x07\x7f", 40, "a\\x0ab\\x09c\\x0d\\x07\\x7f", 23 },
		/* U+0085 NEXT LINE (C1) and U+009B CSI encoded as UTF-8 */
		{ "\xc2\x85", 10, "\\xc2\\x85", 8 },
		{ "\xc2\x9b"
		  "2J",
		  10, "\\xc2\\x9b2J", 10 },
		/* U+202E RIGHT-TO-LEFT OVERRIDE and U+2066 LEFT-TO-RIGHT ISOLATE */
		{ "a\xe2\x80\xae"
		  "b",
		  20, "a\\xe2\\x80\\xaeb", 14 },
		{ "\xe2\x81\xa6", 20, "\\xe2\\x81\\xa6", 12 },
		/* an escape is never split: it goes whole or not at all */
		{ "ab\x1b", 5, "ab~", 3 },
		{ "\x1b"
		  "b",
		  4, "~", 1 },
	};

	(void)state;
	check(c, sizeof(c) / sizeof(c[0]));
	assert_int_equal(term_width("\x1b[0m"), 7);
}

static void test_small_buffer(void **state)
{
	char out[4];

	(void)state;
	/* three bytes of text at most: two characters and the mark */
	assert_int_equal(term_fit("abcdef", 10, out, sizeof(out)), 3);
	assert_string_equal(out, "ab~");
	/* a wide character that does not fit in the bytes left is not split */
	assert_int_equal(term_fit("\xe6\x97\xa5\xe6\x97\xa5", 10, out, sizeof(out)), 1);
	assert_string_equal(out, "~");
	assert_int_equal(term_fit("abc", 10, out, 0), 0);
}

static void test_fit_tail(void **state)
{
	static const struct fit_case c[] = {
		{ "/kubepods/burstable/pod1", 30, "/kubepods/burstable/pod1", 24 },
		{ "/kubepods/burstable/pod1", 10, "~able/pod1", 10 },
		{ "\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e", 5, "~\xe6\x9c\xac\xe8\xaa\x9e", 5 },
		{ "\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e", 4, "~\xe8\xaa\x9e", 3 },
		/* the combining accent goes with the b it belonged to */
		{ "ab\xcc\x81"
		  "cd",
		  3, "~cd", 3 },
		/* an escape goes whole */
		{ "\x1b[2Jx", 6, "~[2Jx", 5 },
		{ "abc", 0, "", 0 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		char out[128];
		int cols = term_fit_tail(c[i].in, c[i].max_cols, out, sizeof(out));

		print_message("case %zu\n", i);
		assert_string_equal(out, c[i].out);
		assert_int_equal(cols, c[i].cols);
	}
}

static void test_pad(void **state)
{
	char out[8];

	(void)state;
	assert_int_equal(term_pad(out, sizeof(out), 3), 3);
	assert_string_equal(out, "   ");
	assert_int_equal(term_pad(out, sizeof(out), -2), 0);
	assert_string_equal(out, "");
	assert_int_equal(term_pad(out, sizeof(out), 20), 7);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ascii),	     cmocka_unit_test(test_wide_and_combining),
		cmocka_unit_test(test_invalid_utf8), cmocka_unit_test(test_hostile),
		cmocka_unit_test(test_small_buffer), cmocka_unit_test(test_fit_tail),
		cmocka_unit_test(test_pad),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
