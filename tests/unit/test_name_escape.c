// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Hostile names: JSON lines stay strict UTF-8 and JSON, losslessly; the table
 * never passes a terminal control through.  The UTF-8 check and the decoder
 * (tests/lib/utf8_check.c) are written independently of the code tested.
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

#include "util/name_escape.h"
#include "output/output_json.h"
#include "utf8_check.h"

static char *render_cgroup(const char *name)
{
	struct report_line r = { .interval_s = 1,
				 .host = "h",
				 .model = "software",
				 .cgroup = name,
				 .cgroup_id = 7,
				 .running_min = NAN };
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

	if (!utf8_check_strict((const unsigned char *)line, strlen(line)))
		fail_msg("not strict UTF-8 for name %s: %s", name, line);
	o = json_tokener_parse(line);
	assert_non_null(o);
	got = strdup(json_object_get_string(json_object_object_get(o, "cgroup")));
	json_object_put(o);
	free(line);
	return got;
}

static const char *const hostile[] = {
	"/bad\xff\xfe",	      /* bytes never in UTF-8 */
	"/cont\x80\xbf",      /* continuation bytes alone */
	"/over\xc0\xaf",      /* overlong '/' */
	"/over3\xe0\x80\xaf", /* overlong, three bytes */
	"/over4\xf0\x80\x80\xaf",
	"/surr\xed\xa0\x80",	/* UTF-16 surrogate D800 */
	"/surr\xed\xbf\xbf",	/* DFFF */
	"/big\xf4\x90\x80\x80", /* past U+10FFFF */
	"/f5\xf5\x80\x80\x80",
	"/trunc\xe2\x82",      /* euro sign cut short */
	"/trunc4\xf0\x9f\x98", /* emoji cut short, at the end */
	"/mid\xe2\x82x",       /* cut short before ASCII */
	"/esc\xee\xbe\x80",    /* valid U+EF80: the escape range itself */
	"/escff\xee\xbf\xbf",  /* valid U+EFFF */
	"/\xc1\xbf\xf8\xfc\xfe\xff",
};

static void invalid_bytes_become_strict_utf8_losslessly(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(hostile) / sizeof(hostile[0]); i++) {
		char *got = cgroup_of_line(hostile[i]);
		char back[256];

		assert_true(utf8_check_strict((const unsigned char *)got, strlen(got)));
		utf8_check_name_bytes(got, back);
		if (strcmp(back, hostile[i]))
			fail_msg("name %zu does not decode back to itself", i);
		free(got);
	}
}

/* --replay reads tmacg's own lines: each hostile name comes back byte for byte. */
static void replay_decodes_names_back_to_their_bytes(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(hostile) / sizeof(hostile[0]); i++) {
		char *got = cgroup_of_line(hostile[i]);
		char *back = name_json_bytes(got);

		assert_non_null(back);
		if (strcmp(back, hostile[i]))
			fail_msg("name %zu does not decode back to itself", i);
		free(back);
		free(got);
	}
}

static void names_differing_in_invalid_bytes_stay_different(void **state)
{
	static const char *const names[] = {
		"/a\xff",     "/a\xfe", "/a\xee\xbf\xbf", "/a\xef\xbf\xbd",
		"/a\xc3\xbf", "/a",	"/a\xff\xfe",	  "/a\xfe\xff",
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
		"/café",
		"/\xf0\x9f\x98\x80 emoji",
		"/system.slice/system-systemd\\x2dfsck.slice",
		"/日本語",
		"/\xef\xbf\xbd replacement char",
		"/\xf4\x8f\xbf\xbf last",
		"/\xee\xbe\x7f", /* not escape range: ASCII after a cut sequence is kept */
	};

	(void)state;
	for (size_t i = 0; i < 6; i++) {
		char *got = cgroup_of_line(names[i]);

		assert_string_equal(got, names[i]);
		assert_ptr_equal(name_json_text(names[i]), names[i]); /* no copy needed */
		free(got);
	}
	/* ...but a cut sequence is escaped and its ASCII successor kept. */
	{
		char *got = cgroup_of_line(names[6]);

		assert_true(utf8_check_strict((const unsigned char *)got, strlen(got)));
		assert_non_null(strchr(got, 0x7f));
		free(got);
	}
}

static void count_names_are_escaped_too(void **state)
{
	static const char *const cnames[] = { "ev\xff" };
	static const double values[] = { 1 };
	struct report_line r = { .interval_s = 1,
				 .cgroup = "/",
				 .ncounts = 1,
				 .count_names = cnames,
				 .count_values = values,
				 .running_min = NAN };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	assert_int_equal(output_json_line(f, &r), 0);
	fclose(f);
	assert_true(utf8_check_strict((const unsigned char *)buf, strlen(buf)));
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
	term("/x\x1b[2J", "/x\\x1b[2J");		    /* clears the screen */
	term("a\rb\nc\ad\x7f", "a\\x0db\\x0ac\\x07d\\x7f"); /* CR, LF, BEL, DEL */
	term("\x9b"
	     "31m",
	     "\\x9b31m"); /* C1 CSI as a raw byte */
	term("\xc2\x9b"
	     "31m",
	     "\\xc2\\x9b31m"); /* C1 CSI in UTF-8 */
	term("\x80\x9f\xff", "\\x80\\x9f\\xff");
	/* Right-to-left override; a backslash doubled, so "\x1b" as text cannot pass for ESC. */
	term("a\xe2\x80\xae"
	     "gpj.exe",
	     "a\\xe2\\x80\\xaegpj.exe");
	term("back\\slash", "back\\\\slash");
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
		cmocka_unit_test(replay_decodes_names_back_to_their_bytes),
		cmocka_unit_test(names_differing_in_invalid_bytes_stay_different),
		cmocka_unit_test(valid_names_pass_unchanged),
		cmocka_unit_test(count_names_are_escaped_too),
		cmocka_unit_test(table_text_escapes_every_control),
		cmocka_unit_test(table_text_never_has_a_control_byte),
	};
	return cmocka_run_group_tests_name("name_escape", tests, NULL, NULL);
}
