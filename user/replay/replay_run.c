// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Replay mode: recorded counts through the same model and printers as live
 * counts.  Absent counters are 0 (the recording saw no event), never NAN.
 */
#include "replay/replay_run.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "model/model.h"
#include "model/retire_latency.h"
#include "output/output_json.h"
#include "output/output_tree.h"
#include "replay/replay_counts.h"
#include "replay/replay_read.h"
#include "replay/replay_source.h"
#include "util/out_stream.h"

/*
 * One model's evaluation state.  Events the model reads that records lack
 * read as 0 (the recording saw none): each is named once at the end, with
 * how many records lacked it.
 */
struct replay_evaluator {
	const struct tma_model *m;
	int level;
	bool info;
	const struct rl_table *rl_defaults;
	struct model_result *res;
	double *events, *lat;
	int nrecords;
	bool *needed[4]; /* by record flags (MODEL_FLAG_*): the events read at this depth */
	bool *present;	 /* in the current record */
	int *count, *first_line;
	/* a recording that lacks events the model reads, said once (lacking_note) */
	bool lacks_said;
	char lacks[512];
};

/*
 * A tmacg/1 line lists every counter it opened: the events the model reads
 * that it does not list were never recorded (another model measured it), so
 * the nodes reading them are null.  The first such line is named once, with
 * the events; each line without a tree says the recording lacks them, not
 * that the cgroup did not run.
 */
static void lacking_note(struct replay_evaluator *ev, const struct replay_record *rec,
			 const bool *read, const char *name, FILE *err)
{
	const struct tma_model *m = ev->m;
	int nev = model_event_count(m), n = 0, first = -1;
	char more[32] = "";

	for (int e = 0; e < nev; e++)
		if (read[e] && !ev->present[e] && !n++)
			first = e;
	if (!n)
		return;
	if (n > 1)
		snprintf(more, sizeof(more), " and %d more events", n - 1);
	snprintf(ev->lacks, sizeof(ev->lacks),
		 "the recording lacks %s%s, which model %s reads (it was measured with model %s)",
		 model_event_name(m, first), more, model_id(m),
		 rec->origin->model ? rec->origin->model : "unnamed");
	/* no slots because an input is missing (NAN), not counted as 0: the recording's lack */
	if (ev->res->no_tree && isnan(ev->res->slots))
		ev->res->no_tree = ev->lacks;
	if (ev->lacks_said)
		return;
	ev->lacks_said = true;
	fprintf(err, "tmacg: warning: %s:%d: %s:", name, rec->line, ev->lacks);
	for (int e = 0, k = 0; e < nev && k < 16; e++)
		if (read[e] && !ev->present[e])
			fprintf(err, " %s", model_event_name(m, e)), k++;
	fprintf(err, "%s; the nodes that read them are null\n", n > 16 ? " ..." : "");
}

/* Evaluates rec into ev->res; *read: the events its formulas read (ev->needed for its flags). */
static int eval_record(struct replay_evaluator *ev, const struct replay_record *rec,
		       const bool **read, const char *name, FILE *err)
{
	const struct tma_model *m = ev->m;
	struct model_input in = { .events = ev->events,
				  .interval_s = rec->interval_s,
				  .latencies = ev->lat };
	int nev = model_event_count(m);

	/* tmacg/1 lines list every counter they opened: one they lack was not measured. */
	for (int e = 0; e <= nev; e++)
		ev->events[e] = rec->absent_unmeasured ? NAN : 0;
	memset(ev->present, 0, (nev + 1) * sizeof(bool));
	for (int i = 0; i < rec->ncounters; i++) {
		int e = model_event_index(m, rec->counters[i].name);

		if (e >= 0) {
			ev->events[e] = rec->counters[i].value;
			ev->present[e] = true;
		}
	}
	in.flags = (rec->topdown_fixed ? MODEL_FLAG_TOPDOWN_FIXED : 0) |
		   (rec->smt ? MODEL_FLAG_SMT : 0);
	in.pmu_slots = rec->pmu_slots;
	*read = ev->needed[in.flags];
	for (int e = 0; !rec->absent_unmeasured && e < nev; e++) {
		if ((*read)[e] && !ev->present[e] && !ev->count[e]++)
			ev->first_line[e] = rec->line;
	}
	if (model_eval_level(m, &in, ev->res, ev->level, ev->info))
		return -EINVAL;
	model_result_no_slots(m, ev->res);
	if (rec->origin)
		lacking_note(ev, rec, *read, name, err);
	return 0;
}

struct replay_evaluator *replay_evaluator_new(const struct tma_model *m, int level, bool info,
					      const struct rl_table *rl_defaults)
{
	struct replay_evaluator *e = calloc(1, sizeof(*e));
	int nev = model_event_count(m);
	bool ok;

	if (!e)
		return NULL;
	*e = (struct replay_evaluator){ .m = m,
					.level = level,
					.info = info,
					.rl_defaults = rl_defaults,
					.res = model_result_new(m),
					.events = calloc(nev + 1, sizeof(double)),
					.lat = calloc(model_latency_count(m) + 1, sizeof(double)),
					.present = calloc(nev + 1, sizeof(bool)),
					.count = calloc(nev + 1, sizeof(int)),
					.first_line = calloc(nev + 1, sizeof(int)) };
	ok = e->res && e->events && e->lat && e->present && e->count && e->first_line;
	for (unsigned f = 0; ok && f < 4; f++) {
		ok = (e->needed[f] = calloc(nev + 1, sizeof(bool)));
		if (ok)
			model_events_needed(m, level, info, f, e->needed[f]);
	}
	if (!ok) {
		replay_evaluator_free(e);
		return NULL;
	}
	return e;
}

int replay_evaluator_feed(struct replay_evaluator *e, const struct replay_record *rec,
			  const struct replay_source *src, replay_fn fn, void *ctx, FILE *err)
{
	struct replay_eval ev = { .res = e->res,
				  .latencies_given = rec->retire_latency.n ? &rec->retire_latency :
									     src->rl_file,
				  .events = e->events,
				  .live = src->live };
	unsigned sources = rl_fill(e->m, ev.latencies_given, e->rl_defaults, e->lat);
	const char *name = rec->input ? rec->input : src->name;
	int rc;

	ev.retire_latency = rl_source_name(e->m, sources);
	e->nrecords++;
	rc = eval_record(e, rec, &ev.read, name, err);
	if (rc) {
		fprintf(err, "tmacg: %s:%d: cannot evaluate model %s: %s\n", name, rec->line,
			model_id(e->m), strerror(-rc));
		return 1;
	}
	return fn(ctx, rec, &ev);
}

void replay_evaluator_report(const struct replay_evaluator *e, const char *name, FILE *err)
{
	for (int i = 0; i < model_event_count(e->m); i++)
		if (e->count[i])
			fprintf(err,
				"tmacg: warning: %s: %d of %d records lack %s (first on line %d), "
				"which model %s reads: it read as 0 there (record it, or check "
				"the event's name)\n",
				name, e->count[i], e->nrecords, model_event_name(e->m, i),
				e->first_line[i], model_id(e->m));
}

void replay_evaluator_free(struct replay_evaluator *e)
{
	if (!e)
		return;
	for (int f = 0; f < 4; f++)
		free(e->needed[f]);
	free(e->present);
	free(e->count);
	free(e->first_line);
	model_result_free(e->res);
	free(e->events);
	free(e->lat);
	free(e);
}

int replay_each_from(struct replay_source *src, const struct tma_model *m, int level, bool info,
		     replay_fn fn, void *ctx, FILE *err)
{
	struct replay_evaluator *e = replay_evaluator_new(m, level, info, src->rl_defaults);
	const struct replay_record *rec;
	int rc = 0;

	if (!e) {
		fprintf(err, "tmacg: out of memory\n");
		rc = -ENOMEM;
	}
	while (!rc && (rec = replay_source_next(src)))
		rc = replay_evaluator_feed(e, rec, src, fn, ctx, err);
	if (!rc)
		replay_evaluator_report(e, src->label, err);
	replay_evaluator_free(e);
	return rc;
}

/* A tmacg/1 line replayed says where and when it was measured, as the original did. */
static void line_from_origin(struct report_line *line, const struct replay_origin *g,
			     struct report_task *task, struct resource *res)
{
	line->time = g->time;
	line->host = g->host;
	line->cgroup_id = g->cgroup_id;
	line->group = g->group;
	if (g->has_task) {
		*task = (struct report_task){ .tid = g->tid, .tgid = g->tgid, .comm = g->comm };
		line->task = task;
	}
	*res = (struct resource){
		.k8s_namespace = g->resource[RES_NAMESPACE],
		.k8s_pod = g->resource[RES_POD],
		.k8s_pod_uid = g->resource[RES_POD_UID],
		.k8s_container = g->resource[RES_CONTAINER],
		.container_id = g->resource[RES_CONTAINER_ID],
		.host = g->resource[RES_HOST],
	};
	line->resource = res;
	line->running_min = g->running_min;
	line->smt_shared = g->smt_shared;
	line->dropped = g->dropped;
	line->map_full = g->map_full;
	line->instance = g->instance;
	line->pmu_groups = g->pmu_groups;
	line->nmissing = g->nmissing;
	line->missing = (const char *const *)g->missing;
}

/*
 * quality.measured and quality.unmeasured as the line carried them (levels
 * 4-6 in turns, a group that failed to open), by node of m: a replay says
 * how much of the interval was seen, and why a node is null, as the live
 * line did.  Absent when the line had none.
 */
static int line_measured(struct replay_line *rl, const struct replay_origin *g,
			 const struct tma_model *m, int level)
{
	int n = model_node_count(m);

	if (g->has_measured && !(rl->measured = malloc(((size_t)n + 1) * sizeof(*rl->measured))))
		return -ENOMEM;
	if (g->has_unmeasured && !(rl->unmeasured = calloc((size_t)n + 1, sizeof(*rl->unmeasured))))
		return -ENOMEM;
	for (int k = 0; rl->measured && k < n; k++)
		rl->measured[k] = NAN;
	for (int i = 0; i < g->nnotes; i++) {
		int k = model_node_index(m, g->notes[i].node);

		if (k >= 0 && rl->measured && model_node(m, k)->level <= level)
			rl->measured[k] = g->notes[i].measured;
		if (k >= 0 && rl->unmeasured)
			rl->unmeasured[k] = g->notes[i].unmeasured;
	}
	rl->line.measured = rl->measured;
	rl->line.unmeasured = rl->unmeasured;
	return 0;
}

int replay_line(struct replay_line *rl, const struct replay_record *rec, const struct tma_model *m,
		int level, bool info, const struct replay_eval *ev, bool counts)
{
	int rc;

	rl->measured = NULL;
	rl->unmeasured = NULL;
	rl->line = (struct report_line){
		.interval_s = rec->interval_s,
		.model = model_id(m),
		.tma_version = model_tma_version(m),
		.cgroup = rec->cgroup,
		.running_min = NAN,
		.pmu_groups = -1, /* replay: no perf groups of its own */
		.retire_latency = ev->retire_latency,
		.latencies_given = ev->latencies_given,
		.tma = m,
		.result = ev->res,
		.level = level,
		.info = info,
		.topdown_fixed = rec->topdown_fixed,
		.smt = rec->smt,
		.smt_unknown = rec->smt_unknown,
		.pmu_slots = rec->pmu_slots,
	};
	if (rec->origin) {
		line_from_origin(&rl->line, rec->origin, &rl->task, &rl->resource);
		rc = line_measured(rl, rec->origin, m, level);
		if (rc)
			return rc;
	} else {
		clock_gettime(CLOCK_REALTIME, &rl->line.time);
	}
	return counts ? replay_line_counts(&rl->line, rec, m, ev) : 0;
}

void replay_line_free(struct replay_line *rl)
{
	free(rl->measured);
	free(rl->unmeasured);
	free((void *)rl->line.count_names);
	free((void *)rl->line.count_values);
	free((void *)rl->line.count_derived);
}

int replay_print_record(void *ctx, const struct replay_record *rec, const struct replay_eval *ev)
{
	const struct replay_printer *p = ctx;
	struct replay_line rl;
	int rc;

	/*
	 * Every line carries what its formulas read, so a replay can be replayed,
	 * and the table its summary counts, as a live line does.
	 */
	rc = replay_line(&rl, rec, p->m, p->level, p->info, ev, true);
	if (!rc && p->json)
		rc = output_json_line(p->out, &rl.line);
	else if (!rc)
		output_tree(p->out, &rl.line, p->color);
	replay_line_free(&rl);
	/* Input that pauses (a live pipe): each record is seen as soon as it is read. */
	if (!rc && ev->live && fflush(p->out) && p->json)
		rc = out_stream_error(p->out);
	/* the tree's printer says nothing of a failed write: the stream's error does */
	if (!rc && !p->json && ferror(p->out))
		rc = out_stream_error(p->out);
	return rc;
}

int replay_run_from(struct replay_source *src, const struct tma_model *m, int level, bool json,
		    bool color, bool info, FILE *out, FILE *err)
{
	struct replay_printer p = {
		.m = m, .level = level, .json = json, .color = color, .info = info, .out = out
	};
	int rc = replay_each_from(src, m, level, info, replay_print_record, &p, err);

	if (!rc && fflush(out))
		rc = out_stream_error(out);
	return replay_exit_code(rc, err);
}

int replay_exit_code(int rc, FILE *err)
{
	/* A closed pipe (| head) ends the replay quietly, as it ends live mode. */
	if (rc == -EPIPE)
		return 0;
	if (rc < 0 && rc != -ENOMEM)
		fprintf(err, "tmacg: cannot write the output: %s\n", out_stream_why(-rc));
	return rc ? 1 : 0;
}

int replay_run_data(const struct replay_data *d, const struct tma_model *m, int level, bool json,
		    bool color, bool info, FILE *out, FILE *err)
{
	struct replay_source src = replay_source_data(d);

	return replay_run_from(&src, m, level, json, color, info, out, err);
}
