// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "measure.h"

#include "options.h"

int measure_open(struct measure **out, const struct options *o, char *err, size_t errlen)
{
	if (o->pmu == PMU_SOFTWARE)
		return measure_software_open(out, err, errlen);
	return measure_hardware_open(out, o, err, errlen);
}

void measure_close(struct measure *ms)
{
	if (ms && ms->close)
		ms->close(ms);
}
