/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * The records a replay prints, one at a time: from an input read as it
 * comes (--replay), or from records already read (tests, the HTML report's
 * totals).  A bad line costs that line: it is named on stderr (at most
 * REPLAY_NAMED_MAX of them, then a count) and the records around it go on.
 */
#ifndef TMACG_REPLAY_SOURCE_H
#define TMACG_REPLAY_SOURCE_H

#include <stdbool.h>
#include <stdio.h>

#include "replay/replay_read.h"

/* Bad lines named one by one; past that, one count at the end. */
#define REPLAY_NAMED_MAX 20

struct replay_source {
	const char *name;  /* for messages: the input being read */
	const char *label; /* for what is said at the end: every input's (replay_source_chain) */
	/* Not owned: --retire-latency's latencies, and Intel's defaults (replay_data's). */
	const struct rl_table *rl_file, *rl_defaults;
	/* The input may pause between lines: what is printed is flushed at once. */
	bool live;
	/*
	 * Lines that name a model other than the first one's, or another TMA
	 * version of it, are bad lines: no --model says which one to replay with.
	 */
	bool one_model;
	int nrecords; /* handed out so far */
	int skipped;  /* bad lines passed over */
	int rc;	      /* after the end: 0, or the error that ended the input early (said) */
	/* private */
	const struct replay_data *data;
	struct replay_reader *reader;
	struct replay_reader *more; /* read after reader, in turn */
	int nmore;
	FILE *err;
	struct replay_record cur;
	bool have_cur, pending;
	int named;
	int first_line; /* of the first line naming a model; 0: none yet */
	char *first_model, *first_version;
};

/* A source of d's records (every one of them good already): it needs no replay_source_end. */
struct replay_source replay_source_data(const struct replay_data *d);
/* A source reading r as it goes, naming bad lines on err. */
void replay_source_reader(struct replay_source *s, struct replay_reader *r, FILE *err);

/*
 * The n readers of more read after s's own, one after the other, as one
 * input (--replay FILE...): messages name each line's own input, what is
 * said at the end names label ("a.jsonl and 2 more").
 */
void replay_source_chain(struct replay_source *s, struct replay_reader *more, int n,
			 const char *label);

/*
 * The next record, valid until the next call; NULL at the end, or when the
 * input failed (s->rc, said on err).
 */
const struct replay_record *replay_source_next(struct replay_source *s);
/* The record the next call of replay_source_next returns, read now; NULL: none. */
const struct replay_record *replay_source_peek(struct replay_source *s);

/*
 * The record replay_source_next handed out last is refused by the caller
 * (why: "NAME:LINE: what is wrong"): a bad line, named and counted as one,
 * not as replayed.
 */
void replay_source_reject(struct replay_source *s, const char *why);

/*
 * After the last record: the bad lines not named counted, an input with no
 * record said, the record freed.  0, or 1 when lines were skipped or the input
 * failed: the exit code of a replay that printed all it could.
 */
int replay_source_end(struct replay_source *s);

#endif /* TMACG_REPLAY_SOURCE_H */
