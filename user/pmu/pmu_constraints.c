// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The kernel schedules a group only when every member gets a counter it is
 * allowed on; a group that cannot be placed never counts.  These rows restate
 * the GP-counter restrictions of Linux arch/x86/events/intel/core.c
 * (intel_icl_event_constraints, used for Ice Lake server, and
 * intel_spr_event_constraints) so the planner never builds such a group.
 * As in the kernel, the first matching row wins.
 */
#include "pmu/pmu_constraints.h"

#include <stddef.h>
#include <string.h>

struct pmu_constraint {
	uint8_t event_lo, event_hi;	/* event select range */
	int16_t umask;			/* -1: any umask */
	uint32_t mask;			/* allowed GP counters */
};

#define ANY_UMASK (-1)
#define ALL_GP 0xffffffffu

static const struct pmu_constraint icx_constraints[] = {
	{ 0x03, 0x0a, ANY_UMASK, 0xf },
	{ 0x1f, 0x28, ANY_UMASK, 0xf },
	{ 0x32, 0x32, ANY_UMASK, 0xf },
	{ 0x48, 0x54, ANY_UMASK, 0xf },
	{ 0x60, 0x8b, ANY_UMASK, 0xf },
	{ 0xa3, 0xa3, 0x04, ALL_GP },	/* CYCLE_ACTIVITY.STALLS_TOTAL */
	{ 0xa3, 0xa3, 0x10, ALL_GP },	/* CYCLE_ACTIVITY.CYCLES_MEM_ANY */
	{ 0xa3, 0xa3, 0x14, ALL_GP },	/* CYCLE_ACTIVITY.STALLS_MEM_ANY */
	{ 0xa3, 0xa3, ANY_UMASK, 0xf },
	{ 0xa8, 0xb0, ANY_UMASK, 0xf },
	{ 0xb7, 0xbd, ANY_UMASK, 0xf },
	{ 0xd0, 0xe6, ANY_UMASK, 0xf },
	{ 0xef, 0xef, ANY_UMASK, 0xf },
	{ 0xf0, 0xf4, ANY_UMASK, 0xf },
};

static const struct pmu_constraint spr_constraints[] = {
	{ 0x2e, 0x2e, ANY_UMASK, ALL_GP },
	{ 0x3c, 0x3c, ANY_UMASK, ALL_GP },
	{ 0x01, 0x8f, ANY_UMASK, 0xf },	/* "event codes < 0x90 are restricted to counters 0-3" */
	{ 0xa3, 0xa3, 0x01, 0xf },
	{ 0xa3, 0xa3, 0x02, 0xf },
	{ 0xa3, 0xa3, 0x08, 0xf },
	{ 0xa4, 0xa4, 0x04, 0x1 },
	{ 0xa4, 0xa4, 0x08, 0x1 },
	{ 0xcd, 0xcd, 0x02, 0x1 },
	{ 0xce, 0xce, ANY_UMASK, 0x1 },
	{ 0xd0, 0xdf, ANY_UMASK, 0xf },
};

uint32_t pmu_counter_mask(const char *pfm_pmu, uint64_t config)
{
	const struct pmu_constraint *t;
	unsigned int event = config & 0xff, umask = (config >> 8) & 0xff;
	size_t n;

	if (!pfm_pmu)
		return ALL_GP;
	if (!strcmp(pfm_pmu, "icx")) {
		t = icx_constraints;
		n = sizeof(icx_constraints) / sizeof(icx_constraints[0]);
	} else if (!strcmp(pfm_pmu, "spr")) {
		t = spr_constraints;
		n = sizeof(spr_constraints) / sizeof(spr_constraints[0]);
	} else {
		return ALL_GP;
	}
	for (size_t i = 0; i < n; i++) {
		if (event < t[i].event_lo || event > t[i].event_hi)
			continue;
		if (t[i].umask != ANY_UMASK && (unsigned int)t[i].umask != umask)
			continue;
		return t[i].mask;
	}
	return ALL_GP;
}
