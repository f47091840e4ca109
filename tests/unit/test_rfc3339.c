// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The one RFC 3339 formatter (util/rfc3339.h): known instants, nine fraction
 * digits always, four-digit years (the range's bounds kept), a clock's
 * impossible nanoseconds as 0, and the per-thread
 * cache of the date never showing a second it was not given (a sweep against
 * gmtime and strftime, going back and forth in time, from two threads).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "util/rfc3339.h"

static void expect(time_t sec, long nsec, const char *want)
{
	struct timespec ts = { sec, nsec };
	char got[RFC3339_MAX];

	assert_int_equal(rfc3339_text(&ts, got), strlen(want));
	assert_string_equal(got, want);
}

static void known_instants(void **state)
{
	(void)state;
	expect(0, 0, "1970-01-01T00:00:00.000000000Z");
	expect(1700000000, 500000000, "2023-11-14T22:13:20.500000000Z");
	expect(1709164800, 5, "2024-02-29T00:00:00.000000005Z"); /* a leap day */
	expect(1709164799, 999999999, "2024-02-28T23:59:59.999999999Z");
	expect(4102444800, 1, "2100-01-01T00:00:00.000000001Z");
	expect(-1, 0, "1969-12-31T23:59:59.000000000Z");
	/* RFC 3339's years are four digits, 0000 to 9999: padded, and the bounds held. */
	expect(-30610224000LL, 0, "1000-01-01T00:00:00.000000000Z");
	expect(-30610224001LL, 7, "0999-12-31T23:59:59.000000007Z");
	expect(-62135596800LL, 0, "0001-01-01T00:00:00.000000000Z");
	expect(-62167219200LL, 0, "0000-01-01T00:00:00.000000000Z");
	expect(-62167219201LL, 5, "0000-01-01T00:00:00.000000000Z");
	expect(253402300799LL, 1, "9999-12-31T23:59:59.000000001Z");
	expect(253402300800LL, 0, "9999-12-31T23:59:59.999999999Z");
	expect(-1000000000000000LL, 0, "0000-01-01T00:00:00.000000000Z");
	/* Back to a second seen before: the cache follows. */
	expect(0, 0, "1970-01-01T00:00:00.000000000Z");
}

static void impossible_nanoseconds_are_zero(void **state)
{
	(void)state;
	expect(1700000000, -1, "2023-11-14T22:13:20.000000000Z");
	expect(1700000000, 1000000000, "2023-11-14T22:13:20.000000000Z");
}

/* Seconds from 1970 to past 2100 in uneven steps, forward, then backward: as strftime says. */
static void *sweep(void *arg)
{
	long step = *(const long *)arg;
	int bad = 0;

	for (int dir = 0; dir < 2; dir++)
		for (long k = 0; k < 40000; k++) {
			time_t sec = (time_t)(dir ? 40000 - k : k) * step;
			struct timespec ts = { sec, k % 1000000000 };
			char got[RFC3339_MAX], want[RFC3339_MAX + 16], date[RFC3339_MAX];
			struct tm tm;

			gmtime_r(&sec, &tm);
			strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%S", &tm);
			snprintf(want, sizeof(want), "%s.%09ldZ", date, ts.tv_nsec);
			rfc3339_text(&ts, got);
			bad += strcmp(got, want) != 0;
		}
	return (void *)(long)bad;
}

static void agrees_with_strftime_in_two_threads(void **state)
{
	long a = 104729, b = 99991; /* primes: the two threads see different seconds */
	pthread_t t;
	void *bad_t, *bad_main;

	(void)state;
	assert_int_equal(pthread_create(&t, NULL, sweep, &a), 0);
	bad_main = sweep(&b);
	assert_int_equal(pthread_join(t, &bad_t), 0);
	assert_int_equal((long)bad_main, 0);
	assert_int_equal((long)bad_t, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(known_instants),
		cmocka_unit_test(impossible_nanoseconds_are_zero),
		cmocka_unit_test(agrees_with_strftime_in_two_threads),
	};
	return cmocka_run_group_tests_name("rfc3339", tests, NULL, NULL);
}
