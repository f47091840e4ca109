// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* The cgroup event ring follows --max-cgroups: a power of two holding that many records. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <linux/types.h>

#include "collect/collector.h"
#include "tmacg.h"

static void holds_max_cgroups_records(void **state)
{
	(void)state;
	/* 536-byte records + 8-byte header: 16,384 of them are 8.5 MiB -> 16 MiB. */
	assert_int_equal(ring_bytes_for(16384, 536), 16u << 20);
	assert_int_equal(ring_bytes_for(16, 536), 2u << 20);   /* never below the old 2 MiB */
	assert_int_equal(ring_bytes_for(3855, 536), 2u << 20); /* 3,855 fit in 2 MiB */
	assert_int_equal(ring_bytes_for(3856, 536), 4u << 20);
	assert_int_equal(ring_bytes_for(1u << 24, 536), 256u << 20); /* capped */
	for (__u32 n = 16; n < 400000; n = n * 3 + 1) {		     /* below the cap */
		__u32 b = ring_bytes_for(n, sizeof(struct tmacg_cgroup_event));

		assert_int_equal(b & (b - 1), 0);
		assert_true((__u64)b >= (__u64)n * (sizeof(struct tmacg_cgroup_event) + 8));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(holds_max_cgroups_records),
	};
	return cmocka_run_group_tests_name("ring_size", tests, NULL, NULL);
}
