/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * tmacg --replay FILE --group-by KEY[,KEY...] [--interval DUR]: the counts of
 * the lines of each group summed, over the whole input or over each DUR of
 * the lines' time, and one line per group evaluated from the sums
 * (docs/output.md "Summing lines: --group-by").  Lines whose formulas differ
 * (model, TMA version, SMT, PERF_METRICS, slot width, retire latencies) are
 * never summed together.  Memory holds one sum per group of the intervals
 * open, never the lines.
 */
#ifndef TMACG_REPLAY_GROUP_H
#define TMACG_REPLAY_GROUP_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct replay_source;
struct tma_model;

struct replay_group_config {
	const char *group_by; /* --group-by's list */
	uint64_t interval_ns; /* --interval; 0: the whole input */
	/*
	 * The model of the lines that name none; with fixed_model (--model,
	 * --model-file) every line's.  Else each line is evaluated with the
	 * model it names, at tma_version when given (--tma-version), else at
	 * its own.
	 */
	const struct tma_model *m;
	bool fixed_model;
	const char *tma_version;
	int level;
	bool info, json, color;
	FILE *out, *err;
};

/*
 * Reads src to its end, printing each group's line as soon as its interval
 * is whole (at the end without --interval).  0, or 1 with the reason on err
 * (a model that failed, output that could not be written, a bad --group-by);
 * src's own end is the caller's (replay_source_end).
 */
int replay_group_run(struct replay_source *src, const struct replay_group_config *c);

#endif /* TMACG_REPLAY_GROUP_H */
