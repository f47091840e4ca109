// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "measure.h"
#include "software.h"

static void software_evaluate(struct measure *ms, const struct tmacg_acc *sum, double interval_s,
			      double *counts, struct model_result *result)
{
	(void)ms;
	(void)result;
	software_counts(sum, interval_s, counts);
}

static void software_close(struct measure *ms)
{
	free(ms);
}

int measure_software_open(struct measure **out, char *err, size_t errlen)
{
	struct measure *ms = calloc(1, sizeof(*ms));
	int n;

	if (!ms) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	n = pmu_software_events(ms->events, TMACG_MAX_EVENTS);
	ms->nevents = n;
	ms->ngroups = 1;
	ms->model_name = "software";
	ms->ncounts = SOFTWARE_NCOUNTS;
	ms->count_names = software_count_names;
	ms->evaluate = software_evaluate;
	ms->table_header = software_table_header;
	ms->table_row = software_table_row;
	ms->close = software_close;
	*out = ms;
	return 0;
}
