// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * A recording as one HTML report, in two passes through replay_each: every
 * record as recorded (the charts and quality), then one record per cgroup
 * whose counters are its records' summed (the numbers over the recording).
 * Summing counts, not averaging ratios, is what makes a share over many
 * intervals their slots over their slots.
 */
#include "replay/replay_html.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "output/html_data.h"
#include "replay/replay_read.h"
#include "replay/replay_run.h"

struct gather {
	struct html_report *h;
	const struct tma_model *m;
	int level;
};

static bool is_task(const struct replay_record *rec)
{
	return rec->origin && rec->origin->has_task;
}

static int add_record(void *ctx, const struct replay_record *rec, const struct replay_eval *ev)
{
	struct gather *g = ctx;
	struct replay_line rl;
	int rc;

	if (is_task(rec))
		return 0;
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
	return rc < 0 ? rc : 0;
}

static int set_total(void *ctx, const struct replay_record *rec, const struct replay_eval *ev)
{
	struct gather *g = ctx;
	int idx = html_report_find(g->h, rec->cgroup);

	return idx < 0 ? 0 : html_report_set_total(g->h, idx, ev->res);
}

/* Per cgroup: its first record (the template) and the model's events summed. */
struct cgroup_sum {
	const struct replay_record *first;
	double *sum;
	bool *seen;
};

static void sums_free(struct cgroup_sum *s, int n)
{
	for (int i = 0; s && i < n; i++) {
		free(s[i].sum);
		free(s[i].seen);
	}
	free(s);
}

static int add_counts(struct cgroup_sum *s, const struct replay_record *rec,
		      const struct tma_model *m)
{
	int nev = model_event_count(m);

	if (!s->first) {
		s->first = rec;
		s->sum = calloc(nev + 1, sizeof(*s->sum));
		s->seen = calloc(nev + 1, sizeof(*s->seen));
		if (!s->sum || !s->seen)
			return -ENOMEM;
	}
	for (int i = 0; i < rec->ncounters; i++) {
		int e = model_event_index(m, rec->counters[i].name);

		if (e >= 0) {
			s->sum[e] += rec->counters[i].value; /* a null (NAN) stays unknown */
			s->seen[e] = true;
		}
	}
	return 0;
}

/* The summed record of one cgroup: the first one's facts, the sums' counts and seconds. */
static int summed_record(const struct cgroup_sum *s, const struct tma_model *m, double span_s,
			 struct replay_record *out)
{
	int nev = model_event_count(m), n = 0;

	*out = *s->first;
	out->origin = NULL;
	out->interval_s = span_s;
	out->counters = calloc(nev + 1, sizeof(*out->counters));
	if (!out->counters)
		return -ENOMEM;
	for (int e = 0; e < nev; e++) {
		if (!s->seen[e])
			continue;
		out->counters[n].name = (char *)model_event_name(m, e);
		out->counters[n++].value = s->sum[e];
	}
	out->ncounters = n;
	return 0;
}

/* The second pass: one summed record per cgroup, evaluated, set as its total. */
static int gather_totals(const struct replay_data *d, struct gather *g, FILE *err)
{
	int n = html_report_count(g->h), rc = 0;
	struct cgroup_sum *sums = calloc(n + 1, sizeof(*sums));
	struct replay_data summed = { .name = d->name,
				      .rl_file = d->rl_file,
				      .rl_defaults = d->rl_defaults };

	summed.records = calloc(n + 1, sizeof(*summed.records));
	if (!sums || !summed.records)
		rc = -ENOMEM;
	for (int i = 0; !rc && i < d->nrecords; i++) {
		int idx =
			is_task(&d->records[i]) ? -1 : html_report_find(g->h, d->records[i].cgroup);

		if (idx >= 0)
			rc = add_counts(&sums[idx], &d->records[i], g->m);
	}
	for (int i = 0; !rc && i < n; i++) {
		rc = summed_record(&sums[i], g->m, html_report_span_s(g->h, i), &summed.records[i]);
		if (!rc)
			summed.nrecords++;
	}
	/* Events the records lack were said in the first pass: not twice. */
	if (!rc) {
		FILE *quiet = fopen("/dev/null", "w");

		rc = replay_each(&summed, g->m, g->level, false, set_total, g, quiet ? quiet : err);
		if (quiet)
			fclose(quiet);
	}
	for (int i = 0; summed.records && i < summed.nrecords; i++)
		free(summed.records[i].counters);
	free(summed.records);
	sums_free(sums, n);
	return rc;
}

int replay_html_gather(const struct replay_data *d, const struct tma_model *m, int level,
		       struct html_report **out, FILE *err)
{
	struct gather g = { .h = html_report_new(m, level), .m = m, .level = level };
	int rc = g.h ? 0 : -ENOMEM;

	if (!rc)
		rc = replay_each(d, m, level, false, add_record, &g, err);
	if (!rc)
		rc = gather_totals(d, &g, err);
	if (rc == -ENOMEM)
		fprintf(err, "tmacg: out of memory\n");
	if (rc) {
		html_report_free(g.h);
		return rc;
	}
	*out = g.h;
	return 0;
}

int replay_html_data(const struct replay_data *d, const struct tma_model *m, int level, FILE *out,
		     FILE *err)
{
	struct html_report *h;
	int rc = replay_html_gather(d, m, level, &h, err);

	if (rc)
		return 1;
	rc = html_report_write(h, out);
	html_report_free(h);
	if (rc == -EPIPE)
		return 0;
	if (rc) {
		fprintf(err, "tmacg: cannot write the report: %s\n", strerror(-rc));
		return 1;
	}
	return 0;
}
