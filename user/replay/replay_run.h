/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* tmacg --replay FILE: the model on recorded counts, printed like live output. */
#ifndef TMACG_REPLAY_RUN_H
#define TMACG_REPLAY_RUN_H

#include <stdbool.h>
#include <stdio.h>

#include "output/cgroup_record.h"

struct tma_model;
struct replay_data;
struct replay_source;
struct replay_record;
struct model_result;
struct rl_table;

/*
 * One record as it was evaluated: what a printer needs to write a line
 * that evaluates the same when it is replayed in turn.
 */
struct replay_eval {
	struct model_result *res;
	/* where its retire latencies came from (quality.retire_latency); NULL: the model reads none */
	const char *retire_latency;
	/* the given latencies (the record's own, else --retire-latency's); NULL: none */
	const struct rl_table *latencies_given;
	/* [model_event_count()]: each event's value as the formulas read it */
	const double *events;
	/* [model_event_count()]: the events the formulas read (level, info, flags) */
	const bool *read;
	bool live; /* the input may pause (a pipe): flush what is written for this record */
};

/* Handed each record evaluated: 0 to go on, else the error. */
typedef int (*replay_fn)(void *ctx, const struct replay_record *rec, const struct replay_eval *ev);

/*
 * The one loop of every replay format: evaluates each record of src in order
 * (absent counters 0; retire latencies the record's own, else src->rl_file's,
 * each missing one from src->rl_defaults) to level and hands it to fn.  0, 1
 * when the model failed (said on err with the record's line), -ENOMEM (said),
 * or fn's error.  The input's own failures are src's (replay_source_end).
 */
int replay_each_from(struct replay_source *src, const struct tma_model *m, int level, bool info,
		     replay_fn fn, void *ctx, FILE *err);

/*
 * The loop body of replay_each_from, for a caller that makes its own
 * records (--group-by's sums, several models in one run): one model's
 * evaluation state, fed a record at a time.  The events the records lack are
 * counted across every record fed and said once, by replay_evaluator_report.
 */
struct replay_evaluator;
/* rl_defaults: Intel's published latencies of the CPU running m (not owned); NULL: none. */
struct replay_evaluator *replay_evaluator_new(const struct tma_model *m, int level, bool info,
					      const struct rl_table *rl_defaults);
/*
 * rec, read from src (its name for messages, --retire-latency's latencies),
 * evaluated and handed to fn: 0, 1 when the model failed (said on err), or
 * fn's error.
 */
int replay_evaluator_feed(struct replay_evaluator *e, const struct replay_record *rec,
			  const struct replay_source *src, replay_fn fn, void *ctx, FILE *err);
/* The events the records fed so far lacked, each named once on err. */
void replay_evaluator_report(const struct replay_evaluator *e, const char *name, FILE *err);
void replay_evaluator_free(struct replay_evaluator *e);

/* A record as the printers take it; line points into task and resource. */
struct replay_line {
	struct report_line line;
	struct report_task task;
	struct resource resource;
	double *measured;	 /* line.measured: quality.measured by node, read back */
	const char **unmeasured; /* line.unmeasured: quality.unmeasured by node */
};

/*
 * The line of rec as it was evaluated (ev), as measured (a tmacg/1
 * line's origin: time, host, resource, quality); counts: with a live line's
 * counts (replay_counts.h), which replay it the same, freed by
 * replay_line_free.  0 or -ENOMEM.
 */
int replay_line(struct replay_line *rl, const struct replay_record *rec, const struct tma_model *m,
		int level, bool info, const struct replay_eval *ev, bool counts);
void replay_line_free(struct replay_line *rl);

/* What replay_print_record writes to: a JSON line (json) or a tree block per record. */
struct replay_printer {
	const struct tma_model *m;
	int level;
	bool json, color, info;
	FILE *out;
};
/* A replay_fn (ctx: a struct replay_printer): 0, or -errno when out could not be written. */
int replay_print_record(void *ctx, const struct replay_record *rec, const struct replay_eval *ev);

/*
 * Each record of src printed as it is read, one JSON line (json) or one
 * tree block: 0, or 1 with the reason on err; src's own end (bad lines
 * skipped, an input that failed) is the caller's.
 */
int replay_run_from(struct replay_source *src, const struct tma_model *m, int level, bool json,
		    bool color, bool info, FILE *out, FILE *err);
/* The same on records already read. */
int replay_run_data(const struct replay_data *d, const struct tma_model *m, int level, bool json,
		    bool color, bool info, FILE *out, FILE *err);
/*
 * A replay's error as its exit code: 0 or 1, an output that could not be
 * written said on err, a closed pipe (| head) not (0).
 */
int replay_exit_code(int rc, FILE *err);

#endif /* TMACG_REPLAY_RUN_H */
