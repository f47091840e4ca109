// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * What an interval costs before any line is printed, without BPF or
 * cgroups: the counts of CGROUPS cgroups added into their sums as the
 * collector adds each delta, then report_interval() with --format none,
 * which lists the cgroups, puts them in path order and, per cgroup, scales
 * the sum's counts and evaluates the model (measure_evaluate).  The model is
 * MODEL planned on this host as tmacg plans it live (TMACG_MODEL_DIR, e.g.
 * the deep section's software stand-in of icx: tests/bench/standin-model).
 * Each group ran a fifteenth of the interval, as at level 6's rotation.
 *
 *   interval MODEL LEVEL [CGROUPS [INTERVALS]]    (1000, 10)
 * prints one JSON object: ns per interval {median, min, max} on this
 * thread's CPU clock.  For a profiler: callgrind's instructions over
 * INTERVALS + 1 intervals (one unmeasured first).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cgroups/cgroup_tree.h"
#include "collect/acc_delta.h"
#include "measure.h"
#include "output/report.h"
#include "util/run_error.h"

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Cgroup i's delta: counts that differ per cgroup and per event, every group on part of the time. */
static void fill_delta(const struct acc_layout *l, struct tmacg_acc *d, int i)
{
	d->runtime_ns = 10000000 + 1000 * (uint64_t)i;
	for (int e = 0; e < l->nevents; e++)
		*acc_counter(d, e) = 1000003 * (uint64_t)(e + 1) + 7919 * (uint64_t)i;
	for (int g = 0; g < l->ngroups; g++) {
		*acc_enabled(l, d, g) = d->runtime_ns;
		*acc_running(l, d, g) = d->runtime_ns / 15 + g;
	}
}

int main(int argc, char **argv)
{
	struct measure_config cfg = { .model = argc > 1 ? argv[1] : NULL,
				      .level = argc > 2 ? atoi(argv[2]) : 0 };
	int ncgroups = argc > 3 ? atoi(argv[3]) : 1000;
	int intervals = argc > 4 ? atoi(argv[4]) : 10;
	struct cgroup_mount mnt = { .dir = "/nonexistent", .root = "/" };
	struct cgroup_spec spec = { .path = "/tmacg-bench/pool", .depth = 1 };
	struct cgroup_tree tree;
	struct measure *ms;
	struct run_error e;
	struct report_config rc = { .format = REPORT_NONE, .host = "node-7" };
	struct report *r;
	struct tmacg_acc **delta;
	double *ns;

	if (argc < 3 || cfg.level < 1 || ncgroups < 1 || intervals < 1) {
		fprintf(stderr,
			"usage: interval MODEL LEVEL [CGROUPS (>= 1) [INTERVALS (>= 1)]]\n");
		return 1;
	}
	if (measure_open(&ms, &cfg, &e)) {
		fprintf(stderr, "interval: %s\n", e.msg);
		return 2;
	}
	rc.facts = measure_facts(ms);
	rc.layout = ms->layout;
	rc.evaluate = measure_evaluate_cb;
	rc.evaluate_ctx = ms;
	r = report_new(&rc, stdout);
	delta = calloc(ncgroups, sizeof(*delta));
	ns = calloc(intervals, sizeof(*ns));
	if (!r || !delta || !ns || cgroup_tree_init(&tree, &mnt, &spec, 1) ||
	    cgroup_tree_add(&tree, 1, 0, "/") || cgroup_tree_add(&tree, 2, 1, "/tmacg-bench") ||
	    cgroup_tree_add(&tree, 3, 2, "/tmacg-bench/pool"))
		return 2;
	for (int i = 0; i < ncgroups; i++) {
		char path[64];

		snprintf(path, sizeof(path), "/tmacg-bench/pool/c%05d", i);
		delta[i] = acc_new(&ms->layout);
		if (!delta[i] || cgroup_tree_add(&tree, 10 + (uint64_t)i, 3, path))
			return 2;
		fill_delta(&ms->layout, delta[i], i);
	}
	for (int k = -1; k < intervals; k++) {
		double t0 = now_ns();

		for (int i = 0; i < ncgroups; i++) {
			struct tmacg_acc *sum = cgroup_node_sum(
				cgroup_tree_get(&tree, 10 + (uint64_t)i), &ms->layout);

			if (!sum)
				return 2;
			acc_add(&ms->layout, sum, delta[i]);
		}
		if (report_interval(r, &tree, 1.0, 0, 0))
			return 3;
		if (k >= 0)
			ns[k] = now_ns() - t0;
	}
	qsort(ns, intervals, sizeof(*ns), by_value);
	printf("{\"cgroups\":%d,\"intervals\":%d,\"ns_per_interval\":{\"median\":%.0f,\"min\":%.0f,"
	       "\"max\":%.0f}}\n",
	       ncgroups, intervals, ns[intervals / 2], ns[0], ns[intervals - 1]);
	report_free(r);
	cgroup_tree_free(&tree);
	for (int i = 0; i < ncgroups; i++)
		free(delta[i]);
	free(delta);
	free(ns);
	measure_close(ms);
	return 0;
}
