/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Command line. */
#ifndef TMACG_OPTIONS_H
#define TMACG_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define OPTIONS_MAX_CGROUPS 64
/* --depth: deeper than any real hierarchy; the tree itself has no limit. */
#define OPTIONS_MAX_DEPTH 64

enum output_format { FORMAT_AUTO, FORMAT_TABLE, FORMAT_JSON, FORMAT_TOP, FORMAT_NONE, FORMAT_HTML };
enum pmu_mode { PMU_HARDWARE, PMU_SOFTWARE };
enum k8s_level { K8S_LEVEL_POD, K8S_LEVEL_CONTAINER };

struct options {
	const char *cgroups[OPTIONS_MAX_CGROUPS];
	int ncgroups;
	int depth; /* --depth: descendants reported below each --cgroup */
	uint64_t interval_ns;
	long count;		   /* intervals; 0: until stopped */
	uint64_t duration_ns;	   /* 0: until stopped */
	enum output_format format; /* never FORMAT_AUTO after options_resolve() */
	bool per_task;
	int top; /* 0: no limit */
	enum pmu_mode pmu;
	const char *model; /* --model id */
	const char *model_file;
	const char *tma_version;    /* --tma-version V: another TMA version of --model's */
	const char *explain;	    /* --explain NODE: the vendor's words, formula, threshold */
	const char *retire_latency; /* --retire-latency FILE: measured latencies, Intel's format */
	int level;
	bool info; /* --info: Info metrics too */
	const char *replay;
	bool list_models, list_metrics, list_events;
	bool k8s;
	enum k8s_level k8s_level;
	const char *k8s_log_containers;
	const char *k8s_log_pods;
	const char *cgroup_root;  /* a cgroup2 mount to use instead of the first one */
	const char *btf;	  /* --btf FILE: the kernel's BTF where it has none of its own */
	const char *host;	  /* --host; after options_resolve(): the name to print */
	const char *listen;	  /* --listen ADDR:PORT: serve /metrics (user/prom/) */
	bool prom_counts;	  /* --prom-counts: the model's counts on /metrics too */
	bool prometheus_rules;	  /* --prometheus-rules: print the recording rules */
	const char *rules_window; /* --rules-window DUR: the rules' increase() range */
	const char *output;	  /* -o FILE: --format html's report, written whole at the end */
	uint32_t max_cgroups;
	uint32_t max_tasks;
	int verbose;
	int color_mode;		/* --color: -1 auto, 0 never, 1 always */
	const char *live_given; /* the first option given that only a live run reads: "cgroup" */
	/* Set by options_resolve(): */
	bool color;	    /* ANSI colour in tables */
	bool top_auto;	    /* no --format, a terminal: table, then top past 8 cgroups */
	bool format_given;  /* --format on the command line (--list-metrics: json only then) */
	char host_buf[256]; /* gethostname()'s answer, when host points here */
};

/*
 * Parses argv.  Returns 0 to run, 1 when --help/--version was handled (exit 0),
 * or 2 after printing a message about a bad argument to err (exit 2).
 */
int options_parse(struct options *o, int argc, char **argv, FILE *out, FILE *err);

/*
 * After options_parse(), for every mode: --format auto becomes table on a
 * terminal and JSON otherwise; --color auto means colour on a terminal unless
 * $NO_COLOR is set and not empty; host becomes --host, else $TMACG_HOST when
 * not empty, else gethostname(), else "unknown".
 */
void options_resolve(struct options *o, bool stdout_tty);

/*
 * "500ms", "2s", "1.5m", "100us", "1h" -> ns; 0, -EDOM for a number without a
 * unit ("1000": seconds to sleep(1), milliseconds to perf stat -I), or -EINVAL.
 */
int parse_duration(const char *s, uint64_t *ns);

void options_usage(FILE *f);

/* name (a long option's, "per-task") means something to a live run only: a replay refuses it. */
bool options_live_only(const char *name);
/* --replay with an option only a live run reads (live_given): 2 after a message, else 0. */
int options_check_replay(const struct options *o, FILE *err);

/* What measure_open() needs of the options (measure.h): the model and how deep. */
struct measure_config;
void options_measure_config(const struct options *o, struct measure_config *mc);

#endif
