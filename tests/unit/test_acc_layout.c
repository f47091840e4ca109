// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The accumulator layout (include/tmacg.h, user/util/acc_layout.h): sized
 * to the plan, runtime then counters then the groups' {enabled, running},
 * every word used once.  The BPF side indexes the same words, so these pin
 * what both sides rely on.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "collect/acc_delta.h"

/* Level 1 on software events, a level-3 plan, the largest. */
static const struct acc_layout layouts[] = {
	{ 4, 1 }, { 50, 8 }, { 146, 28 }, { TMACG_MAX_EVENTS, TMACG_MAX_GROUPS }
};

static void sizes_follow_the_plan(void **state)
{
	(void)state;
	assert_int_equal(acc_bytes(&layouts[0]), 56); /* runtime, 4 counters, one pair */
	assert_int_equal(acc_bytes(&layouts[1]), 8 * (1 + 50 + 16));
	assert_int_equal(acc_bytes(&layouts[3]), 3080); /* the old fixed size */
	assert_int_equal(acc_fields(&layouts[0]), 6);
	assert_int_equal(TMACG_TASK_ACC_BYTES(4, 1), 40 + 56);
	assert_int_equal(sizeof(union acc_room), acc_bytes(&layouts[3]));
}

/* Each field has its own word, and together they fill the layout exactly. */
static void every_word_once(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(layouts) / sizeof(layouts[0]); i++) {
		const struct acc_layout *l = &layouts[i];
		int words = TMACG_ACC_WORDS(l->nevents, l->ngroups);
		union acc_room r;

		memset(&r, 0, sizeof(r));
		r.acc.runtime_ns = 1;
		for (int e = 0; e < l->nevents; e++)
			*acc_counter(&r.acc, e) = 1;
		for (int g = 0; g < l->ngroups; g++) {
			assert_ptr_equal(acc_running(l, &r.acc, g), acc_enabled(l, &r.acc, g) + 1);
			*acc_enabled(l, &r.acc, g) += 1;
			*acc_running(l, &r.acc, g) += 1;
		}
		for (int w = 0; w < TMACG_ACC_MAX_WORDS; w++)
			assert_int_equal(r.words[w], w < words ? 1 : 0);
		/* Counters follow runtime; group 0's times follow the last counter. */
		assert_ptr_equal(acc_counter(&r.acc, 0), &r.words[1]);
		assert_ptr_equal(acc_enabled(l, &r.acc, 0), &r.words[1 + l->nevents]);
		assert_ptr_equal(acc_running(l, &r.acc, l->ngroups - 1), &r.words[words - 1]);
	}
}

/*
 * Heap accumulators of exactly acc_bytes(): every operation stays inside
 * (AddressSanitizer fails the test otherwise) and gets the right answer.
 */
static void operations_stay_within_the_plan(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(layouts) / sizeof(layouts[0]); i++) {
		const struct acc_layout *l = &layouts[i];
		struct tmacg_acc *now = acc_new(l), *before = acc_new(l), *d = acc_new(l);
		int last = l->ngroups - 1;

		assert_non_null(now);
		assert_non_null(before);
		assert_non_null(d);
		now->runtime_ns = 10;
		*acc_counter(now, l->nevents - 1) = 7;
		*acc_enabled(l, now, last) = 100;
		*acc_running(l, now, last) = 25;
		assert_int_equal(acc_delta(l, now, before, d), 0);
		acc_add(l, before, d);
		assert_memory_equal(before, now, acc_bytes(l));
		assert_false(acc_is_empty(l, d));
		assert_true(acc_measured(l, d, 1ull << last) == 0.25);
		assert_true(acc_running_min(l, d) == 0.25);
		assert_true(acc_scaled(l, d, l->nevents - 1, last) == 28.0);
		acc_clear(l, d);
		assert_true(acc_is_empty(l, d));
		free(now);
		free(before);
		free(d);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sizes_follow_the_plan),
		cmocka_unit_test(every_word_once),
		cmocka_unit_test(operations_stay_within_the_plan),
	};
	return cmocka_run_group_tests_name("acc_layout", tests, NULL, NULL);
}
