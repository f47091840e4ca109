// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "util/int_text.h"

size_t uint_text(uint64_t v, char *buf)
{
	char rev[20]; /* UINT64_MAX has 20 digits */
	size_t n = 0, len;

	do
		rev[n++] = (char)('0' + v % 10);
	while (v /= 10);
	len = n;
	for (size_t i = 0; i < len; i++)
		buf[i] = rev[--n];
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
