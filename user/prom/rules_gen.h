/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * tmacg --prometheus-rules: the recording rules (YAML, Prometheus's rule
 * file format) that give every node of levels 1 to N per workload from the
 * counts of tmacg_events_total (--prom-counts) summed over the workload's
 * pods on every host.  The series and their names: docs/prometheus.md
 * "Recording rules".
 */
#ifndef TMACG_RULES_GEN_H
#define TMACG_RULES_GEN_H

#include <stdint.h>
#include <stdio.h>

struct tma_model;

struct rules_model {
	const struct tma_model *m;
	int level;	       /* 1 .. the model's depth */
	const double *latency; /* retire-latency defaults by latency index, NULL: none */
};

/*
 * Writes the rules of models[0..n) summed over window_ns (whole
 * milliseconds) to out.  command: the command line that made them, for the
 * header comment.  0, or -ENOMEM / -EIO.
 */
int rules_write(FILE *out, const struct rules_model *models, int n, uint64_t window_ns,
		const char *command);

/* The deepest level of model m's tree. */
int rules_model_depth(const struct tma_model *m);

#endif
