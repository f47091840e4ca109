// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "collect/acc_delta.h"

#include <stdlib.h>
#include <string.h>

#include <math.h>

#include "util/group_mask.h"

static __u64 sub_clamped(__u64 now, __u64 before, int *negative)
{
	if (now < before) {
		(*negative)++;
		return 0;
	}
	return now - before;
}

/* Counters and times are one run of words after runtime: each walk is one loop. */
int acc_delta(const struct acc_layout *l, const struct tmacg_acc *now,
	      const struct tmacg_acc *before, struct tmacg_acc *out)
{
	int negative = 0, n = acc_fields(l);

	out->runtime_ns = sub_clamped(now->runtime_ns, before->runtime_ns, &negative);
	for (int i = 0; i < n; i++)
		out->field[i] = sub_clamped(now->field[i], before->field[i], &negative);
	return negative;
}

void acc_add(const struct acc_layout *l, struct tmacg_acc *sum, const struct tmacg_acc *d)
{
	int n = acc_fields(l);

	sum->runtime_ns += d->runtime_ns;
	for (int i = 0; i < n; i++)
		sum->field[i] += d->field[i];
}

void acc_clear(const struct acc_layout *l, struct tmacg_acc *sum)
{
	memset(sum, 0, acc_bytes(l));
}

bool acc_is_empty(const struct acc_layout *l, const struct tmacg_acc *a)
{
	if (a->runtime_ns)
		return false;
	for (int g = 0; g < l->ngroups; g++)
		if (*acc_enabled(l, a, g))
			return false;
	return true;
}

/* enabled/running of group g: 1 exactly when it ran all the time, NAN when it never ran. */
static double group_scale(const struct acc_layout *l, const struct tmacg_acc *a, int g)
{
	__u64 enabled = *acc_enabled(l, a, g), running = *acc_running(l, a, g);

	if (!running)
		return NAN;
	return running == enabled ? 1.0 : (double)enabled / running;
}

double acc_scaled(const struct acc_layout *l, const struct tmacg_acc *a, int event, int group)
{
	return (double)*acc_counter(a, event) * group_scale(l, a, group);
}

void acc_group_scales(const struct acc_layout *l, const struct tmacg_acc *a, double *scale)
{
	for (int g = 0; g < l->ngroups; g++)
		scale[g] = group_scale(l, a, g);
}

/* running/enabled of group g; NAN when it was not enabled. */
static double running_share(const struct acc_layout *l, const struct tmacg_acc *a, int g)
{
	__u64 enabled = *acc_enabled(l, a, g);

	return enabled ? (double)*acc_running(l, a, g) / (double)enabled : NAN;
}

void acc_running_shares(const struct acc_layout *l, const struct tmacg_acc *a, double *share)
{
	for (int g = 0; g < l->ngroups; g++)
		share[g] = running_share(l, a, g);
}

/*
 * A share is in [0, 1] or NAN: the least from INFINITY, a NAN never less, by
 * value rather than by branch (which group is least is a coin toss per set;
 * a level-6 line takes 43 such minima).
 */
double acc_least_share(const double *share, uint64_t groups)
{
	double min = INFINITY;

	for (; groups; groups &= groups - 1) {
		double f = share[__builtin_ctzll(groups)];

		min = f < min ? f : min;
	}
	return min == INFINITY ? NAN : min;
}

double acc_running_min(const struct acc_layout *l, const struct tmacg_acc *a)
{
	return acc_measured(l, a, group_mask_first(l->ngroups));
}

double acc_cycles_total(const struct acc_layout *l, const struct tmacg_acc *a, const int *cycles_of)
{
	double sum = 0;
	int n = 0;

	for (int g = 0; g < l->ngroups; g++) {
		double v;

		if (cycles_of[g] < 0)
			continue;
		v = acc_scaled(l, a, cycles_of[g], g);
		if (isnan(v))
			continue;
		sum += v;
		n++;
	}
	return n ? sum / n : NAN;
}

double acc_scaled_by_cycles(const struct tmacg_acc *a, int event, int cycles, double total)
{
	__u64 c = *acc_counter(a, cycles);

	if (!c)
		return NAN;
	return (double)*acc_counter(a, event) * (total / (double)c);
}

double acc_measured(const struct acc_layout *l, const struct tmacg_acc *a, uint64_t groups)
{
	double share[64];

	acc_running_shares(l, a, share);
	return acc_least_share(share, groups & group_mask_first(l->ngroups));
}
