// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The one integer formatter (util/int_text.h), judged by glibc's printf: the
 * same text for the extremes, every power of ten and its neighbours, and a
 * sweep of scattered values of every length, with the length returned and a NUL,
 * and nothing written past INT_TEXT_MAX bytes.
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
		assert_int_equal(got_[INT_TEXT_MAX], 'x');         \
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

/*
 * Every group of eight digits (a stride through them), alone and in a
 * 16-digit number, and scattered values: each against printf, nothing
 * written past INT_TEXT_MAX bytes (CHECK).
 */
static void every_group_of_eight_digits(void **state)
{
	(void)state;
	for (uint64_t x = 0; x < 100000000; x += x < 100000 ? 1 : 97) {
		check_uint(x);
		check_uint(x * 100000000 + (99999999 - x));
	}
	for (uint64_t i = 1; i <= 20000; i++) {
		uint64_t v = (i * 0x9E3779B97F4A7C15u) >> (i % 64), p = 10;

		for (int n = 1; n < 20; n++, p *= 10)
			check_uint(v % p); /* its last n digits */
	}
	check_uint(UINT64_MAX);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(extremes),
		cmocka_unit_test(powers_of_ten_and_neighbours),
		cmocka_unit_test(scattered_values_of_every_length),
		cmocka_unit_test(every_group_of_eight_digits),
	};
	return cmocka_run_group_tests_name("int_text", tests, NULL, NULL);
}
