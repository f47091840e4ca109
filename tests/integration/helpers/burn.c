// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * A CPU burner for the integration tests:
 *   burn SECONDS DUTY [DUTY2]
 * burns DUTY of a CPU (0..1) for SECONDS of wall time, in 10 ms periods; with
 * DUTY2 two threads, burn-a and burn-b, burn DUTY and DUTY2 while the main
 * thread (burn-main) waits; alone, the main thread is burn-a.
 * With BURN_REPORT=FILE set, each thread's CPU time as the kernel counts it
 * (CLOCK_THREAD_CPUTIME_ID: the scheduler's runtime) is written there.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <time.h>

struct burner {
	double seconds, duty;
	const char *name;
	double cpu_s;		/* this thread's CPU time at the end */
};

static double now(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void *burn(void *arg)
{
	const struct burner *b = arg;
	double start = now(CLOCK_MONOTONIC), period = 0.010;
	volatile unsigned long sink = 0;

	prctl(PR_SET_NAME, b->name);
	/* Spin on this thread's CPU time, so preemption does not inflate the duty. */
	for (double t = start; t < start + b->seconds; t += period) {
		double cpu0 = now(CLOCK_THREAD_CPUTIME_ID);
		struct timespec until;
		double end = t + period;

		while (now(CLOCK_THREAD_CPUTIME_ID) - cpu0 < b->duty * period &&
		       now(CLOCK_MONOTONIC) < end)
			sink++;
		until.tv_sec = (time_t)end;
		until.tv_nsec = (long)((end - until.tv_sec) * 1e9);
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until, NULL);
	}
	((struct burner *)arg)->cpu_s = now(CLOCK_THREAD_CPUTIME_ID);
	return NULL;
}

int main(int argc, char **argv)
{
	struct burner a = { 0, 0, "burn-a", 0 }, b = { 0, 0, "burn-b", 0 };
	const char *report = getenv("BURN_REPORT");
	pthread_t ta, tb;

	if (argc < 3) {
		fprintf(stderr, "usage: burn SECONDS DUTY [DUTY2]\n");
		return 2;
	}
	a.seconds = b.seconds = atof(argv[1]);
	a.duty = atof(argv[2]);
	if (argc > 3) {
		/*
		 * Both burners on threads of their own: what the process does after
		 * they end (the report, exit, a sanitizer's leak scan) runs on the
		 * main thread, not on a thread whose CPU time is the reference.
		 */
		prctl(PR_SET_NAME, "burn-main");
		b.duty = atof(argv[3]);
		pthread_create(&ta, NULL, burn, &a);
		pthread_create(&tb, NULL, burn, &b);
		pthread_join(ta, NULL);
		pthread_join(tb, NULL);
	} else {
		burn(&a);
	}
	if (report) {
		FILE *f = fopen(report, "w");

		if (!f)
			return 1;
		fprintf(f, "%s %.9f\n%s %.9f\n", a.name, a.cpu_s, b.name, b.cpu_s);
		fclose(f);
	}
	return 0;
}
