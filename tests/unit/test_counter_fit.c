// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The PMU's limits on events counting together (user/pmu/counter_fit.c),
 * each on its own: general-purpose counters by number and by counter mask
 * (an assignment that needs an event moved), fixed counters and the spill of
 * a second event on one to a general-purpose counter, SLOTS on fixed
 * counter 3, the offcore-response MSRs and the other extra MSRs, software
 * stand-ins; and on random sets against a brute-force search.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "counter_assign.h"

#include "pmu/counter_fit.h"

static struct event_enc gp_event(uint32_t mask)
{
	struct event_enc e = { .kind = EVENT_GP, .counter_mask = mask, .fixed = -1 };

	return e;
}

static struct event_enc fixed_event(int counter, uint32_t mask)
{
	struct event_enc e = { .kind = EVENT_FIXED, .counter_mask = mask, .fixed = counter };

	return e;
}

static struct event_enc msr_event(uint32_t msr, uint64_t value)
{
	struct event_enc e = gp_event(UINT32_MAX);

	e.msr = msr;
	e.attr.config1 = value;
	return e;
}

/* Whether every event of evs[0..n) fits, added in order on gp counters. */
static bool all_fit(const struct event_enc *evs, int n, int gp, bool software)
{
	struct counter_fit f;

	counter_fit_init(&f, gp, software);
	for (int i = 0; i < n; i++)
		counter_fit_add(&f, &evs[i]);
	return f.fits;
}

static void gp_counters_by_number(void **state)
{
	struct event_enc evs[6];
	struct counter_fit f;

	(void)state;
	for (int i = 0; i < 6; i++)
		evs[i] = gp_event(UINT32_MAX);
	assert_true(all_fit(evs, 4, 4, false));
	assert_false(all_fit(evs, 5, 4, false));
	assert_true(all_fit(evs, 0, 0, false));
	assert_false(all_fit(evs, 1, 0, false));
	/* what did not fit is counted too: the rotation names it in its refusal */
	counter_fit_init(&f, 4, false);
	for (int i = 0; i < 6; i++)
		counter_fit_add(&f, &evs[i]);
	assert_int_equal(f.ngp, 6);
	assert_false(f.fits);
}

static void gp_counters_by_mask(void **state)
{
	/* the first may use counters 0-1 and takes 0; the second only 0: the first moves */
	struct event_enc moved[] = { gp_event(0x3), gp_event(0x1) };
	/* Intel's counters 0-3 events: four of them in a PMU of eight, not five */
	struct event_enc low[8];

	(void)state;
	assert_true(all_fit(moved, 2, 8, false));
	moved[1] = gp_event(0x3);
	assert_true(all_fit(moved, 2, 8, false));
	moved[0] = gp_event(0x1);
	moved[1] = gp_event(0x1);
	assert_false(all_fit(moved, 2, 8, false));
	for (int i = 0; i < 8; i++)
		low[i] = gp_event(0xf);
	assert_true(all_fit(low, 4, 8, false));
	assert_false(all_fit(low, 5, 8, false));
	for (int i = 4; i < 8; i++)
		low[i] = gp_event(0xff);
	assert_true(all_fit(low, 8, 8, false));
	/* a mask beyond the counters usable: only those count */
	low[0] = gp_event(0x10);
	assert_false(all_fit(low, 1, 4, false));
}

static void fixed_counters(void **state)
{
	struct event_enc evs[3] = { fixed_event(1, UINT32_MAX), fixed_event(1, UINT32_MAX),
				    fixed_event(2, 0) };
	struct counter_fit f;

	(void)state;
	/* a fixed counter takes no general-purpose one */
	counter_fit_init(&f, 0, false);
	assert_true(counter_fit_add(&f, &evs[0]));
	assert_true(counter_fit_add(&f, &evs[2]));
	assert_int_equal(f.fixed, 1u << 1 | 1u << 2);
	assert_int_equal(f.ngp, 0);
	/* the second on counter 1 spills to a general-purpose counter */
	assert_false(counter_fit_add(&f, &evs[1]));
	counter_fit_init(&f, 1, false);
	counter_fit_add(&f, &evs[0]);
	assert_true(counter_fit_add(&f, &evs[1]));
	assert_int_equal(f.ngp, 1);
	/* REF_TSC's counter taken: no general-purpose counter can take its place */
	counter_fit_init(&f, 8, false);
	counter_fit_add(&f, &evs[2]);
	assert_false(counter_fit_add(&f, &evs[2]));
}

static void slots_and_metrics(void **state)
{
	struct event_enc slots = { .kind = EVENT_SLOTS, .fixed = 3 };
	struct event_enc metric = { .kind = EVENT_METRIC, .fixed = -1 };
	struct counter_fit f;

	(void)state;
	counter_fit_init(&f, 0, false);
	assert_true(counter_fit_add(&f, &slots));
	assert_true(counter_fit_add(&f, &metric));
	assert_true(counter_fit_add(&f, &metric));
	assert_int_equal(f.fixed, 1u << 3);
	assert_int_equal(f.ngp, 0);
	/* fixed counter 3 is SLOTS': a second one has none */
	assert_false(counter_fit_add(&f, &slots));
}

static void offcore_response_msrs(void **state)
{
	struct event_enc evs[4] = { msr_event(0, 0x10003c0002), msr_event(0x1a6, 0x10001),
				    msr_event(0, 0x10003c0002), msr_event(0x1a6, 0x20001) };

	(void)state;
	/* two values, the third event repeats the first's */
	assert_true(all_fit(evs, 3, 8, false));
	/* a third value: no MSR left */
	assert_false(all_fit(evs, 4, 8, false));
	/* config1 0: no MSR */
	evs[3].attr.config1 = 0;
	assert_true(all_fit(evs, 4, 8, false));
}

static void other_msrs(void **state)
{
	struct event_enc evs[COUNTER_FIT_OTHER_MSRS + 1];

	(void)state;
	/* MSR_PEBS_FRONTEND: one value at a time, however many events share it */
	evs[0] = msr_event(0x3f7, 0x11);
	evs[1] = msr_event(0x3f7, 0x11);
	assert_true(all_fit(evs, 2, 8, false));
	evs[1] = msr_event(0x3f7, 0x12);
	assert_false(all_fit(evs, 2, 8, false));
	/* and beside the offcore-response ones, not counted among them */
	evs[1] = msr_event(0, 0x1);
	evs[2] = msr_event(0, 0x2);
	assert_true(all_fit(evs, 3, 8, false));
	for (int i = 0; i <= COUNTER_FIT_OTHER_MSRS; i++)
		evs[i] = msr_event(0x3f0 + i, 1);
	assert_true(all_fit(evs, COUNTER_FIT_OTHER_MSRS, 32, false));
	assert_false(all_fit(evs, COUNTER_FIT_OTHER_MSRS + 1, 32, false));
}

static void software_events(void **state)
{
	struct event_enc sw[3] = { { .kind = EVENT_SOFTWARE, .fixed = -1 },
				   { .kind = EVENT_SOFTWARE, .fixed = -1 },
				   { .kind = EVENT_SOFTWARE, .fixed = -1 } };

	(void)state;
	assert_true(all_fit(sw, 3, 0, false));
	/* stand-ins for hardware events: a counter each, any */
	assert_true(all_fit(sw, 2, 2, true));
	assert_false(all_fit(sw, 3, 2, true));
}

static uint64_t rng = 0x2545f4914f6cdd1du;

static uint32_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng >> 32);
}

/*
 * Random sets of GP and fixed-counter events with random masks and
 * offcore-response values: fits exactly where a brute-force search
 * finds counters for all and the MSRs hold every value.
 */
static void random_sets_as_brute_force(void **state)
{
	(void)state;
	for (int round = 0; round < 20000; round++) {
		int gp = 1 + (int)(next() % 6), n = (int)(next() % 9), nmask = 0, nocr = 0;
		struct event_enc evs[8];
		uint32_t mask[8], fixed = 0;
		uint64_t ocr[8];
		bool msrs_hold = true, want;

		for (int i = 0; i < n; i++) {
			uint32_t m = next() % 4 ? next() & 0x3f : 0x3f;

			evs[i] = next() % 4 ? gp_event(m) : fixed_event((int)(next() % 3), m);
			if (next() % 3 == 0)
				evs[i].attr.config1 = 1 + next() % 3;
			if (evs[i].kind == EVENT_FIXED && !(fixed & (1u << evs[i].fixed)))
				fixed |= 1u << evs[i].fixed;
			else
				mask[nmask++] = m;
			if (evs[i].attr.config1) {
				bool known = false;

				for (int o = 0; o < nocr; o++)
					known |= ocr[o] == evs[i].attr.config1;
				if (!known)
					ocr[nocr++] = evs[i].attr.config1;
			}
		}
		msrs_hold = nocr <= 2;
		want = msrs_hold && nmask <= gp && counter_assign(mask, nmask, gp);
		if (all_fit(evs, n, gp, false) != want)
			fail_msg("round %d: %d events on %d counters: fits %d, brute force %d",
				 round, n, gp, !want, want);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(gp_counters_by_number),
		cmocka_unit_test(gp_counters_by_mask),
		cmocka_unit_test(fixed_counters),
		cmocka_unit_test(slots_and_metrics),
		cmocka_unit_test(offcore_response_msrs),
		cmocka_unit_test(other_msrs),
		cmocka_unit_test(software_events),
		cmocka_unit_test(random_sets_as_brute_force),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
