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

/* x < 10^8 as its eight digits, the first at buf[0]. */
static inline void eight_digits(uint32_t x, char *buf)
{
	uint64_t digits = digit_lanes(x) + DIGIT_ZEROS;

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

/*
 * Below 10^8 (most counts of an interval), the eight digits' word shifted
 * past the leading zeros and stored whole: buf has room for INT_TEXT_MAX,
 * the bytes after the text are the NUL's and the next writer's.  Not the
 * digits stored aside and copied out by their length: a count's text took
 * a fifth fewer instructions this way (issue 27).
 */
size_t uint_text(uint64_t v, char *buf)
{
	size_t len = digit_count(v);

	if (len <= 8) {
		uint64_t text = (digit_lanes((uint32_t)v) + DIGIT_ZEROS) >> (8 * (8 - len));

		memcpy(buf, &text, sizeof(text));
		buf[len] = '\0';
		return len;
	}
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
