// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Branches on bits of a xorshift generator computed in registers: no
 * predictor can learn them (a repeated table can be learnt by long-history
 * predictors), so about half mispredict (Bad_Speculation > Branch_Mispredicts).
 * The volatile stores in each arm keep the compiler from turning the branch
 * into a conditional move.
 */
#include <stdint.h>

#include "bench.h"

static volatile unsigned long taken, not_taken;

int main(int argc, char **argv)
{
	double secs = bench_seconds(argc, argv), end, iters = 0;
	uint64_t rng = 88172645463325252ull;

	bench_ready();
	end = bench_now() + secs;
	while (bench_now() < end) {
		for (int k = 0; k < 1000000; k++) {
			rng ^= rng << 13;
			rng ^= rng >> 7;
			rng ^= rng << 17;
			if (rng & (1ull << 40))
				taken++;
			else
				not_taken++;
		}
		iters += 1000000;
	}
	bench_done("bench_branch", taken ^ not_taken, iters);
	return 0;
}
