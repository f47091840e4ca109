// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "prom/prom_text.h"

#include <stdlib.h>
#include <string.h>

size_t prom_text_piece_read(const struct prom_text *t, int i, struct prom_rows_cursor *c, char *buf,
			    size_t cap)
{
	const struct prom_piece *p = &t->piece[i];
	size_t n;

	if (p->rows_family >= 0)
		return t->rows ? prom_rows_render(t->rows, p->rows_family, c, buf, cap) : 0;
	/* A byte piece: c->sample is the offset reached. */
	n = p->len - c->sample < cap ? p->len - c->sample : cap;
	memcpy(buf, p->buf + c->sample, n);
	c->sample += n;
	return n;
}

/* Reads the whole text through a buffer of its own; into out (NULL: counts only). */
static size_t read_all(const struct prom_text *t, char *out)
{
	size_t cap = PROM_TEXT_CHUNK, total = 0;
	char *buf;

	if (t->rows && prom_rows_max_sample(t->rows) > cap)
		cap = prom_rows_max_sample(t->rows);
	buf = out ? NULL : malloc(cap);
	if (!out && !buf)
		return (size_t)-1;
	for (int i = 0; i < t->n; i++) {
		struct prom_rows_cursor c = { 0 };
		size_t n;

		while ((n = prom_text_piece_read(t, i, &c, out ? out + total : buf, cap)))
			total += n;
	}
	free(buf);
	return total;
}

size_t prom_text_len(const struct prom_text *t)
{
	return read_all(t, NULL);
}

char *prom_text_join(const struct prom_text *t, size_t *len)
{
	size_t n = prom_text_len(t);
	char *s;

	if (n == (size_t)-1)
		return NULL;
	/* Room for the longest sample past the end: a read may need it to stop. */
	s = malloc(n + PROM_TEXT_CHUNK + (t->rows ? prom_rows_max_sample(t->rows) : 0) + 1);
	if (!s)
		return NULL;
	read_all(t, s);
	s[n] = '\0';
	*len = n;
	return s;
}

void prom_text_free(struct prom_text *t)
{
	for (int i = 0; i < t->n; i++)
		free(t->piece[i].buf);
	prom_rows_free(t->rows);
	t->rows = NULL;
	t->n = 0;
}
