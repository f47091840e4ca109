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
#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "digit_lanes() lays the digits out for a little-endian word (amd64, arm64)"
#endif

/*
 * x < 10^8 as its eight digits' values (0-9), a byte each, the first in the
 * lowest byte: stored as a word after adding '0' to every byte, the digits
 * in order.  Its first and last four digits side by side in 32-bit lanes,
 * each cut in two (16-bit lanes of two digits), each of those in two again
 * (bytes of one digit), every lane at once.  A division by 100 is a product
 * by 10486 and 20 bits off (exact below 10^4), one by 10 a product by 103
 * and 10 bits off (exact below 100); no lane's product reaches the next
 * lane.  A pair of digits a step, by a table, was a third of a ratio's text
 * and a fifth of a JSON line's instructions (issue 27).  Inline: the callers
 * that lay digits out themselves (sig_double) take the word in a register.
 */
static inline uint64_t digit_lanes(uint32_t x)
{
	uint64_t halves = x / 10000 | (uint64_t)(x % 10000) << 32;
	uint64_t hundreds = (halves * 10486) >> 20 & UINT64_C(0x0000007f0000007f);
	uint64_t pairs = hundreds | (halves - 100 * hundreds) << 16;
	uint64_t tens = (pairs * 103) >> 10 & UINT64_C(0x000f000f000f000f);

	return tens | (pairs - 10 * tens) << 8;
}

/* '0' in every byte: digit_lanes() + DIGIT_ZEROS is the digits' text. */
#define DIGIT_ZEROS UINT64_C(0x3030303030303030)

/*
 * v's last n digits (1-20), zeros before them where v has fewer, into buf:
 * exactly n bytes, no NUL.  The digits of a number whose length is known
 * (sig_double's `digits`) without counting them first.
 */
void fixed_digits(uint64_t v, int n, char *buf);

#endif
