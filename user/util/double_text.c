// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * How: the first p digits of v > 0 are the whole part of v x 10^k, k = p -
 * 1 - the first digit's place, rounded (to the nearest, ties to even; or
 * cut).  Three ways to them, each taken only where the one before cannot be
 * sure:
 * - quick (p <= 15, 10^k an exact double): v x 10^k in one rounded product,
 *   within half an ulp of the exact one; its digits are the exact ones
 *   where its fraction is farther than that from where the rounding turns.
 * - exact (0 <= k <= 22): v = f x 2^e, f a 53-bit whole number, and f x
 *   10^k x 2^e fits 128 bits (10^22 < 2^74): the whole part and the
 *   remainder are exact, and so is every decision on them, the rounding
 *   and whether a text reads back as v (its distance from v against half
 *   the gap to v's neighbour on its side, as strtod decides).  With quick,
 *   every value tmacg computes: ratios from 1e-14, shares from 1e-19,
 *   measured numbers from 1e-6, each below 10^digits.
 * - printf's digits ("%.*e" is exact in glibc) and strtod's reading, for the
 *   others (replay input may hold anything).
 * glibc has no shortest round-trip formatter, and printf with strtod on
 * every number was most of tmacg's CPU time.
 *
 * The shortest text: the nearest 15 digits when they read back (when any
 * text of 15 digits or fewer does, those do, with the zeros it lacks: DBL_DIG
 * is 15; a subnormal, with fewer bits, tries from 1 digit on), else the
 * nearest 16, or for a power of two the 16 above (its gap below is half the
 * gap above), else the nearest 17, which always read back.  These are
 * printf's digits at the first precision strtod reads back as v.
 */
#include "util/double_text.h"

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/int_text.h"

typedef unsigned __int128 u128;

/* 10^0 .. 10^22 as doubles, every one exact. */
static const double pow10_double[23] = { 1e0,  1e1,  1e2,  1e3,	 1e4,  1e5,  1e6,  1e7,
					 1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
					 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22 };

/* 10^k (k <= 38) in 128 bits. */
static inline u128 ten_to(int k)
{
	return k < 20 ? pow10_u64[k] : (u128)pow10_u64[19] * pow10_u64[k - 19];
}

/* A text's digits: n has nd digits (trailing zeros included), the first at 10^x. */
struct dec {
	uint64_t n;
	int nd, x;
};

/* The first digit's place of v (> 0) from its binary exponent, maybe one short (1233 / 4096 ~ log10(2)). */
static int place_estimate(double v)
{
	uint64_t bits;

	memcpy(&bits, &v, sizeof(bits));
	return (((int)(bits >> 52) - 1023) * 1233) >> 12;
}

/*
 * v (> 0) x 10^k exactly: whole + rem / one.  gap: the distance from v to
 * its neighbour above, x 10^k, in units of 1 / one; the one below is as far,
 * or half as far where v is a power of two (pow2).
 */
struct scaled {
	uint64_t whole;
	u128 rem, one, gap;
	bool even, pow2;
};

/* false where it does not fit: k outside 0..22, v subnormal or too small, v x 10^k from 2^64. */
static inline bool scale(double v, int k, struct scaled *sc)
{
	uint64_t bits, f;
	int e;
	u128 a;

	memcpy(&bits, &v, sizeof(bits));
	if (k < 0 || k > 22 || !(bits >> 52))
		return false;
	f = (bits & ((UINT64_C(1) << 52) - 1)) | UINT64_C(1) << 52;
	e = (int)(bits >> 52) - 1075;
	/* one 64 x 64 product where 10^k has 64 bits */
	a = f * ten_to(k);
	sc->even = !(f & 1);
	sc->pow2 = f == UINT64_C(1) << 52;
	if (e >= 0) {
		if (e > 63 || a >> (64 - e))
			return false;
		sc->whole = (uint64_t)(a << e);
		sc->rem = 0;
		sc->one = 1;
		sc->gap = ten_to(k) << e;
		return true;
	}
	if (-e > 126 || a >> -e >> 64)
		return false;
	sc->one = (u128)1 << -e;
	sc->whole = (uint64_t)(a >> -e);
	sc->rem = a & (sc->one - 1);
	sc->gap = ten_to(k);
	return true;
}

/* Whether the text dist away from v (in sc's units, below one), above v or below, reads back as v. */
static bool reads_back(const struct scaled *sc, u128 dist, bool above)
{
	/* within half the gap on its side; on the very middle, strtod picks the even one */
	u128 far = above || !sc->pow2 ? dist * 2 : dist * 4;

	return sc->even ? far <= sc->gap : far < sc->gap;
}

enum rounding {
	NEAREST,   /* ties to even */
	CUT,	   /* toward zero, or the text above when it reads back as v */
	READ_BACK, /* the nearest, or the text above when only that one reads back */
};

/*
 * v (> 0) to p digits (1-17) from the exact product, *back: whether they
 * read back as v (not asked for NEAREST).  false where the product does not fit.
 */
static bool exact_digits(double v, int p, enum rounding how, struct dec *d, bool *back)
{
	uint64_t top = pow10_u64[p];
	struct scaled sc;
	int x = place_estimate(v);
	bool up;

	if (!scale(v, p - 1 - x, &sc))
		return false;
	if (sc.whole >= top && !scale(v, p - 1 - ++x, &sc))
		return false;
	if (how == CUT) {
		up = sc.rem && reads_back(&sc, sc.one - sc.rem, true);
		*back = !sc.rem || up;
	} else {
		u128 half = sc.one >> 1;

		up = sc.rem > half || (sc.rem && sc.rem == half && (sc.whole & 1));
		*back = how == READ_BACK && reads_back(&sc, up ? sc.one - sc.rem : sc.rem, up);
		if (!*back && !up && how == READ_BACK && sc.rem)
			*back = up = reads_back(&sc, sc.one - sc.rem, true);
	}
	d->n = sc.whole + up;
	d->nd = p;
	d->x = x;
	if (d->n == top) { /* 9.99... up to 10 */
		d->n /= 10;
		d->x++;
	}
	return true;
}

/*
 * hi = v x 10^k (v > 0) in one rounded product, k set so that hi has p
 * digits before the point (p <= 15: hi < 2^53, its whole part and fraction
 * exact); false where 10^k is not an exact double.  hi is within half an ulp
 * of the exact product, at most 10^p x 2^-53.
 */
static bool quick_scale(double v, int p, int *x, double *hi)
{
	int k = p - 1 - *x;

	if (k < 0 || k > 22)
		return false;
	*hi = v * pow10_double[k];
	if (*hi >= pow10_double[p]) { /* the first digit is one place higher */
		if (--k < 0)
			return false;
		*hi = v * pow10_double[k];
		++*x;
	}
	return true;
}

/*
 * v (> 0) to p digits (p <= 15) by quick_scale, where hi's fraction is
 * farther than its error from where the rounding turns (0.5 to the nearest,
 * 0 and 1 cut): then the exact product's digits are the same.  false
 * elsewhere (a value in some millions, and values exact in p digits, such
 * as 0.5): exact_digits decides.
 */
static inline __attribute__((always_inline)) bool quick_digits(double v, int p, bool cut,
							       struct dec *d)
{
	double hi, rest, err = pow10_double[p] * 0x1p-52; /* twice the bound */
	int x = place_estimate(v);
	uint64_t n;

	if (!quick_scale(v, p, &x, &hi))
		return false;
	n = (uint64_t)hi;
	rest = hi - (double)n;
	if (cut ? rest < err || rest > 1 - err : fabs(rest - 0.5) < err)
		return false;
	n += !cut && rest > 0.5;
	*d = (struct dec){ n, p, x };
	if (n == (uint64_t)pow10_double[p]) { /* 9.99... up to 10 */
		d->n /= 10;
		d->x++;
	}
	return true;
}

/*
 * The 15 digits that read back as v (> 0), where they do: the nearest 15
 * are the only ones that can (DBL_DIG), and they are the whole part of hi
 * or the next one (hi errs by less than 0.12).  A candidate n reads back
 * where n / 10^k is v: both exact, the quotient rounded as strtod rounds.
 * 1: found; 0: none does, v needs more digits; -1: 10^k is not exact.
 */
static int quick_fifteen(double v, struct dec *d)
{
	double hi, scale;
	int x = place_estimate(v);
	uint64_t low, n;
	bool up;

	if (!quick_scale(v, 15, &x, &hi))
		return -1;
	scale = pow10_double[14 - x];
	low = (uint64_t)hi;
	up = hi - (double)low >= 0.5;
	n = low + up;
	if ((double)n / scale != v) {
		n = low + !up;
		if ((double)n / scale != v)
			return 0;
	}
	*d = (struct dec){ n, 15, x };
	if (n == UINT64_C(1000000000000000)) { /* 9.99... up to 10 */
		d->n /= 10;
		d->x++;
	}
	return 1;
}

/* printf's p digits of v (> 0): the nearest, or cut as exact_digits' CUT. */
static void printf_digits(double v, int p, bool cut, struct dec *d)
{
	char text[64];
	const char *c;

	snprintf(text, sizeof(text), "%.*e", p - 1, v);
	/*
	 * Cut: the exact digits ("%.40e": the text above would read back as v
	 * were the digits after the p-th all nines that far), unless v reads
	 * back from the nearest text.
	 */
	if (cut && strtod(text, NULL) != v)
		snprintf(text, sizeof(text), "%.40e", v);
	d->n = 0;
	d->nd = 0;
	for (c = text; *c != 'e'; c++)
		if (*c >= '0' && *c <= '9' && d->nd < p) {
			d->n = d->n * 10 + (uint64_t)(*c - '0');
			d->nd++;
		}
	d->x = atoi(c + 1);
}

/* Whether d reads back as v, by strtod. */
static bool printf_reads_back(double v, const struct dec *d)
{
	char text[48];

	snprintf(text, sizeof(text), "%" PRIu64 "e%d", d->n, d->x - d->nd + 1);
	return strtod(text, NULL) == v;
}

/* v's p digits by READ_BACK where exact_digits cannot make them; whether they read back. */
static bool printf_read_back(double v, int p, struct dec *d)
{
	struct dec above;

	printf_digits(v, p, false, d);
	if (printf_reads_back(v, d))
		return true;
	above = (struct dec){ d->n + 1, p, d->x };
	if (above.n == pow10_u64[p]) {
		above.n /= 10;
		above.x++;
	}
	if (frexp(v, &(int){ 0 }) != 0.5 || !printf_reads_back(v, &above))
		return false;
	*d = above;
	return true;
}

/*
 * d's digits, the zeros they end in left off, as d.ddde-05 (from o; room
 * for DOUBLE_TEXT_MAX bytes from the sign): the digits written a place on,
 * the first moved before the point.
 */
static char *exponent_form(const struct dec *d, char *o)
{
	unsigned ax = (unsigned)abs(d->x);
	char *end;

	put_digits(d->n, d->nd, o + 1);
	o[0] = o[1];
	o[1] = '.';
	for (end = o + d->nd + 1; end[-1] == '0'; end--)
		;
	end -= end[-1] == '.';
	*end++ = 'e';
	*end++ = d->x < 0 ? '-' : '+';
	if (ax >= 100)
		*end++ = (char)('0' + ax / 100);
	end[0] = (char)('0' + ax / 10 % 10);
	end[1] = (char)('0' + ax % 10);
	return end + 2;
}

/*
 * The fixed text of n (nd <= 9 digits, the first at 10^x, -4 <= x <= 8):
 * a ratio's or a share's.  Its nine digits (n's, zeros after) as a first
 * digit and a word of eight, each stored whole: the point made by storing
 * the word again, shifted past the digits before it, a place on.  The
 * zeros after the last digit that is not one are counted in the word (the
 * highest bytes that are '0'), not scanned.  o has room for 18 bytes;
 * returns the text's end.
 */
static inline char *nine_fixed(uint64_t n, int nd, int x, char *o)
{
	uint64_t nine = n * pow10_u64[9 - nd];
	uint64_t word = eight_digits((uint32_t)(nine % 100000000));
	uint64_t values = word - UINT64_C(0x3030303030303030);
	int last = 9 - (values ? __builtin_clzll(values) >> 3 : 8); /* up to the last not 0 */
	char first = (char)('0' + nine / 100000000);

	if (x < 0) { /* "0.", -x - 1 zeros, the digits */
		memcpy(o, "0.000", 5);
		o += 1 - x;
		o[0] = first;
		memcpy(o + 1, &word, sizeof(word));
		return o + last;
	}
	o[0] = first;
	memcpy(o + 1, &word, sizeof(word));
	if (last <= x + 1) /* a whole number: x + 1 digits */
		return o + x + 1;
	/* x < 8 here: the digits after the first x + 1 a place on, the point before them */
	word >>= 8 * x;
	memcpy(o + x + 2, &word, sizeof(word));
	o[x + 1] = '.';
	return o + last + 1;
}

/*
 * layout_long: d's digits laid out as double_text.h says, after a '-' when negative,
 * with a NUL, into out (DOUBLE_TEXT_MAX bytes, whose bytes after the NUL
 * put_digits may have written); returns the length.  Bytes just stored are
 * read back one at a time, never a wider read over several stores, which
 * would wait for them.
 */
static __attribute__((noinline)) size_t layout_long(const struct dec *d, bool negative, char *out)
{
	char *o = out, *end;
	uint64_t n = d->n;
	int nd = d->nd, x = d->x, fraction = nd - 1 - x;

	*o = '-';
	o += negative;
	if (x < -4 || x >= 17) {
		end = exponent_form(d, o);
	} else if (x < 0) { /* "0.", -x - 1 zeros, the digits */
		memcpy(o, "0.000", 5);
		o += 1 - x;
		put_digits(n, nd, o);
		for (end = o + nd; end[-1] == '0'; end--)
			;
	} else if (fraction <= 0) { /* a whole number: x + 1 digits, zeros past the last */
		put_digits(n, nd, o);
		for (end = o + nd; end < o + x + 1; end++)
			*end = '0';
	} else { /* x + 1 digits, the point, the others: each part put whole */
		uint64_t unit = pow10_u64[fraction], whole = n / unit;

		put_digits(whole, x + 1, o);
		o[x + 1] = '.';
		put_digits(n - whole * unit, fraction, o + x + 2);
		for (end = o + nd + 1; end[-1] == '0'; end--)
			;
		end -= end[-1] == '.';
	}
	*end = '\0';
	return (size_t)(end - out);
}

/* layout: the texts of nine digits or fewer in fixed notation inline, the others by layout_long. */
static inline size_t layout(const struct dec *d, bool negative, char *out)
{
	char *end;

	if (d->nd > 9 || d->x < -4 || d->x > 8)
		return layout_long(d, negative, out);
	out[0] = '-';
	end = nine_fixed(d->n, d->nd, d->x, out + negative);
	*end = '\0';
	return (size_t)(end - out);
}

/* sig_double's body, inlined where digits is a constant (ratio_text, share_text). */
static inline __attribute__((always_inline)) size_t sig_digits(double d, int digits,
							       bool toward_zero, char *buf)
{
	bool negative = signbit(d);
	struct dec dec = { 0, 1, 0 };
	bool back;

	d = fabs(d);
	if (d != 0 && !(digits <= 15 && quick_digits(d, digits, toward_zero, &dec)) &&
	    !exact_digits(d, digits, toward_zero ? CUT : NEAREST, &dec, &back))
		printf_digits(d, digits, toward_zero, &dec);
	return layout(&dec, negative, buf);
}

size_t sig_double(double d, int digits, bool toward_zero, char *buf)
{
	return sig_digits(d, digits < 1 ? 1 : digits > 17 ? 17 : digits, toward_zero, buf);
}

size_t ratio_text(double d, char *buf)
{
	return sig_digits(d, RATIO_DIGITS, false, buf);
}

size_t share_text(double d, char *buf)
{
	return sig_digits(d, SHARE_DIGITS, true, buf);
}

size_t shortest_fraction(double d, char *buf)
{
	bool negative = signbit(d);
	struct dec dec = { 0, 0, 0 };
	bool back = false;
	int p = 15;

	d = fabs(d);
	if (d < DBL_MIN) { /* a subnormal has fewer bits than DBL_DIG assumes: from 1 digit on */
		p = 1;
	} else {
		int fifteen = quick_fifteen(d, &dec);

		back = fifteen == 1;
		if (fifteen == 0) /* 15 are too few */
			p = 16;
	}
	for (; !back && p <= 17; p++)
		if (!exact_digits(d, p, READ_BACK, &dec, &back))
			back = printf_read_back(d, p, &dec) || p == 17;
	return layout(&dec, negative, buf);
}
