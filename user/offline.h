/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* The modes that need no BPF: --list-metrics, --list-events, --replay. */
#ifndef TMACG_OFFLINE_H
#define TMACG_OFFLINE_H

#include <stddef.h>

struct options;

/* Runs --list-metrics, --list-events or --replay; returns the exit code. */
int offline_run(const struct options *o);

#endif
