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
#include <stdint.h>
#include <stdio.h>

#include "pmu/counter_probe.h"

struct cpu_detect_opts {
	/*
	 * Prefix of /proc and /sys ("" or NULL: the real ones, unless the
	 * environment variable TMACG_SYSFS_ROOT names a fixture tree).
	 */
	const char *root;
	/* CPUID; NULL: the instruction.  Tests pass a fake. 0, or -ENOTSUP. */
	int (*cpuid)(unsigned int leaf, unsigned int subleaf, unsigned int regs[4]);
	/*
	 * perf_event_open for Arm's counter probe (pmu/counter_probe.h); NULL:
	 * the system call where the root is the real one, no probe under a
	 * fixture tree (this kernel's PMU is not the fixture's).  Tests pass a fake.
	 */
	counter_probe_open_fn perf_open;
};

struct cpu_desc;

struct cpu_info {
	char vendor[16]; /* "GenuineIntel" */
	int family;
	int model;
	int stepping; /* -1 when /proc/cpuinfo does not say */
	/* Arm (pmu/arm_detect.h): MIDR_EL1 and the CPU it was read from; 0, -1 elsewhere */
	unsigned long long midr;
	int midr_cpu;
	const struct cpu_desc *cpu; /* the description matching this CPUID, or NULL */
	const char *model_id;	    /* the model cpu runs, or NULL: no description fits */
	bool has_pmu;		    /* a core PMU (cpu or cpu_core) is registered */
	char pmu_name[32];	    /* "cpu", "cpu_core" on hybrid parts, "armv8_pmuv3_0" */
	unsigned int pmu_type;	    /* perf_event_attr.type of the core PMU */
	bool topdown_use_fixed;	    /* events/topdown-retiring: PERF_METRICS level 1 */
	bool topdown_l2;	    /* events/topdown-heavy-ops: PERF_METRICS level 2 (SPR+) */
	bool smt;		    /* SMT on: smt/active, else CPU 0's thread siblings */
	bool smt_known;		    /* either was read: else smt is false, and not known */
	/* Arm: the PMU's caps/slots (PMMIR_EL1.SLOTS), the models' pmu_slots; 0: not known */
	unsigned int pmu_slots;
	/*
	 * Per logical CPU: CPUID.0AH:EAX[15:8], AMD's 0x80000022/0x80000001, on
	 * Arm the event counters one group of the core PMU holds (counter_probe).
	 * 0: not known, the CPU description's.
	 */
	int gp_counters;
	/*
	 * The fixed counters the PMU offers (bit n: fixed counter n), from CPUID
	 * 0xA as the kernel reads it: EDX[4:0] counters, and ECX's bitmap from
	 * version 5.  fixed_known false (AMD, Arm, a cpu_info built by hand):
	 * the CPU description's fixed_counters.
	 */
	uint32_t fixed_mask;
	bool fixed_known;
	bool hypervisor;   /* CPUID.1:ECX[31]: a virtual machine (x86 only) */
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

/*
 * Warnings the user should see once: the NMI watchdog; a PMU that offers less
 * than the CPU description's core has (a virtual machine: fewer
 * general-purpose counters, fixed counters or PERF_METRICS missing), in one
 * line.  Prints nothing when none apply.
 */
void cpu_warn(const struct cpu_info *ci, FILE *f);

/* One line per fact, for -v. */
void cpu_info_print(const struct cpu_info *ci, FILE *f);

#endif /* TMACG_CPU_DETECT_H */
