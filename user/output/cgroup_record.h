/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * The per-cgroup record: one cgroup's (or task's) result for one interval,
 * whatever the model.  The report stage (report.c) fills it; every stage
 * after it reads it: the printers (JSON, tree, top), the Prometheus sink,
 * replay, and Kubernetes naming (struct resource).  It lives here, not in a
 * printer's header, so that a reader depends on the record, not on a printer.
 */
#ifndef TMACG_CGROUP_RECORD_H
#define TMACG_CGROUP_RECORD_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

struct tma_model;
struct model_result;
struct rl_table;

/* Kubernetes identity; any field may be NULL (omitted from "resource"). */
struct resource {
	const char *k8s_namespace;
	const char *k8s_pod;
	const char *k8s_pod_uid;
	const char *k8s_container;
	const char *container_id;
	const char *host; /* host.name */
};

struct report_task {
	uint32_t tid;
	uint32_t tgid;
	const char *comm;
};

/*
 * What a line of summed counts (--replay --group-by) summed: the keys it
 * was grouped by, each one's value (NULL: the lines lacked the key, JSON
 * null), and how many lines and cgroups (by host and path) went into it.
 */
struct report_group {
	int nkeys;
	const char *const *key_names;
	const char *const *values;
	uint64_t lines;
	uint64_t cgroups;
};

/*
 * A node measured less than this share of the interval (its events' turns on
 * the PMU at levels 4-6) is an extrapolation from a small sample: the table
 * and the live view mark it "~".
 */
#define REPORT_MEASURED_LOW 0.5

struct report_line {
	struct timespec time; /* end of the interval, CLOCK_REALTIME */
	double interval_s;
	const char *host;
	const char *model;		  /* "icx", "spr", "software" */
	const char *tma_version;	  /* NULL: null */
	const char *cgroup;		  /* path relative to the cgroup2 root, "/a/b" */
	uint64_t cgroup_id;		  /* 0: null (replay) */
	const struct resource *resource;  /* NULL: {} */
	const struct report_task *task;	  /* per-task line when set */
	const struct report_group *group; /* a line of summed counts when set */
	int ncounts;
	const char *const *count_names;
	const double *count_values; /* NAN: null */
	/*
	 * Per count: derived from the interval's length (cpu_utilization, a
	 * model's per_interval counts), written to a metric's 9 digits; the
	 * others are measured and read back exactly.  NULL: none derived.
	 */
	const bool *count_derived;
	int nsummary;	    /* the first nsummary counts: the table shows them too */
	double running_min; /* NAN: null */
	/*
	 * Per model node (its index): the fraction of the interval its events were
	 * measured, reported for the nodes whose events take turns (levels 4-6,
	 * and level 3's GP events: quality.measured; the table marks those under
	 * half, REPORT_MEASURED_LOW).  NULL, or NAN for a node: not reported.
	 */
	const double *measured;
	/*
	 * Per model node: the perf groups (a bit each, as --list-events numbers
	 * them) whose smallest share measured[] is; 0: none, on at every switch.
	 * Set wherever measured is, NULL with it: /metrics labels each set.
	 */
	const uint64_t *measured_groups;
	/*
	 * Per model node: why it is null whatever ran (a perf group it reads that
	 * the kernel refused to open: quality.unmeasured).  NULL, or NULL for a
	 * node: measured.
	 */
	const char *const *unmeasured;
	int pmu_groups; /* hardware perf groups; -1: null (replay) */
	int nmissing;	/* events this PMU lacks */
	const char *const *missing;
	bool smt_shared;
	uint64_t dropped;
	uint64_t map_full;    /* of dropped: deltas the full cgroup map had no room for */
	const char *instance; /* "<pid>@<start time>" of this tmacg; NULL: null (replay) */
	/* "given", "defaults", "given+defaults", "none"; NULL: the model reads no retire latency */
	const char *retire_latency;
	/*
	 * The given latencies (--retire-latency, a replayed line's own): the line
	 * carries those its model reads, so a replay reads them too.  NULL: none.
	 */
	const struct rl_table *latencies_given;
	/* With a model: "metrics" holds nodes of level <= level (and Info metrics when info). */
	const struct tma_model *tma;
	const struct model_result *result;
	int level;
	bool info;
	/* The model's inputs besides the counts, so --replay evaluates the line as measured. */
	bool topdown_fixed;	/* PERF_METRICS was read (topdown_use_fixed) */
	bool smt;		/* SMT was on (smt_enabled) */
	bool smt_unknown;	/* nothing on the host said: smt false, written as null */
	unsigned int pmu_slots; /* the PMU's slot width (Arm's caps/slots); 0: not known */
};

#endif
