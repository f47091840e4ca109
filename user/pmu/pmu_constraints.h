/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Which general-purpose counters the kernel lets an event use (its constraint tables). */
#ifndef TMACG_PMU_CONSTRAINTS_H
#define TMACG_PMU_CONSTRAINTS_H

#include <stdint.h>

/* Bit n set: GP counter n may count config.  0xff (all eight) when unconstrained or unknown. */
uint32_t pmu_counter_mask(const char *pfm_pmu, uint64_t config);

#endif /* TMACG_PMU_CONSTRAINTS_H */
