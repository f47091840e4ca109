/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * The texts (share_text, util/sig_double.h) of the shares one line writes
 * many times: quality.measured gives each node the share its perf groups
 * were measured, so a level-6 line's 88 such nodes hold some 19 values, one
 * per set of groups (issue 27; tmacg_tma_measured_ratio writes each once).  Each value's text is
 * made once per line and copied for the other nodes of its group: the digits
 * are the dearest part of a value, the copy the cheapest.
 *
 * Slots are picked by the value's bits: a value whose slot holds another is
 * formatted again and takes the slot, so a text is only ever served for the
 * very value it was made from.  Start one per line (share_memo_init): its
 * values are that line's.
 */
#ifndef TMACG_SHARE_MEMO_H
#define TMACG_SHARE_MEMO_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "util/double_text.h"

#define SHARE_MEMO_SLOTS 64

struct share_memo {
	uint64_t bits[SHARE_MEMO_SLOTS]; /* the value whose text the slot holds, where len is set */
	uint8_t len[SHARE_MEMO_SLOTS];	 /* 0: empty */
	char text[SHARE_MEMO_SLOTS][DOUBLE_TEXT_MAX];
};

static inline void share_memo_init(struct share_memo *m)
{
	memset(m->len, 0, sizeof(m->len));
}

/* Makes v's text in its slot (share_memo_text's slow path). */
const char *share_memo_fill(struct share_memo *m, unsigned slot, uint64_t bits, size_t *len);

/*
 * v's share_text (not NUL-terminated) and its length in *len; v
 * finite.  Valid until the next call: copy it before asking for another value.
 */
static inline const char *share_memo_text(struct share_memo *m, double v, size_t *len)
{
	uint64_t bits;
	unsigned slot;

	memcpy(&bits, &v, sizeof(bits));
	slot = (unsigned)((bits * UINT64_C(0x9e3779b97f4a7c15)) >> 58); /* the top 6 bits */
	if (m->len[slot] && m->bits[slot] == bits) {
		*len = m->len[slot];
		return m->text[slot];
	}
	return share_memo_fill(m, slot, bits, len);
}

/*
 * v's share_text into out, which has room for DOUBLE_TEXT_MAX bytes (a whole
 * slot is copied: a fixed-size copy, inlined), not NUL-terminated; returns
 * its length.  v finite.
 */
static inline size_t share_memo_write(struct share_memo *m, double v, char *out)
{
	size_t len;

	memcpy(out, share_memo_text(m, v, &len), DOUBLE_TEXT_MAX);
	return len;
}

#endif
