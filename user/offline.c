// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "offline.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "pmu/cpu_desc.h"
#include "pmu/cpu_detect.h"
#include "model/model.h"
#include "fd_limit.h"
#include "model_list.h"
#include "model/retire_latency.h"
#include "output/output_top.h"
#include "options.h"
#include "pmu/plan_model.h"
#include "pmu/planner.h"
#include "pmu/pmu.h"
#include "replay/replay_group.h"
#include "replay/replay_html.h"
#include "replay/replay_inputs.h"
#include "replay/replay_read.h"
#include "replay/replay_run.h"
#include "replay/replay_source.h"
#include "replay/replay_top.h"
#include "util/atomic_file.h"
#include "util/out_stream.h"
#include "util/stop_signal.h"

/*
 * The descriptors a run of this plan needs on this host (fd_limit.h): the
 * events on every online CPU and tmacg's own, against RLIMIT_NOFILE.
 */
static void print_descriptors(const struct options *o, int nevents)
{
	int cpus = fd_limit_cpus("online");
	uint64_t own = fd_limit_need(0, 0, o->listen != NULL);
	struct rlimit rl;

	if (cpus < 1)
		return; /* no sysfs to count them */
	printf("# file descriptors on this host: %d events x %d online CPUs + %llu of tmacg's "
	       "own = %llu",
	       nevents, cpus, (unsigned long long)own,
	       (unsigned long long)fd_limit_need(nevents, cpus, o->listen != NULL));
	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_max != RLIM_INFINITY)
		printf(" (open files allowed here: %llu, soft %llu, raised at start)",
		       (unsigned long long)rl.rlim_max, (unsigned long long)rl.rlim_cur);
	printf("\n");
}

static int list_events(const struct options *o, const struct tma_model *m,
		       const struct cpu_info *ci)
{
	struct plan_request req = {
		.model = m,
		.level = o->level,
		.with_info = o->info,
		.cpu = ci && ci->has_pmu ? ci : NULL,
		/* On a PMU: leave out the generic events it lacks, as a run would. */
		.probe = ci && ci->has_pmu ? pmu_probe : NULL
	};
	static struct plan plan; /* ~70 KiB: off the stack */
	char err[1024];
	int ret = plan_for_model(&req, &plan, err, sizeof(err));

	if (ret) {
		fprintf(stderr, "tmacg: %s\n", err);
		/* What was asked cannot be planned (a level, a counter): a usage error. */
		return ret == -EINVAL || ret == -EDOM || ret == -ENOSPC || ret == -E2BIG ? 2 : 1;
	}
	if (!req.cpu && plan_uses_pmu(&plan) && !cpu_desc_for_model(model_id(m)))
		printf("# planned for any PMU, %d counters per group assumed (this machine has no "
		       "hardware PMU to ask)\n",
		       plan.gp_counters);
	else if (!req.cpu && plan_uses_pmu(&plan))
		printf("# planned for %s's CPU with SMT on (this machine has no hardware PMU to "
		       "ask)\n",
		       model_id(m));
	/* Which description the host matched: tests/hw/run reads it to pick its expectations. */
	if (ci && ci->cpu)
		printf("# this CPU: %s (%s), planning model %s\n", ci->cpu->id, ci->cpu->title,
		       model_id(m));
	else if (ci && ci->has_pmu)
		printf("# this CPU: %s family 0x%X model 0x%X (no description), planning model %s\n",
		       ci->vendor, (unsigned int)ci->family, (unsigned int)ci->model, model_id(m));
	plan_print(stdout, &plan);
	plan_print_rotation(stdout, &plan);
	print_descriptors(o, plan.nevents);
	/*
	 * Where no fixed counter counts cycles (AMD), the NMI watchdog's counter
	 * is one the plan needs: show the plan a host with kernel.nmi_watchdog=1
	 * gets too (on a host, cpu_detect reads the sysctl and plans for it).
	 */
	if (!req.cpu && plan.has_group_cycles && plan.gp_counters > 1 &&
	    cpu_desc_for_model(model_id(m))) {
		req.watchdog = true;
		if (plan_for_model(&req, &plan, err, sizeof(err))) {
			fprintf(stderr, "tmacg: %s\n", err);
			return 1;
		}
		printf("# with kernel.nmi_watchdog=1 (the watchdog holds one counter):\n");
		plan_print(stdout, &plan);
	}
	return 0;
}

/*
 * --replay: the input is read as it comes.  With no model named, tmacg's own
 * lines are replayed with the model that measured the first record, which
 * is read before the model is opened; a later line naming another is a bad
 * line (replay_source.h).  model and version: copies, freed by the caller.
 */
static void replay_pick_model(const struct options *o, struct replay_source *src,
			      struct options *eff, char **model, char **version)
{
	const struct replay_record *first;

	*eff = *o;
	*model = *version = NULL;
	if (o->model_file || o->model)
		return;
	/* --group-by keeps lines of other models apart, each evaluated with its own */
	src->one_model = !o->group_by;
	first = replay_source_peek(src);
	if (!first || !first->origin || !first->origin->model)
		return;
	*model = strdup(first->origin->model);
	*version = first->origin->tma_version ? strdup(first->origin->tma_version) : NULL;
	/*
	 * The version that recorded the lines, unless one is asked for: a 5.1
	 * recording still answers DRAM_Bound.
	 */
	eff->model = *model;
	if (!o->tma_version)
		eff->tma_version = *version;
}

/* --format html: to -o's file, whole or not at all, else to stdout. */
static int replay_html(const struct options *o, const struct tma_model *m,
		       struct replay_source *src)
{
	struct atomic_file af;
	char err[1024];
	int code;

	if (!o->output)
		return replay_html_from(src, m, o->level, stdout, stderr);
	if (atomic_file_open(&af, o->output, err, sizeof(err))) {
		fprintf(stderr, "tmacg: %s\n", err);
		return 2;
	}
	/* A stop signal ends the replay at once: it takes the temporary file with it. */
	stop_signals_unlink_on_death(af.tmp_path);
	code = replay_html_from(src, m, o->level, af.f, stderr);
	stop_signals_forget();
	if (code) {
		atomic_file_abort(&af);
		return code;
	}
	if (atomic_file_commit(&af, err, sizeof(err))) {
		fprintf(stderr, "tmacg: %s\n", err);
		return 1;
	}
	return 0;
}

/*
 * The lines' own retire latencies, else --retire-latency's, each missing one
 * from Intel's published defaults of the CPU running the model.
 */
static int replay(const struct options *o, const struct tma_model *m, struct replay_source *src,
		  const struct options *given)
{
	struct rl_table file = { 0 };
	struct top_screen scr;
	char err[1024];
	int code;

	if (o->retire_latency && rl_table_read_file(o->retire_latency, &file, err, sizeof(err))) {
		fprintf(stderr, "tmacg: %s\n", err);
		return 1;
	}
	if (o->retire_latency && !model_latency_count(m))
		fprintf(stderr,
			"tmacg: warning: model %s reads no retire latency: --retire-latency %s is "
			"not used\n",
			model_id(m), o->retire_latency);
	src->rl_file = o->retire_latency ? &file : NULL;
	src->rl_defaults = cpu_desc_latency_defaults(model_id(m));
	if (o->group_by) {
		/* Every line with m when a model was named (fixed_model), else with its own. */
		struct replay_group_config c = { .group_by = o->group_by,
						 .interval_ns =
							 o->interval_given ? o->interval_ns : 0,
						 .m = m,
						 .fixed_model = given->model || given->model_file,
						 .tma_version = given->tma_version,
						 .level = o->level,
						 .info = o->info,
						 .json = o->format == FORMAT_JSON,
						 .color = o->color,
						 .out = stdout,
						 .err = stderr };

		code = replay_group_run(src, &c);
	} else if (o->format == FORMAT_HTML) {
		code = replay_html(o, m, src);
	} else if (o->format == FORMAT_TOP) {
		top_screen_size(out_stream_fd(stdout), &scr);
		code = replay_top_from(src, m, o->level, o->color, scr.width, stdout, stderr);
	} else {
		code = replay_run_from(src, m, o->level, o->format == FORMAT_JSON, o->color,
				       o->info, stdout, stderr);
	}
	src->rl_file = NULL;
	rl_table_free(&file);
	return code;
}

int offline_run(const struct options *opts)
{
	struct replay_inputs in = { 0 };
	struct replay_source src = { 0 };
	struct options eff;
	const struct options *o = opts;
	struct cpu_info ci;
	bool have_ci;
	struct tma_model *m;
	char err[1024], detect_err[1024] = "";
	char *recorded = NULL, *version = NULL;
	int code;

	/* -o that cannot be written: said before the input is read (a pipe may run for hours). */
	if (opts->replay && opts->output) {
		struct atomic_file probe;

		if (atomic_file_open(&probe, opts->output, err, sizeof(err))) {
			fprintf(stderr, "tmacg: %s\n", err);
			return 2;
		}
		atomic_file_abort(&probe);
	}
	if (opts->replay) {
		if (replay_inputs_open(&in, opts->replay, opts->replay_more, opts->nreplay_more,
				       err, sizeof(err))) {
			fprintf(stderr, "tmacg: %s\n", err);
			return 1;
		}
		replay_inputs_source(&in, &src, stderr);
		replay_pick_model(opts, &src, &eff, &recorded, &version);
		o = &eff;
	}
	/* The host's CPU picks the model only when none was named. */
	have_ci = (!o->model && !o->model_file) || o->list_events ?
			  !cpu_detect(NULL, &ci, detect_err, sizeof(detect_err)) :
			  false;
	m = tma_model_open(o->model_file, o->model, o->tma_version, have_ci ? &ci : NULL, err,
			   sizeof(err));
	if (!m) {
		/* Without a model named, why the CPU could not choose is half the answer. */
		if (!have_ci && detect_err[0] && !o->model && !o->model_file)
			fprintf(stderr, "tmacg: %s (the CPU could not choose: %s)\n", err,
				detect_err);
		else
			fprintf(stderr, "tmacg: %s\n", err);
		code = o->model_file ? 1 : 2;
	} else if (o->explain) {
		code = explain_print(stdout, stderr, m, o->explain);
	} else if (o->list_metrics) {
		model_metrics_print(stdout, m, o->format_given && o->format == FORMAT_JSON);
		code = 0;
	} else if (o->list_events) {
		code = list_events(o, m, have_ci ? &ci : NULL);
	} else {
		code = replay(o, m, &src, opts);
	}
	/* The input's end after what was printed: lines skipped or an input that failed make it 1. */
	if (in.n && replay_source_end(&src) && !code)
		code = 1;
	replay_inputs_close(&in);
	free(recorded);
	free(version);
	model_free(m);
	return code;
}
