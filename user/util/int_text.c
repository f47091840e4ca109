// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "util/int_text.h"

#include <string.h>

/* "00" .. "99": two digits per division (a level-6 JSON line writes ~20 digits a number). */
static const char two_digits[201] = "00010203040506070809"
				    "10111213141516171819"
				    "20212223242526272829"
				    "30313233343536373839"
				    "40414243444546474849"
				    "50515253545556575859"
				    "60616263646566676869"
				    "70717273747576777879"
				    "80818283848586878889"
				    "90919293949596979899";

const uint64_t pow10_u64[20] = { 1u,
				 10u,
				 100u,
				 1000u,
				 10000u,
				 100000u,
				 1000000u,
				 10000000u,
				 100000000u,
				 1000000000u,
				 10000000000u,
				 100000000000u,
				 1000000000000u,
				 10000000000000u,
				 100000000000000u,
				 1000000000000000u,
				 10000000000000000u,
				 100000000000000000u,
				 1000000000000000000u,
				 10000000000000000000u };

/* v's digit count without dividing: from its bit length (1233 / 4096 ~ log10(2)), then one compare. */
static size_t digit_count(uint64_t v)
{
	unsigned bits = 64 - (unsigned)__builtin_clzll(v | 1);
	unsigned t = (bits * 1233) >> 12;

	return t + ((v | 1) >= pow10_u64[t]);
}

/* v < 100: its text ends at end. */
static inline void put_two(char *end, uint32_t v)
{
	memcpy(end - 2, two_digits + 2 * v, 2);
}

/*
 * From the last digit back, in place: eight digits at a time in 32-bit
 * arithmetic (a shortest_double's 16-17 digits: two 64-bit divisions), two
 * a step within them; a known count, so no digit count and one branch a pair.
 */
void fixed_digits(uint64_t v, int n, char *buf)
{
	char *end = buf + n;
	uint32_t low;

	for (; n > 9; n -= 8, v /= 100000000) {
		low = (uint32_t)(v % 100000000);
		for (int i = 0; i < 4; i++, end -= 2, low /= 100)
			put_two(end, low % 100);
	}
	low = (uint32_t)(v % 1000000000u);
	for (; n >= 2; n -= 2, end -= 2, low /= 100)
		put_two(end, low % 100);
	if (n)
		end[-1] = (char)('0' + low % 10);
}

size_t uint_text(uint64_t v, char *buf)
{
	size_t len = digit_count(v);

	fixed_digits(v, (int)len, buf);
	buf[len] = '\0';
	return len;
}

size_t int_text(int64_t v, char *buf)
{
	if (v >= 0)
		return uint_text((uint64_t)v, buf);
	buf[0] = '-';
	/* -(uint64_t)v: INT64_MIN has no positive int64_t. */
	return 1 + uint_text(-(uint64_t)v, buf + 1);
}
