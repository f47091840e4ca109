// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Why written here: glibc has no shortest round-trip formatter (printf wants a
 * precision, so the shortest one is found by printing and reading back), and
 * Debian's json-c prints doubles with "%.17g" (not the shortest) or with the text
 * it is given.  At 10,000 cgroups a second the printf + strtod tries were most of
 * tmacg's CPU time (issue 21).
 *
 * The method is free-format digit generation (Steele and White, "How to print
 * floating-point numbers accurately", 1990, as refined by Burger and Dybvig,
 * 1996), written from the papers' description: the value v and the halfway
 * points to its neighbours, v - m- and v + m+, are held exactly as integers
 * r / s, m- / s and m+ / s, scaled so that the first digit comes first; each
 * step takes one decimal digit of r / s and stops as soon as the digits so far
 * (or the next digit up) lie strictly inside the rounding interval, inclusive
 * when the mantissa is even, since strtod rounds ties to even.  That gives the
 * fewest digits that read back as v and, when two candidates are left, the
 * closer one (the even one on a tie: the digits printf would give).
 *
 * Exact here means unsigned __int128: for 1e-20 <= v < 1e18 every quantity
 * stays below 2^127 (bounds at exact_digits).  Outside that range (no count or
 * ratio tmacg computes, but replay input may hold anything) the slow way is kept:
 * %.1g to %.17g, each read back with strtod until one reads back as v.
 */
#include "util/shortest_double.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/decimal_layout.h"
#include "util/int_text.h"

typedef unsigned __int128 u128;

#define EXACT_MIN 1e-20
#define EXACT_MAX 1e18
/* A double needs at most 17 significant digits; the bound only guards the buffer. */
#define MAX_DIGITS 20

/* 10^k for 0 <= k <= 20 (the most any caller asks for): 10^19 is the last that fits 64 bits. */
static u128 pow10_u128(int k)
{
	return k < 20 ? (u128)pow10_u64[k] : (u128)pow10_u64[19] * 10;
}

/* weight if r >= part, and part taken off r; else 0. */
static inline int take(u128 *r, u128 part, int weight)
{
	if (*r < part)
		return 0;
	*r -= part;
	return weight;
}

/*
 * The shortest digits of v (EXACT_MIN <= v < EXACT_MAX) into digits, v being
 * 0.d1d2...dn x 10^*exp10; returns n.
 *
 * Bounds, v = f x 2^e with 2^52 <= f < 2^53:
 * - v >= 1e-20 > 2^-66.5 gives e >= -119, so s = 2^(1-e) (2^(2-e) when f = 2^52,
 *   then e >= -118) is at most 2^120; with k < 0, r = 2f or 4f times 10^-k
 *   (-k <= 20) is at most 2^55 x 2^66.5 < 2^122;
 * - v < 1e18 < 2^60: with e >= 0, r <= 4 f 2^e < 2^63 and s <= 4 x 10^19 < 2^66;
 *   with e < 0 and k >= 0 (v > 0.1: e >= -56), s <= 2^58 x 10^17 < 2^115;
 * - the fix-up below multiplies s by 10 at most once (k is at most one short),
 *   so s < 2^124; digit generation keeps r < s and computes r x 10 and 8 s:
 *   both below 2^127.  m+ stays below s until the loop stops, so 10 m+ fits too.
 * known: how many digits v needs at least (fast_digits failed: 16); those are
 * taken without testing whether they suffice.
 */
static int exact_digits(double v, char *digits, int *exp10, int known)
{
	uint64_t bits, frac, f;
	int e, k, n = 0;
	bool even, narrow_low;
	u128 r, s, mp, mm, s2, s4, s8;

	memcpy(&bits, &v, sizeof(bits));
	frac = bits & ((UINT64_C(1) << 52) - 1);
	f = frac | UINT64_C(1) << 52; /* v >= 1e-20 is a normal number */
	e = (int)(bits >> 52 & 0x7ff) - 1075;
	even = !(f & 1);
	/* A power of two: the next double down is half as far as the next one up. */
	narrow_low = frac == 0;
	if (e >= 0) {
		u128 unit = (u128)1 << e;

		r = (u128)f * unit * 2;
		s = 2;
		mp = mm = unit;
	} else {
		r = (u128)f * 2;
		s = (u128)1 << (1 - e);
		mp = mm = 1;
	}
	if (narrow_low) {
		r *= 2;
		s *= 2;
		mp *= 2;
	}
	/* k: the first digit's place; log10 errs by far less than 1e-10, so k is never too big. */
	k = (int)ceil(log10(v) - 1e-10);
	if (k >= 0) {
		s *= pow10_u128(k);
	} else {
		u128 p = pow10_u128(-k);

		r *= p;
		mp *= p;
		mm *= p;
	}
	/* ... but may be one too small: then v + m+ reaches 10^k. */
	while (even ? r + mp >= s : r + mp > s) {
		s *= 10;
		k++;
	}
	s2 = s * 2;
	s4 = s * 4;
	s8 = s * 8;
	if (known > 1) {
		u128 p = pow10_u128(known - 1);

		mp *= p;
		mm *= p;
	}
	/*
	 * 16 or 17 digits: the first 15 in one division where r x 10^15 fits (s < 2^78,
	 * every v >= 0.1), instead of 15 steps.  v needs 16 or more, so the first is
	 * not 0 (d15 has 15 digits); were it, the steps below do it.
	 */
	if (known == 16 && !(s >> 78)) {
		u128 big = r * pow10_u128(15);
		uint64_t d15 = (uint64_t)(big / s);

		if (d15 >= UINT64_C(100000000000000)) {
			r = big - (u128)d15 * s;
			for (int i = 14; i >= 0; i--, d15 /= 10)
				digits[i] = (char)('0' + d15 % 10);
			n = 15;
		}
	}
	for (;;) {
		int digit = 0;
		bool low, high;

		r *= 10;
		/*
		 * r < 10 s: the digit in four compare-and-subtract steps, no 128-bit
		 * division (masks instead of branches measured slower here).
		 */
		digit = take(&r, s8, 8) + take(&r, s4, 4) + take(&r, s2, 2) + take(&r, s, 1);
		if (n < known - 1) {
			digits[n++] = (char)('0' + digit);
			continue;
		}
		mp *= 10;
		mm *= 10;
		low = even ? r <= mm : r < mm;		/* these digits read back as v */
		high = even ? r + mp >= s : r + mp > s; /* so would the next digit up */
		if (!low && !high && n < MAX_DIGITS - 1) {
			digits[n++] = (char)('0' + digit);
			continue;
		}
		if (low && high) /* both: the closer one, on a tie the even one as printf */
			digit += r * 2 > s || (r * 2 == s && (digit & 1));
		else if (high)
			digit++;
		digits[n++] = (char)('0' + digit);
		break;
	}
	*exp10 = k;
	return n;
}

/*
 * The fast way for values with at most 15 significant digits (every count in
 * seconds, "0.015324798", and most rates), 1e-8 <= v < 1e15: t = v x 10^p with
 * 1e14 <= t < 1e15, n = t rounded.  Here v's rounding interval is at most a
 * quarter wide in t's units, so at most one whole number lies in it, and n
 * is that one when there is one; n / 10^p == v then proves it (both exact,
 * IEEE division rounds correctly, as strtod does), and n without its trailing
 * zeros is the shortest text.  Returns the digit count, 0 when the value
 * needs 16 or 17 digits (exact_digits finds them), -1 when v is out of reach.
 */
static int fast_digits(double v, char *digits, int *exp10, int *scale)
{
	uint64_t bits, n;
	int e2, p, nd;
	double t;

	/* floor(log10(v)) from the binary exponent, maybe one short (1233 / 4096 ~ log10(2)). */
	memcpy(&bits, &v, sizeof(bits));
	e2 = (int)(bits >> 52 & 0x7ff) - 1023;
	p = 14 - ((e2 * 1233) >> 12);
	if (p < 0 || p > 22)
		return -1;
	t = v * exact_pow10[p];
	if (t >= 1e15 && p > 0)
		t = v * exact_pow10[--p];
	if (t >= 1e15 || t < 1e14)
		return -1;
	n = (uint64_t)(t + 0.5);
	*scale = p;
	if ((double)n / exact_pow10[p] != v)
		return 0;
	nd = (int)uint_text(n, digits); /* 15 digits: n < 1e15 */
	*exp10 = nd - p;		/* 0.d1d2... x 10^exp10 */
	while (nd > 1 && digits[nd - 1] == '0')
		nd--; /* trailing zeros of the number */
	return nd;
}

/*
 * The nearest whole number to v x 10^q, computed exactly: the product is
 * hi + lo exactly (an FMA gives lo; 10^q is exact for q <= 22).  false on a
 * tie or too near one to tell, where exact_digits decides.
 */
static bool nearest_scaled(double v, int q, uint64_t *n)
{
	double hi = v * exact_pow10[q], lo = fma(v, exact_pow10[q], -hi);
	double whole = floor(hi), frac = (hi - whole) + lo; /* hi - whole is exact */
	double up = floor(frac + 0.5);

	/* frac + 0.5 may round: only a distance from .5 beyond any such error is trusted. */
	if (fabs(frac - up + 0.5) < 1e-6 || whole + up < 0)
		return false;
	*n = (uint64_t)whole + (uint64_t)(int64_t)up;
	return true;
}

/*
 * The 16- and 17-digit values fast_digits leaves (TMA ratios, fractions of an
 * interval: most of a level-6 line's numbers, issue 27), without exact_digits'
 * 128-bit steps.  t = v x 10^(scale + 1) has 16 digits before the point.  The
 * shortest text then has 16 digits when the nearest 16-digit number reads back
 * as v (shown by an exact division while it is below 2^53), else 17, the
 * nearest 17-digit number, which always reads back; in both cases the
 * nearest, as exact_digits picks it.  Returns the digit count, or 0 where
 * exact_digits must decide (a tie, a trailing zero, a number beyond 2^53).
 */
static int long_digits(double v, int scale, char *digits, int *exp10)
{
	int q = scale + 1, nd;
	uint64_t n, bits;

	memcpy(&bits, &v, sizeof(bits));
	/* A power of two: its rounding interval is lopsided, exact_digits weighs the sides. */
	if (!(bits & ((UINT64_C(1) << 52) - 1)))
		return 0;
	if (q + 1 > 22 || !nearest_scaled(v, q, &n) || n < UINT64_C(1000000000000000) ||
	    n >= UINT64_C(10000000000000000))
		return 0;
	if (n >= UINT64_C(9007199254740992))
		return 0;
	if ((double)n / exact_pow10[q] != v) {
		q++;
		if (!nearest_scaled(v, q, &n) || n < UINT64_C(10000000000000000) ||
		    n >= UINT64_C(100000000000000000))
			return 0;
	}
	nd = (int)uint_text(n, digits);
	if (digits[nd - 1] == '0')
		return 0;
	*exp10 = nd - q;
	return nd;
}

size_t shortest_double(double d, char *buf)
{
	char *p = buf;

	if (signbit(d)) {
		*p++ = '-';
		d = -d;
	}
	/* Counts are whole numbers: 260, not the shorter 2.6e+02. */
	if (d < 1e15 && (double)(uint64_t)d == d) {
		p += uint_text((uint64_t)d, p);
	} else if (d >= EXACT_MIN && d < EXACT_MAX) {
		char digits[MAX_DIGITS];
		int k, scale = 0,
		       n = d >= 1e-8 && d < 1e15 ? fast_digits(d, digits, &k, &scale) : -1;

		if (n == 0)
			n = long_digits(d, scale, digits, &k);
		if (n <= 0)
			n = exact_digits(d, digits, &k, n == 0 ? 16 : 0);

		p += decimal_layout(p, digits, n, k - 1);
	} else {
		size_t room = SHORTEST_DOUBLE_MAX - (size_t)(p - buf);

		for (int prec = 1; prec <= 17; prec++) {
			snprintf(p, room, "%.*g", prec, d);
			if (strtod(p, NULL) == d)
				break;
		}
		p += strlen(p);
	}
	return (size_t)(p - buf);
}
