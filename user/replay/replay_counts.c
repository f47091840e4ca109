// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "replay/replay_counts.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "output/cgroup_record.h"
#include "replay/replay_read.h"
#include "replay/replay_run.h"

/* The counts a live line names after Intel's fixed counters (measure.c), and their events. */
static const char *const headline[][2] = {
	{ "cycles", "CPU_CLK_UNHALTED.THREAD" },
	{ "instructions", "INST_RETIRED.ANY" },
	{ "slots", "TOPDOWN.SLOTS" },
};

struct counts {
	const char **names;
	double *values;
	bool *derived;
	int n;
};

/* name's count, unless it has one already; derived: from the interval's length. */
static void add_as(struct counts *c, const char *name, double v, bool derived)
{
	for (int i = 0; i < c->n; i++)
		if (!strcmp(c->names[i], name))
			return;
	c->names[c->n] = name;
	c->derived[c->n] = derived;
	c->values[c->n++] = v;
}

/* A measured count's: read back exactly. */
static void add(struct counts *c, const char *name, double v)
{
	add_as(c, name, v, false);
}

/* The record's count of name (a tmacg/1 line's, or a plain line's counter); false: none. */
static bool recorded(const struct replay_record *rec, const char *name, double *v)
{
	for (int i = 0; i < rec->ncounters; i++)
		if (!strcmp(rec->counters[i].name, name)) {
			*v = rec->counters[i].value;
			return true;
		}
	return false;
}

/* on_cpu_s and cpu_utilization, the model's counts: what the table shows as the summary. */
static void summary(struct counts *c, const struct replay_record *rec, const struct tma_model *m,
		    const struct replay_eval *ev)
{
	double on_cpu, v;

	if (recorded(rec, "on_cpu_s", &on_cpu)) {
		add(c, "on_cpu_s", on_cpu);
		add_as(c, "cpu_utilization",
		       recorded(rec, "cpu_utilization", &v) ? v : on_cpu / rec->interval_s, true);
	}
	for (int k = 0; k < model_node_count(m); k++) {
		const char *name = model_node(m, k)->name;

		if (model_node(m, k)->is_count)
			add_as(c, name, recorded(rec, name, &v) ? v : ev->res->value[k],
			       model_node(m, k)->per_interval);
	}
}

int replay_summary_names(const struct tma_model *m, const char **names)
{
	int n = 0;

	names[n++] = "on_cpu_s";
	names[n++] = "cpu_utilization";
	for (int k = 0; k < model_node_count(m); k++)
		if (model_node(m, k)->is_count)
			names[n++] = model_node(m, k)->name;
	return n;
}

bool replay_count_adds_up(const char *name)
{
	for (size_t i = 0; i < sizeof(headline) / sizeof(headline[0]); i++)
		if (!strcmp(name, headline[i][0]))
			return true;
	return !strcmp(name, "on_cpu_s");
}

int replay_line_counts(struct report_line *line, const struct replay_record *rec,
		       const struct tma_model *m, const struct replay_eval *ev)
{
	int nev = model_event_count(m), max = rec->ncounters + nev + model_node_count(m) + 6;
	struct counts c = { .names = calloc(max, sizeof(*c.names)),
			    .values = calloc(max, sizeof(*c.values)),
			    .derived = calloc(max, sizeof(*c.derived)) };
	double v;

	line->count_names = c.names;
	line->count_values = c.values;
	line->count_derived = c.derived;
	if (!c.names || !c.values || !c.derived)
		return -ENOMEM;
	summary(&c, rec, m, ev);
	line->nsummary = c.n;
	for (size_t i = 0; i < sizeof(headline) / sizeof(headline[0]); i++) {
		int e = model_event_index(m, headline[i][1]);

		if (recorded(rec, headline[i][0], &v))
			add(&c, headline[i][0], v);
		else if (e >= 0 && (recorded(rec, headline[i][1], &v) || !rec->origin))
			add(&c, headline[i][0], rec->origin ? v : ev->events[e]);
	}
	/* a tmacg/1 line lists every counter it opened, null ones too: all go back */
	for (int i = 0; rec->origin && i < rec->ncounters; i++)
		add(&c, rec->counters[i].name, rec->counters[i].value);
	for (int e = 0; !rec->origin && e < nev; e++)
		if (ev->read[e])
			add(&c, model_event_name(m, e), ev->events[e]);
	line->ncounts = c.n;
	return 0;
}
