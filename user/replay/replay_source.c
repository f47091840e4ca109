// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "replay/replay_source.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/name_escape.h"

struct replay_source replay_source_data(const struct replay_data *d)
{
	return (struct replay_source){ .name = d->name,
				       .label = d->name,
				       .rl_file = d->rl_file,
				       .rl_defaults = d->rl_defaults,
				       .data = d };
}

void replay_source_reader(struct replay_source *s, struct replay_reader *r, FILE *err)
{
	*s = (struct replay_source){
		.name = r->name, .label = r->name, .live = r->live, .reader = r, .err = err
	};
}

void replay_source_chain(struct replay_source *s, struct replay_reader *more, int n,
			 const char *label)
{
	s->more = more;
	s->nmore = n;
	s->label = label;
	/* a pipe among them may pause: flush as for one */
	for (int i = 0; i < n; i++)
		s->live |= more[i].live;
}

/* The next input of the chain, at the end of one: false when none is left. */
static bool next_input(struct replay_source *s)
{
	if (!s->nmore)
		return false;
	s->reader = s->more++;
	s->nmore--;
	s->name = s->reader->name;
	return true;
}

static void drop_current(struct replay_source *s)
{
	if (s->have_cur && s->reader)
		replay_record_free(&s->cur);
	s->have_cur = false;
}

/* A bad line: named while fewer than REPLAY_NAMED_MAX were, counted always. */
static void skip(struct replay_source *s, const char *why)
{
	if (s->named++ < REPLAY_NAMED_MAX)
		fprintf(s->err, "tmacg: %s\n", why);
	s->skipped++;
}

/*
 * rec measured with the model and TMA version of the first line that named
 * one (else remembered as that one), or naming none: true; else false with
 * "NAME: line N was measured with ..." in why, or out of memory (no
 * first_model).
 */
static bool model_agrees(struct replay_source *s, const struct replay_record *rec, char *why,
			 size_t len)
{
	const struct replay_origin *g = rec->origin;
	const char *v = s->first_version, *w = g ? g->tma_version : NULL;

	if (!s->one_model || !g || !g->model)
		return true;
	if (!s->first_line) {
		s->first_model = strdup(g->model);
		s->first_version = w ? strdup(w) : NULL;
		s->first_line = rec->line;
		if (s->first_model && (!w || s->first_version))
			return true;
		free(s->first_model);
		s->first_model = NULL;
		return false;
	}
	if (strcmp(s->first_model, g->model)) {
		/* the lines' text, controls as \xHH */
		char *a = name_term_text(s->first_model), *b = name_term_text(g->model);

		snprintf(why, len,
			 "%s: line %d was measured with model %s, line %d with %s: "
			 "name the model to replay with --model ID",
			 s->name, s->first_line, a ? a : "?", rec->line, b ? b : "?");
		free(a);
		free(b);
		return false;
	}
	if (v != w && (!v || !w || strcmp(v, w))) {
		snprintf(why, len,
			 "%s: line %d was measured with TMA %s of model %s, line %d with TMA "
			 "%s: name the version to replay with --tma-version V",
			 s->name, s->first_line, v ? v : "(none)", s->first_model, rec->line,
			 w ? w : "(none)");
		return false;
	}
	return true;
}

/* The next good line of the reader into s->cur: 1, or 0 at the end or on failure (s->rc). */
static int read_record(struct replay_source *s)
{
	char why[sizeof(s->reader->msg)];
	int rc;

	while ((rc = replay_reader_next(s->reader, &s->cur)) == -EINVAL || rc == 1 ||
	       (!rc && next_input(s))) {
		if (!rc)
			continue;
		if (rc == -EINVAL) {
			skip(s, s->reader->msg);
			continue;
		}
		if (model_agrees(s, &s->cur, why, sizeof(why)))
			return 1;
		replay_record_free(&s->cur);
		if (!s->first_model) {
			s->rc = -ENOMEM;
			fprintf(s->err, "tmacg: %s: out of memory\n", s->name);
			return 0;
		}
		skip(s, why);
	}
	if (rc < 0) {
		s->rc = rc;
		fprintf(s->err, "tmacg: %s\n", s->reader->msg);
	}
	return 0;
}

const struct replay_record *replay_source_peek(struct replay_source *s)
{
	if (s->pending)
		return &s->cur;
	drop_current(s);
	if (s->data) {
		if (s->nrecords >= s->data->nrecords)
			return NULL;
		s->cur = s->data->records[s->nrecords];
	} else if (s->rc || !read_record(s)) {
		return NULL;
	}
	s->have_cur = s->pending = true;
	return &s->cur;
}

const struct replay_record *replay_source_next(struct replay_source *s)
{
	const struct replay_record *rec = replay_source_peek(s);

	s->pending = false;
	if (rec)
		s->nrecords++;
	return rec;
}

void replay_source_reject(struct replay_source *s, const char *why)
{
	skip(s, why);
	s->nrecords--;
}

int replay_source_end(struct replay_source *s)
{
	bool unread = s->pending; /* a record peeked at and never replayed (no model) */

	drop_current(s);
	s->pending = false;
	free(s->first_model);
	free(s->first_version);
	s->first_model = s->first_version = NULL;
	s->first_line = 0;
	if (!s->reader)
		return 0;
	if (s->named > REPLAY_NAMED_MAX)
		fprintf(s->err, "tmacg: %s: %d more bad lines not named\n", s->label,
			s->named - REPLAY_NAMED_MAX);
	if (s->skipped)
		fprintf(s->err, "tmacg: %s: %d bad line%s skipped, %d replayed\n", s->label,
			s->skipped, s->skipped == 1 ? "" : "s", s->nrecords);
	else if (!s->rc && !s->nrecords && !unread && s->label != s->name)
		fprintf(s->err, "tmacg: %s: no records: expected one JSON object per line\n",
			s->label);
	else if (!s->rc && !s->nrecords && !unread)
		fprintf(s->err, "tmacg: %s:%d: no records: expected one JSON object per line\n",
			s->name, s->reader->lineno);
	return s->skipped || s->rc || !s->nrecords ? 1 : 0;
}
