/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * What the double formatters (shortest_double, sig_double) share once each
 * has its digits: the powers of ten a double holds exactly, and the layout
 * of digits as printf's %g would write them.
 */
#ifndef TMACG_DECIMAL_LAYOUT_H
#define TMACG_DECIMAL_LAYOUT_H

#include <stddef.h>

/* 10^0 .. 10^22: every one exact as a double. */
extern const double exact_pow10[23];

/*
 * n digits (no sign), the first one at 10^x, into out with a NUL: positional
 * for -4 <= x < 17 ("0.00123", "1234567890123456.5"), else with an exponent of
 * at least two digits ("1e-09", "2.5e+20").  Returns the length.
 */
size_t decimal_layout(char *out, const char *digits, int n, int x);

#endif
