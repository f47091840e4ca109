/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * The one formatter of the doubles tmacg writes (docs/output.md "Rules that
 * hold for every line"):
 * - shortest_double: what a line measures (counts, times), in the fewest
 *   significant digits that strtod reads back as the same double: replay
 *   reads them back exactly.  Whole numbers below 1e15 as integers ("260",
 *   "-0").
 * - sig_double: what a line derives, to a stated number of significant
 *   digits, rounded to the nearest (ties to even, as printf's "%.8e") or cut
 *   toward zero (a share below 1 or 0.5 never reads as 1 or 0.5, unless the
 *   double is the one read from that text: "0.04685" stays "0.04685").
 * Both with trailing zeros left off, in fixed notation when the first
 * digit's place X is -4 <= X < 17 ("0.00123", "1234567890123456.5"), else
 * with an exponent of at least two digits ("1e-09", "2.5e+20").  Every text
 * is a valid JSON number; NaN and infinities are the callers' to spell.
 */
#ifndef TMACG_DOUBLE_TEXT_H
#define TMACG_DOUBLE_TEXT_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/int_text.h"

/* Room for any text below, with its NUL ("-1.2345678901234567e-308"). */
#define DOUBLE_TEXT_MAX 32

/* TMA ratios and Info metrics: metrics, tmacg_tma_ratio. */
#define RATIO_DIGITS 9
/* quality.measured and tmacg_tma_measured_ratio, cut toward zero. */
#define SHARE_DIGITS 4

/* shortest_double for a d that is not a whole number below 1e15. */
size_t shortest_fraction(double d, char *buf);

/*
 * d (finite) into buf (DOUBLE_TEXT_MAX bytes) with a NUL; returns the
 * length.  Inline for the whole numbers most counts are, a line's most
 * common number: the integer's digits without a call into the rest.
 */
static inline size_t shortest_double(double d, char *buf)
{
	double a = fabs(d);
	bool negative = signbit(d);

	/* Counts are whole numbers: 260, not the shorter 2.6e+02. */
	if (a < 1e15 && (double)(uint64_t)a == a) {
		buf[0] = '-';
		return negative + uint_text((uint64_t)a, buf + negative);
	}
	return shortest_fraction(d, buf);
}
/* d (finite) to digits (1-17) significant digits, likewise. */
size_t sig_double(double d, int digits, bool toward_zero, char *buf);

/* sig_double(d, RATIO_DIGITS, false, buf), made for those digits. */
size_t ratio_text(double d, char *buf);
/* sig_double(d, SHARE_DIGITS, true, buf), likewise. */
size_t share_text(double d, char *buf);

#endif
