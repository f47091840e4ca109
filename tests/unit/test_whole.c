// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* util/whole.h: bit for bit nearbyint's whole number, on the halves, the edges and at random. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/whole.h"

static void same_as_nearbyint(double x)
{
	double got = whole(x), want = nearbyint(x);

	if (memcmp(&got, &want, sizeof(got)) && !(isnan(got) && isnan(want)))
		fail_msg("whole(%.17g) = %.17g, nearbyint %.17g", x, got, want);
}

static void halves_and_edges(void **state)
{
	static const double edge[] = { 0.0,
				       -0.0,
				       0.5,
				       1.5,
				       2.5,
				       3.5,
				       0.49999999999999994,
				       1e-300,
				       0x1p52 - 0.5,
				       0x1p52 - 1.5,
				       0x1p52,
				       0x1p52 + 1,
				       0x1p53,
				       1e300,
				       -0.5,
				       -2.5,
				       -1e9 - 0.5,
				       INFINITY,
				       -INFINITY,
				       NAN };

	(void)state;
	for (size_t i = 0; i < sizeof(edge) / sizeof(edge[0]); i++)
		same_as_nearbyint(edge[i]);
	/* Every half up to a million: ties go to the even neighbour. */
	for (int k = 0; k < 2000000; k++)
		same_as_nearbyint(k / 2.0);
}

/* Counts scaled by a share, as measure.c's: any magnitude a PMU count reaches and beyond. */
static void at_random(void **state)
{
	uint64_t s = 0x9e3779b97f4a7c15ull;

	(void)state;
	for (int k = 0; k < 2000000; k++) {
		double x;

		s ^= s << 13;
		s ^= s >> 7;
		s ^= s << 17;
		x = (double)(s >> (s & 63)) * ((double)(s & 0xffff) / 65536.0 + 0.25);
		same_as_nearbyint(x);
		same_as_nearbyint(-x);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(halves_and_edges),
		cmocka_unit_test(at_random),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
