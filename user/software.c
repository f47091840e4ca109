// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "software.h"

#include <math.h>

#include "acc_delta.h"

const char *const software_count_names[SOFTWARE_NCOUNTS] = {
	"on_cpu_s",	    "cpu_utilization",	    "cpu_clock_s",
	"context_switches", "context_switches_per_s", "cpu_migrations",
	"cpu_migrations_per_s", "page_faults",	    "page_faults_per_s",
};

static double per_s(double v, double interval_s)
{
	return interval_s > 0 ? v / interval_s : NAN;
}

void software_counts(const struct tmacg_acc *sum, double interval_s, double *counts)
{
	/*
	 * cpu-clock counts wall-clock nanoseconds while the task is current,
	 * steal time included; on_cpu_s is the scheduler's runtime, as cpu.stat.
	 */
	double clock_ns = acc_scaled(sum, SW_CPU_CLOCK, 0);
	double ctx = acc_scaled(sum, SW_CONTEXT_SWITCHES, 0);
	double mig = acc_scaled(sum, SW_CPU_MIGRATIONS, 0);
	double pf = acc_scaled(sum, SW_PAGE_FAULTS, 0);

	if (!sum->time[0].enabled) {
		/* Nothing ran: zeros, not nulls; the cgroup was measured and idle. */
		clock_ns = ctx = mig = pf = 0;
	}
	counts[0] = sum->runtime_ns / 1e9;
	counts[1] = per_s(counts[0], interval_s);
	counts[2] = clock_ns / 1e9;
	counts[3] = ctx;
	counts[4] = per_s(ctx, interval_s);
	counts[5] = mig;
	counts[6] = per_s(mig, interval_s);
	counts[7] = pf;
	counts[8] = per_s(pf, interval_s);
}

void software_table_header(FILE *f)
{
	fprintf(f, "%-48s %9s %7s %10s %9s %10s\n", "CGROUP", "CPU_S", "UTIL%", "CTXSW/s",
		"MIGR/s", "FAULTS/s");
}

void software_table_row(FILE *f, const char *name, const double *counts, bool task)
{
	fprintf(f, "%s%-*.*s %9.3f %7.1f %10.1f %9.1f %10.1f\n", task ? "  " : "", task ? 46 : 48,
		task ? 46 : 48, name, counts[0], 100 * counts[1], counts[4], counts[6],
		counts[8]);
}
