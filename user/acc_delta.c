// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "acc_delta.h"

#include <math.h>

static __u64 sub_clamped(__u64 now, __u64 before, int *negative)
{
	if (now < before) {
		(*negative)++;
		return 0;
	}
	return now - before;
}

int acc_delta(const struct tmacg_acc *now, const struct tmacg_acc *before, int nevents,
	      int ngroups, struct tmacg_acc *out)
{
	int negative = 0;

	out->runtime_ns = sub_clamped(now->runtime_ns, before->runtime_ns, &negative);
	for (int e = 0; e < nevents; e++)
		out->counter[e] = sub_clamped(now->counter[e], before->counter[e], &negative);
	for (int g = 0; g < ngroups; g++) {
		out->enabled[g] = sub_clamped(now->enabled[g], before->enabled[g], &negative);
		out->running[g] = sub_clamped(now->running[g], before->running[g], &negative);
	}
	return negative;
}

void acc_add(struct tmacg_acc *sum, const struct tmacg_acc *d, int nevents, int ngroups)
{
	sum->runtime_ns += d->runtime_ns;
	for (int e = 0; e < nevents; e++)
		sum->counter[e] += d->counter[e];
	for (int g = 0; g < ngroups; g++) {
		sum->enabled[g] += d->enabled[g];
		sum->running[g] += d->running[g];
	}
}

bool acc_is_empty(const struct tmacg_acc *a, int ngroups)
{
	if (a->runtime_ns)
		return false;
	for (int g = 0; g < ngroups; g++)
		if (a->enabled[g])
			return false;
	return true;
}

double acc_scaled(const struct tmacg_acc *a, int event, int group)
{
	if (!a->running[group])
		return NAN;
	if (a->running[group] == a->enabled[group])
		return (double)a->counter[event];
	return (double)a->counter[event] * ((double)a->enabled[group] / a->running[group]);
}

double acc_running_min(const struct tmacg_acc *a, int ngroups)
{
	double min = NAN;

	for (int g = 0; g < ngroups; g++) {
		double r;

		if (!a->enabled[g])
			continue;
		r = (double)a->running[g] / a->enabled[g];
		if (isnan(min) || r < min)
			min = r;
	}
	return min;
}
