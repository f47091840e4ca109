/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Shared by the micro-benchmarks: run the kernel for the seconds given as argv[1]. */
#ifndef TMACG_HW_BENCH_H
#define TMACG_HW_BENCH_H

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static inline double bench_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static inline double bench_seconds(int argc, char **argv)
{
	double s = argc > 1 ? atof(argv[1]) : 5.0;

	if (s <= 0) {
		fprintf(stderr, "usage: %s SECONDS\n", argv[0]);
		exit(2);
	}
	return s;
}

/* Setup done: tests/hw/run starts measuring when it reads this line. */
static inline void bench_ready(void)
{
	printf("ready\n");
	fflush(stdout);
}

/* Printing the result keeps the compiler from removing the work. */
static inline void bench_done(const char *name, unsigned long long result, double iters)
{
	fprintf(stderr, "%s: %.3g iterations, checksum %llx\n", name, iters, result);
}

#endif
