/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * An interval's exposition as the pieces it was built in, served one after
 * the other: text written while the lines came (a few samples a cgroup),
 * and the node families' samples as numbers (prom/prom_rows.h), made into
 * text only as a scrape sends them.  Once no reply sends a text any more,
 * its rows go back to the builder (prom_expo_recycle), so the next interval
 * writes into memory already there.
 */
#ifndef TMACG_PROM_TEXT_H
#define TMACG_PROM_TEXT_H

#include <stddef.h>

#include "prom/prom_rows.h"

/* The families written apart (prom_expo.c's node families), plus the text between. */
#define PROM_TEXT_MAX_PIECES 16

struct prom_piece {
	char *buf; /* malloc'ed; NULL for rows */
	size_t len, cap;
	/* >= 0: no bytes, the text's rows of this family (enum prom_rows_family); -1: buf */
	int rows_family;
};

struct prom_text {
	int n;
	struct prom_piece piece[PROM_TEXT_MAX_PIECES];
	struct prom_rows *rows; /* what the rows pieces are made from; NULL: none */
};

/* Room for a piece of text (copied by the server when needed): at least this much. */
#define PROM_TEXT_CHUNK (64 * 1024)

/*
 * Piece i's text from *c on into buf (cap >= the rows' longest sample, or
 * a byte piece's rest): as much as fits, whole samples; *c moves past it.
 * 0 once the piece is all written.
 */
size_t prom_text_piece_read(const struct prom_text *t, int i, struct prom_rows_cursor *c, char *buf,
			    size_t cap);
/* The text's length: its pieces' together (rows made into text to count them). */
size_t prom_text_len(const struct prom_text *t);
/* The pieces joined into one NUL-terminated string (malloc'ed), or NULL. */
char *prom_text_join(const struct prom_text *t, size_t *len);
/* Frees every piece and the rows; t is empty after. */
void prom_text_free(struct prom_text *t);

#endif
