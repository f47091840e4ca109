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

static size_t digit_count(uint64_t v)
{
	size_t n = 1;

	for (; v >= 10000; v /= 10000)
		n += 4;
	return n + (v >= 10) + (v >= 100) + (v >= 1000);
}

size_t uint_text(uint64_t v, char *buf)
{
	size_t len = digit_count(v), i = len;

	/* From the last digit back, in place: no reversal. */
	while (v >= 100) {
		i -= 2;
		memcpy(buf + i, two_digits + 2 * (v % 100), 2);
		v /= 100;
	}
	if (v >= 10)
		memcpy(buf + i - 2, two_digits + 2 * v, 2);
	else
		buf[i - 1] = (char)('0' + v);
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
