// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The guest test's two-thread workload: `threads N1 N2` starts thread "spin-a", which
 * retires 2*N1 instructions in a subs/b.ne loop, and thread "spin-b" (2*N2), then joins
 * them.  --per-task must charge each thread its own count.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

struct spin {
	const char *name;
	unsigned long n;
};

static void *spin(void *arg)
{
	struct spin *s = arg;
	unsigned long n = s->n;

	pthread_setname_np(pthread_self(), s->name);
	__asm__ volatile("1: subs %0, %0, #1\n\tb.ne 1b" : "+r"(n) : : "cc");
	return NULL;
}

int main(int argc, char **argv)
{
	struct spin s[2] = { { "spin-a", 0 }, { "spin-b", 0 } };
	pthread_t t[2];

	if (argc != 3 || !(s[0].n = strtoul(argv[1], NULL, 10)) ||
	    !(s[1].n = strtoul(argv[2], NULL, 10))) {
		fprintf(stderr, "usage: threads N1 N2 (iterations, > 0)\n");
		return 2;
	}
	for (int i = 0; i < 2; i++)
		if (pthread_create(&t[i], NULL, spin, &s[i])) {
			perror("pthread_create");
			return 1;
		}
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	return 0;
}
