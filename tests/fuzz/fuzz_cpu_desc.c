// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * libFuzzer: any bytes as a CPU description (a TMACG_MODEL_DIR data drop);
 * one that parses must find each of its events by name.
 */
#include <stdint.h>
#include <stdlib.h>

#include "pmu/cpu_desc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[512];
	struct cpu_desc *d = cpu_desc_parse((const char *)data, size, "fuzz.cpu", err, sizeof(err));

	if (!d)
		return 0;
	for (int i = 0; i < d->nevents; i++)
		if (cpu_desc_event(d, d->events[i].name) != &d->events[i])
			abort(); /* every listed event is found by its name */
	cpu_desc_free(d);
	return 0;
}
