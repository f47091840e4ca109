// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "prom/prom_text.h"

#include <stdlib.h>
#include <string.h>

size_t prom_text_len(const struct prom_text *t)
{
	size_t n = 0;

	for (int i = 0; i < t->n; i++)
		n += t->piece[i].len;
	return n;
}

char *prom_text_join(const struct prom_text *t, size_t *len)
{
	size_t n = prom_text_len(t), at = 0;
	char *s = malloc(n + 1);

	if (!s)
		return NULL;
	for (int i = 0; i < t->n; i++) {
		memcpy(s + at, t->piece[i].buf, t->piece[i].len);
		at += t->piece[i].len;
	}
	s[n] = '\0';
	*len = n;
	return s;
}

void prom_text_free(struct prom_text *t)
{
	for (int i = 0; i < t->n; i++)
		free(t->piece[i].buf);
	t->n = 0;
}
