/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * The shortest decimal text that strtod reads back as exactly the same double,
 * written without printf: "%.17g" then strtod to check was most of the cost of
 * a JSON line (glibc's exact printf multiplies big numbers for every digit).
 *
 * Form, as printf's %g would write the same digits: whole numbers below 1e15 as
 * integers ("260", "-0"); otherwise the fewest significant digits that round-trip,
 * in fixed notation ("0.83", "123.5") when the decimal exponent X of the first
 * digit is -4 <= X < 17, else in exponent notation with at least two exponent
 * digits ("1e-09", "2.5e+20").  Every text is a valid JSON number.
 */
#ifndef TMACG_SHORTEST_DOUBLE_H
#define TMACG_SHORTEST_DOUBLE_H

#include <stddef.h>

/* Room for any text shortest_double writes, with its NUL ("-1.2345678901234567e-308"). */
#define SHORTEST_DOUBLE_MAX 32

/*
 * Writes d's text into buf (SHORTEST_DOUBLE_MAX bytes) with a NUL; returns its length.
 * d must be finite: JSON and Prometheus spell NaN and infinities differently,
 * the callers decide.
 */
size_t shortest_double(double d, char *buf);

#endif
