/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * A double's text to a stated number of significant digits, for the values
 * tmacg derives rather than counts: TMA ratios (RATIO_DIGITS) and the
 * shares of an interval a node was measured (SHARE_DIGITS).  The counts a
 * line carries stay exact (shortest_double): replaying them gives every
 * ratio to the last bit, so the ratios need not round-trip.  A ratio's 16-17
 * digits were most of a level-6 line's cost and a third of its bytes, and
 * told no one anything: the counts behind a ratio, scaled by the time their
 * group was on the PMU, are not good to one part in a billion (issue 27).
 *
 * Digits are those of the exact value, correctly rounded (to the nearest,
 * ties to even, as printf), or cut (toward zero: a share below 1 or 0.5
 * never reads as 1 or 0.5), with trailing zeros left off, laid out as
 * shortest_double's (util/decimal_layout.h): "0.25", "0.0468536048", "1e-05".
 */
#ifndef TMACG_SIG_DOUBLE_H
#define TMACG_SIG_DOUBLE_H

#include <stdbool.h>
#include <stddef.h>

#include "util/shortest_double.h"

/* TMA ratios and Info metrics (docs/output.md "Numbers"). */
#define RATIO_DIGITS 9
/* quality.measured and tmacg_tma_measured_ratio, cut toward zero. */
#define SHARE_DIGITS 4

/* Room for any text sig_double writes, with its NUL. */
#define SIG_DOUBLE_MAX SHORTEST_DOUBLE_MAX

/* d (finite) to digits (1-15) significant digits into buf; returns the length. */
size_t sig_double(double d, int digits, bool toward_zero, char *buf);

static inline size_t ratio_text(double d, char *buf)
{
	return sig_double(d, RATIO_DIGITS, false, buf);
}

static inline size_t share_text(double d, char *buf)
{
	return sig_double(d, SHARE_DIGITS, true, buf);
}

#endif
