// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The shortest round-trip double text, judged by glibc: strtod must read every
 * text back as the same bits, and no text may have more significant digits than
 * the smallest %.<p>g that strtod reads back (glibc's printf is exact), with
 * the same digits when as long.  json-c must parse every text as a JSON number.
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

static uint64_t rng_state = 0x2545F4914F6CDD1Du;

static uint64_t next_random(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static double from_bits(uint64_t b)
{
	double d;

	memcpy(&d, &b, sizeof(d));
	return d;
}

/* The significant digits of a decimal text, without leading or trailing zeros. */
static void significant(const char *text, char *out)
{
	size_t n = 0;
	int started = 0;

	for (const char *p = text; *p && *p != 'e'; p++) {
		if (*p < '0' || *p > '9')
			continue;
		if (*p != '0')
			started = 1;
		if (started)
			out[n++] = *p;
	}
	while (n > 1 && out[n - 1] == '0')
		n--;
	if (!n)
		out[n++] = '0';
	out[n] = '\0';
}

/* d's text reads back exactly, as JSON too, and is as short as glibc's shortest. */
static void check(double d)
{
	char text[DOUBLE_TEXT_MAX], digits[40], want_digits[40], ref[48];
	size_t len = shortest_double(d, text);
	double back = strtod(text, NULL);
	json_object *o;
	int p;

	assert_int_equal(len, strlen(text));
	assert_true(len < DOUBLE_TEXT_MAX);
	if (memcmp(&back, &d, sizeof(d)))
		fail_msg("%a written as %s reads back as %a", d, text, back);
	o = json_tokener_parse(text);
	if (!o || json_object_get_double(o) != d)
		fail_msg("%a written as %s: not the same JSON number", d, text);
	json_object_put(o);
	/* Whole numbers below 1e15 are written in full, whatever is shorter. */
	if (fabs(d) < 1e15 && d == floor(d))
		return;
	for (p = 1; p < 17; p++) {
		snprintf(ref, sizeof(ref), "%.*e", p - 1, d);
		if (strtod(ref, NULL) == d)
			break;
	}
	snprintf(ref, sizeof(ref), "%.*e", p - 1, d);
	significant(text, digits);
	significant(ref, want_digits);
	/*
	 * Fewer digits than glibc's correctly rounded shortest happens at a power
	 * of two, where the gap below is half the gap above: a text a little
	 * above d reads back as d where the rounded one below does not (2^-44 is
	 * 5.684341886080802e-14).  It read back above, so it is right.
	 */
	if (strlen(digits) < strlen(want_digits) &&
	    !(d != 0 && (frexp(d, &(int){ 0 }) == 0.5 || frexp(d, &(int){ 0 }) == -0.5)))
		fail_msg("%a written as %s: shorter than %s, and not a power of two", d, text, ref);
	if (strlen(digits) > strlen(want_digits) ||
	    (strlen(digits) == strlen(want_digits) && strcmp(digits, want_digits)))
		fail_msg("%a written as %s: glibc's shortest is %s", d, text, ref);
}

static void known_texts(void **state)
{
	static const struct {
		double d;
		const char *text;
	} cases[] = {
		{ 0.83, "0.83" },
		{ 1e-9, "1e-09" },
		{ 0.1 + 0.2, "0.30000000000000004" },
		{ 1.0 / 3, "0.3333333333333333" },
		{ 0.5123149722138266, "0.5123149722138266" },
		{ 0.015324798, "0.015324798" },
		{ 199.75970744983093, "199.75970744983093" },
		{ 0.0009765625, "0.0009765625" },
		{ 0.00001, "1e-05" },
		{ 0.0001, "0.0001" },
		{ 3.0, "3" },
		{ 260.0, "260" },
		{ 3.9e9, "3900000000" },
		{ 999999999999999.0, "999999999999999" },
		{ 0.0, "0" },
		{ -0.0, "-0" },
		{ -7.0, "-7" },
		{ -0.25, "-0.25" },
		{ 1234567890123456.5, "1234567890123456.5" },
		{ 1e15, "1000000000000000" },
		{ 1e17, "1e+17" },
		{ 2.5e20, "2.5e+20" },
		{ 1e100, "1e+100" },
		{ 5e-324, "5e-324" },
		{ 2.2250738585072014e-308, "2.2250738585072014e-308" },
		{ 1.7976931348623157e308, "1.7976931348623157e+308" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char text[DOUBLE_TEXT_MAX];

		shortest_double(cases[i].d, text);
		if (strcmp(text, cases[i].text))
			fail_msg("%a: wrote %s, expected %s", cases[i].d, text, cases[i].text);
		check(cases[i].d);
	}
}

/*
 * n draws, or a tenth of them under TMACG_TEST_EMULATED (tests/arm64-user:
 * under qemu-user each check's 17 printf/strtod tries made this the longest
 * unit test, 44 s plain and 123 s under ASan, of make test's 20 minutes; the
 * formatter is the same C there, the full count runs on x86).
 */
static int draws(int n)
{
	return getenv("TMACG_TEST_EMULATED") ? n / 10 : n;
}

/* Random bit patterns: every exponent, subnormals, both signs. */
static void random_doubles_round_trip(void **state)
{
	(void)state;
	for (int i = 0; i < draws(100000); i++) {
		double d = from_bits(next_random());

		if (isfinite(d))
			check(d);
	}
}

/* Values as tmacg computes them: in 1e-20..1e18, where the fast paths work. */
static void measured_range_round_trips(void **state)
{
	(void)state;
	for (int i = 0; i < draws(100000); i++) {
		uint64_t b = next_random();
		int exp = 1023 - 66 + (int)(b % 126); /* 2^-66 .. 2^59 */

		check(from_bits((b & 0x800FFFFFFFFFFFFFu) | (uint64_t)exp << 52));
	}
}

/*
 * Ratios of whole numbers, as a level-6 line is made of (issue 27): TMA ratios
 * and running/enabled shares, 16 or 17 digits, which long_digits writes from
 * one exact (FMA) product instead of exact_digits' steps; and their
 * neighbours, whose nearest 16-digit number is about as far as the next one.
 */
static void ratios_of_counts(void **state)
{
	(void)state;
	for (int i = 0; i < draws(40000); i++) {
		double num = (double)(next_random() % 4000000000u),
		       den = 1 + (double)(next_random() % 4000000000u);
		double d = num / den * (i % 3 ? 1 : 1e-3 * (1 + i % 7));

		check(d);
		check(nextafter(d, 0));
	}
}

/* Decimals of 1 to 16 digits as strtod reads them: the short texts must come back. */
static void short_decimals_come_back(void **state)
{
	(void)state;
	for (int i = 0; i < draws(100000); i++) {
		char text[48];
		int digits = 1 + (int)(next_random() % 16);
		int exp = (int)(next_random() % 40) - 20;
		double m = (double)(next_random() >> 11) / 9007199254740992.0 * 9 + 1;

		snprintf(text, sizeof(text), "%.*fe%d", digits - 1, m, exp);
		check(strtod(text, NULL));
	}
}

/* Rounding-interval edges: powers of two (a narrower gap below) and their neighbours. */
static void powers_of_two_and_neighbours(void **state)
{
	(void)state;
	for (int e = -1074; e <= 1023; e++) {
		double d = ldexp(1.0, e);

		check(d);
		check(nextafter(d, 0));
		check(nextafter(d, INFINITY));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(known_texts),
		cmocka_unit_test(random_doubles_round_trip),
		cmocka_unit_test(measured_range_round_trips),
		cmocka_unit_test(short_decimals_come_back),
		cmocka_unit_test(ratios_of_counts),
		cmocka_unit_test(powers_of_two_and_neighbours),
	};
	return cmocka_run_group_tests_name("shortest_double", tests, NULL, NULL);
}
