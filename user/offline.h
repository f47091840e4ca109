/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Which TMA model to use, and the modes that need no BPF: --list-metrics, --list-events, --replay. */
#ifndef TMACG_OFFLINE_H
#define TMACG_OFFLINE_H

#include <stddef.h>

struct options;
struct cpu_info;
struct tma_model;

/*
 * The model the options name: --model-file, else --model, else the one that
 * fits this CPU (ci may be NULL when not detected).  NULL with err.
 */
struct tma_model *tma_model_open(const struct options *o, const struct cpu_info *ci, char *err,
				 size_t errlen);

/* Runs --list-metrics, --list-events or --replay; returns the exit code. */
int offline_run(const struct options *o);

#endif
