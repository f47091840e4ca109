/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * An interval's exposition as the pieces it was built in, served one after
 * the other: a level-6 scrape of 1,000 cgroups is 27 MiB, and copying it
 * into one allocation each interval was a sixth of its cost (issue 27).  A
 * piece a node family was written in goes back to the builder once no reply
 * sends it any more (prom_expo_recycle), so the next interval writes into
 * memory already there.
 */
#ifndef TMACG_PROM_TEXT_H
#define TMACG_PROM_TEXT_H

#include <stddef.h>

/* Families with samples written apart (prom_expo.c's node families), plus the text between. */
#define PROM_TEXT_MAX_PIECES 16

struct prom_piece {
	char *buf; /* malloc'ed */
	size_t len, cap;
	int family; /* >= 0: the builder's node family whose buffer this is; -1: none */
};

struct prom_text {
	int n;
	struct prom_piece piece[PROM_TEXT_MAX_PIECES];
};

/* The text's length: its pieces' together. */
size_t prom_text_len(const struct prom_text *t);
/* The pieces joined into one NUL-terminated string (malloc'ed), or NULL. */
char *prom_text_join(const struct prom_text *t, size_t *len);
/* Frees every piece; t is empty after. */
void prom_text_free(struct prom_text *t);

#endif
