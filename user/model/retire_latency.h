/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * Retire latencies, the inputs TMA 5.1 reads as EVENT:retire_latency (cycles an
 * event's instructions took to retire, on average): a table by event name, read
 * from Intel's retire-latency file format (--retire-latency FILE), a replay
 * line's "retire_latency" object or a CPU description's published defaults, and
 * laid out for one model's evaluation.  docs/tma-rules.md says why the defaults
 * are an approximation.
 */
#ifndef TMACG_RETIRE_LATENCY_H
#define TMACG_RETIRE_LATENCY_H

#include <stddef.h>

struct tma_model;

struct retire_latency {
	char *event; /* Intel's EventName, "MEM_INST_RETIRED.LOCK_LOADS" */
	double cycles;
};

struct rl_table {
	struct retire_latency *v;
	int n;
};

/* Where a line's latencies came from (bits): its JSON quality.retire_latency. */
enum rl_source {
	RL_SOURCE_NONE = 0,	/* "none": no latency had a value; the nodes reading one are null */
	RL_SOURCE_GIVEN = 1,	/* "given": --retire-latency FILE or the replay line's object */
	RL_SOURCE_DEFAULTS = 2, /* "defaults": Intel's published ones, from the CPU description */
};

/* Adds one: 0, -EEXIST when event is there already, -EINVAL for a value not >= 0, -ENOMEM. */
int rl_table_add(struct rl_table *t, const char *event, double cycles);
/* The cycles of event, or NULL. */
const double *rl_table_find(const struct rl_table *t, const char *event);
void rl_table_free(struct rl_table *t);

/*
 * Intel's retire-latency file ({"Data": {"EVENT": {"MEAN": cycles, ...}}}, as perfmon
 * publishes and toplev's --ret-latency reads): the MEAN of each event.  0, or -EINVAL
 * with "FILE: what is wrong" in err, -ENOMEM.  The _file form reads path (at most 4 MiB).
 */
int rl_table_parse_intel(const char *text, size_t len, const char *file, struct rl_table *t,
			 char *err, size_t errlen);
int rl_table_read_file(const char *path, struct rl_table *t, char *err, size_t errlen);

/*
 * lat[model_latency_count(m)]: each latency m reads, from given when it has it, else
 * from defaults (Intel's published), else NAN, so the nodes reading it are null
 * (TMA-MODELS.md "Retire latency").  Either table may be NULL.  Returns the sources
 * used (enum rl_source bits).
 */
unsigned rl_fill(const struct tma_model *m, const struct rl_table *given,
		 const struct rl_table *defaults, double *lat);

/*
 * "none", "given", "defaults" or "given+defaults" for rl_fill's sources; NULL for a
 * model that reads no latency (JSON null).
 */
const char *rl_source_name(const struct tma_model *m, unsigned sources);

#endif /* TMACG_RETIRE_LATENCY_H */
