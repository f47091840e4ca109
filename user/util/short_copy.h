/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * Copies of a few dozen bytes whose length is known only at run time: a
 * line's keys (node and event names, 5 to 50 bytes) and memoised value
 * texts.  memcpy with a variable length is a library call (glibc's memmove
 * through the PLT, then a dispatch on the size): 6 % of a level-6 JSON
 * line's time for its 320 keys (issue 27).  Two fixed-size copies, the
 * second ending where the text ends (overlapping the first where it is
 * shorter), are inlined as a few loads and stores, and read or write no
 * byte outside [src, src + n) and [dst, dst + n).
 */
#ifndef TMACG_SHORT_COPY_H
#define TMACG_SHORT_COPY_H

#include <stddef.h>
#include <string.h>

/* n >= k bytes as a k-byte copy at each end, k a constant: inlined. */
static inline void copy_ends(char *dst, const char *src, size_t n, size_t k)
{
	memcpy(dst, src, k);
	memcpy(dst + n - k, src + n - k, k);
}

static inline void short_copy(char *dst, const char *src, size_t n)
{
	if (n > 64) {
		memcpy(dst, src, n);
	} else if (n >= 32) {
		copy_ends(dst, src, n, 32);
	} else if (n >= 16) {
		copy_ends(dst, src, n, 16);
	} else if (n >= 8) {
		copy_ends(dst, src, n, 8);
	} else if (n >= 4) {
		copy_ends(dst, src, n, 4);
	} else if (n) {
		dst[0] = src[0];
		dst[n / 2] = src[n / 2];
		dst[n - 1] = src[n - 1];
	}
}

#endif
