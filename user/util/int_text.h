/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * An integer's decimal text, written without printf: the one integer
 * formatter of the output path (the JSON writer's integers, shortest_double's
 * whole numbers and digits), where printf's parsing of its format would cost
 * more than the digits at 10,000 cgroups a second (issue 21).
 */
#ifndef TMACG_INT_TEXT_H
#define TMACG_INT_TEXT_H

#include <stddef.h>
#include <stdint.h>

/* Room for any text below, with its NUL ("-9223372036854775808"). */
#define INT_TEXT_MAX 21

/* 10^0 .. 10^19: every power of ten a uint64_t holds. */
extern const uint64_t pow10_u64[20];

/* v's digits ("0", "18446744073709551615") into buf with a NUL; returns the length. */
size_t uint_text(uint64_t v, char *buf);
/* The same with a '-' before a negative v ("-9223372036854775808"). */
size_t int_text(int64_t v, char *buf);
/*
 * v's last n digits (1-20), zeros before them where v has fewer, into buf:
 * exactly n bytes, no NUL.  The digits of a number whose length is known
 * (sig_double's `digits`) without counting them first.
 */
void fixed_digits(uint64_t v, int n, char *buf);

#endif
