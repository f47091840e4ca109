// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * A dependent chain of integer multiplies and divides on registers: no
 * memory traffic, each operation waits for the previous one's result, so
 * the backend stalls on execution latency (Backend_Bound > Core_Bound).
 */
#include <stdint.h>

#include "bench.h"

int main(int argc, char **argv)
{
	double secs = bench_seconds(argc, argv), end, iters = 0;
	uint64_t x = 12345, d = 7;

	bench_ready();
	end = bench_now() + secs;
	while (bench_now() < end) {
		for (int k = 0; k < 1000000; k++) {
			x = x * 0x9E3779B97F4A7C15ull + 1;
			x = x / d + x; /* the divider: tens of cycles, dependent */
			/* Keeps d unknown to the compiler, so the division stays. */
			__asm__ volatile("" : "+r"(d));
		}
		iters += 1000000;
	}
	bench_done("bench_core", x, iters);
	return 0;
}
