/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Live monitoring: the interval loop from the BPF collector to the output. */
#ifndef TMACG_MONITOR_H
#define TMACG_MONITOR_H

#include <signal.h>
#include <stdint.h>

struct options;

/* Set by the SIGINT/SIGTERM handler: finish the interval, print it, exit 0. */
extern volatile sig_atomic_t monitor_stop;

/*
 * The wait between two intervals: until deadline (CLOCK_MONOTONIC, ns) or
 * monitor_stop, calling wait(ctx, ms) for up to ms at a time (at most
 * max_wait_ms) to take cgroup events, then keys(ctx) (NULL: none).  0, or
 * the first error of wait other than -EINTR (a signal: the loop looks at
 * monitor_stop again): a wait that fails at once would otherwise spin.
 */
int monitor_wait_until(uint64_t deadline, int max_wait_ms, int (*wait)(void *ctx, int ms),
		       void (*keys)(void *ctx), void *ctx);

/* Runs until --count/--duration or a signal; returns the process exit code. */
int monitor_run(const struct options *o);

#endif
