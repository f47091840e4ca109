// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "software_counts.h"

const char *const software_documented_counts[] = {
	"on_cpu_s",
	"cpu_utilization",
	"cpu_clock_s",
	"context_switches",
	"context_switches_per_s",
	"cpu_migrations",
	"cpu_migrations_per_s",
	"page_faults",
	"page_faults_per_s",
};

const int software_ndocumented =
	(int)(sizeof(software_documented_counts) / sizeof(software_documented_counts[0]));
