// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "rotate.h"

#include "collect/collector.h"
#include "pmu/pmu.h"

int rotate_live_slices(const uint64_t *slice_groups, int nslices, uint64_t opened, uint64_t *out)
{
	uint64_t everywhere = ~0ull;
	int n = 0;

	if (nslices > ROTATE_MAX_SLICES)
		nslices = ROTATE_MAX_SLICES;
	for (int s = 0; s < nslices; s++)
		everywhere &= slice_groups[s];
	for (int s = 0; s < nslices; s++)
		if (slice_groups[s] & opened & ~everywhere)
			out[n++] = slice_groups[s] & opened;
	if (!n)
		out[n++] = nslices > 0 ? everywhere & opened : opened;
	return n;
}

/* The lowest group of groups, or -1. */
static int lowest_group(uint64_t groups)
{
	return groups ? __builtin_ctzll(groups) : -1;
}

/*
 * The live slices of the plan's, for the groups open now; slice 0 on and the
 * other groups off.  With one slice, every group on.  The PMU's clock group
 * (pmu_cpu_enabled_ns) is one on in every slice, when there is one.
 */
static int begin_slices(struct rotate *r)
{
	uint64_t everywhere;

	r->opened = pmu_open_groups(r->pmu);
	r->slice = 0;
	r->nslices = 1;
	if (r->plan_nslices > 1)
		r->nslices = rotate_live_slices(r->plan_slices, r->plan_nslices, r->opened,
						r->slice_groups);
	collector_set_unopened(r->col, r->pmu->unopened);
	everywhere = r->opened;
	for (int s = 0; r->nslices > 1 && s < r->nslices; s++)
		everywhere &= r->slice_groups[s];
	r->pmu->clock_group = lowest_group(everywhere);
	if (r->nslices <= 1) {
		r->on = ~0ull;
		collector_set_active(r->col, r->opened);
		return pmu_enable(r->pmu);
	}
	r->on = r->slice_groups[0];
	collector_set_active(r->col, r->on & r->opened);
	return pmu_switch_groups(r->pmu, r->on, ~r->on);
}

int rotate_start(struct rotate *r, struct collector *col, struct pmu_set *pmu, int nslices,
		 const uint64_t *slice_groups)
{
	r->col = col;
	r->pmu = pmu;
	r->plan_slices = slice_groups;
	r->plan_nslices = nslices;
	/*
	 * Every group read once before any is enabled: its baseline (zeros), so
	 * a later slice's group counts from its enable, not from its first
	 * reading (collector_baseline_cpu(), as for a CPU back online).
	 */
	collector_set_active(col, pmu_open_groups(pmu));
	collector_flush(col);
	return begin_slices(r);
}

int rotate_refresh(struct rotate *r)
{
	return begin_slices(r);
}

int rotate_to(struct rotate *r, int s)
{
	uint64_t next = r->slice_groups[s];
	int ret;

	if (s == r->slice)
		return 0;
	/*
	 * Both slices read while the switch happens: a group going on counts
	 * from its enable, one going off up to its disable, and no switch in
	 * between misses either.
	 */
	collector_set_active(r->col, (r->on | next) & r->opened);
	ret = pmu_switch_groups(r->pmu, next & ~r->on, r->on & ~next);
	/* Charges the old groups' last counts to what runs now, before they are skipped. */
	if (!ret)
		ret = collector_flush(r->col);
	collector_set_active(r->col, next & r->opened);
	r->slice = s;
	r->on = next;
	return ret;
}

int rotate_hold(struct rotate *r)
{
	if (r->nslices <= 1)
		return 0;
	/* Disabling a disabled leader is a no-op: only the reopened CPU changes. */
	return pmu_switch_groups(r->pmu, 0, ~r->on);
}

uint64_t rotate_slice_start(uint64_t start, uint64_t interval_ns, int k, int nslices)
{
	return start + (uint64_t)((unsigned __int128)interval_ns * (unsigned)k / (unsigned)nslices);
}
