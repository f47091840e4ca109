// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * util/short_copy.h: every length from 0 to 200, from and to every
 * alignment in a cache line, copies the n bytes and touches nothing either
 * side of them (the guard bytes around the destination stay; the source is
 * read from a buffer ending at the text, so AddressSanitizer catches a read
 * past it).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "util/short_copy.h"

#define MAX_LEN 200
#define GUARD 64

static void every_length_and_alignment(void **state)
{
	(void)state;
	for (size_t n = 0; n <= MAX_LEN; n++) {
		for (size_t from = 0; from < 64; from += 7) {
			/* exactly the text's bytes from src on: a read past its end leaves the allocation */
			char *block = malloc(from + n ? from + n : 1), *src = block + from;
			char dst[GUARD + MAX_LEN + 64 + GUARD];

			assert_non_null(block);
			for (size_t i = 0; i < n; i++)
				src[i] = (char)('A' + (i * 7 + n) % 26);
			for (size_t to = 0; to < 64; to += 5) {
				memset(dst, '#', sizeof(dst));
				short_copy(dst + GUARD + to, src, n);
				assert_memory_equal(dst + GUARD + to, src, n);
				for (size_t i = 0; i < GUARD + to; i++)
					assert_int_equal(dst[i], '#');
				for (size_t i = GUARD + to + n; i < sizeof(dst); i++)
					assert_int_equal(dst[i], '#');
			}
			free(block);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_length_and_alignment),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
