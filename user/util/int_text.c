// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "util/int_text.h"

#include <string.h>

#include "util/short_copy.h"

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

#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "eight_digits() lays the digits out for a little-endian word (amd64, arm64)"
#endif

/*
 * x < 10^8 as its eight digits, the first at buf[0], in one 64-bit word: its
 * first and last four digits side by side in 32-bit lanes, each cut in two
 * (16-bit lanes of two digits), each of those in two again (bytes of one
 * digit), every lane at once.  A division by 100 is a product by 10486 and
 * 20 bits off (exact below 10^4), one by 10 a product by 103 and 10 bits off
 * (exact below 100); no lane's product reaches the next lane.  A pair of
 * digits a step, by a table, was a third of a ratio's text and a fifth of a
 * JSON line's instructions (issue 27).
 */
static inline void eight_digits(uint32_t x, char *buf)
{
	uint64_t halves = x / 10000 | (uint64_t)(x % 10000) << 32;
	uint64_t hundreds = (halves * 10486) >> 20 & UINT64_C(0x0000007f0000007f);
	uint64_t pairs = hundreds | (halves - 100 * hundreds) << 16;
	uint64_t tens = (pairs * 103) >> 10 & UINT64_C(0x000f000f000f000f);
	uint64_t digits = (tens | (pairs - 10 * tens) << 8) + UINT64_C(0x3030303030303030);

	memcpy(buf, &digits, sizeof(digits));
}

/*
 * From the last digit back, eight at a time; the first (at most eight) are
 * the last of eight written aside.  A known count: no digit count, no
 * branch per digit.
 */
void fixed_digits(uint64_t v, int n, char *buf)
{
	size_t len = n > 0 ? (size_t)n : 0;
	char head[8];

	for (; len > 8; len -= 8, v /= 100000000)
		eight_digits((uint32_t)(v % 100000000), buf + len - 8);
	eight_digits((uint32_t)(v % 100000000), head);
	short_copy(buf, head + 8 - len, len);
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
