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

size_t uint_text_long(uint64_t v, char *buf)
{
	uint64_t low = eight_digits((uint32_t)(v % 100000000)), high = v / 100000000, head, mid;
	int n;

	if (high < 100000000) {
		head = digits_word((uint32_t)high, &n);
		memcpy(buf, &head, sizeof(head));
	} else { /* 17 to 20 digits: a head of 1 to 4, two words of 8 */
		mid = eight_digits((uint32_t)(high % 100000000));
		head = digits_word((uint32_t)(high / 100000000), &n);
		memcpy(buf, &head, sizeof(head));
		memcpy(buf + n, &mid, sizeof(mid));
		n += 8;
	}
	memcpy(buf + n, &low, sizeof(low));
	buf[n + 8] = '\0';
	return (size_t)n + 8;
}

size_t int_text(int64_t v, char *buf)
{
	if (v >= 0)
		return uint_text((uint64_t)v, buf);
	buf[0] = '-';
	/* -(uint64_t)v: INT64_MIN has no positive int64_t. */
	return 1 + uint_text(-(uint64_t)v, buf + 1);
}
