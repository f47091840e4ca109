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
#include "pmu/cpu_desc.h"
#include "pmu/events.h"

static bool plan_has_pmu(const struct plan_request *r)
{
	return r->cpu && r->cpu->has_pmu;
}

/*
 * The description whose events and counters the plan uses: the host's when
 * it runs this model (an Emerald Rapids host with spr), else one that runs it.
 */
static const struct cpu_desc *plan_cpu(const struct plan_request *r)
{
	const char *id = model_id(r->model);

	if (r->cpu && r->cpu->cpu && !strcmp(r->cpu->cpu->model, id))
		return r->cpu->cpu;
	return cpu_desc_for_model(id);
}

/* Away from a host, SMT is taken as on: most servers run it, and it leaves fewer counters. */
static bool plan_smt(const struct plan_request *r)
{
	return r->cpu ? r->cpu->smt : true;
}

/* Away from a host the plan is an SMT host's: fewer counters, and the _ANY/core-wide forms. */
unsigned int plan_model_flags(const struct plan_request *r)
{
	const struct cpu_desc *d = plan_has_pmu(r) ? NULL : plan_cpu(r);
	unsigned int flags = 0;

	/* The host's sysfs says whether PERF_METRICS work; away from one, the description. */
	if (plan_has_pmu(r) ? r->cpu->topdown_use_fixed : !d || d->perf_metrics)
		flags |= MODEL_FLAG_TOPDOWN_FIXED;
	if (plan_smt(r))
		flags |= MODEL_FLAG_SMT;
	return flags;
}

static int plan_target(const struct plan_request *r, struct event_target *t, int *gp, char *err,
		       size_t errlen)
{
	const char *id = model_id(r->model);
	const struct cpu_desc *d;
	int ret = cpu_desc_init(err, errlen);

	if (ret)
		return ret;
	d = plan_cpu(r);
	if (!d) {
		snprintf(err, errlen,
			 "model %s has no event encodings: no CPU description says 'model %s' "
			 "(tmacg --list-models; docs/cpu-format.md, TMACG_MODEL_DIR adds one): "
			 "tmacg encodes hardware events for the models of its CPU descriptions, "
			 "and software events (SW.*) for any model",
			 id, id);
		return -EOPNOTSUPP;
	}
	t->cpu = d;
	t->pfm_pmu = d->libpfm;
	t->smt = plan_smt(r);
	t->pmu_type = plan_has_pmu(r) ? r->cpu->pmu_type : PERF_TYPE_RAW;
	t->topdown_l2 = plan_has_pmu(r) ? r->cpu->topdown_l2 : d->perf_metrics_l2;
	/*
	 * What this PMU lacks of the core's (a virtual machine's): the plan opens
	 * no event of it, but a twin that counts the same (pmu/events.h).
	 */
	if (plan_has_pmu(r) && r->cpu->fixed_known)
		t->fixed_absent =
			(d->fixed_counters >= 32 ? UINT32_MAX : (1u << d->fixed_counters) - 1) &
			~r->cpu->fixed_mask;
	t->perf_metrics_absent = plan_has_pmu(r) && d->perf_metrics && !r->cpu->topdown_use_fixed;
	/*
	 * The usable counters, one formula: on a real PMU CPUID and sysfs rule
	 * (less the NMI watchdog's, cpu_detect).  Where they do not say (Arm: no
	 * CPUID, and the kernel does not export PMCR_EL0.N), and away from a
	 * host, the description of the model planned does, as it does for a
	 * detected one (cpu_detect): else a --model whose description is not this
	 * CPU's would get no counter.
	 */
	if (plan_has_pmu(r) && r->cpu->gp_counters)
		*gp = r->cpu->gp_usable;
	else
		*gp = (t->smt ? d->gp_counters_smt : d->gp_counters) -
		      ((plan_has_pmu(r) ? r->cpu->nmi_watchdog : r->watchdog) ? 1 : 0);
	return 0;
}

/*
 * Software events and perf's generic hardware events need no PMU table: a
 * model reading only them plans anywhere.
 */
static bool plan_needs_no_table(const char *const *names, int n, bool *hardware)
{
	*hardware = false;
	for (int i = 0; i < n; i++) {
		if (event_is_generic_hw(names[i]))
			*hardware = true;
		else if (!event_is_software(names[i]))
			return false;
	}
	return n > 0;
}

/*
 * Whether this host cannot count name at all: a generic event the kernel maps
 * to nothing here (QEMU's PMU counts only cycles and instructions), or an
 * event of what the PMU lacks of the core (PERF_METRICS, a fixed counter
 * without a twin: pmu/events.h).  Any other error the real open or the
 * planner reports.
 */
static bool plan_cannot_count(const struct plan_request *r, const struct event_target *t,
			      const char *name)
{
	struct event_enc e;
	char why[256];
	int ret;

	if (event_is_generic_hw(name)) {
		if (!r->probe || event_encode(NULL, name, &e, why, sizeof(why)))
			return false;
		ret = r->probe(&e.attr);
		return ret == -ENOENT || ret == -EOPNOTSUPP || ret == -EINVAL;
	}
	return t->cpu && !event_is_software(name) &&
	       event_encode(t, name, &e, why, sizeof(why)) == -EOPNOTSUPP;
}

/* The events this host cannot count (plan_cannot_count): out of names, into missing. */
static int plan_drop_missing(const struct plan_request *r, const struct event_target *t,
			     const char **names, int *nn, const char **missing, int *nmissing,
			     char *err, size_t errlen)
{
	int kept = 0;

	*nmissing = 0;
	for (int i = 0; i < *nn; i++) {
		if (plan_cannot_count(r, t, names[i])) {
			if (*nmissing == PLAN_MAX_MISSING) {
				snprintf(err, errlen, "more than %d events missing on this PMU",
					 PLAN_MAX_MISSING);
				return -E2BIG;
			}
			missing[(*nmissing)++] = names[i];
			continue;
		}
		names[kept++] = names[i];
	}
	*nn = kept;
	return 0;
}

/*
 * A description's software_standins: each event planned for the PMU is opened
 * as one of them instead, in turn by its place in the plan, so events side by
 * side in a group count different things.  Kinds, counters and groups stay
 * as planned: the plan keeps the real CPU's shape and rotation.
 */
static int plan_open_as_standins(const struct cpu_desc *d, struct plan *p, char *err, size_t errlen)
{
	for (int i = 0; i < p->nevents; i++) {
		const char *name = d->software_standins[i % d->nsoftware_standins];
		struct perf_event_attr *a = &p->ev[i].attr;
		struct event_enc sw;
		char why[256];
		int ret;

		if (a->type == PERF_TYPE_SOFTWARE)
			continue;
		/* SW.* by the description's parser: event_encode names an unknown one. */
		ret = event_encode(NULL, name, &sw, why, sizeof(why));
		if (ret) {
			snprintf(err, errlen, "%s: software_standins: %s", d->path, why);
			return ret;
		}
		sw.attr.disabled = a->disabled; /* the group's leader enables it */
		*a = sw.attr;
	}
	return 0;
}

/*
 * The order nodes are offered to the planner in: level by level (counts,
 * level 0, first; Info metrics last), model order within a level, so a
 * level's events share groups before deeper ones take counters and level 1
 * is measured over one time window where it fits (AMD's six events fill the
 * six counters).  -1: not planned at this depth.
 */
#define PLAN_RANK_INFO 7

static int plan_rank(const struct plan_request *r, const struct model_node_info *info)
{
	if (info->is_info)
		return r->with_info ? PLAN_RANK_INFO : -1;
	return info->level <= r->level ? info->level : -1;
}

int plan_model_depth(const struct tma_model *m)
{
	int depth = 0, nnodes = model_node_count(m);

	for (int k = 0; k < nnodes; k++)
		if (model_node(m, k)->level > depth)
			depth = model_node(m, k)->level;
	return depth;
}

/*
 * Levels 1-3 are what every model answers (a shallower one reports what it
 * has); a deeper level is asked for on purpose, for its own nodes, and
 * refused where the model has none.
 */
static int plan_check_depth(const struct plan_request *r, char *err, size_t errlen)
{
	int depth = plan_model_depth(r->model);

	if (r->level <= PLAN_LEVELS_ALWAYS || r->level <= depth)
		return 0;
	snprintf(err, errlen,
		 "model %s has %d level%s: --level %d asks for nodes it does not have "
		 "(use --level %d or less)",
		 model_id(r->model), depth, depth == 1 ? "" : "s", r->level,
		 depth > PLAN_LEVELS_ALWAYS ? depth : PLAN_LEVELS_ALWAYS);
	return -EDOM;
}

int plan_for_model(const struct plan_request *r, struct plan *out, char *err, size_t errlen)
{
	struct event_target t = { 0 };
	struct plan_input in = { 0 };
	int n, nnodes, nn = 0, gp = 0, ret;
	bool *need = NULL, *mark = NULL, hardware;
	const char **names = NULL, **pool = NULL, *missing[PLAN_MAX_MISSING];
	struct plan_node *nodes = NULL;

	if (!r->model || r->level < 1 || r->level > 6) {
		snprintf(err, errlen, "--level takes 1 to 6 (TMA levels), not %d", r->level);
		return -EINVAL;
	}
	ret = plan_check_depth(r, err, errlen);
	if (ret)
		return ret;
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
	if (ret == -EOPNOTSUPP && plan_needs_no_table(names, nn, &hardware)) {
		memset(&t, 0, sizeof(t));
		/* Generic events: the host's counters when it says, else a pair per group. */
		gp = 0;
		if (hardware)
			gp = plan_has_pmu(r) && r->cpu->gp_usable > 0 ? r->cpu->gp_usable :
									PLAN_GENERIC_GP;
		in.group_cycles = hardware ? "cycles" : NULL;
		ret = 0;
	} else if (!ret) {
		in.group_cycles = t.cpu->group_cycles;
	}
	/* libpfm4 must use the model's tables even where it detects another CPU. */
	if (!ret && t.pfm_pmu)
		ret = events_init(t.pfm_pmu, err, errlen);
	if (!ret)
		ret = plan_drop_missing(r, &t, names, &nn, missing, &in.nmissing, err, errlen);
	if (ret)
		goto cleanup;
	for (int rank = 0; rank <= PLAN_RANK_INFO; rank++)
		for (int k = 0; k < nnodes; k++) {
			const char **set = pool + (size_t)k * ((size_t)n + 1);
			int c = 0;

			if (plan_rank(r, model_node(r->model, k)) != rank)
				continue;
			memset(mark, 0, (size_t)n * sizeof(*mark));
			if (model_node_events(r->model, k, mark) < 0)
				continue;
			for (int i = 0; i < n; i++)
				if (mark[i] && need[i])
					set[c++] = model_event_name(r->model, i);
			nodes[in.nnodes++] =
				(struct plan_node){ model_node(r->model, k)->name, set, c, rank };
			if (rank <= PLAN_LEVELS_ALWAYS)
				in.nbase_nodes = in.nnodes;
		}
	/* Deeper than level 3: more events than one pass reads, in turns. */
	in.rotate = r->level > PLAN_LEVELS_ALWAYS;
	in.software_takes_counters = t.cpu && t.cpu->software_counters;
	in.target = &t;
	in.gp_counters = gp;
	in.events = names;
	in.nevents = nn;
	in.nodes = nodes;
	in.missing = (const char *const *)missing;
	ret = plan_build(&in, out, err, errlen);
	if (!ret && t.cpu && t.cpu->nsoftware_standins)
		ret = plan_open_as_standins(t.cpu, out, err, errlen);
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

int plan_node_all_groups(const struct plan *p, const struct tma_model *m, unsigned flags,
			 uint64_t *groups)
{
	int n = model_event_count(m), nnodes = model_node_count(m);
	bool *mark = calloc((size_t)n + 1, sizeof(*mark));

	if (!mark)
		return -ENOMEM;
	for (int k = 0; k < nnodes; k++) {
		groups[k] = 0;
		memset(mark, 0, ((size_t)n + 1) * sizeof(*mark));
		if (model_node_events_for(m, k, flags, mark) < 0)
			continue;
		for (int e = 0; e < n; e++) {
			int i = mark[e] ? plan_index(p, model_event_name(m, e)) : -1;

			if (i >= 0)
				groups[k] |= 1ull << plan_group_of(p, i);
		}
	}
	free(mark);
	return 0;
}

int plan_node_groups(const struct plan *p, const struct tma_model *m, unsigned flags,
		     uint64_t *groups)
{
	int ret = plan_node_all_groups(p, m, flags, groups);

	for (int k = 0; !ret && k < model_node_count(m); k++)
		if (!(groups[k] & ~p->always_on))
			groups[k] = 0; /* on at every switch: running_min says the rest */
	return ret;
}

/* Generic events any PMU maps, software ones no PMU needs: no description either way. */
bool model_needs_no_description(const struct tma_model *m, bool *generic)
{
	int n = model_event_count(m);

	*generic = false;
	for (int i = 0; i < n; i++) {
		if (event_is_generic_hw(model_event_name(m, i)))
			*generic = true;
		else if (!event_is_software(model_event_name(m, i)))
			return false;
	}
	return n > 0;
}

struct tma_model *tma_model_open(const char *model_file, const char *model_id, const char *version,
				 const struct cpu_info *ci, char *err, size_t errlen)
{
	const char *id = model_id;

	if (model_file)
		return model_load_file(model_file, err, errlen);
	if (!id && ci)
		id = cpu_select_model(ci, NULL, err, errlen);
	if (!id) {
		if (!ci)
			snprintf(err, errlen,
				 "no TMA model given: name one with --model ID "
				 "(tmacg --list-models) or --model-file PATH");
		return NULL;
	}
	return model_load_version(id, version, err, errlen);
}
