// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The TMA path: a model's events planned into perf groups, and each cgroup's
 * interval sum, scaled for multiplexing, evaluated by the same model code
 * replay uses.  An event whose group never ran for the cgroup is NAN, so
 * the nodes reading it are null rather than 0.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "acc_delta.h"
#include "pmu/cpu_detect.h"
#include "measure.h"
#include "model/model.h"
#include "options.h"
#include "pmu/plan_model.h"
#include "pmu/planner.h"
#include "offline.h"

/* Headline counts first, then every opened event by name (re-playable). */
enum { HW_ON_CPU_S, HW_CYCLES, HW_INSTRUCTIONS, HW_SLOTS, HW_NFIXED };

struct hw_measure {
	struct measure ms;		/* first: the struct measure * is this */
	struct tma_model *model;
	struct plan plan;
	struct cpu_info ci;
	unsigned int flags;
	int *plan_of;			/* model event -> plan index, -1: not opened */
	int tsc_event;			/* model event index of msr/tsc/, -1 if unread */
	double tsc_hz;
	double *values;			/* model inputs */
	int headline[HW_NFIXED];	/* plan index of cycles, instructions, slots */
	const char **count_names;
};

static const char *const headline_names[HW_NFIXED] = { "on_cpu_s", "cycles", "instructions",
						       "slots" };
static const char *const headline_events[HW_NFIXED] = { NULL, "CPU_CLK_UNHALTED.THREAD",
							"INST_RETIRED.ANY", "TOPDOWN.SLOTS" };

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

static double scaled(const struct hw_measure *hw, const struct tmacg_acc *sum, int idx)
{
	return idx < 0 ? NAN : acc_scaled(sum, idx, plan_group_of(&hw->plan, idx));
}

static void hw_evaluate(struct measure *ms, const struct tmacg_acc *sum, double interval_s,
			double *counts, struct model_result *result)
{
	struct hw_measure *hw = (struct hw_measure *)ms;
	int n = model_event_count(hw->model);
	struct model_input in = { .events = hw->values, .interval_s = interval_s,
				  .flags = hw->flags };

	for (int e = 0; e < n; e++)
		hw->values[e] = e == hw->tsc_event ? hw->tsc_hz * interval_s :
						     scaled(hw, sum, hw->plan_of[e]);
	model_eval_level(hw->model, &in, result, ms->level, ms->info);
	counts[HW_ON_CPU_S] = sum->runtime_ns / 1e9;
	for (int i = HW_CYCLES; i < HW_NFIXED; i++)
		counts[i] = scaled(hw, sum, hw->headline[i]);
	for (int i = 0; i < hw->plan.nevents; i++)
		counts[HW_NFIXED + i] = scaled(hw, sum, i);
}

static void hw_close(struct measure *ms)
{
	struct hw_measure *hw = (struct hw_measure *)ms;

	model_free(hw->model);
	free(hw->plan_of);
	free(hw->values);
	free(hw->count_names);
	free(hw);
}

/* The plan's events, as the BPF side and pmu_open() want them. */
static int fill_events(struct hw_measure *hw, char *err, size_t errlen)
{
	struct measure *ms = &hw->ms;

	if (hw->plan.nevents == 0) {
		snprintf(err, errlen, "model %s reads no event at --level %d: nothing to measure",
			 model_id(hw->model), ms->level);
		return -EINVAL;
	}
	ms->nevents = hw->plan.nevents;
	ms->ngroups = hw->plan.ngroups;
	for (int i = 0; i < hw->plan.nevents; i++) {
		ms->events[i].name = hw->plan.ev[i].name;
		ms->events[i].attr = hw->plan.ev[i].attr;
		ms->events[i].group = plan_group_of(&hw->plan, i);
	}
	return 0;
}

static int map_model_events(struct hw_measure *hw)
{
	int n = model_event_count(hw->model);

	hw->plan_of = calloc(n + 1, sizeof(*hw->plan_of));
	hw->values = calloc(n + 1, sizeof(*hw->values));
	hw->count_names = calloc(HW_NFIXED + hw->plan.nevents, sizeof(*hw->count_names));
	if (!hw->plan_of || !hw->values || !hw->count_names)
		return -ENOMEM;
	hw->tsc_event = model_event_index(hw->model, "msr/tsc/");
	for (int e = 0; e < n; e++)
		hw->plan_of[e] = plan_index(&hw->plan, model_event_name(hw->model, e));
	for (int i = 0; i < HW_NFIXED; i++) {
		hw->count_names[i] = headline_names[i];
		hw->headline[i] = headline_events[i] ? plan_index(&hw->plan, headline_events[i]) : -1;
	}
	for (int i = 0; i < hw->plan.nevents; i++)
		hw->count_names[HW_NFIXED + i] = hw->plan.ev[i].name;
	hw->ms.ncounts = HW_NFIXED + hw->plan.nevents;
	hw->ms.count_names = hw->count_names;
	return 0;
}

/* Whether a node that is reported reads core-wide events while SMT is on. */
static bool smt_caveat(const struct hw_measure *hw)
{
	int n = model_node_count(hw->model);

	if (!hw->ci.smt)
		return false;
	for (int i = 0; i < n; i++) {
		const struct model_node_info *node = model_node(hw->model, i);

		if (node->core_wide && (node->is_info ? hw->ms.info : node->level <= hw->ms.level))
			return true;
	}
	return false;
}

int measure_hardware_open(struct measure **out, const struct options *o, char *err,
			  size_t errlen)
{
	struct hw_measure *hw = calloc(1, sizeof(*hw));
	struct plan_request req = { 0 };
	int ret;

	if (!hw) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	hw->ms.close = hw_close;
	ret = cpu_detect(NULL, &hw->ci, err, errlen);
	if (ret)
		goto fail;
	/* Without a PMU only a model of software events can run: say so early otherwise. */
	if (!o->model_file && (ret = cpu_require_pmu(&hw->ci, err, errlen)))
		goto fail;
	hw->model = tma_model_open(o, &hw->ci, err, errlen);
	if (!hw->model) {
		ret = -EINVAL;
		goto fail;
	}
	hw->ms.level = o->level;
	hw->ms.info = o->info;
	req.model = hw->model;
	req.level = o->level;
	req.with_info = o->info;
	req.cpu = hw->ci.has_pmu ? &hw->ci : NULL;
	ret = plan_for_model(&req, &hw->plan, err, errlen);
	if (ret)
		goto fail;
	if (plan_uses_pmu(&hw->plan) && (ret = cpu_require_pmu(&hw->ci, err, errlen)))
		goto fail;
	hw->flags = plan_model_flags(&req);
	ret = fill_events(hw, err, errlen);
	if (!ret)
		ret = map_model_events(hw);
	if (ret)
		goto fail;
	if (hw->tsc_event >= 0)
		hw->tsc_hz = tsc_rate();
	if (o->verbose)
		cpu_info_print(&hw->ci, stderr);
	cpu_warn(&hw->ci, stderr);
	hw->ms.model_name = model_id(hw->model);
	hw->ms.tma_version = model_tma_version(hw->model);
	hw->ms.tma = hw->model;
	hw->ms.smt_shared = smt_caveat(hw);
	hw->ms.evaluate = hw_evaluate;
	*out = &hw->ms;
	return 0;
fail:
	if (ret == -ENOMEM)
		snprintf(err, errlen, "out of memory");
	hw_close(&hw->ms);
	return ret;
}
