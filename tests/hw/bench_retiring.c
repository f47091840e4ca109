// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Eight independent chains of one-cycle integer operations on registers:
 * nothing waits, nothing mispredicts, the code is a few bytes, so most slots
 * retire uops (Retiring dominates).  The empty asm keeps the compiler from
 * folding the loop into a formula or vectorising it.
 */
#include <stdint.h>

#include "bench.h"

int main(int argc, char **argv)
{
	double secs = bench_seconds(argc, argv), end, iters = 0;
	uint64_t a = 1, b = 2, c = 3, d = 4, e = 5, f = 6, g = 7, h = 8;

	bench_ready();
	end = bench_now() + secs;
	while (bench_now() < end) {
		for (int k = 0; k < 1000000; k++) {
			a += 3;
			b ^= 5;
			c += 7;
			d ^= 11;
			e += 13;
			f ^= 17;
			g += 19;
			h ^= 23;
			__asm__ volatile(""
					 : "+r"(a), "+r"(b), "+r"(c), "+r"(d), "+r"(e), "+r"(f),
					   "+r"(g), "+r"(h));
		}
		iters += 1000000;
	}
	bench_done("bench_retiring", a ^ b ^ c ^ d ^ e ^ f ^ g ^ h, iters);
	return 0;
}
