/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * The Prometheus text exposition (format 0.0.4) of one interval: the lines
 * report.c hands its sink become samples, grouped by metric family under
 * their HELP and TYPE lines.  Counters (CPU seconds, context switches, ...)
 * are kept per cgroup across intervals; a cgroup missing from an interval
 * loses its series and its totals.  docs/prometheus.md lists every series.
 * No I/O and no threads: prom_server.c publishes the text.
 */
#ifndef TMACG_PROM_EXPO_H
#define TMACG_PROM_EXPO_H

#include <stdbool.h>
#include <stddef.h>

struct report_line;
struct prom_expo;
struct prom_text;

/*
 * The i-th metric family the builder can write (0, 1, ...), NULL past the
 * last: the one list of names, for docs and tests.
 */
const char *prom_expo_family(int i);

/* k8s: namespace, pod and container labels besides cgroup. */
struct prom_expo *prom_expo_new(bool k8s);
void prom_expo_free(struct prom_expo *e);
/* --prom-counts: also tmacg_events_total, the model's counts (prom/prom_events.h). */
void prom_expo_set_counts(struct prom_expo *e, bool on);

/*
 * Starts an interval.  head carries the interval's facts (time, interval_s,
 * host, model, tma_version, dropped, and the formulas' inputs smt,
 * topdown_fixed, pmu_slots for tmacg_build_info); its cgroup is not read.
 */
int prom_expo_begin(struct prom_expo *e, const struct report_line *head);
/*
 * Starts the text served before the first interval: the build info of host,
 * model and tma_version (NULL: ""), no interval and no cgroup.
 */
int prom_expo_begin_unmeasured(struct prom_expo *e, const char *host, const char *model,
			       const char *tma_version);
/* One reported cgroup; task lines are ignored (unbounded: not exported). */
int prom_expo_line(struct prom_expo *e, const struct report_line *line);
/*
 * Ends the interval: the exposition as its pieces (prom/prom_text.h; t's
 * own from here: serve them, then prom_expo_recycle or prom_text_free).  0,
 * or -ENOMEM with t empty.
 */
int prom_expo_end_text(struct prom_expo *e, struct prom_text *t);
/* Takes back the node families' buffers of an ended text no reply sends any more; frees the rest. */
void prom_expo_recycle(struct prom_expo *e, struct prom_text *t);
/*
 * Ends the interval as one string: the whole exposition text (malloc'ed,
 * the caller frees it) and its length, or NULL when out of memory.
 */
char *prom_expo_end(struct prom_expo *e, size_t *len);

#endif
