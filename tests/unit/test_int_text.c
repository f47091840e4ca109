// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The one integer formatter (util/int_text.h), judged by glibc's printf: the
 * same text for the extremes, every power of ten and its neighbours, and a
 * sweep of scattered values of every length, with the length returned and a NUL;
 * fixed_digits() as printf's zero-padded text cut to its last n digits.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "util/int_text.h"

/* text_fn(v) is printf's text of v with format, its length returned, NUL-terminated. */
#define CHECK(text_fn, format, v)                                  \
	do {                                                       \
		char want_[32], got_[INT_TEXT_MAX + 8];            \
                                                                   \
		memset(got_, 'x', sizeof(got_));                   \
		snprintf(want_, sizeof(want_), "%" format, v);     \
		assert_int_equal(text_fn(v, got_), strlen(want_)); \
		assert_string_equal(got_, want_);                  \
	} while (0)

static void check_uint(uint64_t v)
{
	CHECK(uint_text, PRIu64, v);
}

static void check_int(int64_t v)
{
	CHECK(int_text, PRId64, v);
}

static void extremes(void **state)
{
	(void)state;
	check_uint(0);
	check_uint(1);
	check_uint(UINT64_MAX);
	check_int(0);
	check_int(-1);
	check_int(INT64_MAX);
	check_int(INT64_MIN); /* no positive int64_t: the digits come from the uint64_t */
	check_int(INT64_MIN + 1);
	/* The longest text fills INT_TEXT_MAX with its NUL. */
	{
		char buf[INT_TEXT_MAX];

		assert_int_equal(int_text(INT64_MIN, buf), INT_TEXT_MAX - 1);
		assert_int_equal(uint_text(UINT64_MAX, buf), INT_TEXT_MAX - 1);
	}
}

static void powers_of_ten_and_neighbours(void **state)
{
	uint64_t p = 1;

	(void)state;
	for (int i = 0; i < 20; i++, p *= 10) {
		check_uint(p);
		check_uint(p - 1);
		check_uint(p + 1);
		if (p <= INT64_MAX) {
			check_int((int64_t)p);
			check_int(-(int64_t)p);
			check_int(-(int64_t)p + 1);
		}
	}
}

/* Scattered bits (a multiplicative hash of i), cut to every length from 64 bits to 1. */
static void scattered_values_of_every_length(void **state)
{
	(void)state;
	for (uint64_t i = 1; i <= 200000; i++) {
		uint64_t v = (i * 0x9E3779B97F4A7C15u) >> (i % 64);

		check_uint(v);
		check_int((int64_t)v);
	}
}

/* fixed_digits(v, n): printf's last n digits of v, zeros before where v has fewer; n bytes, no more. */
static void check_fixed(uint64_t v, int n)
{
	char want[48], got[24 + 2];

	snprintf(want, sizeof(want), "%020" PRIu64, v);
	memset(got, 'x', sizeof(got));
	fixed_digits(v, n, got + 1);
	if (memcmp(got + 1, want + 20 - n, (size_t)n) || got[0] != 'x' || got[n + 1] != 'x')
		fail_msg("fixed_digits(%" PRIu64 ", %d): \"%.*s\", want \"%.*s\"", v, n, n, got + 1,
			 n, want + 20 - n);
}

/* Every group of eight digits (a stride through them), at every count from 1 to 20. */
static void fixed_digits_of_every_count(void **state)
{
	(void)state;
	for (uint64_t x = 0; x < 100000000; x += x < 100000 ? 1 : 97) {
		check_fixed(x, 8);
		check_fixed(x * 100000000 + (99999999 - x), 16);
	}
	for (uint64_t i = 1; i <= 20000; i++) {
		uint64_t v = (i * 0x9E3779B97F4A7C15u) >> (i % 64);

		for (int n = 1; n <= 20; n++)
			check_fixed(v, n);
	}
	check_fixed(UINT64_MAX, 20);
	check_fixed(0, 20);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(extremes),
		cmocka_unit_test(powers_of_ten_and_neighbours),
		cmocka_unit_test(scattered_values_of_every_length),
		cmocka_unit_test(fixed_digits_of_every_count),
	};
	return cmocka_run_group_tests_name("int_text", tests, NULL, NULL);
}
