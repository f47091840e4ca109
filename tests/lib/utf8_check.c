// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "utf8_check.h"

/* RFC 3629 section 4's well-formed byte sequences, range by range. */
bool utf8_check_strict(const unsigned char *s, size_t n)
{
	static const struct {
		unsigned char lo[4], hi[4];
		int len;
	} forms[] = {
		{ { 0x00 }, { 0x7F }, 1 },
		{ { 0xC2, 0x80 }, { 0xDF, 0xBF }, 2 },
		{ { 0xE0, 0xA0, 0x80 }, { 0xE0, 0xBF, 0xBF }, 3 },
		{ { 0xE1, 0x80, 0x80 }, { 0xEC, 0xBF, 0xBF }, 3 },
		{ { 0xED, 0x80, 0x80 }, { 0xED, 0x9F, 0xBF }, 3 },
		{ { 0xEE, 0x80, 0x80 }, { 0xEF, 0xBF, 0xBF }, 3 },
		{ { 0xF0, 0x90, 0x80, 0x80 }, { 0xF0, 0xBF, 0xBF, 0xBF }, 4 },
		{ { 0xF1, 0x80, 0x80, 0x80 }, { 0xF3, 0xBF, 0xBF, 0xBF }, 4 },
		{ { 0xF4, 0x80, 0x80, 0x80 }, { 0xF4, 0x8F, 0xBF, 0xBF }, 4 },
	};
	size_t i = 0;

	while (i < n) {
		bool ok = false;

		for (size_t f = 0; f < sizeof(forms) / sizeof(forms[0]) && !ok; f++) {
			int k;

			if (i + forms[f].len > n)
				continue;
			for (k = 0; k < forms[f].len; k++)
				if (s[i + k] < forms[f].lo[k] || s[i + k] > forms[f].hi[k])
					break;
			if (k == forms[f].len) {
				i += k;
				ok = true;
			}
		}
		if (!ok)
			return false;
	}
	return true;
}

/* U+EF80..U+EFFF are EE BE 80 .. EE BF BF in UTF-8. */
size_t utf8_check_name_bytes(const char *in, char *out)
{
	const unsigned char *s = (const unsigned char *)in;
	size_t o = 0;

	for (size_t i = 0; s[i];) {
		if (s[i] == 0xEE && (s[i + 1] == 0xBE || s[i + 1] == 0xBF) && s[i + 2]) {
			out[o++] = (char)(((s[i + 1] & 1) << 6 | (s[i + 2] & 0x3F)) + 0x80);
			i += 3;
		} else {
			out[o++] = (char)s[i++];
		}
	}
	out[o] = '\0';
	return o;
}
