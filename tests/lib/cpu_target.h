/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Event targets for CPUs this machine is not, for the encoder's and planner's tests. */
#ifndef TMACG_CPU_TARGET_H
#define TMACG_CPU_TARGET_H

#include <stdint.h>

#include "pmu/events.h"

/*
 * What plan_model gives the encoder and planner for the built-in CPU
 * description id ("icx"), SMT on, on the core PMU pmu_type.  Fails the test
 * when there is no such description.
 */
struct event_target cpu_target(const char *id, uint32_t pmu_type);

#endif
