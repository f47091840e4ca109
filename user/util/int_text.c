// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "util/int_text.h"

#include <string.h>

static const uint64_t pow10_u64[20] = { 1u,
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

#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "eight_digits() lays the digits out for a little-endian word (amd64, arm64)"
#endif

/*
 * x < 10^8 as the text of its eight digits in a word, the first in the
 * lowest byte.  Its first and last four digits side by side in 32-bit lanes,
 * each cut in two (16-bit lanes of two digits), each of those in two again
 * (bytes of one digit), every lane at once: a division by 100 is a product
 * by 10486 and 20 bits off (exact below 10^4), one by 10 a product by 103
 * and 10 bits off (exact below 100), and no lane's product reaches the next
 * lane.  A few instructions for eight digits, where two digits a step from a
 * table of pairs took some forty: a level-6 line has some 300 numbers.
 */
static uint64_t eight_digits(uint32_t x)
{
	uint64_t halves = x / 10000 | (uint64_t)(x % 10000) << 32;
	uint64_t hundreds = (halves * 10486) >> 20 & UINT64_C(0x0000007f0000007f);
	uint64_t pairs = hundreds | (halves - 100 * hundreds) << 16;
	uint64_t tens = (pairs * 103) >> 10 & UINT64_C(0x000f000f000f000f);

	return (tens | (pairs - 10 * tens) << 8) + UINT64_C(0x3030303030303030);
}

void put_digits(uint64_t v, int n, char *out)
{
	char *end = out + n;
	uint64_t text;

	for (; n >= 8; n -= 8, v /= 100000000) {
		text = eight_digits((uint32_t)(v % 100000000));
		memcpy(end -= 8, &text, sizeof(text));
	}
	if (n <= 2) { /* the first one or two: no word for them */
		if (n == 2)
			*out++ = (char)('0' + v / 10 % 10);
		if (n)
			*out = (char)('0' + v % 10);
		return;
	}
	/* the first n (3 to 7): the last n of the next eight, in pieces of 1, 2 and 4 */
	text = eight_digits((uint32_t)(v % 100000000)) >> (8 * (8 - n));
	if (n & 1) {
		*out++ = (char)text;
		text >>= 8;
	}
	if (n & 2) {
		uint16_t two = (uint16_t)text;

		memcpy(out, &two, sizeof(two));
		out += 2;
		text >>= 16;
	}
	if (n & 4) {
		uint32_t four = (uint32_t)text;

		memcpy(out, &four, sizeof(four));
	}
}

/* v's digit count: from its bit length (1233 / 4096 ~ log10(2)), then one compare. */
static int digit_count(uint64_t v)
{
	unsigned t = ((64 - (unsigned)__builtin_clzll(v | 1)) * 1233) >> 12;

	return (int)t + ((v | 1) >= pow10_u64[t]);
}

size_t uint_text(uint64_t v, char *buf)
{
	int n = digit_count(v);

	put_digits(v, n, buf);
	buf[n] = '\0';
	return (size_t)n;
}

size_t int_text(int64_t v, char *buf)
{
	if (v >= 0)
		return uint_text((uint64_t)v, buf);
	buf[0] = '-';
	/* -(uint64_t)v: INT64_MIN has no positive int64_t. */
	return 1 + uint_text(-(uint64_t)v, buf + 1);
}
