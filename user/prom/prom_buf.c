// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "prom/prom_buf.h"

#include <stdint.h>
#include <stdlib.h>

bool prom_buf_grow(struct prom_buf *b, size_t more)
{
	size_t want = b->cap ? b->cap : 256;
	char *grown;

	if (more > SIZE_MAX / 2 - b->len) {
		b->failed = true;
		return false;
	}
	while (want - b->len < more)
		want *= 2;
	grown = realloc(b->p, want);
	if (!grown) {
		b->failed = true;
		return false;
	}
	b->p = grown;
	b->cap = want;
	return true;
}

void prom_buf_free(struct prom_buf *b)
{
	free(b->p);
	*b = (struct prom_buf){ 0 };
}
