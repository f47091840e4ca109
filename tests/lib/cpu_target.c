// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "cpu_target.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "pmu/cpu_desc.h"

struct event_target cpu_target(const char *id, uint32_t pmu_type)
{
	const struct cpu_desc *d = cpu_desc_by_id(id);

	if (!d)
		fail_msg("no CPU description %s", id);
	return (struct event_target){ .pfm_pmu = d->libpfm,
				      .pmu_type = pmu_type,
				      .topdown_l2 = d->perf_metrics_l2,
				      .cpu = d,
				      .smt = true };
}
