// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The one measurement path: a model's events planned into perf groups, and
 * each cgroup's interval sum, scaled for multiplexing, evaluated by the same
 * model code replay uses.  A model of software events (--pmu software) needs
 * no PMU.  An event whose group was multiplexed out for the whole interval
 * is NAN, so the nodes and counts reading it are null rather than 0; a
 * cgroup that did not run at all has zeros.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "collect/acc_delta.h"
#include "collect/measured_sets.h"
#include "pmu/cpu_detect.h"
#include "measure.h"
#include "model/model.h"
#include "model/retire_latency.h"
#include "output/cgroup_record.h"
#include "pmu/cpu_desc.h"
#include "pmu/plan_model.h"
#include "pmu/planner.h"
#include "pmu/pmu.h"
#include "util/run_error.h"
#include "util/whole.h"

/* Counts of Intel's fixed counters, under the names users know, when the model reads them. */
#define NHEADLINE 3
static const char *const headline_names[NHEADLINE] = { "cycles", "instructions", "slots" };
static const char *const headline_events[NHEADLINE] = { "CPU_CLK_UNHALTED.THREAD",
							"INST_RETIRED.ANY", "TOPDOWN.SLOTS" };
static const char *const fixed_names[MEASURE_NFIXED] = { "on_cpu_s", "cpu_utilization" };
/* cpu_utilization is on_cpu_s over the interval's length (report_line.count_derived). */
static const bool fixed_derived[MEASURE_NFIXED] = { false, true };

struct measure_impl {
	struct measure ms; /* first: the struct measure * is this */
	struct tma_model *model;
	struct plan plan;
	struct cpu_info ci;
	unsigned int flags;
	int *plan_of; /* model event -> plan index, -1: not opened */
	bool *absent; /* model event: never counted here (not opened, not computed): model_input */
	/*
	 * Plan event -> its group: ms.events[].group, a byte each.  scaled() reads
	 * it for every event of every line, and a pmu_event is 144 bytes: at level
	 * 6 that read took 141 cache lines a line, a third of its L1 misses in
	 * callgrind's model, and pushed out the formulas' code.
	 */
	int8_t group_of[TMACG_MAX_EVENTS];
	int tsc_event; /* model event index of msr/tsc/, -1 if unread */
	double tsc_hz;
	double *values; /* model inputs */
	/* The model events opened here, tsc_event aside: the others' inputs stay NAN. */
	int *read_event, nread;
	double cycles_total; /* this evaluation's cycles where groups carry their own */
	bool ran;	     /* this evaluation's cgroup ran (acc_is_empty) */
	/*
	 * This evaluation's per group: what scaled() multiplies its events' counts
	 * by (NAN: never opened or multiplexed out, 0: the cgroup did not run),
	 * and running/enabled (acc_delta.h).
	 */
	double group_factor[TMACG_MAX_GROUPS], group_share[TMACG_MAX_GROUPS];
	int *count_node;		 /* the model's counts: node indices, in file order */
	double *latencies;		 /* the model's retire latencies, NAN where none is known */
	struct rl_table latencies_given; /* --retire-latency's: each line carries them */
	int ncount_nodes;
	int headline[NHEADLINE]; /* plan index of the headline counts reported */
	int nheadline;
	const char **count_names;
	bool *count_derived;
	/* Plan indices of the counts reported, one per name (a group's own cycles once). */
	int *count_events;
	int ncount_events;
	int *count_input; /* per count event: the model input scaled from it, -1: none */
	const char *missing[PLAN_MAX_MISSING];
	uint64_t *node_groups;	   /* per model node: the groups of its events */
	double *measured;	   /* per model node: quality.measured, NAN: not reported */
	struct measured_sets sets; /* the nodes with a measured, by set of groups */
	uint64_t unopened;	   /* groups the kernel refused: their events are null */
	char *unopened_why[TMACG_MAX_GROUPS];
	const char **unmeasured; /* per model node: quality.unmeasured, NULL: measured */
};

/* The TSC's rate: msr/tsc/ in an interval is this times its length. */
static double tsc_rate(void)
{
#if defined(__x86_64__) || defined(__i386__)
	struct timespec a, b, pause = { 0, 50000000 };
	unsigned long long t0, t1;

	clock_gettime(CLOCK_MONOTONIC_RAW, &a);
	t0 = __builtin_ia32_rdtsc();
	nanosleep(&pause, NULL);
	t1 = __builtin_ia32_rdtsc();
	clock_gettime(CLOCK_MONOTONIC_RAW, &b);
	return (t1 - t0) / ((b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9);
#else
	return NAN;
#endif
}

/*
 * Per group, what scaled() multiplies its events' counts by this evaluation:
 * worked out once per group, not per event (a level-6 line reads 122 events
 * of 20 groups).  A group the kernel refused is NAN (never opened: not a
 * measured zero even where nothing ran).  A cgroup that did not run at all
 * (no runtime, no group enabled) was charged nothing because nothing
 * happened: its events are measured zeros.  Else enabled / running, NAN for
 * a group enabled for it but never on the PMU (multiplexed out).
 */
static void group_factors(struct measure_impl *mi, const struct tmacg_acc *sum)
{
	const struct acc_layout *l = &mi->ms.layout;

	acc_group_scales(l, sum, mi->group_factor);
	for (int g = 0; g < l->ngroups && g < TMACG_MAX_GROUPS; g++)
		if ((mi->unopened >> g) & 1)
			mi->group_factor[g] = NAN;
		else if (!mi->ran)
			mi->group_factor[g] = 0;
}

/*
 * Plan event idx of a cgroup's sum, scaled and rounded to a whole count (as
 * perf stat's scaled counts: the digits an estimate carries past the count
 * are noise, and writing them was a third of a level-6 line's cost); NAN
 * when not opened.  group_factors() first.
 */
static inline double scaled(const struct measure_impl *mi, const struct tmacg_acc *sum, int idx)
{
	int g, cycles;
	double f;

	if (idx < 0)
		return NAN;
	g = mi->group_of[idx];
	f = mi->group_factor[g];
	cycles = mi->plan.has_group_cycles ? mi->plan.cycles_of_group[g] : -1;
	/* Each group against its own cycles (AMD: no fixed counter shares them). */
	if (cycles >= 0 && mi->ran && !((mi->unopened >> g) & 1) && *acc_counter(sum, cycles) &&
	    !isnan(mi->cycles_total))
		return whole(acc_scaled_by_cycles(sum, idx, cycles, mi->cycles_total));
	return whole((double)*acc_counter(sum, idx) * f); /* acc_scaled */
}

/* The model reads msr/tsc/, which tmacg computes from the interval (not a perf event). */
static bool tsc_computed(const struct measure_impl *mi)
{
	return mi->tsc_event >= 0 && mi->plan_of[mi->tsc_event] < 0;
}

void measure_evaluate(struct measure *ms, const struct tmacg_acc *sum, double interval_s,
		      double *counts, struct model_result *result)
{
	struct measure_impl *mi = (struct measure_impl *)ms;
	int c = MEASURE_NFIXED;
	struct model_input in = { .events = mi->values,
				  .absent = mi->absent,
				  .interval_s = interval_s,
				  .flags = mi->flags,
				  .latencies = mi->latencies,
				  .pmu_slots = mi->ci.pmu_slots };

	mi->ran = !acc_is_empty(&ms->layout, sum);
	mi->cycles_total = mi->plan.has_group_cycles ?
				   acc_cycles_total(&ms->layout, sum, mi->plan.cycles_of_group) :
				   NAN;
	group_factors(mi, sum);
	for (int k = 0; k < mi->nread; k++)
		mi->values[mi->read_event[k]] = scaled(mi, sum, mi->plan_of[mi->read_event[k]]);
	if (mi->tsc_event >= 0)
		mi->values[mi->tsc_event] = nearbyint(mi->tsc_hz * interval_s);
	model_eval_level(mi->model, &in, result, ms->facts.level, ms->facts.info);
	model_result_no_slots(mi->model, result);
	if (ms->facts.measured) { /* multiplexed: levels 4-6 */
		acc_running_shares(&ms->layout, sum, mi->group_share);
		measured_sets_fill(&mi->sets, mi->group_share, mi->measured);
	}
	/* The scheduler's runtime, as cpu.stat counts it: a number even when nothing ran. */
	counts[MEASURE_ON_CPU_S] = sum->runtime_ns / 1e9;
	counts[MEASURE_CPU_UTILIZATION] =
		interval_s > 0 ? counts[MEASURE_ON_CPU_S] / interval_s : NAN;
	for (int i = 0; i < mi->ncount_nodes; i++)
		counts[c++] = result->value[mi->count_node[i]];
	for (int i = 0; i < mi->nheadline; i++)
		counts[c++] = scaled(mi, sum, mi->headline[i]);
	/* Scaled once: a count the model reads is its input's value. */
	for (int i = 0; i < mi->ncount_events; i++)
		counts[c++] = mi->count_input[i] >= 0 ? mi->values[mi->count_input[i]] :
							scaled(mi, sum, mi->count_events[i]);
	if (tsc_computed(mi))
		counts[c++] = mi->values[mi->tsc_event];
}

int measure_groups_unopened(struct measure *ms, uint64_t groups, char *const *why)
{
	struct measure_impl *mi = (struct measure_impl *)ms;
	int n = model_node_count(mi->model), ret;
	uint64_t *all = calloc((size_t)n + 1, sizeof(*all));

	if (!all)
		return -ENOMEM;
	ret = plan_node_all_groups(&mi->plan, mi->model, mi->flags, all);
	for (int g = 0; !ret && g < ms->ngroups && g < TMACG_MAX_GROUPS; g++) {
		if (!((groups >> g) & 1))
			continue;
		mi->unopened |= 1ull << g;
		mi->unopened_why[g] = strdup(why[g] ? why[g] : "not opened");
		if (!mi->unopened_why[g])
			ret = -ENOMEM;
		/* Never counted, as a missing event: the nodes computed from theirs are null too. */
		for (int e = 0; e < model_event_count(mi->model); e++)
			if (mi->plan_of[e] >= 0 && mi->group_of[mi->plan_of[e]] == g)
				mi->absent[e] = true;
		for (int k = 0; !ret && k < n; k++)
			if (((all[k] >> g) & 1) && !mi->unmeasured[k])
				mi->unmeasured[k] = mi->unopened_why[g];
	}
	free(all);
	return ret;
}

void measure_evaluate_cb(void *ctx, const struct tmacg_acc *sum, double interval_s, double *counts,
			 struct model_result *result)
{
	measure_evaluate(ctx, sum, interval_s, counts, result);
}

const struct report_line *measure_facts(const struct measure *ms)
{
	return &ms->facts;
}

bool measure_event_is_leader(const struct measure *ms, int e)
{
	const struct measure_impl *mi = (const struct measure_impl *)ms;

	return e >= 0 && e < ms->nevents && mi->plan.first[ms->events[e].group] == e;
}

void measure_close(struct measure *ms)
{
	struct measure_impl *mi = (struct measure_impl *)ms;

	if (!mi)
		return;
	model_free(mi->model);
	free(mi->plan_of);
	free(mi->values);
	free(mi->read_event);
	free(mi->absent);
	free(mi->latencies);
	rl_table_free(&mi->latencies_given);
	free(mi->count_node);
	free(mi->count_names);
	free(mi->count_derived);
	free(mi->count_events);
	free(mi->count_input);
	free(mi->node_groups);
	free(mi->measured);
	measured_sets_free(&mi->sets);
	free(mi->unmeasured);
	for (int g = 0; g < TMACG_MAX_GROUPS; g++)
		free(mi->unopened_why[g]);
	free(mi);
}

/*
 * The retire latencies TMA 5.1 weighs by, fixed for the run: the user's file
 * (--retire-latency), else Intel's published defaults of the CPU description.
 */
static int load_latencies(struct measure_impl *mi, const char *file, char *err, size_t errlen)
{
	struct rl_table *given = &mi->latencies_given;
	unsigned sources;
	int ret;

	mi->latencies = calloc(model_latency_count(mi->model) + 1, sizeof(double));
	if (!mi->latencies)
		return -ENOMEM;
	if (file && (ret = rl_table_read_file(file, given, err, errlen)))
		return ret < 0 ? ret : -EINVAL;
	if (file && !model_latency_count(mi->model))
		fprintf(stderr,
			"tmacg: warning: model %s reads no retire latency: --retire-latency %s is "
			"not used\n",
			model_id(mi->model), file);
	sources = rl_fill(mi->model, given, cpu_desc_latency_defaults(model_id(mi->model)),
			  mi->latencies);
	mi->ms.facts.retire_latency = rl_source_name(mi->model, sources);
	mi->ms.facts.latencies_given = given;
	return 0;
}

/* The plan's events, as the BPF side and pmu_open() want them. */
static int fill_events(struct measure_impl *mi, char *err, size_t errlen)
{
	struct measure *ms = &mi->ms;

	if (mi->plan.nevents == 0) {
		snprintf(err, errlen, "model %s reads no event at --level %d: nothing to measure",
			 model_id(mi->model), ms->facts.level);
		return -EINVAL;
	}
	ms->nevents = mi->plan.nevents;
	ms->ngroups = mi->plan.ngroups;
	ms->layout = acc_layout_of(ms->nevents, ms->ngroups);
	for (int i = 0; i < mi->plan.nevents; i++) {
		ms->events[i].name = mi->plan.ev[i].name;
		ms->events[i].attr = mi->plan.ev[i].attr;
		ms->events[i].group = plan_group_of(&mi->plan, i);
		mi->group_of[i] = (int8_t)ms->events[i].group;
	}
	return 0;
}

/* Where each node's events are, for quality.measured. */
static int node_fractions_open(struct measure_impl *mi)
{
	int n = model_node_count(mi->model), ret;

	mi->node_groups = calloc((size_t)n + 1, sizeof(*mi->node_groups));
	mi->measured = calloc((size_t)n + 1, sizeof(*mi->measured));
	mi->unmeasured = calloc((size_t)n + 1, sizeof(*mi->unmeasured));
	if (!mi->node_groups || !mi->measured || !mi->unmeasured)
		return -ENOMEM;
	/* Filled by measure_groups_unopened(), after the report copied the facts. */
	mi->ms.facts.unmeasured = mi->unmeasured;
	for (int k = 0; k < n; k++)
		mi->measured[k] = NAN;
	/* Levels 4-6 only: filled again by each measure_evaluate, before the line is made. */
	mi->ms.facts.measured = mi->ms.facts.level > PLAN_LEVELS_ALWAYS ? mi->measured : NULL;
	mi->ms.facts.measured_groups = mi->ms.facts.measured ? mi->node_groups : NULL;
	ret = plan_node_groups(&mi->plan, mi->model, mi->flags, mi->node_groups);
	if (!ret && mi->ms.facts.measured)
		ret = measured_sets_make(&mi->sets, mi->model, mi->node_groups, mi->ms.facts.level);
	return ret;
}

/* A model's count may not take a name tmacg reports itself. */
static int check_count_name(const struct measure_impl *mi, const char *name, char *err,
			    size_t errlen)
{
	for (int i = 0; i < MEASURE_NFIXED; i++)
		if (!strcmp(name, fixed_names[i]))
			goto taken;
	for (int i = 0; i < mi->nheadline; i++)
		if (!strcmp(name, mi->count_names[MEASURE_NFIXED + mi->ncount_nodes + i]))
			goto taken;
	return 0;
taken:
	snprintf(err, errlen,
		 "model %s: count %s has the name of a count tmacg reports "
		 "itself: rename it in the model file",
		 model_id(mi->model), name);
	return -EINVAL;
}

/* The counts' names in their order (measure.h), and where each model input comes from. */
static int map_model_events(struct measure_impl *mi, char *err, size_t errlen)
{
	int n = model_event_count(mi->model), nnodes = model_node_count(mi->model);
	int total = MEASURE_NFIXED + nnodes + NHEADLINE + mi->plan.nevents + 1, c = 0;

	mi->plan_of = calloc(n + 1, sizeof(*mi->plan_of));
	mi->values = calloc(n + 1, sizeof(*mi->values));
	mi->read_event = calloc(n + 1, sizeof(*mi->read_event));
	mi->absent = calloc(n + 1, sizeof(*mi->absent));
	mi->count_node = calloc(nnodes + 1, sizeof(*mi->count_node));
	mi->count_names = calloc(total, sizeof(*mi->count_names));
	mi->count_derived = calloc(total, sizeof(*mi->count_derived));
	mi->count_events = calloc((size_t)mi->plan.nevents + 1, sizeof(*mi->count_events));
	mi->count_input = calloc((size_t)mi->plan.nevents + 1, sizeof(*mi->count_input));
	if (!mi->plan_of || !mi->values || !mi->read_event || !mi->absent || !mi->count_node ||
	    !mi->count_names || !mi->count_derived || !mi->count_events || !mi->count_input)
		return -ENOMEM;
	mi->tsc_event = model_event_index(mi->model, "msr/tsc/");
	for (int e = 0; e < n; e++) {
		mi->plan_of[e] = plan_index(&mi->plan, model_event_name(mi->model, e));
		mi->absent[e] = mi->plan_of[e] < 0 && e != mi->tsc_event;
		mi->values[e] = NAN; /* an event not opened: measure_evaluate writes the others */
		if (mi->plan_of[e] >= 0 && e != mi->tsc_event)
			mi->read_event[mi->nread++] = e;
	}
	for (int i = 0; i < MEASURE_NFIXED; i++) {
		mi->count_derived[c] = fixed_derived[i];
		mi->count_names[c++] = fixed_names[i];
	}
	for (int k = 0; k < nnodes; k++) {
		if (!model_node(mi->model, k)->is_count)
			continue;
		mi->count_node[mi->ncount_nodes++] = k;
		mi->count_derived[c] = model_node(mi->model, k)->per_interval;
		mi->count_names[c++] = model_node(mi->model, k)->name;
	}
	for (int i = 0; i < NHEADLINE; i++) {
		if (model_event_index(mi->model, headline_events[i]) < 0)
			continue; /* not a model of Intel's fixed counters */
		mi->headline[mi->nheadline++] = plan_index(&mi->plan, headline_events[i]);
		mi->count_names[c++] = headline_names[i];
	}
	for (int i = 0; i < mi->ncount_nodes; i++) {
		int ret = check_count_name(mi, mi->count_names[MEASURE_NFIXED + i], err, errlen);

		if (ret)
			return ret;
	}
	/* Found once here: by name, each evaluation would compare every pair. */
	for (int i = 0; i < mi->plan.nevents; i++)
		if (plan_is_first(&mi->plan, i)) { /* a group's own cycles: one count */
			mi->count_input[mi->ncount_events] = -1;
			for (int e = 0; e < n; e++)
				if (mi->plan_of[e] == i && e != mi->tsc_event)
					mi->count_input[mi->ncount_events] = e;
			mi->count_events[mi->ncount_events++] = i;
			mi->count_names[c++] = mi->plan.ev[i].name;
		}
	/* Computed, not counted: in the line all the same, so a replay has every input. */
	if (tsc_computed(mi))
		mi->count_names[c++] = "msr/tsc/";
	mi->ms.facts.ncounts = c;
	mi->ms.facts.nsummary = MEASURE_NFIXED + mi->ncount_nodes;
	mi->ms.facts.count_names = mi->count_names;
	mi->ms.facts.count_derived = mi->count_derived;
	return 0;
}

/*
 * Whether the plan opens a PERF_METRICS pseudo-event (or its software
 * stand-in): the models branching on topdown_use_fixed read them at every
 * level, and the others do not branch on it.
 */
static bool plan_reads_perf_metrics(const struct plan *p)
{
	for (int i = 0; i < p->nevents; i++)
		if (!strncmp(p->ev[i].name, "PERF_METRICS.", strlen("PERF_METRICS.")))
			return true;
	return false;
}

/* Whether a node that is reported reads core-wide events while SMT is on. */
static bool smt_caveat(const struct measure_impl *mi)
{
	int n = model_node_count(mi->model);

	if (!mi->ci.smt)
		return false;
	for (int i = 0; i < n; i++) {
		const struct model_node_info *node = model_node(mi->model, i);

		if (node->core_wide &&
		    model_node_in_run(node, mi->ms.facts.level, mi->ms.facts.info))
			return true;
	}
	return false;
}

/*
 * What a failed plan_for_model() is: its documented refusals (--level out of
 * range or deeper than the model, a plan larger than the limits, an event no
 * counter can take) are what was asked; anything else (an encoding libpfm4
 * lacks, no memory) is the run's.
 */
static enum run_error_kind plan_error_kind(int ret)
{
	return ret == -EINVAL || ret == -EDOM || ret == -E2BIG || ret == -ENOSPC ? RUN_USAGE :
										   RUN_FAILED;
}

int measure_open(struct measure **out, const struct measure_config *o, struct run_error *e)
{
	struct measure_impl *mi = calloc(1, sizeof(*mi));
	struct plan_request req = { 0 };
	char *err = e->msg;
	size_t errlen = sizeof(e->msg);
	int ret;

	e->kind = RUN_FAILED;
	if (!mi) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	ret = cpu_detect(NULL, &mi->ci, err, errlen);
	if (ret)
		goto fail;
	/*
	 * Without a PMU only a model of software events can run: when the CPU
	 * would pick the model, say so before complaining that none fits it.
	 */
	if (!o->model_file && !o->model && (ret = cpu_require_pmu(&mi->ci, err, errlen)))
		goto fail;
	mi->model = tma_model_open(o->model_file, o->model, o->tma_version, &mi->ci, err, errlen);
	if (!mi->model) {
		ret = -EINVAL;
		goto fail;
	}
	mi->ms.facts.level = o->level;
	mi->ms.facts.info = o->info;
	req.model = mi->model;
	req.level = o->level;
	req.with_info = o->info;
	req.cpu = &mi->ci; /* without a PMU too: the host's SMT, not an assumed one */
	req.probe = mi->ci.has_pmu ? pmu_probe : NULL;
	ret = plan_for_model(&req, &mi->plan, err, errlen);
	if (ret) {
		e->kind = plan_error_kind(ret);
		goto fail;
	}
	if (plan_uses_pmu(&mi->plan) && (ret = cpu_require_pmu(&mi->ci, err, errlen)))
		goto fail;
	mi->flags = plan_model_flags(&req);
	/* Only a plan that opens PERF_METRICS reads it: a replay of the line takes the same. */
	if (!plan_reads_perf_metrics(&mi->plan))
		mi->flags &= ~MODEL_FLAG_TOPDOWN_FIXED;
	mi->ms.facts.topdown_fixed = mi->flags & MODEL_FLAG_TOPDOWN_FIXED;
	mi->ms.facts.smt = mi->flags & MODEL_FLAG_SMT;
	mi->ms.facts.smt_unknown = !mi->ci.smt_known;
	mi->ms.facts.pmu_slots = mi->ci.pmu_slots;
	ret = fill_events(mi, err, errlen);
	if (!ret)
		ret = map_model_events(mi, err, errlen);
	if (!ret)
		ret = node_fractions_open(mi);
	if (ret)
		goto fail;
	if (mi->tsc_event >= 0)
		mi->tsc_hz = tsc_rate();
	if (o->verbose)
		cpu_info_print(&mi->ci, stderr);
	if (plan_uses_pmu(&mi->plan)) /* the watchdog's counter matters to hardware only */
		cpu_warn(&mi->ci, stderr);
	mi->ms.facts.model = model_id(mi->model);
	mi->ms.facts.tma_version = model_tma_version(mi->model);
	mi->ms.facts.tma = mi->model;
	mi->ms.facts.smt_shared = smt_caveat(mi);
	for (int g = 0; g < mi->plan.ngroups; g++)
		mi->ms.facts.pmu_groups += plan_group_uses_pmu(&mi->plan, g);
	for (int i = 0; i < mi->plan.nmissing; i++)
		mi->missing[mi->ms.facts.nmissing++] = mi->plan.missing[i];
	mi->ms.facts.missing = mi->missing;
	if (mi->ms.facts.nmissing)
		fprintf(stderr,
			"tmacg: this PMU has no %s%s: the nodes reading %s are null "
			"(quality.missing_events)\n",
			mi->missing[0], mi->ms.facts.nmissing > 1 ? " and more" : "",
			mi->ms.facts.nmissing > 1 ? "them" : "it");
	ret = load_latencies(mi, o->retire_latency, err, errlen);
	if (ret)
		goto fail;
	*out = &mi->ms;
	e->kind = RUN_OK;
	return 0;
fail:
	if (ret == -ENOMEM)
		snprintf(err, errlen, "out of memory");
	measure_close(&mi->ms);
	return ret;
}
