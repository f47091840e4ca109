// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * prom/rules_gen.c out of memory at each of its allocations: -ENOMEM
 * (tmacg --prometheus-rules exits 1 saying the text is incomplete), never 0
 * over a file missing a rule or a term of one, since NULL from the
 * translator means both "no sample" and "no memory"; the sanitizer build
 * finds any leak.  Every allocation the generator makes for zen4's level-1
 * rules, and for neoverse-n2's (the slot width's rule and states), fails in
 * turn; with none failing, the text is the one made whole.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "prom/rules_gen.h"

/* The allocation that fails: 1 the first; 0 none.  Counted only while armed. */
static int fail_at, allocs;
static bool armed;

void *__real_malloc(size_t size);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t size);
char *__real_strdup(const char *s);
int __real_vasprintf(char **out, const char *fmt, va_list ap);
FILE *__real_open_memstream(char **buf, size_t *len);

static bool failing(void)
{
	return armed && fail_at && ++allocs == fail_at;
}

void *__wrap_malloc(size_t size)
{
	return failing() ? NULL : __real_malloc(size);
}

void *__wrap_calloc(size_t n, size_t size)
{
	return failing() ? NULL : __real_calloc(n, size);
}

void *__wrap_realloc(void *p, size_t size)
{
	return failing() ? NULL : __real_realloc(p, size);
}

char *__wrap_strdup(const char *s)
{
	return failing() ? NULL : __real_strdup(s);
}

int __wrap_vasprintf(char **out, const char *fmt, va_list ap)
{
	return failing() ? -1 : __real_vasprintf(out, fmt, ap);
}

int __wrap_asprintf(char **out, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (failing())
		return -1;
	va_start(ap, fmt);
	n = __real_vasprintf(out, fmt, ap);
	va_end(ap);
	return n;
}

FILE *__wrap_open_memstream(char **buf, size_t *len)
{
	return failing() ? NULL : __real_open_memstream(buf, len);
}

struct run {
	int rc;
	char *out;
	size_t out_len;
};

/* m's level-1 rules, allocation fail (1: the first; 0: none) failing. */
static struct run rules_run(const struct tma_model *m, int fail)
{
	struct rules_model rm = { .m = m, .level = 1 };
	struct run r = { 0 };
	FILE *out = __real_open_memstream(&r.out, &r.out_len);

	assert_non_null(out);
	allocs = 0;
	fail_at = fail;
	armed = true;
	r.rc = rules_write(out, &rm, 1, 300ULL * 1000000000ULL, "test");
	armed = false;
	fclose(out);
	return r;
}

static void every_allocation_fails_in_turn(const char *model)
{
	char why[256];
	struct tma_model *m = model_load_version(model, NULL, why, sizeof(why));
	struct run whole;
	int k;

	assert_non_null(m);
	whole = rules_run(m, 0);
	assert_int_equal(whole.rc, 0);
	assert_non_null(strstr(whole.out, "record: "));
	for (k = 1;; k++) {
		struct run r = rules_run(m, k);

		if (allocs < k) {
			/* Every allocation made it: the whole file. */
			assert_int_equal(r.rc, 0);
			assert_string_equal(r.out, whole.out);
			free(r.out);
			break;
		}
		if (r.rc != -ENOMEM)
			fail_msg("allocation %d of %d failed: %d, not -ENOMEM", k, allocs, r.rc);
		free(r.out);
	}
	/* The generator allocates for every rule: the loop went through them. */
	assert_true(k > 100);
	free(whole.out);
	model_free(m);
}

static void zen4_allocations_fail(void **state)
{
	(void)state;
	every_allocation_fails_in_turn("zen4");
}

/* a model reading pmu_slots: the slot width's rule and the states with it */
static void neoverse_n2_allocations_fail(void **state)
{
	(void)state;
	every_allocation_fails_in_turn("neoverse-n2");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(zen4_allocations_fail),
		cmocka_unit_test(neoverse_n2_allocations_fail),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
