// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The digits come from n = v x 10^k as a whole number of `digits` digits.
 * The product is held exactly as hi + lo (an FMA gives the part the
 * multiplication rounded off; for a division, the remainder v - hi x 10^-k,
 * which is exact too), so the rounding of n is decided on the exact value:
 * printf's digits, without printf's cost.  Where 10^k is not an exact double
 * (v below 1e-12 or from 1e15, no ratio tmacg computes) printf gives them.
 */
#include "util/sig_double.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/decimal_layout.h"
#include "util/int_text.h"

#define FAST_MIN 1e-12
#define FAST_MAX 1e15

/* v x 10^k, rounded once (times or over an exact power of ten); |k| <= 22. */
static double scaled(double v, int k)
{
	return k >= 0 ? v * exact_pow10[k] : v / exact_pow10[-k];
}

/*
 * What the rounding of scaled() took off: exact v x 10^k - hi, in sign and
 * size (an FMA gives it for a product; for a quotient the remainder v - hi x
 * 10^-k is exact).  Only asked for near a boundary (below): a library call.
 */
static double residual(double v, int k, double hi)
{
	return k >= 0 ? fma(v, exact_pow10[k], -hi) :
			fma(-hi, exact_pow10[-k], v) / exact_pow10[-k];
}

/* v x 10^k >= lim (a whole number, exact), hi its rounded value. */
static bool at_least(double v, int k, double hi, double lim)
{
	return hi > lim || (hi == lim && residual(v, k, hi) >= 0);
}

/*
 * n + rest (hi split, rest exact) rounded to the nearest, ties to even, on
 * v x 10^k exact.  n + 0.5 is a double and rounding keeps order, so hi is
 * above it only where the exact value is, and below only where it is: the
 * residual decides hi's fraction of exactly 0.5 alone.  It used to decide a
 * quarter either side of 0.5, one value in four, a mispredicted branch and
 * an FMA call each (issue 27: a ratio took 50 ns, most of it there).
 */
static uint64_t nearest(double v, int k, double hi, uint64_t n, double rest)
{
	double lo;

	if (rest != 0.5)
		return n + (rest > 0.5);
	lo = residual(v, k, hi);
	return n + (lo > 0 || (lo == 0 && (n & 1)));
}

/*
 * n + rest cut toward zero on v x 10^k exact: n, but one less where hi is
 * the whole number n reached from below (order kept, as above), and one
 * more where v is the double read from the text of n + 1 ("0.74003431" is
 * 0.740034309999...): that text, not one below.  Such a v is within a bound
 * of n + 1 and hi within another of v x 10^k: only then is the quotient
 * worth its division.
 */
static uint64_t cut(double v, int k, double hi, uint64_t n, double rest, double top)
{
	/* hi's error: at most half an ulp of a value below top (1.1e-12 for a share's 4 digits) */
	double slack = top * 0x1p-53;
	bool below = rest == 0 && residual(v, k, hi) < 0;

	n -= below;
	if ((below || rest >= 1 - 4 * slack) && scaled((double)(n + 1), -k) == v)
		n++;
	return n;
}

/*
 * n, v's first `digits` digits rounded, and k with n ~ v x 10^k; v in
 * [FAST_MIN, FAST_MAX).  false where the scale leaves the exact powers.
 */
static bool digits_of(double v, int digits, bool toward_zero, uint64_t *n, int *k)
{
	double top = exact_pow10[digits], bottom = exact_pow10[digits - 1];
	double hi, rest;
	uint64_t bits;
	int e2, kk;

	/* floor(log10(v)) from the binary exponent, maybe one short (1233 / 4096 ~ log10(2)). */
	memcpy(&bits, &v, sizeof(bits));
	e2 = (int)(bits >> 52 & 0x7ff) - 1023;
	kk = digits - 1 - ((e2 * 1233) >> 12);
	if (kk > 22 || kk < -21)
		return false;
	hi = scaled(v, kk);
	/* The estimate errs by one at most: scale again so that bottom <= v x 10^k < top. */
	if (at_least(v, kk, hi, top))
		hi = scaled(v, --kk);
	if (!at_least(v, kk, hi, bottom)) {
		if (kk == 22)
			return false;
		hi = scaled(v, ++kk);
	}
	*n = (uint64_t)hi;	/* floor: 0 < hi < 2^53 */
	rest = hi - (double)*n; /* exact */
	*n = toward_zero ? cut(v, kk, hi, *n, rest, top) : nearest(v, kk, hi, *n, rest);
	/* Compared as integers: no conversion back to double on the way out. */
	if (*n == pow10_u64[digits]) { /* 9.9999999996 to 10.0000000 */
		*n /= 10;
		kk--;
	}
	*k = kk;
	return *n >= pow10_u64[digits - 1] && *n < pow10_u64[digits];
}

/* printf's digits, for the values outside the exact powers' reach. */
static size_t slow_text(double v, int digits, bool toward_zero, char *out)
{
	char text[64], d[48];
	int nd = 0, x;
	char *e;

	snprintf(text, sizeof(text), "%.*e", digits - 1, v);
	/*
	 * Toward zero: the exact digits cut (a double's first 40 are exact, but for
	 * a carry up 20 nines), unless v was read from a text of so many digits:
	 * that text, the nearest, reads back as v.
	 */
	if (toward_zero && strtod(text, NULL) != v)
		snprintf(text, sizeof(text), "%.40e", v);
	e = strchr(text, 'e');
	if (!e)
		return (size_t)snprintf(out, SIG_DOUBLE_MAX, "%s", text); /* inf, nan */
	for (const char *p = text; p < e && nd < digits; p++)
		if (*p >= '0' && *p <= '9')
			d[nd++] = *p;
	x = (int)strtol(e + 1, NULL, 10);
	while (nd > 1 && d[nd - 1] == '0')
		nd--;
	return decimal_layout(out, d, nd, x);
}

/*
 * decimal_layout's text of nine digits m (10^8 <= m < 10^9, trailing zeros
 * for digits not significant) with exponent x in [-99, 16]: every ratio's
 * and share's text in sig_double's fast range.  The first digit is a byte,
 * the other eight one word (digit_lanes) stored whole, with the point put
 * in by storing the word's upper part once more one byte on; where the
 * significant digits end is the word's highest byte that is not zero.  No
 * digit is copied, shifted or looked at one by one, which decimal_layout
 * does (issue 27: the ratios and shares are two thirds of a level-6 line's
 * numbers, and a rare event's ratio, 2.2e-05, is in exponent form).
 * Writes at most 17 bytes and a NUL.
 */
static size_t nine_text(uint32_t m, int x, char *out)
{
	uint64_t lanes = digit_lanes(m % 100000000);
	uint64_t text = lanes + DIGIT_ZEROS;
	/* the digits after the first up to the last one not a zero */
	int tail = lanes ? 8 - __builtin_clzll(lanes) / 8 : 0;
	char lead = (char)('0' + m / 100000000);
	char *p = out;
	size_t len;

	if (x < -4) { /* the first digit, the point and the others if any, e-, two digits */
		unsigned ax = (unsigned)-x;

		p[0] = lead;
		p[1] = '.';
		memcpy(p + 2, &text, sizeof(text));
		p += tail ? 2 + tail : 1;
		p[0] = 'e';
		p[1] = '-';
		p[2] = (char)('0' + ax / 10);
		p[3] = (char)('0' + ax % 10);
		len = (size_t)(p + 4 - out);
	} else if (x < 0) { /* "0.", -x - 1 zeros, the digits */
		memcpy(p, "0.000000", 8);
		p += 1 - x;
		*p = lead;
		memcpy(p + 1, &text, sizeof(text));
		len = (size_t)(p - out) + 1 + (size_t)tail;
	} else if (tail <= x) { /* a whole number: x + 1 digits (zeros past the ninth), no point */
		*p = lead;
		memcpy(p + 1, &text, sizeof(text));
		if (x > 8)
			memcpy(p + 9, "00000000", 8);
		len = (size_t)x + 1;
	} else { /* x + 1 digits, the point, the others (x < tail <= 8) */
		uint64_t after = text >> (8 * x);

		*p = lead;
		memcpy(p + 1, &text, sizeof(text));
		p[1 + x] = '.';
		memcpy(p + 2 + x, &after, sizeof(after));
		len = (size_t)tail + 2;
	}
	out[len] = '\0';
	return len;
}

size_t sig_double(double d, int digits, bool toward_zero, char *buf)
{
	char *p = buf, text[INT_TEXT_MAX];
	uint64_t n;
	int k, nd, x;

	if (signbit(d)) {
		*p++ = '-';
		d = -d;
	}
	if (digits < 1)
		digits = 1;
	if (digits > 15)
		digits = 15;
	if (d == 0) {
		*p++ = '0';
		*p = '\0';
		return (size_t)(p - buf);
	}
	if (!(d >= FAST_MIN && d < FAST_MAX) || !digits_of(d, digits, toward_zero, &n, &k))
		return (size_t)(p - buf) + slow_text(d, digits, toward_zero, p);
	x = digits - 1 - k;
	if (digits <= 9 && x >= -99 && x <= 16) /* RATIO_DIGITS, SHARE_DIGITS: every text written */
		return (size_t)(p - buf) + nine_text((uint32_t)(n * pow10_u64[9 - digits]), x, p);
	/* More digits than tmacg writes: n has `digits` digits (digits_of: bottom <= n < top). */
	fixed_digits(n, digits, text);
	nd = digits;
	while (nd > 1 && text[nd - 1] == '0')
		nd--;
	return (size_t)(p - buf) + decimal_layout(p, text, nd, x);
}
