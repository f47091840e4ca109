// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * prom/prom_buf.h: appends join in order however many and however long;
 * rewinding keeps the memory; a growth that finds no memory marks the
 * buffer failed, keeps what it held and takes nothing more (the sanitizer
 * build finds an overflow or a leak).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "prom/prom_buf.h"

static bool fail_realloc;

void *__real_realloc(void *p, size_t n);
void *__wrap_realloc(void *p, size_t n)
{
	return fail_realloc ? NULL : __real_realloc(p, n);
}

static void appends_join_in_order(void **state)
{
	struct prom_buf b = { 0 };
	char want[5000];
	size_t n = 0;

	(void)state;
	/* Nothing added to nothing: no memory, and no memcpy of NULL (the sanitizer build checks). */
	prom_buf_put(&b, NULL, 0);
	assert_null(b.p);
	assert_int_equal(b.len, 0);
	/* Past the first size many times, in pieces of every kind. */
	for (int i = 0; i < 500; i++) {
		prom_buf_puts(&b, "ab");
		prom_buf_putc(&b, 'c');
		prom_buf_put(&b, "defgXYZ", 4);
		prom_buf_put(&b, "", 0);
		memcpy(want + n, "abcdefg", 7);
		n += 7;
	}
	assert_false(b.failed);
	assert_int_equal(b.len, n);
	assert_true(b.cap >= b.len);
	assert_memory_equal(b.p, want, n);
	prom_buf_free(&b);
	assert_null(b.p);
	assert_int_equal(b.len, 0);
}

static void rewind_keeps_memory(void **state)
{
	struct prom_buf b = { 0 };
	char *p;
	size_t cap;

	(void)state;
	for (int i = 0; i < 100; i++)
		prom_buf_puts(&b, "0123456789");
	p = b.p;
	cap = b.cap;
	b.failed = true;
	prom_buf_rewind(&b);
	assert_int_equal(b.len, 0);
	assert_false(b.failed);
	prom_buf_puts(&b, "again");
	assert_ptr_equal(b.p, p);
	assert_int_equal(b.cap, cap);
	assert_memory_equal(b.p, "again", 5);
	prom_buf_free(&b);
}

static void out_of_memory_marks_failed(void **state)
{
	struct prom_buf b = { 0 };
	size_t len;

	(void)state;
	prom_buf_puts(&b, "kept");
	len = b.len;
	fail_realloc = true;
	for (int i = 0; i < 1000; i++)
		prom_buf_puts(&b, "lost");
	prom_buf_putc(&b, 'x');
	assert_false(prom_buf_room(&b, b.cap));
	fail_realloc = false;
	assert_true(b.failed);
	assert_true(b.len <= b.cap);
	assert_memory_equal(b.p, "kept", len);
	/* A size no memory holds: failed, never wrapped around. */
	b.failed = false;
	assert_false(prom_buf_grow(&b, SIZE_MAX - 1));
	assert_true(b.failed);
	prom_buf_free(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(appends_join_in_order),
		cmocka_unit_test(rewind_keeps_memory),
		cmocka_unit_test(out_of_memory_marks_failed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
