/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * A time as RFC 3339 in UTC with nanoseconds, "2026-11-21T10:00:01.000000005Z":
 * the one time formatter of tmacg's output (a JSON line's "time", the
 * "instance" that names a tmacg run).  Always four year digits and nine
 * fraction digits, so the texts sort as their times do, and a replay reads
 * back every text written.
 */
#ifndef TMACG_RFC3339_H
#define TMACG_RFC3339_H

#include <stddef.h>
#include <time.h>

/* Room for any text rfc3339_text writes, with its NUL: always 30 characters. */
#define RFC3339_MAX 31

/*
 * ts's text into buf (RFC3339_MAX bytes) with a NUL; returns its length.
 * A tv_nsec out of 0..999999999 (no clock gives one) is written as 0; a
 * time before year 0000 as 0000-01-01T00:00:00.000000000Z, after year 9999
 * as 9999-12-31T23:59:59.999999999Z (RFC 3339 has four year digits).  The date and time of day are
 * kept per thread for the last second seen: every line of an interval shares
 * them, so a line costs the nine digits only.
 */
size_t rfc3339_text(const struct timespec *ts, char *buf);

#endif
