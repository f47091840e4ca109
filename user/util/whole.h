/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * A scaled count rounded to a whole one: nearbyint's result in the rounding
 * mode tmacg runs in (to nearest, ties to even; never changed), without
 * nearbyint's library call for the common case, a positive count below
 * 2^52 (a level-6 line scales 122 of them).  From 2^52 on a
 * double's step is 1, so adding 2^52 rounds x there and taking it off again
 * is exact.
 */
#ifndef TMACG_WHOLE_H
#define TMACG_WHOLE_H

#include <math.h>

static inline double whole(double x)
{
	return x > 0 && x < 0x1p52 ? (x + 0x1p52) - 0x1p52 : nearbyint(x);
}

#endif
