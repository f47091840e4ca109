/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * An interval's node samples (TMA ratios, measured shares, node slots) kept
 * as numbers and written out as text only when a scrape sends them, a
 * cache-sized chunk at a time (prom_server.c): a deep level's text is some
 * eight times its numbers, too large to stay in cache whole.
 *
 * Each sample is `<family>{<line's labels><node's labels> <value>\n`, as
 * prom_expo.h writes the other families'.  The node's labels are copied
 * here from prom_nodes once per interval (a few KiB), so the rows never
 * depend on the builder's tables once published.  Built by one thread;
 * read-only after, by any number of readers at once.
 */
#ifndef TMACG_PROM_ROWS_H
#define TMACG_PROM_ROWS_H

#include <stddef.h>
#include <stdint.h>

struct prom_nodes;

/* The node families, each with its labels (prom_nodes.h) and its values' text. */
enum prom_rows_family {
	PROM_ROWS_NODE_SLOTS, /* prom_nodes.plain, exact (shortest_double) */
	PROM_ROWS_RATIO,      /* prom_nodes.ratio, RATIO_DIGITS */
	PROM_ROWS_MEASURED,   /* prom_nodes.set_label, SHARE_DIGITS cut toward zero */
	PROM_ROWS_FAMILIES
};

struct prom_rows;

/* Where a reader is in one family's samples; zeroed: at the first. */
struct prom_rows_cursor {
	size_t run, sample;
};

/* names: each family's metric name, static. */
struct prom_rows *prom_rows_new(const char *const names[PROM_ROWS_FAMILIES]);
void prom_rows_free(struct prom_rows *r);
/* Empties r for the next interval; its memory is kept. */
void prom_rows_reset(struct prom_rows *r);

/*
 * The node labels the next samples take their index in, copied unless
 * they are the ones copied last this interval.  0 or -ENOMEM.
 */
int prom_rows_labels(struct prom_rows *r, const struct prom_nodes *pn);
/* The labels of the line whose samples follow (len bytes, no braces).  0 or -ENOMEM. */
int prom_rows_line(struct prom_rows *r, const char *labels, size_t len);
/*
 * n samples of the line in family fam: sample k's node (or set,
 * PROM_ROWS_MEASURED) index into the labels index[k], its value v[k]
 * (finite).  A line's samples of a family in one call, not a call each.  0,
 * or -EINVAL or -ENOMEM with none of them kept.
 */
int prom_rows_samples(struct prom_rows *r, enum prom_rows_family fam, const int *index,
		      const double *v, size_t n);

/* The samples of fam so far. */
size_t prom_rows_count(const struct prom_rows *r, enum prom_rows_family fam);
/* The longest sample's text: a buffer this long always takes the next one. */
size_t prom_rows_max_sample(const struct prom_rows *r);
/*
 * Writes fam's samples from *c on into buf, as many whole ones as cap bytes
 * hold, and moves *c past them.  Returns the bytes written: 0 once all are
 * (cap >= prom_rows_max_sample() takes at least one while any are left).
 */
size_t prom_rows_render(const struct prom_rows *r, enum prom_rows_family fam,
			struct prom_rows_cursor *c, char *buf, size_t cap);

#endif
