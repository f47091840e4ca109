/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * A model's formulas in PromQL, for one formula state (the flags, a host's
 * facts the formulas branch on), over the per-workload sums the recording
 * rules keep (prom/rules_gen.c, docs/prometheus.md "Recording rules").  The
 * evaluator's rules (model_eval.c) in PromQL terms:
 *   - a value is a vector with the workload's labels, or a number where the
 *     expression reads only numbers, constants and the state's flags (folded);
 *   - a division by zero gives no sample: the divisor is filtered `!= 0`; in
 *     a threshold (lazily: where it is reached) it takes the node's sample away;
 *   - a count missing for the workload gives no sample, and neither does any
 *     node reading it; a node that is null for a division by zero reads as 0
 *     in the others (`or 0 * <its events present>`), as in the reference;
 *   - `and`, `or`, `if else` keep Python's values and evaluate lazily: a
 *     branch not taken cannot take the sample away.
 */
#ifndef TMACG_RULES_EXPR_H
#define TMACG_RULES_EXPR_H

#include <stdbool.h>
#include <stdio.h>

struct tma_model;

/* Recorded series the expressions read. */
#define RULES_EVENTS "namespace_workload_event:tmacg_events:increase"
/*
 * The counts RULES_EVENTS holds per workload and state: one series a workload,
 * read where an expression needs every workload of a state (zero_vector), in
 * place of counting RULES_EVENTS' series of every event again in each rule.
 */
#define RULES_EVENT_SUMS "namespace_workload:tmacg_event_sums:count"
#define RULES_RATIO "namespace_workload:tmacg_tma_ratio:increase"
#define RULES_FLAGGED "namespace_workload:tmacg_tma_flagged:increase"
#define RULES_PATH "namespace_workload:tmacg_tma_bottleneck_path:increase"
#define RULES_BOTTLENECK "namespace_workload:tmacg_bottleneck_info:increase"
/* The hosts' slot width (their pmu_slots label) as a value, per workload and state. */
#define RULES_PMU_SLOTS "namespace_workload:tmacg_pmu_slots:value"

struct rules_state {
	const struct tma_model *m;
	unsigned flags;	       /* enum model_flag */
	bool pmu_slots;	       /* the hosts give a slot width: pmu_slots reads RULES_PMU_SLOTS */
	const char *sel;       /* the state's label matchers: model="icx",tma_version="5.2",... */
	const char *window;    /* "5m": the recorded series' suffix */
	double window_s;       /* interval-s */
	int level;	       /* nodes of levels 1..level are recorded (read, not inlined) */
	const double *latency; /* by latency index; NAN: none known */
};

/* A translated expression: a number, or PromQL text (malloc'ed); absent: never a sample. */
struct pq {
	char *text;
	double num;
	bool absent;
};

/* Node i's value (cap applied), as a vector; NULL when it can never have one. */
char *rules_node_value(const struct rules_state *s, int i);
/*
 * Whether node i's threshold can divide by zero (or read a missing count) where
 * the node has a value: the node is then null, as the evaluator's is, and its
 * value reads what the threshold reads.
 */
bool rules_threshold_may_fail(const struct rules_state *s, int i);
/* Node i's flag, 1 or 0 while it has a value; NULL: never flagged. */
char *rules_node_flag(const struct rules_state *s, int i);
/* The model's SLOTS: NULL when it has none (*num set when it is a number). */
struct pq rules_slots(const struct rules_state *s);
/* `sum without (tma_node, level) (NAME<window>{sel,tma_node="PATH"})` */
char *rules_recorded(const struct rules_state *s, const char *name, int node);

/*
 * An allocation of the rules failed: NULL means both "never a sample" and
 * "out of memory" in the functions above, so each failure is noted here and
 * the file is refused rather than written with a rule or a term missing.
 */
void rules_out_of_memory(void);
/* Whether one was noted since the last call; clears it. */
bool rules_take_out_of_memory(void);
/* A text built in pieces: open_memstream's stream, NULL (noted above) when out of memory. */
FILE *rules_stream(char **text, size_t *len);
/* Closes it: the text, or NULL (noted, *text freed and NULL) when out of memory. */
char *rules_stream_end(FILE *f, char **text);
/* asprintf's text, malloc'ed; NULL (noted above) when out of memory. */
char *rules_fmt(const char *f, ...) __attribute__((format(printf, 1, 2)));

#endif
