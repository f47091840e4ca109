// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Hostile names: JSON lines stay strict UTF-8 and JSON, losslessly; the table
 * never passes a terminal control through.  The UTF-8 check and the decoder
 * here are written from RFC 3629's table, independently of the code tested.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <json-c/json.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "name_escape.h"
#include "output_json.h"

/* RFC 3629 section 4's well-formed byte sequences, range by range. */
static bool strict_utf8(const unsigned char *s, size_t n)
{
	static const struct {
		unsigned char lo[4], hi[4];
		int len;
	} forms[] = {
		{ { 0x00 }, { 0x7F }, 1 },
		{ { 0xC2, 0x80 }, { 0xDF, 0xBF }, 2 },
		{ { 0xE0, 0xA0, 0x80 }, { 0xE0, 0xBF, 0xBF }, 3 },
		{ { 0xE1, 0x80, 0x80 }, { 0xEC, 0xBF, 0xBF }, 3 },
		{ { 0xED, 0x80, 0x80 }, { 0xED, 0x9F, 0xBF }, 3 },
		{ { 0xEE, 0x80, 0x80 }, { 0xEF, 0xBF, 0xBF }, 3 },
		{ { 0xF0, 0x90, 0x80, 0x80 }, { 0xF0, 0xBF, 0xBF, 0xBF }, 4 },
		{ { 0xF1, 0x80, 0x80, 0x80 }, { 0xF3, 0xBF, 0xBF, 0xBF }, 4 },
		{ { 0xF4, 0x80, 0x80, 0x80 }, { 0xF4, 0x8F, 0xBF, 0xBF }, 4 },
	};
	size_t i = 0;

	while (i < n) {
		bool ok = false;

		for (size_t f = 0; f < sizeof(forms) / sizeof(forms[0]) && !ok; f++) {
			int k;

			if (i + forms[f].len > n)
				continue;
			for (k = 0; k < forms[f].len; k++)
				if (s[i + k] < forms[f].lo[k] || s[i + k] > forms[f].hi[k])
					break;
			if (k == forms[f].len) {
				i += k;
				ok = true;
			}
		}
		if (!ok)
			return false;
	}
	return true;
}

/* docs/output.md's decoding: U+EF80..U+EFFF (EE BE 80 .. EE BF BF) back to bytes 80..FF. */
static size_t decode(const char *in, char *out)
{
	const unsigned char *s = (const unsigned char *)in;
	size_t o = 0;

	for (size_t i = 0; s[i];) {
		if (s[i] == 0xEE && (s[i + 1] == 0xBE || s[i + 1] == 0xBF) && s[i + 2]) {
			out[o++] = (char)(((s[i + 1] & 1) << 6 | (s[i + 2] & 0x3F)) + 0x80);
			i += 3;
		} else {
			out[o++] = (char)s[i++];
		}
	}
	out[o] = '\0';
	return o;
}

static char *render_cgroup(const char *name)
{
	struct report_line r = { .interval_s = 1, .host = "h", .model = "software",
				 .cgroup = name, .cgroup_id = 7, .running_min = NAN };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(output_json_line(f, &r), 0);
	fclose(f);
	return buf;
}

/* The "cgroup" string of the line for name, as a JSON parser reads it (malloc'd). */
static char *cgroup_of_line(const char *name)
{
	char *line = render_cgroup(name), *got;
	json_object *o;

	if (!strict_utf8((const unsigned char *)line, strlen(line)))
		fail_msg("not strict UTF-8 for name %s: %s", name, line);
	o = json_tokener_parse(line);
	assert_non_null(o);
	got = strdup(json_object_get_string(json_object_object_get(o, "cgroup")));
	json_object_put(o);
	free(line);
	return got;
}

static const char *const hostile[] = {
	"/bad\xff\xfe",		/* bytes never in UTF-8 */
	"/cont\x80\xbf",	/* continuation bytes alone */
	"/over\xc0\xaf",	/* overlong '/' */
	"/over3\xe0\x80\xaf",	/* overlong, three bytes */
	"/over4\xf0\x80\x80\xaf",
	"/surr\xed\xa0\x80",	/* UTF-16 surrogate D800 */
	"/surr\xed\xbf\xbf",	/* DFFF */
	"/big\xf4\x90\x80\x80", /* past U+10FFFF */
	"/f5\xf5\x80\x80\x80",
	"/trunc\xe2\x82",	/* euro sign cut short */
	"/trunc4\xf0\x9f\x98",	/* emoji cut short, at the end */
	"/mid\xe2\x82x",	/* cut short before ASCII */
	"/esc\xee\xbe\x80",	/* valid U+EF80: the escape range itself */
	"/escff\xee\xbf\xbf",	/* valid U+EFFF */
	"/\xc1\xbf\xf8\xfc\xfe\xff",
};

static void invalid_bytes_become_strict_utf8_losslessly(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(hostile) / sizeof(hostile[0]); i++) {
		char *got = cgroup_of_line(hostile[i]);
		char back[256];

		assert_true(strict_utf8((const unsigned char *)got, strlen(got)));
		decode(got, back);
		if (strcmp(back, hostile[i]))
			fail_msg("name %zu does not decode back to itself", i);
		free(got);
	}
}

static void names_differing_in_invalid_bytes_stay_different(void **state)
{
	static const char *const names[] = {
		"/a\xff", "/a\xfe", "/a\xee\xbf\xbf", "/a\xef\xbf\xbd", "/a\xc3\xbf", "/a",
		"/a\xff\xfe", "/a\xfe\xff",
	};
	char *got[sizeof(names) / sizeof(names[0])];
	size_t n = sizeof(names) / sizeof(names[0]);

	(void)state;
	for (size_t i = 0; i < n; i++)
		got[i] = cgroup_of_line(names[i]);
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++)
			if (!strcmp(got[i], got[j]))
				fail_msg("names %zu and %zu give the same string", i, j);
	for (size_t i = 0; i < n; i++)
		free(got[i]);
}

static void valid_names_pass_unchanged(void **state)
{
	static const char *const names[] = {
		"/café", "/\xf0\x9f\x98\x80 emoji", "/system.slice/system-systemd\\x2dfsck.slice",
		"/日本語", "/\xef\xbf\xbd replacement char", "/\xf4\x8f\xbf\xbf last",
		"/\xee\xbe\x7f", /* not escape range: ASCII after a cut sequence is kept */
	};

	(void)state;
	for (size_t i = 0; i < 6; i++) {
		char *got = cgroup_of_line(names[i]);

		assert_string_equal(got, names[i]);
		assert_ptr_equal(name_json_text(names[i]), names[i]);	/* no copy needed */
		free(got);
	}
	/* ...but a cut sequence is escaped and its ASCII successor kept. */
	{
		char *got = cgroup_of_line(names[6]);

		assert_true(strict_utf8((const unsigned char *)got, strlen(got)));
		assert_non_null(strchr(got, 0x7f));
		free(got);
	}
}

static void count_names_are_escaped_too(void **state)
{
	static const char *const cnames[] = { "ev\xff" };
	static const double values[] = { 1 };
	struct report_line r = { .interval_s = 1, .cgroup = "/", .ncounts = 1,
				 .count_names = cnames, .count_values = values,
				 .running_min = NAN };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	assert_int_equal(output_json_line(f, &r), 0);
	fclose(f);
	assert_true(strict_utf8((const unsigned char *)buf, strlen(buf)));
	assert_non_null(strstr(buf, "\"ev\xee\xbf\xbf\":1"));
	free(buf);
}

static void term(const char *in, const char *want)
{
	char *got = name_term_text(in);

	assert_non_null(got);
	assert_string_equal(got, want);
	free(got);
}

static void table_text_escapes_every_control(void **state)
{
	(void)state;
	term("/x\x1b[2J", "/x\\x1b[2J");			/* clears the screen */
	term("a\rb\nc\ad\x7f", "a\\x0db\\x0ac\\x07d\\x7f");	/* CR, LF, BEL, DEL */
	term("\x9b" "31m", "\\x9b31m");				/* C1 CSI as a raw byte */
	term("\xc2\x9b" "31m", "\\xc2\\x9b31m");		/* C1 CSI in UTF-8 */
	term("\x80\x9f\xff", "\\x80\\x9f\\xff");
	term("a\xe2\x80\xae" "gpj.exe", "a\\xe2\\x80\\xaegpj.exe");	/* right-to-left override */
	term("back\\slash", "back\\\\slash");	/* so "\x1b" typed as text cannot pass for ESC */
	term("café \xf0\x9f\x98\x80 日本", "café \xf0\x9f\x98\x80 日本");
	term("", "");
}

static void table_text_never_has_a_control_byte(void **state)
{
	char in[2];

	(void)state;
	for (int b = 1; b < 256; b++) {
		char *got;

		in[0] = (char)b;
		in[1] = '\0';
		got = name_term_text(in);
		for (const unsigned char *p = (const unsigned char *)got; *p; p++)
			if (*p < 0x20 || *p >= 0x7f)
				fail_msg("byte 0x%02x printed as a raw 0x%02x", b, *p);
		free(got);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(invalid_bytes_become_strict_utf8_losslessly),
		cmocka_unit_test(names_differing_in_invalid_bytes_stay_different),
		cmocka_unit_test(valid_names_pass_unchanged),
		cmocka_unit_test(count_names_are_escaped_too),
		cmocka_unit_test(table_text_escapes_every_control),
		cmocka_unit_test(table_text_never_has_a_control_byte),
	};
	return cmocka_run_group_tests_name("name_escape", tests, NULL, NULL);
}
