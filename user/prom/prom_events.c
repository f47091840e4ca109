// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The counts behind every node, per cgroup, as counters: the inputs the
 * recording rules of tmacg --prometheus-rules sum.  A count's total starts
 * again when the line's list of counts changes (another model or level).
 */
#include "prom/prom_events.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "model/model.h"
#include "output/cgroup_record.h"
#include "prom/prom_label.h"
#include "util/double_text.h"

void prom_events_map_free(struct prom_events_map *m)
{
	free(m->is_event);
	*m = (struct prom_events_map){ 0 };
}

void prom_events_totals_free(struct prom_events_totals *t)
{
	free(t->total);
	*t = (struct prom_events_totals){ 0 };
}

static int map_events(struct prom_events_map *m, const struct report_line *l)
{
	if (m->names == l->count_names && m->n == l->ncounts && m->is_event)
		return 0;
	prom_events_map_free(m);
	m->is_event = calloc(l->ncounts ? l->ncounts : 1, sizeof(*m->is_event));
	if (!m->is_event)
		return -ENOMEM;
	/* cycles, instructions, slots are copies of events under other names: not events */
	for (int c = 0; c < l->ncounts; c++)
		m->is_event[c] = model_event_index(l->tma, l->count_names[c]) >= 0;
	m->names = l->count_names;
	m->n = l->ncounts;
	return 0;
}

int prom_events_line(struct prom_events_map *m, struct prom_events_totals *t, struct prom_buf *b,
		     const char *labels, const struct report_line *l, bool *label_failed)
{
	if (!l->tma)
		return 0;
	if (map_events(m, l))
		return -ENOMEM;
	if (t->n != l->ncounts) {
		free(t->total);
		t->total = malloc((l->ncounts ? l->ncounts : 1) * sizeof(*t->total));
		if (!t->total) {
			t->n = 0;
			return -ENOMEM;
		}
		t->n = l->ncounts;
		for (int c = 0; c < t->n; c++)
			t->total[c] = NAN;
	}
	for (int c = 0; c < t->n; c++) {
		char num[DOUBLE_TEXT_MAX];
		double v = l->count_values[c];

		if (!m->is_event[c])
			continue;
		if (isfinite(v))
			t->total[c] = (isnan(t->total[c]) ? 0 : t->total[c]) + v;
		if (isnan(t->total[c]))
			continue;
		prom_buf_puts(b, PROM_EVENTS_FAMILY "{");
		prom_buf_puts(b, labels);
		prom_buf_putc(b, ',');
		if (prom_label(b, "event", l->count_names[c]))
			*label_failed = true;
		prom_buf_put(b, "} ", 2);
		prom_buf_put(b, num, shortest_double(t->total[c], num));
		prom_buf_putc(b, '\n');
	}
	return 0;
}
