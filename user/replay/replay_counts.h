/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* The "counts" of a replayed line: what a live line of the model carries. */
#ifndef TMACG_REPLAY_COUNTS_H
#define TMACG_REPLAY_COUNTS_H

#include <stdbool.h>

struct report_line;
struct replay_record;
struct replay_eval;
struct tma_model;

/*
 * line's counts (count_names, count_values, count_derived, ncounts, nsummary; the arrays
 * freed by the caller), in a live line's order: on_cpu_s and
 * cpu_utilization where the record has the time, the model's counts (the
 * record's, else computed from its events), the fixed counters' headline
 * counts (cycles, instructions, slots) where the model reads them, then the
 * record's own counts as they came (a tmacg/1 line's, every counter it opened)
 * or, for other input, every event the formulas read with the value they
 * read, so that replaying the line evaluates it the same.  0 or -ENOMEM.
 */
int replay_line_counts(struct report_line *line, const struct replay_record *rec,
		       const struct tma_model *m, const struct replay_eval *ev);

/*
 * The summary counts a live line of m starts with: on_cpu_s, cpu_utilization,
 * then the model's counts, into names (room for model_node_count(m) + 2).
 * How many.  The live view takes its CPU% and rate columns from them.
 */
int replay_summary_names(const struct tma_model *m, const char **names);

/*
 * A count of a line that is not an event but adds up over lines, so a sum
 * of lines carries it (--group-by): on_cpu_s and the headline counts
 * (cycles, instructions, slots).  Rates and the model's counts are
 * computed again from the sums instead.
 */
bool replay_count_adds_up(const char *name);

#endif /* TMACG_REPLAY_COUNTS_H */
