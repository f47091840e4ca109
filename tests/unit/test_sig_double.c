// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Ratios and shares to a stated number of significant digits, judged by
 * glibc: rounded to the nearest, the text reads back as the value of
 * printf's "%.<digits-1>e" (exact in glibc); cut toward zero, its digits
 * are the first ones of the exact value ("%.40e"); never more digits than
 * asked, and json-c parses every text as a JSON number.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <json-c/json.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/double_text.h"

static uint64_t rng_state = 0x9E3779B97F4A7C15u;

static uint64_t next_random(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/* Uniform in [0, 1) with all 53 bits drawn. */
static double unit_random(void)
{
	return (double)(next_random() >> 11) / 9007199254740992.0;
}

/* How many significant digits a text has (leading and trailing zeros, the exponent not counted). */
static int significant_digits(const char *text)
{
	int n = 0, last = 0, started = 0;

	for (const char *p = text; *p && *p != 'e'; p++) {
		if (*p < '0' || *p > '9')
			continue;
		started |= *p != '0';
		n += started;
		if (*p != '0')
			last = n;
	}
	return last ? last : 1;
}

static void parses_as_json(const char *text, double want)
{
	struct json_object *o = json_tokener_parse(text);

	assert_non_null(o);
	assert_true(json_object_is_type(o, json_type_double) ||
		    json_object_is_type(o, json_type_int));
	assert_true(json_object_get_double(o) == want);
	json_object_put(o);
}

/* The nearest digits: what glibc's correctly rounded %e gives, read back. */
static void check_nearest(double v, int digits)
{
	char got[DOUBLE_TEXT_MAX], want[64];
	size_t len = sig_double(v, digits, false, got);

	assert_int_equal(len, strlen(got));
	assert_true(len < DOUBLE_TEXT_MAX);
	snprintf(want, sizeof(want), "%.*e", digits - 1, v);
	if (strtod(got, NULL) != strtod(want, NULL) || significant_digits(got) > digits)
		fail_msg("%.17g to %d digits: \"%s\", printf \"%s\"", v, digits, got, want);
	parses_as_json(got, strtod(got, NULL));
}

/* The digits cut toward zero: the exact value's first ones ("%.40e": exact that far). */
static void check_cut(double v, int digits)
{
	char got[DOUBLE_TEXT_MAX], exact[80], want[80];
	char *e;
	int n = 0, digits0 = digits;

	sig_double(v, digits, true, got);
	snprintf(exact, sizeof(exact), "%.40e", v);
	e = strchr(exact, 'e');
	/* "-d.ddde-05" kept to its first `digits` digits */
	for (const char *p = exact; p < e; p++) {
		if (*p >= '0' && *p <= '9' && digits-- <= 0)
			continue;
		want[n++] = *p;
	}
	snprintf(want + n, sizeof(want) - (size_t)n, "%s", e);
	/* ... or, where v was read from a text of so many digits, that text (it reads back as v) */
	if (strtod(got, NULL) != strtod(want, NULL) && strtod(got, NULL) != v)
		fail_msg("%.17g cut: \"%s\", want %s (exact %s)", v, got, want, exact);
	assert_true(significant_digits(got) <= digits0);
	parses_as_json(got, strtod(got, NULL));
}

static void expect(double v, int digits, bool cut, const char *want)
{
	char got[DOUBLE_TEXT_MAX];

	sig_double(v, digits, cut, got);
	if (strcmp(got, want))
		fail_msg("%.17g to %d digits%s: \"%s\", want \"%s\"", v, digits,
			 cut ? " (cut)" : "", got, want);
}

static void known_texts(void **state)
{
	(void)state;
	expect(0.050590744018141766, RATIO_DIGITS, false, "0.050590744");
	expect(0.25, RATIO_DIGITS, false, "0.25");
	expect(0, RATIO_DIGITS, false, "0");
	expect(-0.0, RATIO_DIGITS, false, "-0");
	expect(2, RATIO_DIGITS, false, "2");
	expect(-2.4330391794114176e-05, RATIO_DIGITS, false, "-2.43303918e-05");
	expect(9.9999999996, RATIO_DIGITS, false, "10");
	expect(0.99999999996, RATIO_DIGITS, false, "1");
	expect(123456789.5, RATIO_DIGITS, false, "123456790"); /* a tie: to even */
	expect(123456788.5, RATIO_DIGITS, false, "123456788"); /* a tie: to even */
	expect(2.5, 1, false, "2");
	expect(1702968.9124199026, RATIO_DIGITS, false, "1702968.91");
	expect(1e-5, RATIO_DIGITS, false, "1e-05");
	expect(1e-13, RATIO_DIGITS, false, "1e-13"); /* printf's side */
	expect(1.2345678912e20, RATIO_DIGITS, false, "1.23456789e+20");
	/* shares: cut, so below 1 (or 0.5) never reads as 1 (or 0.5) */
	expect(0.04685360481038281, SHARE_DIGITS, true, "0.04685");
	expect(1 - 0x1p-53, SHARE_DIGITS, true, "0.9999");
	expect(0.5 - 0x1p-54, SHARE_DIGITS, true, "0.4999");
	expect(0.5, SHARE_DIGITS, true, "0.5");
	expect(1, SHARE_DIGITS, true, "1");
	expect(1.0 / 19, SHARE_DIGITS, true, "0.05263");
	expect(0.04685, SHARE_DIGITS, true,
	       "0.04685"); /* 0.046849999999999996...: read from that */
	expect(0x1p-42, SHARE_DIGITS, true, "2.273e-13"); /* printf's side: 2.2737...e-13 */
}

/* n draws, or a tenth of them under TMACG_TEST_EMULATED (tests/arm64-user: QEMU's user mode). */
static int draws(int n)
{
	return getenv("TMACG_TEST_EMULATED") ? n / 10 : n;
}

/* Ratios as TMA gives them: a count over another, both up to 2^40. */
static void ratios_of_counts(void **state)
{
	(void)state;
	for (int i = 0; i < draws(200000); i++) {
		double a = (double)(next_random() >> (24 + next_random() % 40));
		double b = (double)(next_random() >> (24 + next_random() % 40)) + 1;

		check_nearest(a / b, RATIO_DIGITS);
		check_nearest(-a / b, RATIO_DIGITS);
		check_cut(a / b, SHARE_DIGITS);
	}
}

/* Any magnitude, any digits: the fast way and printf's way agree with printf. */
static void every_range_and_digits(void **state)
{
	(void)state;
	for (int i = 0; i < draws(200000); i++) {
		double v = (1 + unit_random()) * pow(2, (double)(next_random() % 160) - 90);
		int digits = 1 + (int)(next_random() % 17);

		check_nearest(v, digits);
		check_cut(v, digits);
	}
}

/*
 * A cut text read back and cut again is the same text: --replay writes back
 * the shares a line carried, and "0.04685" reads as 0.04684999...
 */
static void cut_texts_read_back_as_themselves(void **state)
{
	(void)state;
	for (int i = 0; i < draws(200000); i++) {
		double v = unit_random() * pow(10, (double)(next_random() % 8) - 6);
		int digits = 1 + (int)(next_random() % 17);
		char once[DOUBLE_TEXT_MAX], twice[DOUBLE_TEXT_MAX];

		sig_double(v, digits, true, once);
		sig_double(strtod(once, NULL), digits, true, twice);
		if (strcmp(once, twice))
			fail_msg("%.17g cut to %d digits: \"%s\", read back and cut: \"%s\"", v,
				 digits, once, twice);
	}
}

/*
 * n digits (no trailing zeros), the first at 10^x, laid out as
 * docs/output.md says: positional for -4 <= x < 17, else with an exponent
 * of at least two digits.  Written the plain way, a character at a time.
 */
static void reference_layout(char *out, const char *digits, int n, int x)
{
	char *p = out;

	if (x < -4 || x >= 17) {
		*p++ = digits[0];
		if (n > 1)
			p += sprintf(p, ".%.*s", n - 1, digits + 1);
		sprintf(p, "e%c%02d", x < 0 ? '-' : '+', abs(x));
		return;
	}
	if (x < 0) {
		p += sprintf(p, "0.");
		for (int i = -1; i > x; i--)
			*p++ = '0';
		sprintf(p, "%.*s", n, digits);
		return;
	}
	for (int i = 0; i < n || i <= x; i++) {
		if (i == x + 1)
			*p++ = '.';
		*p++ = i < n ? digits[i] : '0';
	}
	*p = '\0';
}

/* v's text to digits digits as printf("%.*e") gives them, laid out by reference_layout. */
static void printf_text(double v, int digits, char *out)
{
	char e[64], d[32];
	const char *x;
	int nd = 0;

	snprintf(e, sizeof(e), "%.*e", digits - 1, fabs(v));
	x = strchr(e, 'e');
	for (const char *p = e; p < x; p++)
		if (*p >= '0' && *p <= '9')
			d[nd++] = *p;
	while (nd > 1 && d[nd - 1] == '0')
		nd--;
	*out = '-';
	reference_layout(out + (signbit(v) != 0), d, nd, (int)strtol(x + 1, NULL, 10));
}

/* The text laid out from printf's digits (its trailing zeros off) as reference_layout lays them out. */
static void laid_out_as_documented(void **state)
{
	(void)state;
	for (int i = 0; i < draws(200000); i++) {
		double v = (1 + unit_random()) * pow(10, (double)(next_random() % 26) - 7);
		int digits = 1 + (int)(next_random() % 17);
		char got[DOUBLE_TEXT_MAX], want[64];

		if (i % 7 == 0) /* whole numbers and short fractions, where zeros are dropped */
			v = floor(v) / (double)(1 + next_random() % 4);
		printf_text(v, digits, want);
		sig_double(v, digits, false, got);
		if (v != 0 && strcmp(got, want))
			fail_msg("%.17g to %d digits: \"%s\", laid out \"%s\"", v, digits, got,
				 want);
	}
}

/*
 * Millions of ratios, byte for byte as printf's "%.8e" laid out: ratios of
 * counts, any value from 1e-14 to 1e9 (the fast way's reach) and beyond,
 * and ties, whole numbers and a half (exact doubles) at every scale the
 * digits fall on.
 */
static void millions_of_ratios_as_printf(void **state)
{
	(void)state;
	for (int i = 0; i < draws(3000000); i++) {
		char got[DOUBLE_TEXT_MAX], want[64];
		double v;

		switch (i % 3) {
		case 0:
			v = (double)(next_random() >> (20 + next_random() % 44)) /
			    (double)((next_random() >> (20 + next_random() % 44)) + 1);
			break;
		case 1:
			v = (1 + unit_random()) * pow(10, (double)(next_random() % 30) - 16);
			break;
		default: /* 9 digits and a half, a tie, moved by a power of two */
			v = ldexp((double)(100000000 + next_random() % 900000000) + 0.5,
				  -(int)(next_random() % 20));
			break;
		}
		if (i & 8)
			v = -v;
		ratio_text(v, got);
		printf_text(v, RATIO_DIGITS, want);
		if (strcmp(got, want))
			fail_msg("%a: \"%s\", printf \"%s\"", v, got, want);
	}
}

/* Values on or next to a digit boundary, where a rounding can carry (9.99... to 10). */
static void carries_and_boundaries(void **state)
{
	(void)state;
	for (int digits = 1; digits <= 17; digits++) {
		for (int x = -12; x <= 14; x++) {
			double p = pow(10, x);

			for (int ulps = -3; ulps <= 3; ulps++) {
				double v = p;

				for (int u = 0; u < abs(ulps); u++)
					v = nextafter(v, ulps < 0 ? 0 : INFINITY);
				check_nearest(v, digits);
				check_cut(v, digits);
			}
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(known_texts),
		cmocka_unit_test(ratios_of_counts),
		cmocka_unit_test(every_range_and_digits),
		cmocka_unit_test(cut_texts_read_back_as_themselves),
		cmocka_unit_test(millions_of_ratios_as_printf),
		cmocka_unit_test(carries_and_boundaries),
		cmocka_unit_test(laid_out_as_documented),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
