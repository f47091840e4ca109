/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * TMA model engine: loads a model file (docs/model-format.md), lists the
 * events it reads, evaluates every node on one cgroup's counts.
 * Includes no libbpf header: its tests link it alone.
 */
#ifndef TMACG_MODEL_H
#define TMACG_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct tma_model;

/* Facts about the host the formulas branch on. */
enum model_flag {
	MODEL_FLAG_TOPDOWN_FIXED = 1u << 0, /* topdown_use_fixed: PERF_METRICS available */
	MODEL_FLAG_SMT = 1u << 1,	    /* smt_enabled */
};

struct model_node_info {
	const char *name;	 /* "DRAM_Bound" */
	size_t name_len;	 /* strlen(name), known at load: JSON writes each name per line */
	const char *number;	 /* "3.1.4" as in the seed; NULL for Info metrics and counts */
	int level;		 /* 1..6; 0 for Info metrics and counts */
	int parent;		 /* node index, -1 at level 1, for Info metrics and counts */
	const char *domain;	 /* "Slots", "Clocks", ... */
	const char *description; /* one line */
	const char *groups;	 /* "TmaL1, PGO" */
	bool is_info;		 /* an Info metric (IPC, CPI, ...), not a tree node */
	/*
	 * A count (cpu_clock_s, page_faults_per_s): reported with the line's counts,
	 * not its metrics, and computed at every depth, so its events are always opened.
	 */
	bool is_count;
	/*
	 * A count whose formula reads interval-s (page_faults_per_s): derived from
	 * the interval's length, so written to a metric's 9 digits, not exactly.
	 */
	bool per_interval;
	bool core_wide; /* reads events counting the whole core: inexact per cgroup with SMT */
	/*
	 * "Backend_Bound.Memory_Bound.DRAM_Bound": the names from level 1 down to
	 * this node, made once when the model loads (model_path.c); the name alone
	 * for Info metrics and counts.
	 */
	const char *path;
};

/*
 * Whether a run at level, with --info or not, computes node: tree nodes down
 * to level, Info metrics with info, counts (level 0) always.
 */
static inline bool model_node_in_run(const struct model_node_info *node, int level, bool info)
{
	return node->is_info ? info : node->level <= level;
}

/* Whether a line at level, with --info or not, shows node in its metrics: in the run, not a count. */
static inline bool model_node_shown(const struct model_node_info *node, int level, bool info)
{
	return !node->is_count && model_node_in_run(node, level, info);
}

/* Each returns NULL on error with "file:line:column: what is wrong" in err. */
struct tma_model *model_load(const char *text, size_t len, const char *filename, char *err,
			     size_t errlen);
struct tma_model *model_load_file(const char *path, char *err, size_t errlen);
/* $TMACG_MODEL_DIR/<id>.tma when there is one, else the built-in model <id>. */
struct tma_model *model_load_builtin(const char *id, char *err, size_t errlen);
/*
 * Model <id> at TMA version <version> ("4.5"): the default file when its
 * tma_version is that, else <id>@<version>.tma (TMACG_MODEL_DIR's, else the
 * built-in one).  version NULL: the default.  An unknown version's error names
 * the versions the model has.
 */
struct tma_model *model_load_version(const char *id, const char *version, char *err, size_t errlen);
#define MODEL_VERSION_MAX 32
/* The TMA versions of model <id>, the default first; at most max.  -1: no such model. */
int model_versions(const char *id, char versions[][MODEL_VERSION_MAX], int max);
void model_free(struct tma_model *m);

const char *model_id(const struct tma_model *m);	  /* "icx" */
const char *model_tma_version(const struct tma_model *m); /* "4.5" */
const char *model_title(const struct tma_model *m);	  /* "Intel Ice Lake Server" */

/*
 * Events: counter names exactly as the formulas spell them
 * ("INT_MISC.RECOVERY_CYCLES:c1:e1", "PERF_METRICS.RETIRING", "msr/tsc/").
 * "interval-s" is not an event: it comes from model_input.interval_s.
 */
int model_event_count(const struct tma_model *m);
const char *model_event_name(const struct tma_model *m, int i);
int model_event_index(const struct tma_model *m, const char *name); /* -1 if not read */

/*
 * Marks in needed[model_event_count()] the events required to evaluate every
 * node of level <= max_level (and Info metrics when with_info), following
 * references to helpers and other nodes, with branches that depend only on
 * flags and constants resolved.  Returns the number marked.
 */
int model_events_needed(const struct tma_model *m, int max_level, bool with_info, unsigned flags,
			bool *needed);

/*
 * Marks the events node i reads itself, through its formula and helpers, in
 * every branch (not through the nodes it reads).  Returns the number marked, -1 on error.
 */
int model_node_events(const struct tma_model *m, int i, bool *needed);

/* The same, in the branch flags (enum model_flag) select only: what a host reads. */
int model_node_events_for(const struct tma_model *m, int i, unsigned flags, bool *needed);

/*
 * Retire-latency inputs (TMA 5.1's EVENT:retire_latency): the average cycles an
 * event's instructions took to retire, an input of its own, never the event's
 * count.  Named by the base event ("MEM_INST_RETIRED.LOCK_LOADS"), as Intel's
 * retire-latency files and replay's "retire_latency" object name them.
 */
int model_latency_count(const struct tma_model *m);
const char *model_latency_name(const struct tma_model *m, int i);
int model_latency_index(const struct tma_model *m, const char *name); /* -1 if not read */

/*
 * The vendor's words for a node, as the model file carries them (Intel's
 * BriefDescription, PublicDescription and threshold issue tags; AMD's and
 * Arm's description text).  Text written by others: escape it wherever it is
 * printed (util/name_escape.h, the JSON writer).  A field the file leaves out
 * falls back: brief to one_line, long_text to brief.
 */
struct model_node_text {
	const char *one_line;  /* the first sentence ("desc"); NULL: the model has none */
	const char *brief;     /* the vendor's brief description in full */
	const char *long_text; /* the longer one (Intel's PublicDescription) */
	const char *issues;    /* threshold issue tags ("$issueBW, $issueLat"); NULL: none */
	/* The node's formula and threshold as the model file writes them (NULL: none). */
	const char *formula, *threshold;
};
/* false when there is no node i. */
bool model_node_description(const struct tma_model *m, int i, struct model_node_text *out);
/* Helper i's name and formula as written (what a formula's SLOTS or CLKS means). */
int model_helper_count(const struct tma_model *m);
bool model_helper_text(const struct tma_model *m, int i, const char **name, const char **text);

/*
 * A number no other model loaded in this process has (1, 2, ...): what a
 * cache of text made from a model's nodes is keyed on, since a model loaded
 * after another is freed may get its address.
 */
uint64_t model_serial(const struct tma_model *m);
int model_node_count(const struct tma_model *m);
const struct model_node_info *model_node(const struct tma_model *m, int i);
int model_node_index(const struct tma_model *m, const char *name); /* -1 if none */

/*
 * The nodes a line at level (with --info or not) shows in its metrics, in
 * node order: the tree down to level, Info metrics with info, never counts.
 */
const int *model_shown_nodes(const struct tma_model *m, int level, bool info, int *n);

/* The largest slot width a PMU can report: PMMIR_EL1.SLOTS is an 8-bit field. */
#define MODEL_PMU_SLOTS_MAX 255

struct model_input {
	const double *events; /* by event index; NAN: not measured for this cgroup */
	/*
	 * By event index, or NULL: true for an event this host does not count at
	 * all (not opened: plan.missing, or its group refused by the kernel).  A
	 * node reading one is null, and so is every node computed from such a
	 * node, where the reference reads a failed node as 0: Bad_Speculation =
	 * 1 - (Frontend_Bound + Backend_Bound + Retiring) would be 1 when all
	 * three lack PERF_METRICS.
	 */
	const bool *absent;
	double interval_s;
	unsigned flags; /* enum model_flag */
	/* by latency index, in cycles; NULL or NAN: none given, the nodes reading it are null */
	const double *latencies;
	/*
	 * The host's slot width, the formulas' pmu_slots: Arm's PMMIR_EL1.SLOTS (sysfs
	 * caps/slots).  0 (or NAN): not known, and a model takes its documented width.
	 */
	double pmu_slots;
};

struct model_result {
	int nnodes;
	double *value;	 /* NAN: no value (JSON null): division by zero or unmeasured input */
	bool *flagged;	 /* over its threshold */
	int *bottleneck; /* node indices, level 1 first */
	int bottleneck_len;
	/* NULL, or why the tree has no values and no bottleneck (model_result_no_slots) */
	const char *no_tree;
	/*
	 * The model's SLOTS (the top-down denominator) in this evaluation, so that a
	 * node's share times slots gives its slots (Prometheus's slot counters).
	 * NAN: the model has no SLOTS helper, or it failed.
	 */
	double slots;
};

#define MODEL_NO_SLOTS "no slots counted: the cgroup did not run, or every counter read failed"

struct model_result *model_result_new(const struct tma_model *m);
void model_result_free(struct model_result *r);
/* Evaluates every node, thresholds and the bottleneck path.  0 or -errno. */
int model_eval(const struct tma_model *m, const struct model_input *in, struct model_result *out);
/*
 * The same for an output of that depth only: nodes of level <= max_level (and
 * Info metrics when with_info) and whatever they read are computed, every
 * other node is left null and unflagged.  Live mode's per-interval call.
 */
int model_eval_level(const struct tma_model *m, const struct model_input *in,
		     struct model_result *out, int max_level, bool with_info);
/*
 * After model_eval*() on the same input: when the model's SLOTS (the top-down
 * denominator) is 0 or failed, the tree gets no values and no bottleneck,
 * and no_tree says why (Info metrics and counts keep theirs).  model_eval
 * follows the reference, whose "a failed node reads as 0" gives such a
 * cgroup Bad_Speculation = 1 - (0 + 0 + 0) = 1: a verdict from nothing, which
 * a report must not print.  Models without SLOTS are left as they are.
 */
void model_result_no_slots(const struct tma_model *m, struct model_result *r);

/*
 * The bottleneck path, one text per model: what every printer (JSON's
 * "bottleneck", Prometheus's tmacg_bottleneck_info, the table, the live
 * view, the HTML report) shows for result r of a report of levels <= level.
 * model_bottleneck_end() is the index of the deepest node of r's bottleneck
 * path within level, -1 when none (no node flagged at level 1, no tree, r
 * NULL); model_bottleneck_path() is that node's path
 * ("Backend_Bound.Memory_Bound.DRAM_Bound", model_node_info.path), NULL
 * when none.  Made when the model loads: no formatting, no allocation.
 */
int model_bottleneck_end(const struct tma_model *m, const struct model_result *r, int level);
const char *model_bottleneck_path(const struct tma_model *m, const struct model_result *r,
				  int level);

#endif /* TMACG_MODEL_H */
