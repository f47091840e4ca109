// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "collect/acc_delta.h"

#include <string.h>

#include <math.h>

static __u64 sub_clamped(__u64 now, __u64 before, int *negative)
{
	if (now < before) {
		(*negative)++;
		return 0;
	}
	return now - before;
}

int acc_delta(const struct tmacg_acc *now, const struct tmacg_acc *before, int nevents, int ngroups,
	      struct tmacg_acc *out)
{
	int negative = 0;

	out->runtime_ns = sub_clamped(now->runtime_ns, before->runtime_ns, &negative);
	for (int e = 0; e < nevents; e++)
		out->counter[e] = sub_clamped(now->counter[e], before->counter[e], &negative);
	for (int g = 0; g < ngroups; g++) {
		out->time[g].enabled =
			sub_clamped(now->time[g].enabled, before->time[g].enabled, &negative);
		out->time[g].running =
			sub_clamped(now->time[g].running, before->time[g].running, &negative);
	}
	return negative;
}

void acc_add(struct tmacg_acc *sum, const struct tmacg_acc *d, int nevents, int ngroups)
{
	sum->runtime_ns += d->runtime_ns;
	for (int e = 0; e < nevents; e++)
		sum->counter[e] += d->counter[e];
	for (int g = 0; g < ngroups; g++) {
		sum->time[g].enabled += d->time[g].enabled;
		sum->time[g].running += d->time[g].running;
	}
}

void acc_clear(struct tmacg_acc *sum, int nevents, int ngroups)
{
	sum->runtime_ns = 0;
	memset(sum->counter, 0, sizeof(sum->counter[0]) * (size_t)nevents);
	memset(sum->time, 0, sizeof(sum->time[0]) * (size_t)ngroups);
}

bool acc_is_empty(const struct tmacg_acc *a, int ngroups)
{
	if (a->runtime_ns)
		return false;
	for (int g = 0; g < ngroups; g++)
		if (a->time[g].enabled)
			return false;
	return true;
}

double acc_scaled(const struct tmacg_acc *a, int event, int group)
{
	if (!a->time[group].running)
		return NAN;
	if (a->time[group].running == a->time[group].enabled)
		return (double)a->counter[event];
	return (double)a->counter[event] *
	       ((double)a->time[group].enabled / a->time[group].running);
}

double acc_running_min(const struct tmacg_acc *a, int ngroups)
{
	double min = NAN;

	for (int g = 0; g < ngroups; g++) {
		double r;

		if (!a->time[g].enabled)
			continue;
		r = (double)a->time[g].running / a->time[g].enabled;
		if (isnan(min) || r < min)
			min = r;
	}
	return min;
}

double acc_cycles_total(const struct tmacg_acc *a, const int *cycles_of, int ngroups)
{
	double sum = 0;
	int n = 0;

	for (int g = 0; g < ngroups; g++) {
		double v;

		if (cycles_of[g] < 0)
			continue;
		v = acc_scaled(a, cycles_of[g], g);
		if (isnan(v))
			continue;
		sum += v;
		n++;
	}
	return n ? sum / n : NAN;
}

double acc_scaled_by_cycles(const struct tmacg_acc *a, int event, int cycles, double total)
{
	if (!a->counter[cycles])
		return NAN;
	return (double)a->counter[event] * (total / (double)a->counter[cycles]);
}

double acc_measured(const struct tmacg_acc *a, uint64_t groups)
{
	double min = NAN;

	for (int g = 0; g < TMACG_MAX_GROUPS && groups >> g; g++) {
		double f;

		if (!((groups >> g) & 1) || !a->time[g].enabled)
			continue;
		f = (double)a->time[g].running / (double)a->time[g].enabled;
		if (isnan(min) || f < min)
			min = f;
	}
	return min;
}
