/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * --prom-counts: every count the model reads (the line's counts that are
 * model events, named as the JSON `counts` names them) as a counter
 * tmacg_events_total{<cgroup's labels>,event="NAME"}, summed over the
 * intervals the cgroup is reported in, so that Prometheus can sum them over
 * pods and hosts and apply the formulas to the sums
 * (tmacg --prometheus-rules, docs/prometheus.md).
 */
#ifndef TMACG_PROM_EVENTS_H
#define TMACG_PROM_EVENTS_H

#include <stdbool.h>

struct prom_buf;

struct report_line;

#define PROM_EVENTS_FAMILY "tmacg_events_total"

/* Which of a line's counts are model events: made again when the count names change. */
struct prom_events_map {
	const char *const *names;
	int n;
	bool *is_event;
};

/* One cgroup's totals, by count index; NAN until first measured. */
struct prom_events_totals {
	double *total;
	int n;
};

void prom_events_map_free(struct prom_events_map *m);
void prom_events_totals_free(struct prom_events_totals *t);

/*
 * Adds line l's event counts to t and writes a sample of each event measured
 * so far to b, after labels (the cgroup's, already escaped).  A count that
 * was never measured (JSON null) has no sample, never 0.  0 or -ENOMEM;
 * *label_failed set when an event name could not be written.
 */
int prom_events_line(struct prom_events_map *m, struct prom_events_totals *t, struct prom_buf *b,
		     const char *labels, const struct report_line *l, bool *label_failed);

#endif
