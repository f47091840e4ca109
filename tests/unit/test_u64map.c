// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The id map under churn: every key stays findable after any mix of puts and
 * deletes; a walk sees every entry once; retain deletes exactly what it is told.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/u64map.h"

static void basic(void **state)
{
	struct u64map m;
	int a, b;

	(void)state;
	u64map_init(&m);
	assert_null(u64map_get(&m, 5));
	assert_int_equal(u64map_put(&m, 5, &a), 0);
	assert_int_equal(u64map_put(&m, 6, &b), 0);
	assert_ptr_equal(u64map_get(&m, 5), &a);
	assert_int_equal(u64map_put(&m, 5, &b), 0); /* replace */
	assert_ptr_equal(u64map_get(&m, 5), &b);
	assert_int_equal(u64map_len(&m), 2);
	assert_ptr_equal(u64map_del(&m, 5), &b);
	assert_null(u64map_get(&m, 5));
	assert_null(u64map_del(&m, 5));
	assert_int_equal(u64map_put(&m, 0, &a), -EINVAL); /* 0 marks empty slots */
	u64map_free(&m);
}

/* Random churn against a plain array as the reference. */
static void churn_matches_reference(void **state)
{
	enum { KEYS = 5000, OPS = 200000 };
	static char present[KEYS];
	struct u64map m;
	size_t live = 0;

	(void)state;
	srand(42);
	u64map_init(&m);
	for (int op = 0; op < OPS; op++) {
		/* Sequential ids, like cgroup ids, with collisions forced by the mask. */
		uint64_t key = (uint64_t)(rand() % KEYS) + 1;

		if (rand() % 3) {
			assert_int_equal(u64map_put(&m, key, (void *)(uintptr_t)key), 0);
			live += !present[key - 1];
			present[key - 1] = 1;
		} else {
			void *v = u64map_del(&m, key);

			assert_true(present[key - 1] ? v == (void *)(uintptr_t)key : v == NULL);
			live -= present[key - 1];
			present[key - 1] = 0;
		}
		if (op % 10000 == 0) {
			for (uint64_t k = 1; k <= KEYS; k++)
				assert_true(present[k - 1] ?
						    u64map_get(&m, k) == (void *)(uintptr_t)k :
						    u64map_get(&m, k) == NULL);
		}
	}
	assert_int_equal(u64map_len(&m), live);
	u64map_free(&m);
}

static void walk_sees_every_entry_once(void **state)
{
	enum { KEYS = 1000 };
	static int seen[KEYS + 1];
	struct u64map m;
	size_t cur = 0, n = 0;
	uint64_t key;
	void *val;

	(void)state;
	u64map_init(&m);
	assert_false(u64map_next(&m, &cur, &key, &val)); /* empty, never allocated */
	for (uint64_t k = 1; k <= KEYS; k++)
		assert_int_equal(u64map_put(&m, k, (void *)(uintptr_t)(k * 7)), 0);
	for (uint64_t k = 2; k <= KEYS; k += 2)
		u64map_del(&m, k);
	cur = 0;
	while (u64map_next(&m, &cur, &key, &val)) {
		assert_true(key >= 1 && key <= KEYS && key % 2 == 1);
		assert_ptr_equal(val, (void *)(uintptr_t)(key * 7));
		seen[key]++;
		n++;
	}
	assert_int_equal(n, KEYS / 2);
	for (uint64_t k = 1; k <= KEYS; k += 2)
		assert_int_equal(seen[k], 1);
	assert_false(u64map_next(&m, &cur, NULL, NULL)); /* stays at the end */
	u64map_free(&m);
}

struct retain_ref {
	int calls[4096];
	uint64_t salt;
};

/* Deletes a pseudo-random third of the keys, different in every trial. */
static bool keep_some(uint64_t key, void *val, void *ctx)
{
	struct retain_ref *r = ctx;

	assert_ptr_equal(val, (void *)(uintptr_t)key);
	r->calls[key]++;
	return ((key * 0x9e3779b97f4a7c15ULL) ^ r->salt) % 3 != 0;
}

/*
 * Many small maps at the highest load: deletions shift entries back into the
 * slot being walked, across the end of the table too (probe runs that wrap
 * from the last slot to slot 0).  The cursor is one past the slot an entry
 * sits in: the test uses that to make sure wrapping runs were exercised.
 */
static void retain_deletes_exactly_the_rejected(void **state)
{
	static struct retain_ref r;
	int wrapped = 0;

	(void)state;
	srand(7);
	for (int trial = 0; trial < 2000; trial++) {
		uint64_t keys[48];
		bool first_slot = false, last_slot = false;
		struct u64map m;
		size_t cur = 0, removed = 0, expect_removed = 0;
		uint64_t key;

		memset(&r, 0, sizeof(r));
		r.salt = (uint64_t)rand();
		u64map_init(&m);
		for (int i = 0; i < 48; i++) { /* 48 of 64 slots: the most before growing */
			do
				key = (uint64_t)(rand() % 4095) + 1;
			while (u64map_get(&m, key));
			keys[i] = key;
			assert_int_equal(u64map_put(&m, key, (void *)(uintptr_t)key), 0);
		}
		while (u64map_next(&m, &cur, &key, NULL)) {
			first_slot |= cur == 1;
			last_slot |= cur == 64;
		}
		wrapped += first_slot && last_slot;
		removed = u64map_retain(&m, keep_some, &r);
		for (int i = 0; i < 48; i++) {
			bool kept = ((keys[i] * 0x9e3779b97f4a7c15ULL) ^ r.salt) % 3 != 0;

			assert_int_equal(r.calls[keys[i]], 1);
			if (kept)
				assert_ptr_equal(u64map_get(&m, keys[i]),
						 (void *)(uintptr_t)keys[i]);
			else
				assert_null(u64map_get(&m, keys[i]));
			expect_removed += !kept;
		}
		assert_int_equal(removed, expect_removed);
		assert_int_equal(u64map_len(&m), 48 - expect_removed);
		u64map_free(&m);
	}
	assert_true(wrapped > 100);
}

static bool keep_none(uint64_t key, void *val, void *ctx)
{
	(void)key;
	free(val);
	(*(int *)ctx)++;
	return false;
}

static void retain_can_empty_the_map_and_free_values(void **state)
{
	struct u64map m;
	int calls = 0;

	(void)state;
	u64map_init(&m);
	assert_int_equal(u64map_retain(&m, keep_none, &calls), 0); /* never allocated */
	for (uint64_t k = 1; k <= 300; k++)
		assert_int_equal(u64map_put(&m, k, malloc(8)), 0);
	assert_int_equal(u64map_retain(&m, keep_none, &calls), 300);
	assert_int_equal(calls, 300);
	assert_int_equal(u64map_len(&m), 0);
	assert_int_equal(u64map_put(&m, 5, &calls), 0); /* still usable */
	assert_ptr_equal(u64map_get(&m, 5), &calls);
	u64map_free(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(basic),
		cmocka_unit_test(churn_matches_reference),
		cmocka_unit_test(walk_sees_every_entry_once),
		cmocka_unit_test(retain_deletes_exactly_the_rejected),
		cmocka_unit_test(retain_can_empty_the_map_and_free_values),
	};
	return cmocka_run_group_tests_name("u64map", tests, NULL, NULL);
}
