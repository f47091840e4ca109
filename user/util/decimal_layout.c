// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "util/decimal_layout.h"

#include <stdlib.h>
#include <string.h>

const double exact_pow10[23] = { 1e0,  1e1,  1e2,  1e3,	 1e4,  1e5,  1e6,  1e7,
				 1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
				 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22 };

size_t decimal_layout(char *out, const char *digits, int n, int x)
{
	char *p = out;

	if (x < -4 || x >= 17) {
		unsigned ax = (unsigned)abs(x);

		*p++ = digits[0];
		if (n > 1) {
			*p++ = '.';
			memcpy(p, digits + 1, (size_t)n - 1);
			p += n - 1;
		}
		*p++ = 'e';
		*p++ = x < 0 ? '-' : '+';
		if (ax >= 100)
			*p++ = (char)('0' + ax / 100);
		*p++ = (char)('0' + ax / 10 % 10);
		*p++ = (char)('0' + ax % 10);
	} else if (x >= 0) {
		for (int i = 0; i <= x; i++)
			*p++ = i < n ? digits[i] : '0';
		if (n > x + 1) {
			*p++ = '.';
			memcpy(p, digits + x + 1, (size_t)(n - x - 1));
			p += n - x - 1;
		}
	} else {
		*p++ = '0';
		*p++ = '.';
		for (int i = -1; i > x; i--)
			*p++ = '0';
		memcpy(p, digits, (size_t)n);
		p += n;
	}
	*p = '\0';
	return (size_t)(p - out);
}
