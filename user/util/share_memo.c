// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "util/share_memo.h"

const char *share_memo_fill(struct share_memo *m, unsigned slot, uint64_t bits, size_t *len)
{
	double v;

	memcpy(&v, &bits, sizeof(v));
	*len = share_text(v, m->text[slot]);
	m->bits[slot] = bits;
	m->len[slot] = (uint8_t)*len;
	return m->text[slot];
}
