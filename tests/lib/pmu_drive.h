/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * The perf events and the collector driven by hand, as the BPF-path tests and
 * the BPF-time bench do without cpus/cpu_events.c (which a run drives them
 * through): every group enabled or switched at once, every CPU's events handed
 * to BPF, every CPU flushed.
 */
#ifndef TMACG_TESTS_PMU_DRIVE_H
#define TMACG_TESTS_PMU_DRIVE_H

#include <stdbool.h>
#include <stdint.h>

#include "collect/collector.h"
#include "pmu/pmu.h"

/* Enables every group with one ioctl on its leader. */
int pmu_enable(struct pmu_set *s);
/*
 * Enables the groups of on and disables those of off (bit g: group g; a
 * group in both stays on) on cpu, one ioctl per group leader, those going on
 * first: for the tests and the bench that leave groups off (a run enables
 * every group, pmu_enable_cpu()).  0 or -errno.
 */
int pmu_switch_cpu(struct pmu_set *s, int cpu, uint64_t on, uint64_t off);
/* The same on every CPU, CPU by CPU. */
int pmu_switch_groups(struct pmu_set *s, uint64_t on, uint64_t off);
/*
 * Four software events in one group, cpu-clock leading: a PMU-free stand-in
 * for a model's events in the collector's limit test and the BPF-time bench
 * (--pmu software itself plans the model "software" like any model).
 */
int pmu_software_events(struct pmu_event *out, int max);
/* Puts the perf events of every CPU with events open (pmu->online) into the BPF array. */
int collector_set_events(struct collector *c, const struct pmu_set *pmu, char *err, size_t errlen);
/* Flushes every CPU of cpus[ncpus] (the CPUs with events, for a caller that keeps none). */
void collector_flush(struct collector *c, const bool *cpus);

#endif
