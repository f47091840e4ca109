/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * SIGINT, SIGTERM and SIGHUP: the signals that end a run, all three alike (a
 * Ctrl-C, a pod's grace period, a closed ssh session).  Caught, they set the
 * caller's flag and note when the first came; once nudging is on, the
 * process is sent SIGALRM every STOP_NUDGE_MS from the first on, so that
 * whatever the thread that takes signals is blocked in (a write to a pipe
 * nobody reads, to a stopped terminal) returns EINTR and its caller can look
 * at the time: nothing is restarted.  Every other thread must block these
 * signals and SIGALRM (prom_server's does).
 */
#ifndef TMACG_STOP_SIGNAL_H
#define TMACG_STOP_SIGNAL_H

#include <signal.h>
#include <stdint.h>

#define STOP_NUDGE_MS 100

/*
 * Catches the three: each sets *flag to 1.  0, or -errno when the nudging
 * timer cannot be made (the signals are caught all the same, without it).
 */
int stop_signals_catch(volatile sig_atomic_t *flag);

/*
 * From now on a stop signal (one that came already too) starts the nudges.
 * Not before: the kernel's BPF verifier gives up on a program load while a
 * signal is pending, and the loads come first.
 */
void stop_signals_nudge(void);

/* CLOCK_MONOTONIC nanoseconds when the first stop signal came; 0: none yet. */
uint64_t stop_signal_at_ns(void);

/*
 * For a run that keeps the signals' default (a replay ends at once): each of
 * the three removes path (a temporary file, which the caller keeps until
 * stop_signals_forget()) before the process dies of it.
 */
void stop_signals_unlink_on_death(const char *path);
void stop_signals_forget(void);

#endif
