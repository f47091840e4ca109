/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * One event name as the models spell it ("INT_MISC.RECOVERY_CYCLES:c1:e1",
 * "PERF_METRICS.RETIRING", "msr/tsc/", "SW.CPU_CLOCK", AMD's
 * "ls_not_halted_cyc", perf's generic "cycles") -> a per-CPU counting
 * perf_event_attr.
 */
#ifndef TMACG_EVENTS_H
#define TMACG_EVENTS_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum event_kind {
	EVENT_GP,	/* a general-purpose counter */
	EVENT_FIXED,	/* fixed counter 0-2: INST_RETIRED.ANY, CPU_CLK_UNHALTED.THREAD/REF_TSC */
	EVENT_SLOTS,	/* TOPDOWN.SLOTS, fixed counter 3: leads the topdown group */
	EVENT_METRIC,	/* PERF_METRICS.*: a member of the SLOTS group, counts in slots */
	EVENT_PSEUDO,	/* msr/tsc/: not opened, the collector computes it */
	EVENT_SOFTWARE, /* SW.*: a kernel software event, no hardware counter, any machine */
};

#define EVENT_F_PERCORE (1u << 0) /* :percore: counts the whole core (SMT caveat) */

#define EVENT_NAME_MAX 128

struct event_enc {
	char name[EVENT_NAME_MAX]; /* as the model spells it */
	enum event_kind kind;
	unsigned int flags;	     /* EVENT_F_* */
	uint32_t counter_mask;	     /* GP counters it may use (bit n: counter n) */
	int fixed;		     /* EVENT_FIXED: its fixed counter; else -1 */
	uint32_t msr;		     /* the MSR config1 goes to (0x1a6: offcore response) */
	struct perf_event_attr attr; /* zero for EVENT_PSEUDO */
};

struct cpu_desc;

/* What the encoding depends on (cpu_detect and the CPU description fill the facts). */
struct event_target {
	const char *pfm_pmu; /* libpfm4's table (the description's libpfm), NULL: none */
	uint32_t pmu_type;   /* perf_event_attr.type of the core PMU */
	bool topdown_l2;     /* sysfs lists topdown-heavy-ops: 0x8400-0x8700 exist */
	/* The CPU's description: its events' encodings and counter constraints. */
	const struct cpu_desc *cpu;
	bool smt; /* SMT on: the events' counters=, else counters_smt_off= */
	/*
	 * What the PMU lacks of the description's core (a virtual machine's):
	 * fixed counters (bit n: fixed counter n), whose events are then counted
	 * by their general-counter twin (NAME_P in the description) where it has
	 * one, and PERF_METRICS.  An event neither can count is refused with
	 * -EOPNOTSUPP.  Zero: it lacks nothing.
	 */
	uint32_t fixed_absent;
	bool perf_metrics_absent;
};

/*
 * Initialises libpfm4 (again when force_pmu changes): force_pmu (a CPU
 * description's libpfm name) is the PMU it encodes for, so a --model given by
 * hand or a test encodes for a CPU this is not.  NULL: what libpfm4 detects.
 * The environment is left as it was (events.c says how).  0 or -EINVAL.
 */
int events_init(const char *force_pmu, char *err, size_t errlen);

/*
 * 0, or -errno with "EVENT: what is wrong and what to do" in err.  An event
 * of t->cpu's description is encoded from it (Intel's event list); others
 * through libpfm4's t->pfm_pmu table.  -EOPNOTSUPP: this PMU cannot count
 * the event (PERF_METRICS or a fixed counter it lacks, level-2 PERF_METRICS
 * where it has level 1 only).
 */
int event_encode(const struct event_target *t, const char *name, struct event_enc *out, char *err,
		 size_t errlen);

/* "gp", "fixed", "slots", "metric", "pseudo", "sw". */
const char *event_kind_name(enum event_kind k);

/*
 * Whether name is a software event ("SW.CPU_CLOCK", ...): those need no PMU
 * and no libpfm4 table, so a model reading only them runs on any machine.
 */
bool event_is_software(const char *name);

/*
 * Whether name is one of perf's generic hardware events (cycles,
 * instructions, branch-misses, cache-misses...: PERF_TYPE_HARDWARE).  The
 * kernel maps them on any core PMU, so they need no CPU description.
 */
bool event_is_generic_hw(const char *name);

/* x86 core PMU config fields (sysfs format/): event, umask, edge, inv, cmask. */
#define EVENT_CFG_EVENT(c) ((unsigned int)((c) & 0xff))
#define EVENT_CFG_UMASK(c) ((unsigned int)(((c) >> 8) & 0xff))
#define EVENT_CFG_EDGE(c) ((unsigned int)(((c) >> 18) & 1))
#define EVENT_CFG_INV(c) ((unsigned int)(((c) >> 23) & 1))
#define EVENT_CFG_CMASK(c) ((unsigned int)(((c) >> 24) & 0xff))

#endif /* TMACG_EVENTS_H */
