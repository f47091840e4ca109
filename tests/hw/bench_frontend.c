// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * A code footprint far beyond the i-cache and the decoded-uop cache: 4096
 * distinct functions of about 760 bytes each (3 MiB of code, more than any
 * L2) called in a straight line, every pass.  Each call is a direct, predictable branch, so
 * the cost is fetching instructions (Frontend_Bound > Fetch_Latency).
 * Distinct immediates keep identical-code folding from merging the functions.
 */
#include "bench.h"

/*
 * 128 one-cycle adds on four independent registers: the backend could run
 * four per cycle, so whatever is lost is lost fetching them.  On arm64 the
 * adds read a register (an immediate holds 12 bits): the functions still
 * differ, by what they return.
 */
#if defined(__aarch64__)
#define FN(n)                                                                \
	static __attribute__((noinline)) unsigned long f##n(unsigned long x) \
	{                                                                    \
		__asm__ volatile(".rept 32\n\t"                              \
				 "add x9, x9, %0\n\tadd x10, x10, %0\n\t"    \
				 "add x11, x11, %0\n\tadd x12, x12, %0\n\t"  \
				 ".endr"                                     \
				 :                                           \
				 : "r"(x)                                    \
				 : "x9", "x10", "x11", "x12");               \
		return x + 1##n;                                             \
	}
#else
#define FN(n)                                                                \
	static __attribute__((noinline)) unsigned long f##n(unsigned long x) \
	{                                                                    \
		__asm__ volatile(".rept 32\n\t"                              \
				 "add %0, %%eax\n\tadd %0, %%ecx\n\t"        \
				 "add %0, %%edx\n\tadd %0, %%esi\n\t"        \
				 ".endr"                                     \
				 :                                           \
				 : "i"(1##n)                                 \
				 : "eax", "ecx", "edx", "esi", "cc");        \
		return x + 1##n;                                             \
	}
#endif
#define CALL(n) x = f##n(x);

/* Base-4 digits: X6 expands M over 4^6 = 4096 names. */
#define X1(M, p) M(p##0) M(p##1) M(p##2) M(p##3)
#define X2(M, p) X1(M, p##0) X1(M, p##1) X1(M, p##2) X1(M, p##3)
#define X3(M, p) X2(M, p##0) X2(M, p##1) X2(M, p##2) X2(M, p##3)
#define X4(M, p) X3(M, p##0) X3(M, p##1) X3(M, p##2) X3(M, p##3)
#define X5(M, p) X4(M, p##0) X4(M, p##1) X4(M, p##2) X4(M, p##3)
#define X6(M, p) X5(M, p##0) X5(M, p##1) X5(M, p##2) X5(M, p##3)

X6(FN, 1)

static __attribute__((noinline)) unsigned long pass(unsigned long x)
{
	X6(CALL, 1)
	return x;
}

int main(int argc, char **argv)
{
	double secs = bench_seconds(argc, argv), end, iters = 0;
	unsigned long x = 1;

	bench_ready();
	end = bench_now() + secs;
	while (bench_now() < end) {
		x = pass(x);
		iters += 4096;
	}
	bench_done("bench_frontend", x, iters);
	return 0;
}
