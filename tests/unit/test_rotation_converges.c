// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Rotation loses nothing on a steady workload (issue 27, item 7).  Each golden
 * vector (tests/golden/) is taken as the counts of a workload whose rates do
 * not change; the interval is cut into the slices the planner makes at
 * --level 6 (of uneven lengths, as a busy tmacg would cut them), each group
 * counts only in its slices, and its counts are scaled back by enabled /
 * running exactly as a live line's are (acc_scaled).  Every node of levels
 * 1-6 must come within 1e-6 of its value on the full counts, null where that
 * is null, and quality.measured must say each node whose events take turns
 * (levels 4-6, and level 3's GP events) was measured less than the whole
 * interval: its slices' share of it; the nodes read at every switch (the
 * topdown group's levels 1-2) carry none.
 *
 * A steady rate gives a group rate x running counts; counts are integers, so
 * the run is made as long as the counters allow (counts and interval scaled
 * alike: the nodes are ratios and per-second rates, unchanged), which keeps
 * the rounding of an event counted a few times below the tolerance.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collect/acc_delta.h"
#include "collect/measured_sets.h"
#include "measure.h"
#include "model/model.h"
#include "model/retire_latency.h"
#include "pmu/cpu_desc.h"
#include "pmu/cpu_detect.h"
#include "pmu/plan_model.h"
#include "pmu/planner.h"

/* The largest count of a scaled run: a quarter of the u64 counters' range. */
#define RUN_MAX_COUNT 4e18
/* Its length in ns (enabled): only the slices' shares of it matter. */
#define RUN_NS 1e15
#define TOLERANCE 1e-6

/* The plan a host with these flags makes at --level 6, and each node's groups. */
struct rotation_case {
	struct tma_model *m;
	struct plan plan;
	uint64_t *node_groups;
	double *slice_ns; /* each slice's length */
	double *full, *scaled, *lat, *measured;
};

static void plan_case(struct rotation_case *c, const char *id, bool smt, bool fixed)
{
	const struct cpu_desc *d = cpu_desc_for_model(id);
	struct cpu_info host = {
		.has_pmu = true,
		.pmu_type = 4,
		.topdown_use_fixed = fixed,
		.topdown_l2 = d->perf_metrics_l2,
		.smt = smt,
		.cpu = d,
		.gp_counters = smt ? d->gp_counters_smt : d->gp_counters,
		.gp_usable = smt ? d->gp_counters_smt : d->gp_counters,
	};
	struct plan_request r = { .model = c->m, .level = 6, .cpu = &host };
	char err[512];

	if (plan_for_model(&r, &c->plan, err, sizeof(err)))
		fail_msg("%s level 6 (smt %d, fixed %d): %s", id, smt, fixed, err);
	assert_true(c->plan.nslices > 1);
	assert_int_equal(plan_node_groups(&c->plan, c->m,
					  (fixed ? MODEL_FLAG_TOPDOWN_FIXED : 0) |
						  (smt ? MODEL_FLAG_SMT : 0),
					  c->node_groups),
			 0);
}

/* Slices of uneven lengths summing to total: the schedule is not assumed even. */
static void cut_slices(struct rotation_case *c, double total)
{
	double sum = 0;

	for (int s = 0; s < c->plan.nslices; s++) {
		c->slice_ns[s] = 1 + 0.3 * sin(1.7 * s + 0.5);
		sum += c->slice_ns[s];
	}
	for (int s = 0; s < c->plan.nslices; s++)
		c->slice_ns[s] = floor(c->slice_ns[s] * total / sum);
}

/* The accumulator a steady workload leaves: each group counted in its slices only. */
static void simulate(const struct rotation_case *c, const double *full, double scale, double total,
		     const struct acc_layout *l, struct tmacg_acc *acc)
{
	const struct tma_model *m = c->m;

	acc_clear(l, acc);
	for (int g = 0; g < c->plan.ngroups; g++) {
		double on = 0;

		for (int s = 0; s < c->plan.nslices; s++)
			on += plan_group_on(&c->plan, g, s) ? c->slice_ns[s] : 0;
		*acc_enabled(l, acc, g) = (__u64)total;
		*acc_running(l, acc, g) = (__u64)on;
	}
	for (int i = 0; i < c->plan.nevents; i++) {
		int e = model_event_index(m, c->plan.ev[i].name), g = plan_group_of(&c->plan, i);

		if (e >= 0)
			*acc_counter(acc, i) = (__u64)llround(
				full[e] * scale * (double)*acc_running(l, acc, g) / total);
	}
}

static bool agrees(double want, double got)
{
	if (isnan(want) || isnan(got))
		return isnan(want) && isnan(got);
	return fabs(want - got) <= TOLERANCE * fmax(1, fabs(want));
}

/* One vector: returns the level 4-6 nodes compared. */
static int check_vector(struct rotation_case *c, json_object *o, struct model_result *want,
			struct model_result *got)
{
	static union acc_room acc;
	const struct acc_layout l = acc_layout_of(c->plan.nevents, c->plan.ngroups);
	const struct tma_model *m = c->m;
	json_object *counters, *x, *id = json_object_object_get(o, "id");
	int nev = model_event_count(m), nodes = model_node_count(m), deep = 0;
	double interval = json_object_get_double(json_object_object_get(o, "interval_s"));
	double most = 1, scale, total = RUN_NS, share[TMACG_MAX_GROUPS];
	struct model_input in = { .latencies = c->lat };
	struct measured_sets sets;

	assert_true(json_object_object_get_ex(o, "counters", &counters));
	for (int e = 0; e < nev; e++)
		c->full[e] = json_object_object_get_ex(counters, model_event_name(m, e), &x) ?
				     json_object_get_double(x) :
				     0;
	for (int e = 0; e < nev; e++)
		most = fmax(most, c->full[e]);
	scale = floor(RUN_MAX_COUNT / most);
	in.flags =
		(json_object_object_get_ex(o, "topdown_fixed", &x) && json_object_get_boolean(x) ?
			 MODEL_FLAG_TOPDOWN_FIXED :
			 0) |
		(json_object_object_get_ex(o, "smt", &x) && json_object_get_boolean(x) ?
			 MODEL_FLAG_SMT :
			 0);
	in.events = c->full;
	in.interval_s = interval;
	model_eval_level(m, &in, want, 6, false);

	cut_slices(c, total);
	simulate(c, c->full, scale, total, &l, &acc.acc);
	for (int e = 0; e < nev; e++) {
		int i = plan_index(&c->plan, model_event_name(m, e));

		/* Not a perf event (msr/tsc/: computed from the interval): the run's own. */
		c->scaled[e] = i < 0 ? c->full[e] * scale :
				       acc_scaled(&l, &acc.acc, i, plan_group_of(&c->plan, i));
	}
	in.events = c->scaled;
	in.interval_s = interval * scale;
	model_eval_level(m, &in, got, 6, false);
	acc_running_shares(&l, &acc.acc, share);
	/* As measure.c takes them: once per set of groups, copied to the set's nodes. */
	assert_int_equal(measured_sets_make(&sets, m, c->node_groups, 6), 0);
	for (int k = 0; k < nodes; k++)
		c->measured[k] = NAN;
	measured_sets_fill(&sets, share, c->measured);
	assert_true(sets.nsets > 1 && sets.nsets < sets.nnodes);
	measured_sets_free(&sets);

	for (int k = 0; k < nodes; k++) {
		const struct model_node_info *node = model_node(m, k);

		if (node->level < 1)
			continue;
		if (!agrees(want->value[k], got->value[k]))
			fail_msg("%s vector %s: %s (level %d) is %.17g under rotation, %.17g on "
				 "the full counts",
				 model_id(m), json_object_get_string(id), node->name, node->level,
				 got->value[k], want->value[k]);
		if (!c->node_groups[k]) {
			/* Reads no event itself, or only the groups on in every slice. */
			assert_true(isnan(c->measured[k]));
			continue;
		}
		/* Each node's own least share, taken from the sum alone. */
		if (c->measured[k] != acc_measured(&l, &acc.acc, c->node_groups[k]))
			fail_msg("%s: %s measured %.17g, its groups' least share %.17g",
				 model_id(m), node->name, c->measured[k],
				 acc_measured(&l, &acc.acc, c->node_groups[k]));
		if (!(c->measured[k] > 0 && c->measured[k] < 1))
			fail_msg("%s: %s measured %g, want a share of the interval", model_id(m),
				 node->name, c->measured[k]);
		deep += node->level > 3;
	}
	return deep;
}

static void converges(const char *id, const char *file)
{
	static struct rotation_case c;
	char path[4096], err[512], *line = NULL;
	struct model_result *want, *got;
	size_t cap = 0;
	int vectors = 0, deep = 0;
	struct rl_table none = { 0 };
	FILE *f;

	assert_int_equal(cpu_desc_init(err, sizeof(err)), 0);
	c.m = model_load_builtin(id, err, sizeof(err));
	if (!c.m)
		fail_msg("%s: %s", id, err);
	c.node_groups = calloc((size_t)model_node_count(c.m), sizeof(*c.node_groups));
	c.measured = calloc((size_t)model_node_count(c.m), sizeof(*c.measured));
	c.full = calloc((size_t)model_event_count(c.m), sizeof(*c.full));
	c.scaled = calloc((size_t)model_event_count(c.m), sizeof(*c.scaled));
	c.lat = calloc((size_t)model_latency_count(c.m) + 1, sizeof(*c.lat));
	c.slice_ns = calloc(PLAN_MAX_SLICES, sizeof(*c.slice_ns));
	want = model_result_new(c.m);
	got = model_result_new(c.m);
	/* gnr weighs by retire latencies: Intel's defaults, the same in both evaluations. */
	rl_fill(c.m, &none, cpu_desc_latency_defaults(id), c.lat);
	snprintf(path, sizeof(path), "tests/golden/%s", file);
	f = fopen(path, "r");
	if (!f)
		fail_msg("cannot open %s: run from the repository root", path);
	while (getline(&line, &cap, f) > 0) {
		json_object *o = json_tokener_parse(line), *x;
		bool smt, fixed;

		assert_non_null(o);
		smt = json_object_object_get_ex(o, "smt", &x) && json_object_get_boolean(x);
		fixed = json_object_object_get_ex(o, "topdown_fixed", &x) &&
			json_object_get_boolean(x);
		plan_case(&c, id, smt, fixed);
		deep += check_vector(&c, o, want, got);
		vectors++;
		json_object_put(o);
	}
	print_message("%s: %d vectors, %d level 4-6 node values agree under a %d-slice rotation\n",
		      id, vectors, deep, c.plan.nslices);
	assert_true(vectors > 0 && deep > vectors);
	free(line);
	fclose(f);
	model_result_free(want);
	model_result_free(got);
	free(c.node_groups);
	free(c.measured);
	free(c.full);
	free(c.scaled);
	free(c.lat);
	free(c.slice_ns);
	model_free(c.m);
}

/* A model and its golden file: each test's state (cmocka_unit_test_prestate). */
struct golden_file {
	const char *model, *file;
};

static void model_converges(void **state)
{
	const struct golden_file *g = *state;

	converges(g->model, g->file);
}

int main(void)
{
	static struct golden_file files[] = {
		{ "icx", "icx-tma4.5.jsonl" },	{ "spr", "spr-tma5.01.jsonl" },
		{ "emr", "emr-tma5.2.jsonl" },	{ "gnr", "gnr-tma5.1.jsonl" },
		{ "skx", "skx-tma5.01.jsonl" }, { "clx", "clx-tma5.01.jsonl" },
	};
	struct CMUnitTest tests[sizeof(files) / sizeof(files[0])];

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		tests[i] = (struct CMUnitTest){ files[i].model, model_converges, NULL, NULL,
						&files[i] };

	return cmocka_run_group_tests(tests, NULL, NULL);
}
