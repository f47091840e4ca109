/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * An independent strict UTF-8 check for the tests (RFC 3629 section 4's table,
 * range by range), so tmacg's own decoder is never its own judge.
 */
#ifndef TMACG_UTF8_CHECK_H
#define TMACG_UTF8_CHECK_H

#include <stdbool.h>
#include <stddef.h>

bool utf8_check_strict(const unsigned char *s, size_t n);

/* docs/output.md's decoding of a JSON name: U+EF80..U+EFFF back to bytes 0x80..0xFF. */
size_t utf8_check_name_bytes(const char *in, char *out);

#endif
