/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * An integer's decimal text, written without printf: the one integer
 * formatter of the output path (the JSON writer's integers, shortest_double's
 * whole numbers), where printf's parsing of its format would cost more than
 * the digits.
 */
#ifndef TMACG_INT_TEXT_H
#define TMACG_INT_TEXT_H

#include <stddef.h>
#include <stdint.h>

/* Room for any text below, with its NUL ("-9223372036854775808"). */
#define INT_TEXT_MAX 21

/* v's last n digits (zeros first where v has fewer) at out: n bytes, no NUL. */
void put_digits(uint64_t v, int n, char *out);
/* v's digits ("0", "18446744073709551615") into buf with a NUL; returns the length. */
size_t uint_text(uint64_t v, char *buf);
/* The same with a '-' before a negative v ("-9223372036854775808"). */
size_t int_text(int64_t v, char *buf);

#endif
