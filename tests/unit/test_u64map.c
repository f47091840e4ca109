// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* The id map under churn: every key stays findable after any mix of puts and deletes. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "u64map.h"

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
	assert_int_equal(u64map_put(&m, 5, &b), 0);	/* replace */
	assert_ptr_equal(u64map_get(&m, 5), &b);
	assert_int_equal(m.len, 2);
	assert_ptr_equal(u64map_del(&m, 5), &b);
	assert_null(u64map_get(&m, 5));
	assert_null(u64map_del(&m, 5));
	assert_int_equal(u64map_put(&m, 0, &a), -EINVAL);	/* 0 marks empty slots */
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
	assert_int_equal(m.len, live);
	u64map_free(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(basic),
		cmocka_unit_test(churn_matches_reference),
	};
	return cmocka_run_group_tests_name("u64map", tests, NULL, NULL);
}
