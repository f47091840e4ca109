/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * Which CPU and core PMU this is, and what the planner may use of it:
 * vendor/family/model, the model file that fits, the perf PMU type,
 * PERF_METRICS support, SMT, general-purpose counters and the NMI watchdog.
 */
#ifndef TMACG_CPU_DETECT_H
#define TMACG_CPU_DETECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct cpu_detect_opts {
	/*
	 * Prefix of /proc and /sys ("" or NULL: the real ones, unless the
	 * environment variable TMACG_SYSFS_ROOT names a fixture tree).
	 */
	const char *root;
	/* CPUID; NULL: the instruction.  Tests pass a fake. 0, or -ENOTSUP. */
	int (*cpuid)(unsigned int leaf, unsigned int subleaf, unsigned int regs[4]);
};

struct cpu_desc;

struct cpu_info {
	char vendor[16]; /* "GenuineIntel" */
	int family;
	int model;
	int stepping;		    /* -1 when /proc/cpuinfo does not say */
	const struct cpu_desc *cpu; /* the description matching this CPUID, or NULL */
	const char *model_id;	    /* the model cpu runs, or NULL: no description fits */
	bool has_pmu;		    /* a core PMU (cpu or cpu_core) is registered */
	char pmu_name[32];	    /* "cpu", "cpu_core" on hybrid parts, "armv8_pmuv3_0" */
	unsigned int pmu_type;	    /* perf_event_attr.type of the core PMU */
	bool topdown_use_fixed;	    /* events/topdown-retiring: PERF_METRICS level 1 */
	bool topdown_l2;	    /* events/topdown-heavy-ops: PERF_METRICS level 2 (SPR+) */
	bool smt;		    /* /sys/devices/system/cpu/smt/active */
	int gp_counters;   /* per logical CPU: CPUID.0AH:EAX[15:8], AMD's 0x80000022/0x80000001 */
	bool nmi_watchdog; /* kernel.nmi_watchdog = 1: it holds one counter */
	int gp_usable;	   /* gp_counters less the watchdog's */
};

/*
 * Fills ci.  0, or -errno with what is wrong in err (e.g. /proc/cpuinfo
 * unreadable, a CPU description that does not load).
 */
int cpu_detect(const struct cpu_detect_opts *o, struct cpu_info *ci, char *err, size_t errlen);

/* 0 when a hardware PMU exists; -ENODEV with the message for virtual machines. */
int cpu_require_pmu(const struct cpu_info *ci, char *err, size_t errlen);

/*
 * The model to use: override (--model) when given, else the detected one,
 * else "generic" where a PMU exists (perf's generic hardware events).  NULL
 * with a message listing the supported CPUs and --model when none fits and
 * there is no PMU.
 */
const char *cpu_select_model(const struct cpu_info *ci, const char *override, char *err,
			     size_t errlen);

/* Warnings the user should see once (the NMI watchdog); prints nothing when none apply. */
void cpu_warn(const struct cpu_info *ci, FILE *f);

/* One line per fact, for -v. */
void cpu_info_print(const struct cpu_info *ci, FILE *f);

#endif /* TMACG_CPU_DETECT_H */
