/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * An integer's decimal text, written without printf: the one integer
 * formatter of the output path (the JSON writer's integers, and the digits
 * of double_text's numbers), where printf's parsing of its format would
 * cost more than the digits: a level-6 line has some 300 numbers.
 */
#ifndef TMACG_INT_TEXT_H
#define TMACG_INT_TEXT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Room for any text below, with its NUL ("-9223372036854775808"). */
#define INT_TEXT_MAX 21

/* 10^0 .. 10^19: every power of ten a uint64_t holds. */
extern const uint64_t pow10_u64[20];

/* uint_text of a v from 10^8. */
size_t uint_text_long(uint64_t v, char *buf);
/* The same with a '-' before a negative v ("-9223372036854775808"). */
size_t int_text(int64_t v, char *buf);

#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "eight_digits() lays the digits out for a little-endian word (amd64, arm64)"
#endif

/*
 * x < 10^8 as the text of its eight digits in a word, the first in the
 * lowest byte.  Its first and last four digits side by side in 32-bit lanes,
 * each cut in two (16-bit lanes of two digits), each of those in two again
 * (bytes of one digit), every lane at once: a division by 100 is a product
 * by 10486 and 20 bits off (exact below 10^4), one by 10 a product by 103
 * and 10 bits off (exact below 100), and no lane's product reaches the next
 * lane.  A few instructions for eight digits, where two digits a step took
 * some forty.
 */
static inline uint64_t eight_digits(uint32_t x)
{
	uint64_t halves = x / 10000 | (uint64_t)(x % 10000) << 32;
	uint64_t hundreds = (halves * 10486) >> 20 & UINT64_C(0x0000007f0000007f);
	uint64_t pairs = hundreds | (halves - 100 * hundreds) << 16;
	uint64_t tens = (pairs * 103) >> 10 & UINT64_C(0x000f000f000f000f);

	return (tens | (pairs - 10 * tens) << 8) + UINT64_C(0x3030303030303030);
}

/*
 * The digits of x < 10^8 without the zeros before its first ("0" for 0), in
 * the low bytes of a word, the bytes above them 0; *n: how many.  The
 * first digit is the word's lowest byte that is not '0' (the eighth, were
 * all '0'), found as the lowest set bit of the digits' values.
 */
static inline uint64_t digits_word(uint32_t x, int *n)
{
	uint64_t word = eight_digits(x);
	int lead = __builtin_ctzll((word - UINT64_C(0x3030303030303030)) | UINT64_C(1) << 56) >> 3;

	*n = 8 - lead;
	return word >> (8 * lead);
}

/*
 * v's digits ("0", "18446744073709551615") into buf (INT_TEXT_MAX bytes)
 * with a NUL; returns the length.  Inline below 10^8, what most counts
 * are: their digits in one word, one store.
 */
static inline size_t uint_text(uint64_t v, char *buf)
{
	uint64_t word;
	int n;

	if (v >= 100000000)
		return uint_text_long(v, buf);
	word = digits_word((uint32_t)v, &n);
	memcpy(buf, &word, sizeof(word)); /* the NUL too, where n < 8 */
	buf[n] = '\0';
	return (size_t)n;
}

/*
 * The first n (1-8) digits of v < 10^n at out, in one store of a word: the
 * bytes from out + n to out + 8 are overwritten.
 */
static inline void put_head(uint32_t v, int n, char *out)
{
	uint64_t word;

	if (n == 1) { /* a ratio's first digit: no word for it */
		*out = (char)('0' + v);
		return;
	}
	word = eight_digits(v) >> (8 * (8 - n));
	memcpy(out, &word, sizeof(word));
}

/*
 * The n digits (1-24) of v < 10^n (zeros first where v has fewer) at out,
 * eight a store: out must have room for at least 8 bytes, and the bytes
 * from out + n to out + 8 are overwritten (the callers' buffers have room
 * for their whole text, DOUBLE_TEXT_MAX, INT_TEXT_MAX).  The first n % 8
 * (or 8) go first, then each eight after them.
 */
static inline void put_digits(uint64_t v, int n, char *out)
{
	uint64_t low, mid;

	if (n <= 8) {
		put_head((uint32_t)v, n, out);
		return;
	}
	low = eight_digits((uint32_t)(v % 100000000));
	v /= 100000000;
	if (n <= 16) {
		put_head((uint32_t)v, n - 8, out);
		memcpy(out + n - 8, &low, sizeof(low));
		return;
	}
	mid = eight_digits((uint32_t)(v % 100000000));
	put_head((uint32_t)(v / 100000000), n - 16, out);
	memcpy(out + n - 16, &mid, sizeof(mid));
	memcpy(out + n - 8, &low, sizeof(low));
}

#endif
