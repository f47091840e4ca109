/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * Which Arm core and core PMU this is, from sysfs (under a prefix, as
 * cpu_detect reads everything, so tests run it on fixture trees):
 *  - the core from MIDR_EL1 (/sys/devices/system/cpu/cpuN/regs/identification/midr_el1),
 *    as the CPU descriptions' keys name it: vendor "ARM", family the implementer,
 *    model the part number, stepping the revision (ARM-41-D49-3 is Neoverse N2 r0p3);
 *  - the PMU by scanning /sys/bus/event_source/devices, whose name the kernel
 *    varies (armv8_pmuv3, armv8_pmuv3_0, armv8_cortex_a57, armv9_neoverse_n2...),
 *    with its perf type and its slot width (caps/slots, PMMIR_EL1.SLOTS).
 */
#ifndef TMACG_ARM_DETECT_H
#define TMACG_ARM_DETECT_H

#include "pmu/cpu_detect.h"

/* The vendor string an Arm core's MIDR_EL1 gives in cpu_info and in `match` keys. */
#define ARM_VENDOR "ARM"

/*
 * Reads the MIDR_EL1 of the lowest-numbered CPU that has one into ci (vendor,
 * family, model, stepping, midr, midr_cpu).  0, or -ENOENT when this is no Arm
 * machine (no CPU has the file).
 */
int arm_detect_midr(const char *root, struct cpu_info *ci);

/*
 * Finds the Arm core PMU that counts ci->midr_cpu (the first by name when
 * none says): has_pmu, pmu_name, pmu_type, pmu_slots.  Leaves ci as it is
 * when there is none.
 */
void arm_detect_pmu(const char *root, struct cpu_info *ci);

/* PMUv3's CPU_CYCLES: the kernel puts it on the cycle counter where that is free. */
#define ARM_CPU_CYCLES 0x11

/*
 * Event counters when neither the kernel (cpu_detect's counter probe) nor a
 * CPU description says: sysfs gives no count on Arm.  Every Neoverse core and
 * QEMU's emulated PMUv3 have 6 (and the cycle counter).
 */
#define ARM_DEFAULT_COUNTERS 6

#endif /* TMACG_ARM_DETECT_H */
