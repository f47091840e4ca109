// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * A recording as one HTML report, read once: every record as recorded (the
 * charts and quality) while each cgroup's counters are summed, then one
 * record per cgroup of those sums (the numbers over the recording): what is
 * kept grows with the cgroups, not with the lines.
 * Summing counts, not averaging ratios, is what makes a share over many
 * intervals their slots over their slots.
 */
#include "replay/replay_html.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "model/retire_latency.h"
#include "output/html_data.h"
#include "replay/replay_read.h"
#include "replay/replay_run.h"
#include "replay/replay_source.h"
#include "replay/replay_sum.h"
#include "util/out_stream.h"

/*
 * Per cgroup: what its summed record takes of its first record (a copy: the
 * records go as they are read), and the model's events summed.
 */
struct cgroup_sum {
	struct replay_record first; /* cgroup, flags, pmu_slots, retire_latency; no counters */
	double *sum;
	bool *seen;
};

struct gather {
	struct html_report *h;
	const struct tma_model *m;
	int level;
	struct cgroup_sum *sums; /* by the report's cgroup index */
	int nsums;
};

static void sums_free(struct cgroup_sum *s, int n)
{
	for (int i = 0; s && i < n; i++) {
		free(s[i].sum);
		free(s[i].seen);
		free(s[i].first.cgroup);
		rl_table_free(&s[i].first.retire_latency);
	}
	free(s);
}

/* The facts of rec a summed record repeats, into s->first. */
static int keep_first(struct cgroup_sum *s, const struct replay_record *rec, int nev)
{
	/* a tmacg/1 line's absent counters were not measured: its sums' too (NAN, not 0) */
	s->first = (struct replay_record){ .line = rec->line,
					   .topdown_fixed = rec->topdown_fixed,
					   .smt = rec->smt,
					   .smt_unknown = rec->smt_unknown,
					   .pmu_slots = rec->pmu_slots,
					   .absent_unmeasured = rec->absent_unmeasured };
	s->first.cgroup = strdup(rec->cgroup);
	s->sum = calloc(nev + 1, sizeof(*s->sum));
	s->seen = calloc(nev + 1, sizeof(*s->seen));
	if (!s->first.cgroup || !s->sum || !s->seen)
		return -ENOMEM;
	return replay_copy_latencies(&s->first.retire_latency, &rec->retire_latency);
}

/* rec's counts added to its cgroup's sums (idx: the report's index of it). */
static int add_counts(struct gather *g, int idx, const struct replay_record *rec)
{
	struct cgroup_sum *s;

	if (idx >= g->nsums) {
		struct cgroup_sum *ns = realloc(g->sums, (size_t)(idx + 1) * sizeof(*ns));

		if (!ns)
			return -ENOMEM;
		memset(ns + g->nsums, 0, (size_t)(idx + 1 - g->nsums) * sizeof(*ns));
		g->sums = ns;
		g->nsums = idx + 1;
	}
	s = &g->sums[idx];
	if (!s->sum && keep_first(s, rec, model_event_count(g->m)))
		return -ENOMEM;
	for (int i = 0; i < rec->ncounters; i++) {
		int e = model_event_index(g->m, rec->counters[i].name);

		if (e >= 0) {
			s->sum[e] += rec->counters[i].value; /* a null (NAN) stays unknown */
			s->seen[e] = true;
		}
	}
	return 0;
}

static int add_record(void *ctx, const struct replay_record *rec, const struct replay_eval *ev)
{
	struct gather *g = ctx;
	struct replay_line rl;
	int rc;

	if (rec->origin && rec->origin->has_task)
		return 0; /* a task's line: its cgroup's is the report's */
	rc = replay_line(&rl, rec, g->m, g->level, false, ev, true);
	/*
	 * A line that is not tmacg's says no time: place it after its cgroup's earlier
	 * ones, seconds from 0, so the chart spreads them out (the page shows no date).
	 */
	if (!rec->origin) {
		int idx = html_report_find(g->h, rec->cgroup);
		double t = (idx < 0 ? 0 : html_report_span_s(g->h, idx)) + rec->interval_s;

		rl.line.time.tv_sec = (time_t)t;
		rl.line.time.tv_nsec = (long)((t - (double)rl.line.time.tv_sec) * 1e9);
	}
	if (!rc)
		rc = html_report_add(g->h, &rl.line);
	replay_line_free(&rl);
	if (rc < 0)
		return rc;
	rc = html_report_find(g->h, rec->cgroup);
	return rc < 0 ? 0 : add_counts(g, rc, rec);
}

static int set_total(void *ctx, const struct replay_record *rec, const struct replay_eval *ev)
{
	struct gather *g = ctx;
	int idx = html_report_find(g->h, rec->cgroup);

	return idx < 0 ? 0 : html_report_set_total(g->h, idx, ev->res);
}

/* The summed record of one cgroup: the first one's facts, the sums' counts and seconds. */
static int summed_record(const struct cgroup_sum *s, const struct tma_model *m, double span_s,
			 struct replay_record *out)
{
	int nev = model_event_count(m), n = 0;

	*out = s->first;
	out->interval_s = span_s;
	out->counters = calloc(nev + 1, sizeof(*out->counters));
	if (!out->counters)
		return -ENOMEM;
	for (int e = 0; e < nev; e++)
		if (s->seen[e])
			out->counters[n++] =
				(struct replay_counter){ (char *)model_event_name(m, e),
							 s->sum[e] };
	out->ncounters = n;
	return 0;
}

/*
 * One summed record per cgroup, evaluated, set as its total.  The events
 * the records lack were said as they were read: the evaluator's report of
 * them is not asked for again.
 */
static int gather_totals(const struct replay_source *src, struct gather *g, FILE *err)
{
	struct replay_evaluator *ev = replay_evaluator_new(g->m, g->level, false, src->rl_defaults);
	int rc = ev ? 0 : -ENOMEM;

	for (int i = 0; !rc && i < g->nsums; i++) {
		struct replay_record rec;

		if (!g->sums[i].sum)
			continue;
		rc = summed_record(&g->sums[i], g->m, html_report_span_s(g->h, i), &rec);
		if (!rc)
			rc = replay_evaluator_feed(ev, &rec, src, set_total, g, err);
		free(rec.counters);
	}
	replay_evaluator_free(ev);
	return rc;
}

/* replay_html_gather's work on a stream: the sums are kept per cgroup as the records are read. */
static int replay_html_gather_from(struct replay_source *src, const struct tma_model *m, int level,
				   struct html_report **out, FILE *err)
{
	struct gather g = { .h = html_report_new(m, level), .m = m, .level = level };
	int rc = g.h ? 0 : -ENOMEM;

	if (!rc)
		rc = replay_each_from(src, m, level, false, add_record, &g, err);
	if (!rc)
		rc = gather_totals(src, &g, err);
	sums_free(g.sums, g.nsums);
	if (rc == -ENOMEM)
		fprintf(err, "tmacg: out of memory\n");
	if (rc) {
		html_report_free(g.h);
		return rc;
	}
	*out = g.h;
	return 0;
}

int replay_html_gather(const struct replay_data *d, const struct tma_model *m, int level,
		       struct html_report **out, FILE *err)
{
	struct replay_source src = replay_source_data(d);

	return replay_html_gather_from(&src, m, level, out, err);
}

int replay_html_from(struct replay_source *src, const struct tma_model *m, int level, FILE *out,
		     FILE *err)
{
	struct html_report *h;
	int rc = replay_html_gather_from(src, m, level, &h, err);

	if (rc)
		return 1;
	/* Nothing replayed (every line bad, or none): no report, the source says why. */
	if (src->nrecords)
		rc = html_report_write(h, out);
	html_report_free(h);
	/* A closed pipe (| head) ends the replay quietly, as it ends live mode. */
	if (rc && rc != -EPIPE)
		fprintf(err, "tmacg: cannot write the report: %s\n", out_stream_why(-rc));
	return src->nrecords && (!rc || rc == -EPIPE) ? 0 : 1;
}

int replay_html_data(const struct replay_data *d, const struct tma_model *m, int level, FILE *out,
		     FILE *err)
{
	struct replay_source src = replay_source_data(d);

	return replay_html_from(&src, m, level, out, err);
}
