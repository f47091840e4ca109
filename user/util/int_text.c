// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "util/int_text.h"

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

/* v's digit count: from its bit length (1233 / 4096 ~ log10(2)), then one compare. */
static int digit_count(uint64_t v)
{
	unsigned t = ((64 - (unsigned)__builtin_clzll(v | 1)) * 1233) >> 12;

	return (int)t + ((v | 1) >= pow10_u64[t]);
}

size_t uint_text(uint64_t v, char *buf)
{
	int n = digit_count(v);

	put_digits(v, n, buf); /* 20 digits at most: INT_TEXT_MAX holds the words */
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
