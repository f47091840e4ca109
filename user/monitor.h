/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Live monitoring: the interval loop from the BPF collector to the output. */
#ifndef TMACG_MONITOR_H
#define TMACG_MONITOR_H

#include <signal.h>

struct options;

/* Set by the SIGINT/SIGTERM handler: finish the interval, print it, exit 0. */
extern volatile sig_atomic_t monitor_stop;

/* Runs until --count/--duration or a signal; returns the process exit code. */
int monitor_run(const struct options *o);

#endif
