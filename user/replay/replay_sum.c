// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "replay/replay_sum.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "model/retire_latency.h"
#include "replay/replay_counts.h"
#include "replay/replay_tmacg1.h"

int replay_copy_latencies(struct rl_table *to, const struct rl_table *from)
{
	for (int i = 0; i < from->n; i++)
		if (rl_table_add(to, from->v[i].event, from->v[i].cycles))
			return -ENOMEM;
	return 0;
}

int replay_sum_init(struct replay_sum *s, const struct tma_model *m,
		    const struct replay_record *rec)
{
	int nev = model_event_count(m);
	const struct replay_origin *g = rec->origin;

	*s = (struct replay_sum){ .m = m,
				  .sum = calloc(nev + 1, sizeof(double)),
				  .nbad = calloc(nev + 1, sizeof(int)),
				  .named = calloc(nev + 1, sizeof(bool)),
				  .here = calloc(nev + 1, sizeof(bool)) };
	s->first = (struct replay_record){ .input = rec->input,
					   .line = rec->line,
					   .topdown_fixed = rec->topdown_fixed,
					   .smt = rec->smt,
					   .pmu_slots = rec->pmu_slots };
	s->origin.running_min = NAN;
	s->origin.pmu_groups = -1; /* the lines' perf groups need not agree */
	if (g && ((g->model && !(s->origin.model = strdup(g->model))) ||
		  (g->tma_version && !(s->origin.tma_version = strdup(g->tma_version)))))
		goto nomem;
	if (!s->sum || !s->nbad || !s->named || !s->here ||
	    replay_copy_latencies(&s->first.retire_latency, &rec->retire_latency))
		goto nomem;
	if (!replay_sum_add(s, rec))
		return 0;
nomem:
	replay_sum_free(s);
	return -ENOMEM;
}

static int add_missing(struct replay_origin *g, const char *event)
{
	char **n;

	for (int i = 0; i < g->nmissing; i++)
		if (!strcmp(g->missing[i], event))
			return 0;
	if (!(n = realloc(g->missing, (size_t)(g->nmissing + 1) * sizeof(*n))))
		return -ENOMEM;
	g->missing = n;
	if (!(n[g->nmissing] = strdup(event)))
		return -ENOMEM;
	g->nmissing++;
	return 0;
}

/*
 * What a sum says of how far to trust it: the least share measured
 * (running_min, each node's quality.measured), the events any host lacked,
 * why a node was not measured on some host; dropped and map_full the
 * largest of the lines' (each line's is its host's whole interval's).
 */
static int merge_quality(struct replay_origin *to, const struct replay_origin *g)
{
	if (!isnan(g->running_min) && !(g->running_min >= to->running_min))
		to->running_min = g->running_min;
	to->smt_shared |= g->smt_shared;
	to->dropped = g->dropped > to->dropped ? g->dropped : to->dropped;
	to->map_full = g->map_full > to->map_full ? g->map_full : to->map_full;
	to->has_measured |= g->has_measured;
	to->has_unmeasured |= g->has_unmeasured;
	for (int i = 0; i < g->nmissing; i++)
		if (add_missing(to, g->missing[i]))
			return -ENOMEM;
	for (int i = 0; i < g->nnotes; i++) {
		struct replay_node_note *n = replay_origin_note(to, g->notes[i].node);

		if (!n)
			return -ENOMEM;
		if (!isnan(g->notes[i].measured) && !(g->notes[i].measured >= n->measured))
			n->measured = g->notes[i].measured;
		if (g->notes[i].unmeasured && !n->unmeasured &&
		    !(n->unmeasured = strdup(g->notes[i].unmeasured)))
			return -ENOMEM;
	}
	return 0;
}

/* a - b in seconds, a not before b: 0 exactly for the same time. */
static double seconds_between(struct timespec a, struct timespec b)
{
	return (double)(a.tv_sec - b.tv_sec) + (double)(a.tv_nsec - b.tv_nsec) / 1e9;
}

static bool later(struct timespec a, struct timespec b)
{
	return a.tv_sec > b.tv_sec || (a.tv_sec == b.tv_sec && a.tv_nsec > b.tv_nsec);
}

/*
 * The seconds the lines cover, from the earliest start (time - interval_s)
 * to the latest time, kept as the latest time and the span before it so
 * that lines of one interval give its interval_s exactly.  A line without
 * a time (not tmacg's own) ends at time 0, as all such lines do.
 */
static void add_time(struct replay_sum *s, const struct replay_record *rec)
{
	struct timespec t = rec->origin ? rec->origin->time : (struct timespec){ 0, 0 };

	if (!s->lines) {
		s->end = t;
		s->span_s = rec->interval_s;
	} else if (later(t, s->end)) {
		s->span_s = fmax(s->span_s + seconds_between(t, s->end), rec->interval_s);
		s->end = t;
	} else {
		s->span_s = fmax(s->span_s, rec->interval_s + seconds_between(s->end, t));
	}
}

/* A count that adds up, not an event (on_cpu_s, cycles): summed where the line has a number. */
static int add_plain(struct replay_sum *s, const char *name, double v)
{
	struct plain_count *p = NULL;

	for (int i = 0; i < s->nplain && !p; i++)
		if (!strcmp(s->plain[i].name, name))
			p = &s->plain[i];
	if (!p) {
		if (!(p = realloc(s->plain, (size_t)(s->nplain + 1) * sizeof(*p))))
			return -ENOMEM;
		s->plain = p;
		p = &s->plain[s->nplain];
		*p = (struct plain_count){ .name = strdup(name) };
		if (!p->name)
			return -ENOMEM;
		s->nplain++;
	}
	if (!isnan(v)) {
		p->sum += v;
		p->lines++;
	}
	return 0;
}

int replay_sum_add(struct replay_sum *s, const struct replay_record *rec)
{
	int nev = model_event_count(s->m);

	memset(s->here, 0, (size_t)(nev + 1) * sizeof(bool));
	for (int i = 0; i < rec->ncounters; i++) {
		double v = rec->counters[i].value;
		const char *name = rec->counters[i].name;
		int e = model_event_index(s->m, name);

		if (e < 0 && replay_count_adds_up(name) && add_plain(s, name, v))
			return -ENOMEM;
		if (e < 0)
			continue;
		s->named[e] = s->here[e] = true;
		if (isnan(v))
			s->nbad[e]++;
		else
			s->sum[e] += v;
	}
	/* a tmacg/1 line lists every counter it opened: one it lacks was not measured */
	for (int e = 0; rec->absent_unmeasured && e < nev; e++)
		s->nbad[e] += !s->here[e];
	add_time(s, rec);
	s->lines++;
	s->strict += rec->absent_unmeasured;
	return rec->origin ? merge_quality(&s->origin, rec->origin) : 0;
}

/*
 * Each node whose formula (in the lines' branch) reads an event that some
 * lines of the sum lack or have null, and others have: null, and why, in
 * quality.unmeasured (unless a host already said why).
 */
static int note_partial(struct replay_sum *s, const struct replay_record *rec)
{
	int nev = model_event_count(s->m), nnodes = model_node_count(s->m);
	unsigned flags = (rec->topdown_fixed ? MODEL_FLAG_TOPDOWN_FIXED : 0) |
			 (rec->smt ? MODEL_FLAG_SMT : 0);
	bool *reads, partial = false;

	for (int e = 0; e < nev; e++)
		partial |= s->nbad[e] && (uint64_t)s->nbad[e] < s->lines;
	if (!partial) /* the common case: every line has every count, or none has it */
		return 0;
	if (!(reads = calloc(nev + 1, sizeof(bool))))
		return -ENOMEM;
	for (int k = 0; k < nnodes; k++) {
		struct replay_node_note *n;
		char why[512];
		int bad = -1;

		if (model_node(s->m, k)->is_count)
			continue;
		memset(reads, 0, (size_t)(nev + 1) * sizeof(bool));
		model_node_events_for(s->m, k, flags, reads);
		for (int e = 0; e < nev && bad < 0; e++)
			if (reads[e] && s->nbad[e] && (uint64_t)s->nbad[e] < s->lines)
				bad = e;
		if (bad < 0)
			continue;
		snprintf(why, sizeof(why),
			 "%s is null or missing in %d of the %llu lines summed: not summed in part",
			 model_event_name(s->m, bad), s->nbad[bad], (unsigned long long)s->lines);
		if (!(n = replay_origin_note(&s->origin, model_node(s->m, k)->name)) ||
		    (!n->unmeasured && !(n->unmeasured = strdup(why)))) {
			free(reads);
			return -ENOMEM;
		}
		s->origin.has_unmeasured = true;
	}
	free(reads);
	return 0;
}

/* The value of key in group: NULL when the sum is not grouped by it, or its lines lack it. */
static const char *group_value(const struct report_group *group, const char *key)
{
	for (int i = 0; i < group->nkeys; i++)
		if (!strcmp(group->key_names[i], key))
			return group->values[i];
	return NULL;
}

int replay_sum_record(struct replay_sum *s, const struct report_group *group,
		      struct replay_record *out)
{
	int nev = model_event_count(s->m), n = 0;

	*out = s->first;
	out->interval_s = s->span_s;
	out->absent_unmeasured = s->strict > 0;
	out->cgroup = (char *)group_value(group, "cgroup");
	out->counters = calloc((size_t)(nev + s->nplain + 1), sizeof(*out->counters));
	if (!out->counters || note_partial(s, out))
		return -ENOMEM;
	/* where every line has a number for it: a part of the lines' would read as the whole */
	for (int i = 0; i < s->nplain; i++)
		if (s->plain[i].lines == s->lines)
			out->counters[n++] =
				(struct replay_counter){ s->plain[i].name, s->plain[i].sum };
	for (int e = 0; e < nev; e++)
		if (s->named[e])
			out->counters[n++] =
				(struct replay_counter){ (char *)model_event_name(s->m, e),
							 s->nbad[e] ? NAN : s->sum[e] };
	out->ncounters = n;
	s->origin.time = s->end;
	s->origin.host = (char *)group_value(group, "host");
	for (int i = 0; i < RES_N; i++)
		s->origin.resource[i] = (char *)group_value(group, replay_resource_keys[i]);
	s->origin.group = group;
	out->origin = &s->origin;
	return 0;
}

void replay_sum_record_free(struct replay_record *out)
{
	free(out->counters);
	out->counters = NULL;
}

void replay_sum_free(struct replay_sum *s)
{
	free(s->sum);
	free(s->nbad);
	free(s->named);
	free(s->here);
	for (int i = 0; i < s->nplain; i++)
		free(s->plain[i].name);
	free(s->plain);
	rl_table_free(&s->first.retire_latency);
	/* host and resource are the group's values (replay_sum_record), not the sum's own */
	s->origin.host = NULL;
	memset(s->origin.resource, 0, sizeof(s->origin.resource));
	replay_origin_clear(&s->origin);
	memset(s, 0, sizeof(*s));
}
