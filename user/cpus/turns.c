// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "cpus/turns.h"

int turns_live_slices(const uint64_t *slice_groups, int nslices, uint64_t opened, uint64_t *out)
{
	uint64_t everywhere = ~0ull;
	int n = 0;

	if (nslices > TURNS_MAX_SLICES)
		nslices = TURNS_MAX_SLICES;
	for (int s = 0; s < nslices; s++)
		everywhere &= slice_groups[s];
	for (int s = 0; s < nslices; s++)
		if (slice_groups[s] & opened & ~everywhere)
			out[n++] = slice_groups[s] & opened;
	if (!n)
		out[n++] = nslices > 0 ? everywhere & opened : opened;
	return n;
}

void turns_rebuild(struct turns *t, uint64_t opened)
{
	t->now = 0;
	t->nslices = 1;
	t->slice[0] = opened;
	if (t->plan_nslices > 1)
		t->nslices = turns_live_slices(t->plan, t->plan_nslices, opened, t->slice);
	if (t->nslices <= 1)
		t->slice[0] = opened; /* nothing takes turns: every group on */
	t->everywhere = opened;
	for (int s = 0; s < t->nslices; s++)
		t->everywhere &= t->slice[s];
}

uint64_t turns_on(const struct turns *t, int s)
{
	return t->slice[s < 0 || s >= t->nslices ? 0 : s];
}

int turns_clock_group(const struct turns *t)
{
	/* Without turns, any group is on whenever the CPU counts: one read, not one per group. */
	return t->everywhere ? __builtin_ctzll(t->everywhere) : -1;
}

uint64_t turns_slice_start(uint64_t start, uint64_t interval_ns, int k, int nslices)
{
	return start + (uint64_t)((unsigned __int128)interval_ns * (unsigned)k / (unsigned)nslices);
}
