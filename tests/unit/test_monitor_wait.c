// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The live loop's wait between intervals (monitor_wait_until): a wait that
 * fails ends it with that error instead of being called again at once until
 * the deadline (a spin on a CPU the tool is meant to barely touch); a signal
 * (-EINTR) is no error; monitor_stop ends it early.  No timing is asserted:
 * deadlines are bounds, the counts of calls tell.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <cmocka.h>

#include "monitor.h"

struct fake_wait {
	int calls, key_calls;
	int fail_with;	/* returned by every call */
	int stop_after; /* sets monitor_stop after this many calls; 0: never */
};

static int fake_wait(void *ctx, int ms)
{
	struct fake_wait *w = ctx;

	(void)ms;
	w->calls++;
	if (w->stop_after && w->calls >= w->stop_after)
		monitor_stop = 1;
	return w->fail_with;
}

static void fake_keys(void *ctx)
{
	((struct fake_wait *)ctx)->key_calls++;
}

static uint64_t in_ms(int ms)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec + ms * 1000000ULL;
}

static void failing_wait_ends_the_wait_with_its_error(void **state)
{
	struct fake_wait w = { .fail_with = -EBADF };

	(void)state;
	monitor_stop = 0;
	/* A minute: a spin would call it millions of times, and the test would take that long. */
	assert_int_equal(monitor_wait_until(in_ms(60000), 1000, fake_wait, fake_keys, &w), -EBADF);
	assert_int_equal(w.calls, 1);
	assert_int_equal(w.key_calls, 0);
}

static void signal_is_not_an_error(void **state)
{
	struct fake_wait w = { .fail_with = -EINTR, .stop_after = 3 };

	(void)state;
	monitor_stop = 0;
	/* -EINTR: the loop looks at monitor_stop again, and keys are taken meanwhile. */
	assert_int_equal(monitor_wait_until(in_ms(60000), 1000, fake_wait, fake_keys, &w), 0);
	assert_int_equal(w.calls, 3);
	assert_int_equal(w.key_calls, 3);
	monitor_stop = 0;
}

static void past_deadline_waits_not_at_all(void **state)
{
	struct fake_wait w = { 0 };

	(void)state;
	monitor_stop = 0;
	assert_int_equal(monitor_wait_until(in_ms(0) - 1, 1000, fake_wait, NULL, &w), 0);
	assert_int_equal(w.calls, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(failing_wait_ends_the_wait_with_its_error),
		cmocka_unit_test(signal_is_not_an_error),
		cmocka_unit_test(past_deadline_waits_not_at_all),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
