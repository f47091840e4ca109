/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * A growing text the exposition's samples are appended to, a piece one
 * memcpy (stdio would lock, measure and copy each).  Running out of memory
 * is kept in the buffer (failed), checked once when the text is done, so
 * the many appends need no check each.
 */
#ifndef TMACG_PROM_BUF_H
#define TMACG_PROM_BUF_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

struct prom_buf {
	char *p; /* malloc'ed; NULL until the first append */
	size_t len, cap;
	bool failed; /* an append was lost to out of memory */
};

/*
 * Room for more bytes past len: true, or false (and b->failed) when out of
 * memory.
 */
bool prom_buf_grow(struct prom_buf *b, size_t more);

static inline bool prom_buf_room(struct prom_buf *b, size_t more)
{
	return b->cap - b->len >= more || prom_buf_grow(b, more);
}

static inline void prom_buf_put(struct prom_buf *b, const char *s, size_t n)
{
	/* Nothing to add: b->p may still be NULL, which memcpy may not take. */
	if (!n || !prom_buf_room(b, n))
		return;
	memcpy(b->p + b->len, s, n);
	b->len += n;
}

static inline void prom_buf_puts(struct prom_buf *b, const char *s)
{
	prom_buf_put(b, s, strlen(s));
}

static inline void prom_buf_putc(struct prom_buf *b, char c)
{
	if (prom_buf_room(b, 1))
		b->p[b->len++] = c;
}

/* Empties b, keeping its memory; failed again false. */
static inline void prom_buf_rewind(struct prom_buf *b)
{
	b->len = 0;
	b->failed = false;
}

void prom_buf_free(struct prom_buf *b);

#endif
