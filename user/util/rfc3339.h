/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * A time as RFC 3339 in UTC with nanoseconds, "2026-11-21T10:00:01.000000005Z":
 * the one time formatter of tmacg's output (a JSON line's "time", the
 * "instance" that names a tmacg run).  Always nine fraction digits, so the
 * texts of one run sort as their times do.
 */
#ifndef TMACG_RFC3339_H
#define TMACG_RFC3339_H

#include <stddef.h>
#include <time.h>

/* Room for any text rfc3339_text writes, with its NUL (a year of 11 characters). */
#define RFC3339_MAX 48

/*
 * ts's text into buf (RFC3339_MAX bytes) with a NUL; returns its length.
 * A tv_nsec out of 0..999999999 (no clock gives one) is written as 0; a
 * time gmtime cannot break down, as the epoch.  The date and time of day are
 * kept per thread for the last second seen: every line of an interval shares
 * them, so a line costs the nine digits only.
 */
size_t rfc3339_text(const struct timespec *ts, char *buf);

#endif
