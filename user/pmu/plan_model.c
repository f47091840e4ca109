// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Model + level + host -> plan: the events the chosen nodes need under this
 * host's flags, each node's events offered to the planner as one set so a
 * node's ratio comes from counts taken over the same time.
 */
#include "pmu/plan_model.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"

/* What a model's CPU offers with a current kernel, for planning away from it. */
static const struct {
	const char *id;
	bool topdown_l2;	/* level-2 PERF_METRICS */
	int gp_counters;	/* per logical CPU, SMT on or off */
} plan_cpu_defaults[] = {
	{ "icx", false, 8 },
	{ "spr", true, 8 },
};

static bool plan_has_pmu(const struct plan_request *r)
{
	return r->cpu && r->cpu->has_pmu;
}

unsigned int plan_model_flags(const struct plan_request *r)
{
	unsigned int flags = 0;

	if (!plan_has_pmu(r) || r->cpu->topdown_use_fixed)
		flags |= MODEL_FLAG_TOPDOWN_FIXED;
	if (r->cpu && r->cpu->smt)
		flags |= MODEL_FLAG_SMT;
	return flags;
}

static int plan_target(const struct plan_request *r, struct event_target *t, int *gp, char *err,
		       size_t errlen)
{
	const char *id = model_id(r->model);

	for (size_t i = 0; i < sizeof(plan_cpu_defaults) / sizeof(plan_cpu_defaults[0]); i++) {
		if (strcmp(plan_cpu_defaults[i].id, id))
			continue;
		t->pfm_pmu = plan_cpu_defaults[i].id;
		if (plan_has_pmu(r)) {
			t->pmu_type = r->cpu->pmu_type;
			t->topdown_l2 = r->cpu->topdown_l2;
			*gp = r->cpu->gp_usable;
		} else {
			t->pmu_type = PERF_TYPE_RAW;
			t->topdown_l2 = plan_cpu_defaults[i].topdown_l2;
			*gp = plan_cpu_defaults[i].gp_counters;
		}
		return 0;
	}
	snprintf(err, errlen,
		 "model %s has no event encodings (libpfm4 table and counter limits): tmacg "
		 "encodes hardware events for icx and spr, and software events (SW.*) for any "
		 "model", id);
	return -EOPNOTSUPP;
}

/* Software events need no PMU table: a model reading only them plans anywhere. */
static bool plan_software_only(const char *const *names, int n)
{
	for (int i = 0; i < n; i++)
		if (!event_is_software(names[i]))
			return false;
	return n > 0;
}

int plan_for_model(const struct plan_request *r, struct plan *out, char *err, size_t errlen)
{
	struct event_target t = { 0 };
	struct plan_input in = { 0 };
	int n, nnodes, nn = 0, gp = 0, ret;
	bool *need = NULL, *mark = NULL;
	const char **names = NULL, **pool = NULL;
	struct plan_node *nodes = NULL;

	if (!r->model || r->level < 1 || r->level > 6) {
		snprintf(err, errlen, "--level takes 1 to 6 (TMA levels), not %d", r->level);
		return -EINVAL;
	}
	n = model_event_count(r->model);
	nnodes = model_node_count(r->model);
	need = calloc((size_t)n + 1, sizeof(*need));
	mark = calloc((size_t)n + 1, sizeof(*mark));
	names = calloc((size_t)n + 1, sizeof(*names));
	nodes = calloc((size_t)nnodes + 1, sizeof(*nodes));
	/* Node sets point into one pool: at most n names per node. */
	pool = calloc(((size_t)nnodes + 1) * ((size_t)n + 1), sizeof(*pool));
	if (!need || !mark || !names || !nodes || !pool) {
		snprintf(err, errlen, "out of memory planning model %s", model_id(r->model));
		ret = -ENOMEM;
		goto cleanup;
	}
	model_events_needed(r->model, r->level, r->with_info, plan_model_flags(r), need);
	for (int i = 0; i < n; i++)
		if (need[i])
			names[nn++] = model_event_name(r->model, i);
	ret = plan_target(r, &t, &gp, err, errlen);
	if (ret == -EOPNOTSUPP && plan_software_only(names, nn)) {
		memset(&t, 0, sizeof(t));
		gp = 0;
		ret = 0;
	}
	/* libpfm4 must use the model's tables even where it detects another CPU. */
	if (!ret && t.pfm_pmu)
		ret = events_init(t.pfm_pmu, err, errlen);
	if (ret)
		goto cleanup;
	for (int k = 0; k < nnodes; k++) {
		const struct model_node_info *info = model_node(r->model, k);
		const char **set = pool + (size_t)k * ((size_t)n + 1);
		int c = 0;

		if (info->is_info ? !r->with_info : info->level > r->level)
			continue;
		memset(mark, 0, (size_t)n * sizeof(*mark));
		if (model_node_events(r->model, k, mark) < 0)
			continue;
		for (int i = 0; i < n; i++)
			if (mark[i] && need[i])
				set[c++] = model_event_name(r->model, i);
		nodes[in.nnodes++] = (struct plan_node){ info->name, set, c };
	}
	in.target = &t;
	in.gp_counters = gp;
	in.events = names;
	in.nevents = nn;
	in.nodes = nodes;
	ret = plan_build(&in, out, err, errlen);
	if (ret == -E2BIG) {
		char why[512];

		snprintf(why, sizeof(why), "%s", err);
		snprintf(err, errlen, "model %s at --level %d: %s", model_id(r->model), r->level,
			 why);
	}
cleanup:
	free(pool);
	free(nodes);
	free(names);
	free(mark);
	free(need);
	return ret;
}
