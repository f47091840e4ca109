// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "util/double_memo.h"

const char *double_memo_fill(struct double_memo *m, unsigned slot, uint64_t bits, size_t *len)
{
	double v;

	memcpy(&v, &bits, sizeof(v));
	*len = shortest_double(v, m->text[slot]);
	m->bits[slot] = bits;
	m->len[slot] = (uint8_t)*len;
	return m->text[slot];
}
