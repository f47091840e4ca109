// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "prom/prom_rows.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "prom/prom_nodes.h"
#include "util/double_text.h"

/* A text in the pool: where it starts, how long it is. */
struct rows_text {
	uint32_t at, len;
};

/* A sample: its node's labels and its value. */
struct rows_sample {
	struct rows_text own;
	double v;
};

/* One line's samples of a family, consecutive: the line's labels are in the pool once. */
struct rows_run {
	struct rows_text labels;
	size_t first, count;
};

struct rows_family {
	const char *name;
	size_t name_len;
	size_t (*text)(double, char *);
	struct rows_run *runs;
	size_t nruns, runs_cap;
	struct rows_sample *samples;
	size_t n, cap;
	uint64_t line;	 /* the line the last run is of; 0: none yet */
	size_t run_head; /* the last run's longest sample but its own labels */
	/* the node labels copied for this family, by index */
	struct rows_text *own;
	size_t nown, own_cap;
};

struct prom_rows {
	char *pool; /* every label text: the lines' and the nodes' */
	size_t pool_len, pool_cap;
	struct rows_family fam[PROM_ROWS_FAMILIES];
	uint64_t labels_build;	      /* prom_nodes.build copied this interval; 0: none */
	uint64_t line;		      /* the current line's number, from 1 */
	struct rows_text line_labels; /* the current line's */
	size_t max_sample;
};

/* Room for n elements of size each at *p (capacity *cap); false when out of memory. */
static bool grow(void **p, size_t *cap, size_t n, size_t size)
{
	size_t want = *cap ? *cap : 64;
	void *grown;

	if (n <= *cap)
		return true;
	while (want < n)
		want *= 2;
	grown = realloc(*p, want * size);
	if (!grown)
		return false;
	*p = grown;
	*cap = want;
	return true;
}

struct prom_rows *prom_rows_new(const char *const names[PROM_ROWS_FAMILIES])
{
	static size_t (*const text[PROM_ROWS_FAMILIES])(double, char *) = {
		[PROM_ROWS_NODE_SLOTS] = shortest_double,
		[PROM_ROWS_RATIO] = ratio_text,
		[PROM_ROWS_MEASURED] = share_text,
	};
	struct prom_rows *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	for (int f = 0; f < PROM_ROWS_FAMILIES; f++) {
		r->fam[f].name = names[f];
		r->fam[f].name_len = strlen(names[f]);
		r->fam[f].text = text[f];
	}
	return r;
}

void prom_rows_free(struct prom_rows *r)
{
	if (!r)
		return;
	for (int f = 0; f < PROM_ROWS_FAMILIES; f++) {
		free(r->fam[f].runs);
		free(r->fam[f].samples);
		free(r->fam[f].own);
	}
	free(r->pool);
	free(r);
}

void prom_rows_reset(struct prom_rows *r)
{
	for (int f = 0; f < PROM_ROWS_FAMILIES; f++)
		r->fam[f].nruns = r->fam[f].n = r->fam[f].nown = r->fam[f].line = 0;
	r->pool_len = 0;
	r->labels_build = 0;
	r->line = 0;
	r->line_labels = (struct rows_text){ 0 };
	r->max_sample = 0;
}

/* s (len bytes) appended to the pool: its offset in *at.  0 or -ENOMEM. */
static int pool_add(struct prom_rows *r, const char *s, size_t len, uint32_t *at)
{
	/* Offsets are 32 bits: 4 GiB of labels is no exposition anyone scrapes. */
	if (r->pool_len + len > UINT32_MAX ||
	    !grow((void **)&r->pool, &r->pool_cap, r->pool_len + len, 1))
		return -ENOMEM;
	memcpy(r->pool + r->pool_len, s, len);
	*at = (uint32_t)r->pool_len;
	r->pool_len += len;
	return 0;
}

/* n labels (texts, lens) as family f's, by index. */
static int copy_labels(struct prom_rows *r, struct rows_family *f, char *const *texts,
		       const size_t *lens, int n)
{
	f->nown = 0;
	if (!grow((void **)&f->own, &f->own_cap, (size_t)n, sizeof(*f->own)))
		return -ENOMEM;
	for (int i = 0; i < n; i++) {
		if (lens[i] > UINT32_MAX || pool_add(r, texts[i], lens[i], &f->own[i].at))
			return -ENOMEM;
		f->own[i].len = (uint32_t)lens[i];
		f->nown = (size_t)i + 1;
	}
	return 0;
}

int prom_rows_labels(struct prom_rows *r, const struct prom_nodes *pn)
{
	if (pn->build && pn->build == r->labels_build)
		return 0;
	r->labels_build = 0;
	if (copy_labels(r, &r->fam[PROM_ROWS_NODE_SLOTS], pn->plain, pn->plain_len, pn->n) ||
	    copy_labels(r, &r->fam[PROM_ROWS_RATIO], pn->ratio, pn->ratio_len, pn->n) ||
	    copy_labels(r, &r->fam[PROM_ROWS_MEASURED], pn->set_label, pn->set_label_len,
			pn->nsets))
		return -ENOMEM;
	r->labels_build = pn->build;
	return 0;
}

int prom_rows_line(struct prom_rows *r, const char *labels, size_t len)
{
	if (len > UINT32_MAX || pool_add(r, labels, len, &r->line_labels.at))
		return -ENOMEM;
	r->line_labels.len = (uint32_t)len;
	r->line++;
	return 0;
}

/* A run of family f for the current line, its samples to come. */
static int new_run(struct prom_rows *r, struct rows_family *f)
{
	if (f->nruns == f->runs_cap &&
	    !grow((void **)&f->runs, &f->runs_cap, f->nruns + 1, sizeof(*f->runs)))
		return -ENOMEM;
	f->runs[f->nruns++] = (struct rows_run){ .labels = r->line_labels, .first = f->n };
	f->line = r->line;
	/* "<name>{<labels><own> <value>\n" */
	f->run_head = f->name_len + 1 + r->line_labels.len + 1 + DOUBLE_TEXT_MAX + 1;
	return 0;
}

int prom_rows_samples(struct prom_rows *r, enum prom_rows_family fam, const int *index,
		      const double *v, size_t n)
{
	struct rows_family *f = &r->fam[fam];
	struct rows_sample *out;
	size_t own_most = 0;

	if (!r->line)
		return -EINVAL; /* no line given: a caller's mistake */
	if (!n)
		return 0;
	if (f->line != r->line && new_run(r, f))
		return -ENOMEM;
	if (f->cap - f->n < n &&
	    !grow((void **)&f->samples, &f->cap, f->n + n, sizeof(*f->samples)))
		return -ENOMEM;
	/* Written past the samples kept, and kept only once all are: a run may stay empty. */
	out = f->samples + f->n;
	for (size_t k = 0; k < n; k++) {
		struct rows_text own;

		if (index[k] < 0 || (size_t)index[k] >= f->nown)
			return -EINVAL; /* labels not given: a caller's mistake */
		own = f->own[index[k]];
		out[k] = (struct rows_sample){ .own = own, .v = v[k] };
		if (own.len > own_most)
			own_most = own.len;
	}
	f->n += n;
	f->runs[f->nruns - 1].count += n;
	if (f->run_head + own_most > r->max_sample)
		r->max_sample = f->run_head + own_most;
	return 0;
}

size_t prom_rows_count(const struct prom_rows *r, enum prom_rows_family fam)
{
	return r->fam[fam].n;
}

size_t prom_rows_max_sample(const struct prom_rows *r)
{
	return r->max_sample;
}

/*
 * The loop keeps what it reads in locals: a store through o (a char *) may
 * alias anything, and would otherwise make every field be loaded again for
 * each sample.  A run's samples share their head, `<name>{<labels>`: each
 * after the first copies it from the one before, in one piece.
 */
size_t prom_rows_render(const struct prom_rows *r, enum prom_rows_family fam,
			struct prom_rows_cursor *c, char *buf, size_t cap)
{
	const struct rows_family *f = &r->fam[fam];
	const char *pool = r->pool;
	size_t name_len = f->name_len;
	size_t (*text)(double, char *) = f->text;
	char *o = buf, *end = buf + cap;

	for (; c->run < f->nruns; c->run++, c->sample = 0) {
		const struct rows_run *run = &f->runs[c->run];
		size_t head = name_len + 1 + run->labels.len, k = c->sample, count = run->count;
		size_t most = head + 1 + DOUBLE_TEXT_MAX + 1;
		const struct rows_sample *s = f->samples + run->first;
		const char *last = NULL; /* the head written last */

		for (; k < count; k++) {
			struct rows_text own = s[k].own;

			if ((size_t)(end - o) < most + own.len) {
				c->sample = k;
				return (size_t)(o - buf);
			}
			if (last) {
				memcpy(o, last, head);
			} else {
				memcpy(o, f->name, name_len);
				o[name_len] = '{';
				memcpy(o + name_len + 1, pool + run->labels.at, run->labels.len);
			}
			last = o;
			o += head;
			memcpy(o, pool + own.at, own.len);
			o += own.len;
			*o++ = ' ';
			o += text(s[k].v, o);
			*o++ = '\n';
		}
	}
	return (size_t)(o - buf);
}
