/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * CPU descriptions (docs/cpu-format.md): one `.cpu` file per CPU says which
 * CPUID it serves, its counters, whether it has PERF_METRICS, the model it
 * runs and the encoding and counter constraints of every event that model
 * reads.  The built-in ones are compiled in; $TMACG_MODEL_DIR adds (or
 * replaces, by id) descriptions and models, so a new CPU needs no C edit.
 */
#ifndef TMACG_CPU_DESC_H
#define TMACG_CPU_DESC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/retire_latency.h"

/* "GenuineIntel-6-55-[01234]", "AuthenticAMD-19-[10-1F]": mapfile.csv's key, or a model range. */
struct cpu_desc_match {
	char vendor[16];
	unsigned int family, model, model_last; /* models model..model_last */
	uint16_t steppings; /* bit s: stepping s matches (all 16 when the key has none) */
};

struct cpu_desc_event {
	char *name;	    /* Intel's EventName, "CYCLE_ACTIVITY.STALLS_TOTAL"; perf's on AMD */
	unsigned int event; /* 0-0xff; AMD's to 0xfff (bits 11:8: config:32-35); Arm's to 0xffff */
	unsigned int umask, cmask;
	bool edge, inv, any;
	uint32_t msr; /* offcore-response MSR, 0: none */
	uint64_t msr_value;
	int fixed;		   /* fixed counter N ("counters=fixed:N"), -1: a GP event */
	uint32_t counters;	   /* GP counters it may use with SMT on (bit n: counter n) */
	uint32_t counters_smt_off; /* ... with SMT off (= counters when not given) */
};

struct cpu_desc {
	char *id;   /* "skx": the file name without .cpu */
	char *path; /* for messages */
	char *title;
	struct cpu_desc_match *match;
	int nmatch;
	char *model; /* the .tma model it runs */
	char *tma_version;
	char *libpfm; /* libpfm4's PMU name, NULL for "none" */
	int gp_counters, gp_counters_smt, fixed_counters;
	bool perf_metrics, perf_metrics_l2;
	/*
	 * Arm's PMUv3 (its match keys are MIDR_EL1's, vendor "ARM"): an event's
	 * number is its raw config, up to 16 bits (0x8162), not x86's select.
	 */
	bool pmuv3;
	/*
	 * The cycles event every perf group carries on a PMU without a fixed
	 * counter for it (AMD's ls_not_halted_cyc), so each group's events are
	 * taken against cycles counted over the same time; NULL: none.
	 */
	char *group_cycles;
	/*
	 * Software events (SW.*) take a general-purpose counter each in the plan,
	 * as hardware events would: test descriptions use them as stand-ins so a
	 * machine without a PMU plans, rotates and measures like one with it.
	 */
	bool software_counters;
	/*
	 * Tests and benches: the software events (SW.*) every event this CPU's
	 * PMU would count is opened as, in turn by its place in the plan, after
	 * planning as this description says (counters, fixed counters, the
	 * topdown group, the slices), so a plan of the real CPU's shape runs
	 * live without a PMU.  NULL: none, events are opened as themselves.
	 */
	char **software_standins;
	int nsoftware_standins;
	struct cpu_desc_event *events; /* sorted by name */
	int nevents;
	/* Intel's published retire latencies: the defaults of EVENT:retire_latency */
	struct rl_table retire_latency;
};

/*
 * Parses one description.  NULL with "FILE:LINE: what is wrong" in err.
 * file names the text in messages and must end in "<id>.cpu".
 */
struct cpu_desc *cpu_desc_parse(const char *text, size_t len, const char *file, char *err,
				size_t errlen);
void cpu_desc_free(struct cpu_desc *d);

/* The event named (base name, no ":mod"), or NULL. */
const struct cpu_desc_event *cpu_desc_event(const struct cpu_desc *d, const char *name);

/* Allowed GP counters of e on a host with or without SMT. */
uint32_t cpu_desc_event_counters(const struct cpu_desc_event *e, bool smt);

/* The directory of extra descriptions and models: $TMACG_MODEL_DIR, or NULL. */
const char *cpu_desc_dir(void);

/*
 * Loads the built-in descriptions and those of cpu_desc_dir() (once; again
 * after cpu_desc_reset()).  0, or -errno with the file and line in err.
 * The lookups below call it and find nothing when it fails.
 */
int cpu_desc_init(char *err, size_t errlen);
void cpu_desc_reset(void);

/* Every description, sorted by id. */
int cpu_desc_count(void);
const struct cpu_desc *cpu_desc_at(int i);
const struct cpu_desc *cpu_desc_by_id(const char *id);
/* The description whose match covers this CPUID, or NULL. */
const struct cpu_desc *cpu_desc_by_cpuid(const char *vendor, int family, int model, int stepping);
/* A description that runs model: the one of the same id when it does, else the first. */
const struct cpu_desc *cpu_desc_for_model(const char *model);

/* Intel's published retire latencies of the CPU running model, or NULL (none published). */
const struct rl_table *cpu_desc_latency_defaults(const char *model);

#endif /* TMACG_CPU_DESC_H */
