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
#include "replay/replay_read.h"

/* The latencies of rec: its own object, else the file's; Intel's defaults for the rest. */
static unsigned record_latencies(const struct replay_data *d, const struct replay_record *rec,
				 const struct tma_model *m, double *lat)
{
	const struct rl_table *given = rec->retire_latency.n ? &rec->retire_latency : d->rl_file;

	return rl_fill(m, given, d->rl_defaults, lat);
}

static int eval_record(const struct replay_record *rec, const struct tma_model *m, double *events,
		       const double *lat, struct model_result *res, int level, bool info)
{
	struct model_input in = { .events = events,
				  .interval_s = rec->interval_s,
				  .latencies = lat };
	int nev = model_event_count(m);

	memset(events, 0, (nev + 1) * sizeof(*events));
	for (int i = 0; i < rec->ncounters; i++) {
		int e = model_event_index(m, rec->counters[i].name);

		if (e >= 0)
			events[e] = rec->counters[i].value;
	}
	in.flags = (rec->topdown_fixed ? MODEL_FLAG_TOPDOWN_FIXED : 0) |
		   (rec->smt ? MODEL_FLAG_SMT : 0);
	return model_eval_level(m, &in, res, level, info);
}

int replay_each(const struct replay_data *d, const struct tma_model *m, int level, bool info,
		replay_fn fn, void *ctx, FILE *err)
{
	struct model_result *res = model_result_new(m);
	double *events = calloc(model_event_count(m) + 1, sizeof(*events));
	double *lat = calloc(model_latency_count(m) + 1, sizeof(*lat));
	int rc = 0;

	if (!res || !events || !lat) {
		fprintf(err, "tmacg: out of memory\n");
		rc = -ENOMEM;
	}
	for (int i = 0; !rc && i < d->nrecords; i++) {
		const struct replay_record *rec = &d->records[i];
		unsigned sources = record_latencies(d, rec, m, lat);

		rc = eval_record(rec, m, events, lat, res, level, info);
		if (rc) {
			fprintf(err, "tmacg: %s:%d: cannot evaluate model %s: %s\n", d->name,
				rec->line, model_id(m), strerror(-rc));
			rc = 1;
		} else {
			rc = fn(ctx, rec, res, rl_source_name(m, sources));
		}
	}
	model_result_free(res);
	free(events);
	free(lat);
	return rc;
}

int replay_load(const char *path, struct replay_data *d, FILE *err)
{
	char msg[512];

	if (replay_read(path, d, msg, sizeof(msg))) {
		fprintf(err, "tmacg: %s\n", msg);
		return 1;
	}
	return 0;
}

struct print_ctx {
	const struct tma_model *m;
	int level;
	bool json, color, info;
	FILE *out;
};

/* One JSON line or tree block: 0, or -errno when out could not be written. */
static int print_record(void *ctx, const struct replay_record *rec, struct model_result *res,
			const char *retire_latency)
{
	const struct print_ctx *p = ctx;
	struct report_line line = {
		.interval_s = rec->interval_s,
		.model = model_id(p->m),
		.tma_version = model_tma_version(p->m),
		.cgroup = rec->cgroup,
		.running_min = NAN,
		.pmu_groups = -1, /* replay: no perf groups of its own */
		.retire_latency = retire_latency,
		.tma = p->m,
		.result = res,
		.level = p->level,
		.info = p->info,
	};

	if (p->json) {
		clock_gettime(CLOCK_REALTIME, &line.time);
		return output_json_line(p->out, &line);
	}
	output_tree(p->out, &line, p->color);
	return ferror(p->out) ? -EIO : 0;
}

int replay_run_data(const struct replay_data *d, const struct tma_model *m, int level, bool json,
		    bool color, bool info, FILE *out, FILE *err)
{
	struct print_ctx p = {
		.m = m, .level = level, .json = json, .color = color, .info = info, .out = out
	};
	int rc = replay_each(d, m, level, info, print_record, &p, err);

	if (!rc && fflush(out))
		rc = -errno;
	if (rc < 0 && rc != -ENOMEM)
		fprintf(err, "tmacg: cannot write the output: %s\n", strerror(-rc));
	return rc ? 1 : 0;
}

int replay_run(const char *path, const struct tma_model *m, int level, bool json, bool color,
	       bool info, FILE *out, FILE *err)
{
	struct replay_data d;
	int rc;

	if (replay_load(path, &d, err))
		return 1;
	rc = replay_run_data(&d, m, level, json, color, info, out, err);
	replay_free(&d);
	return rc;
}
