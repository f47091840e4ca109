// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The texts of a line's repeated values (util/share_memo.h): every answer is
 * share_text of the very value asked, whether made then or served
 * again, with far more values than slots (slots taken over), values whose
 * bits differ by one, and -0 beside 0, asked for (share_memo_text) or
 * written out (share_memo_write); a memo started again serves nothing of
 * before.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdint.h>
#include <string.h>

#include "util/share_memo.h"

/* memo's answer for v is share_text's text of v. */
static void check(struct share_memo *memo, double v)
{
	char want[DOUBLE_TEXT_MAX], written[DOUBLE_TEXT_MAX];
	size_t want_len = share_text(v, want), len = 0;
	const char *got = share_memo_text(memo, v, &len);

	assert_int_equal(len, want_len);
	if (memcmp(got, want, len))
		fail_msg("%.17g: got \"%.*s\", want \"%s\"", v, (int)len, got, want);
	/* The same text written out, as the JSON writer and the exposition take it. */
	len = share_memo_write(memo, v, written);
	assert_int_equal(len, want_len);
	if (memcmp(written, want, len))
		fail_msg("%.17g: wrote \"%.*s\", want \"%s\"", v, (int)len, written, want);
}

static double next_bits_neighbour(double v, int64_t by)
{
	uint64_t bits;

	memcpy(&bits, &v, sizeof(bits));
	bits += (uint64_t)by;
	memcpy(&v, &bits, sizeof(v));
	return v;
}

/* A line's fractions: 15 groups' shares asked for in turn, many times over. */
static void repeated_shares_served_as_made(void **state)
{
	struct share_memo memo;

	(void)state;
	share_memo_init(&memo);
	for (int round = 0; round < 10; round++)
		for (int g = 1; g <= 15; g++)
			check(&memo, 66000000.0 * g / 1001202908.0);
}

/* Thousands of values through 64 slots, each asked twice, its neighbours in between. */
static void slots_taken_over_never_serve_another(void **state)
{
	struct share_memo memo;
	uint64_t x = 0x9e3779b97f4a7c15u;

	(void)state;
	share_memo_init(&memo);
	for (int i = 0; i < 20000; i++) {
		double v;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		v = (double)(x >> 11) / 9007199254740992.0;
		check(&memo, v);
		check(&memo, next_bits_neighbour(v, 1));
		check(&memo, next_bits_neighbour(v, -1));
		check(&memo, v);
	}
	check(&memo, 0.0);
	check(&memo, -0.0);
	check(&memo, 0.0);
	check(&memo, 1e300);
	check(&memo, 5e-324);
}

/* After init, a slot's old text is not served for a value that happens to have its bits. */
static void init_starts_afresh(void **state)
{
	struct share_memo memo;
	size_t len;

	(void)state;
	share_memo_init(&memo);
	check(&memo, 0.25);
	/* Scribble over the made text: only a fresh start may make it again. */
	for (int s = 0; s < SHARE_MEMO_SLOTS; s++)
		memset(memo.text[s], '9', sizeof(memo.text[s]));
	share_memo_init(&memo);
	check(&memo, 0.25);
	assert_non_null(share_memo_text(&memo, 0.25, &len));
	assert_int_equal(len, 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(repeated_shares_served_as_made),
		cmocka_unit_test(slots_taken_over_never_serve_another),
		cmocka_unit_test(init_starts_afresh),
	};
	return cmocka_run_group_tests_name("share_memo", tests, NULL, NULL);
}
