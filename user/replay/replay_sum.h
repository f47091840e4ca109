/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * The counts of many lines summed into one record that evaluates as a line
 * of those sums (--replay --group-by): the model's events and the CPU time
 * added, the seconds the lines cover, their quality merged.  A count that
 * one line lacks or has null is null in the sum, never a partial sum, and
 * the nodes that read it say so.  The lines must share what the formulas
 * read besides counts (model, TMA version, flags, slot width, latencies):
 * replay_group.c keeps lines that differ apart.
 */
#ifndef TMACG_REPLAY_SUM_H
#define TMACG_REPLAY_SUM_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "output/cgroup_record.h"
#include "replay/replay_read.h"

struct tma_model;

struct replay_sum {
	const struct tma_model *m; /* the model evaluating the sum: its events are summed */
	double *sum;		   /* by event */
	int *nbad;		   /* by event: lines with it null, or tmacg/1 lines without it */
	bool *named;		   /* by event: some line has it, as a number or null */
	bool *here;		   /* scratch: the events of the line being added */
	/* the counts besides events that add up (replay_count_adds_up): on_cpu_s, cycles, ... */
	int nplain;
	struct plain_count {
		char *name;
		double sum;
		uint64_t lines; /* with a number for it */
	} *plain;
	uint64_t lines, strict;	     /* strict: tmacg/1 lines */
	struct timespec end;	     /* the latest line's time */
	double span_s;		     /* from the earliest line's start to end */
	struct replay_record first;  /* flags, slot width, latencies, line number */
	struct replay_origin origin; /* the merged quality, and what the sum says */
};

/* s for sums evaluated by m, its first line rec: 0 or -ENOMEM (then freed). */
int replay_sum_init(struct replay_sum *s, const struct tma_model *m,
		    const struct replay_record *rec);
/* rec's counts, time and quality added: 0 or -ENOMEM. */
int replay_sum_add(struct replay_sum *s, const struct replay_record *rec);
/*
 * The record of the sums into *out (valid while s is, freed by
 * replay_sum_record_free): group says what was summed (its values'
 * host, cgroup and known resource keys go where a line has them).
 * 0 or -ENOMEM.
 */
int replay_sum_record(struct replay_sum *s, const struct report_group *group,
		      struct replay_record *out);
void replay_sum_record_free(struct replay_record *out);
void replay_sum_free(struct replay_sum *s);
/* from's latencies added to to: 0 or -ENOMEM. */
int replay_copy_latencies(struct rl_table *to, const struct rl_table *from);

#endif /* TMACG_REPLAY_SUM_H */
