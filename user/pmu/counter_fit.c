// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The PMU's limits on events counting together (counter_fit.h).  The
 * general-purpose counters are a bipartite matching of events to the
 * counters their masks allow, grown one event at a time by an augmenting
 * path: Intel's events restricted to counters 0-3 fill half a PMU of eight,
 * and only moving an event already placed to another of its counters may
 * make room for the next.
 */
#include "pmu/counter_fit.h"

#include <string.h>

void counter_fit_init(struct counter_fit *f, int gp, bool software_takes_counters)
{
	memset(f, 0, sizeof(*f));
	f->gp = gp < COUNTER_FIT_MAX_GP ? gp : COUNTER_FIT_MAX_GP;
	f->software_gp = software_takes_counters;
	f->fits = true;
	for (int c = 0; c < COUNTER_FIT_MAX_GP; c++)
		f->owner[c] = -1;
}

/* Can event ev have a counter, moving the events on the ones it may use to others of theirs? */
static bool augment(struct counter_fit *f, int ev, uint32_t *seen)
{
	for (int c = 0; c < f->gp; c++) {
		if (!(f->mask[ev] & (1u << c)) || (*seen & (1u << c)))
			continue;
		*seen |= 1u << c;
		if (f->owner[c] < 0 || augment(f, f->owner[c], seen)) {
			f->owner[c] = ev;
			return true;
		}
	}
	return false;
}

static bool take_gp(struct counter_fit *f, uint32_t mask)
{
	uint32_t seen = 0;
	int ev = f->ngp++;

	if (ev >= f->gp)
		return false;
	f->mask[ev] = mask;
	return augment(f, ev, &seen);
}

/* config1's MSR: a value an offcore-response MSR or the event's own MSR already holds, or a free one. */
static bool take_msr(struct counter_fit *f, const struct event_enc *e)
{
	uint64_t v = e->attr.config1;
	int o = 0;

	if (!v)
		return true;
	if (!e->msr || e->msr == COUNTER_FIT_MSR_OFFCORE_RSP_0) {
		while (o < f->nocr && f->ocr[o] != v)
			o++;
		if (o == f->nocr && f->nocr == COUNTER_FIT_OCR_MSRS)
			return false;
		f->ocr[o] = v;
		f->nocr += o == f->nocr;
		return true;
	}
	while (o < f->nother && f->other_msr[o] != e->msr)
		o++;
	if (o < f->nother)
		return f->other_val[o] == v;
	if (f->nother == COUNTER_FIT_OTHER_MSRS)
		return false;
	f->other_msr[f->nother] = e->msr;
	f->other_val[f->nother++] = v;
	return true;
}

bool counter_fit_add(struct counter_fit *f, const struct event_enc *e)
{
	bool ok = take_msr(f, e);
	bool on_fixed = (e->kind == EVENT_FIXED || e->kind == EVENT_SLOTS) && e->fixed >= 0 &&
			e->fixed < 32;

	if (on_fixed && !(f->fixed & (1u << e->fixed)))
		f->fixed |= 1u << e->fixed;
	else if (on_fixed || e->kind == EVENT_GP)
		ok &= take_gp(f, e->counter_mask);
	else if (e->kind == EVENT_SOFTWARE && f->software_gp)
		ok &= take_gp(f, UINT32_MAX);
	f->fits &= ok;
	return f->fits;
}
