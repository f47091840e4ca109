/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * --listen: the report's sink that turns each interval's lines into the
 * Prometheus exposition (prom_expo) and publishes it on /metrics
 * (prom_server) once the interval is complete.
 */
#ifndef TMACG_PROM_H
#define TMACG_PROM_H

#include <stdbool.h>
#include <stddef.h>

struct prom;
struct report_sink;

/*
 * Binds spec ("127.0.0.1:9464") and serves /metrics at once (build info
 * until the first interval ends).  host, model, tma_version: for the
 * build-info series.  NULL with the reason in err.
 */
struct prom *prom_open(const char *spec, bool k8s, const char *host, const char *model,
		       const char *tma_version, char *err, size_t errlen);
/*
 * Says where /metrics is served.  Separate from prom_open(), which binds
 * early so that a port in use fails at once: the address is announced only
 * once tmacg measures, never before an error that ends it.
 */
void prom_announce(const struct prom *p);
/* The sink to set as the report's: called by the interval loop's thread only. */
const struct report_sink *prom_sink(struct prom *p);
/* --prom-counts: every interval from the first also serves tmacg_events_total. */
void prom_set_counts(struct prom *p, bool on);
void prom_close(struct prom *p);

#endif
