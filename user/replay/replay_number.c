// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "replay/replay_number.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* "18446744073709551615": the digits of 2^64-1, and of 2^63 for a negative. */
static const char u64_max[] = "18446744073709551615", i64_min[] = "9223372036854775808";

/* digits (n of them, no sign, leading zeros allowed by no JSON) above max's */
static bool above(const char *digits, size_t n, const char *max)
{
	size_t m = strlen(max);

	return n > m || (n == m && memcmp(digits, max, n) > 0);
}

const char *replay_huge_integer(const char *s, size_t len, size_t *n)
{
	for (size_t i = 0; i < len; i++) {
		size_t start = i, d;
		bool neg;

		if (s[i] == '"') {
			for (i++; i < len && s[i] != '"'; i++)
				if (s[i] == '\\')
					i++;
			continue;
		}
		if (s[i] != '-' && (s[i] < '0' || s[i] > '9'))
			continue;
		neg = s[i] == '-';
		if (neg)
			i++;
		for (d = i; i < len && s[i] >= '0' && s[i] <= '9'; i++)
			;
		/* a fraction or an exponent makes it a double: json-c reads those itself */
		if (i < len && (s[i] == '.' || s[i] == 'e' || s[i] == 'E')) {
			while (i < len && strchr("0123456789.eE+-", s[i]))
				i++;
		} else if (above(s + d, i - d, neg ? i64_min : u64_max)) {
			*n = i - start;
			return s + start;
		}
		i--; /* the loop's i++ reads this byte next */
	}
	return NULL;
}

bool replay_exact_double(json_object *v, double *out)
{
	enum json_type t = json_object_get_type(v);

	if (t == json_type_int) {
		int64_t i = json_object_get_int64(v);
		uint64_t u = json_object_get_uint64(v);
		double d = i < 0 ? (double)i : (double)u;

		/* 2^64 is no uint64_t: a double that large did not come from one */
		if (i < 0 ? (d < -0x1p63 || (int64_t)d != i) : (d >= 0x1p64 || (uint64_t)d != u))
			return false;
		*out = d;
		return true;
	}
	if (t == json_type_double) {
		/* the text as written: json-c keeps it, and strtod says what it overflowed */
		const char *text = json_object_get_string(v);
		double d;

		errno = 0;
		d = strtod(text, NULL);
		if (errno == ERANGE || !isfinite(d))
			return false;
		*out = d;
		return true;
	}
	return false;
}

bool replay_int_in(json_object *v, int64_t lo, uint64_t hi, uint64_t *out)
{
	int64_t i;
	uint64_t u;

	if (json_object_get_type(v) != json_type_int)
		return false;
	i = json_object_get_int64(v);
	u = json_object_get_uint64(v);
	if (i < 0 ? i < lo : u > hi)
		return false;
	*out = i < 0 ? (uint64_t)i : u;
	return true;
}
