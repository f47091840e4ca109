// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Pointer chasing over a buffer far larger than any L3 (512 MiB by default):
 * every load depends on the previous one and misses all caches and the
 * prefetchers, so the pipeline waits on DRAM (Backend_Bound > Memory_Bound >
 * L3_Miss_Bound, DRAM_Bound before TMA 5.2).  A random single cycle (Sattolo's shuffle) visits every slot.
 * Huge pages (where THP allows) keep page walks out of the picture, so the
 * stalls land on DRAM and not on DTLB misses under L1_Bound.
 */
#include <stdint.h>
#include <sys/mman.h>

#include "bench.h"

#define LINE_WORDS 8 /* one pointer per 64-byte line: no two loads share a line */
#define HUGE_PAGE (2u << 20)

int main(int argc, char **argv)
{
	double secs = bench_seconds(argc, argv), end, iters = 0;
	size_t mib = getenv("BENCH_DRAM_MIB") ? strtoul(getenv("BENCH_DRAM_MIB"), NULL, 0) : 512;
	size_t bytes = (mib * 1024 * 1024 + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
	size_t lines = bytes / 64, *buf, *order, p = 0;
	uint64_t rng = 0x9E3779B97F4A7C15ull;

	if (mib < 4) {
		fprintf(stderr, "bench_dram: BENCH_DRAM_MIB must be at least 4\n");
		return 2;
	}
	buf = aligned_alloc(HUGE_PAGE, bytes);
	order = malloc(lines * sizeof(*order));
	if (!buf || !order) {
		fprintf(stderr, "bench_dram: cannot allocate %zu MiB\n", mib);
		return 1;
	}
	madvise(buf, bytes, MADV_HUGEPAGE); /* best effort */
	for (size_t i = 0; i < lines; i++)
		order[i] = i;
	for (size_t i = lines - 1; i > 0; i--) {
		size_t j, t;

		rng ^= rng << 13;
		rng ^= rng >> 7;
		rng ^= rng << 17;
		j = rng % i; /* Sattolo: j < i gives one cycle through every line */
		t = order[i];
		order[i] = order[j];
		order[j] = t;
	}
	for (size_t i = 0; i < lines; i++)
		buf[order[i] * LINE_WORDS] = order[(i + 1) % lines] * LINE_WORDS;
	free(order);
	bench_ready();
	end = bench_now() + secs;
	while (bench_now() < end) {
		for (int k = 0; k < 100000; k++)
			p = buf[p];
		iters += 100000;
	}
	bench_done("bench_dram", p, iters);
	return 0;
}
