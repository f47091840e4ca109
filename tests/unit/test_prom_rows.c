// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * prom/prom_rows.c: node samples kept as numbers read back as the text
 * written out here by hand; reads in pieces of whole samples that join to
 * the whole; labels copied, so a change of the builder's tables mid-interval
 * or after leaves what was kept as it was; a caller's mistake refused; out of
 * memory at any allocation, -ENOMEM and the rows still whole to free (the
 * sanitizer build finds a leak).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prom/prom_nodes.h"
#include "prom/prom_rows.h"
#include "util/double_text.h"

/* One sample of the line (prom_rows_samples of one). */
static int sample(struct prom_rows *r, enum prom_rows_family fam, int index, double v)
{
	return prom_rows_samples(r, fam, &index, &v, 1);
}

static const char *const names[PROM_ROWS_FAMILIES] = {
	[PROM_ROWS_NODE_SLOTS] = "n_slots",
	[PROM_ROWS_RATIO] = "n_ratio",
	[PROM_ROWS_MEASURED] = "n_measured",
};

/* The realloc that fails: 1 the first; 0 none. */
static int fail_at, reallocs;

void *__real_realloc(void *p, size_t n);
void *__wrap_realloc(void *p, size_t n)
{
	if (fail_at && ++reallocs == fail_at)
		return NULL;
	return __real_realloc(p, n);
}

/* Two nodes and one set, as prom_nodes.c would make them (its texts are its own test's). */
struct labels {
	char plain[2][64], ratio[2][64], set[1][64];
	char *plain_p[2], *ratio_p[2], *set_p[1];
	size_t plain_len[2], ratio_len[2], set_len[1];
	struct prom_nodes pn;
};

static void labels_init(struct labels *l, const char *tag, uint64_t build)
{
	for (int i = 0; i < 2; i++) {
		snprintf(l->plain[i], sizeof(l->plain[i]), ",node=\"%s%d\"}", tag, i);
		snprintf(l->ratio[i], sizeof(l->ratio[i]), ",node=\"%s%d\",g=\"0\"}", tag, i);
		l->plain_p[i] = l->plain[i];
		l->ratio_p[i] = l->ratio[i];
		l->plain_len[i] = strlen(l->plain[i]);
		l->ratio_len[i] = strlen(l->ratio[i]);
	}
	snprintf(l->set[0], sizeof(l->set[0]), ",g=\"%s\"}", tag);
	l->set_p[0] = l->set[0];
	l->set_len[0] = strlen(l->set[0]);
	l->pn = (struct prom_nodes){ .build = build,
				     .n = 2,
				     .plain = l->plain_p,
				     .plain_len = l->plain_len,
				     .ratio = l->ratio_p,
				     .ratio_len = l->ratio_len,
				     .nsets = 1,
				     .set_label = l->set_p,
				     .set_label_len = l->set_len };
}

/* fam's whole text, read cap bytes at a most at a time (each read whole samples). */
static char *read_family(const struct prom_rows *r, enum prom_rows_family fam, size_t cap)
{
	struct prom_rows_cursor c = { 0 };
	char *out = calloc(1, 1 << 16), *buf = malloc(cap);
	size_t len = 0, n;

	assert_non_null(out);
	assert_non_null(buf);
	while ((n = prom_rows_render(r, fam, &c, buf, cap))) {
		assert_true(n <= cap);
		assert_int_equal(buf[n - 1], '\n'); /* never a sample cut in two */
		assert_true(len + n < 1 << 16);
		memcpy(out + len, buf, n);
		len += n;
	}
	free(buf);
	return out;
}

static const char line_a[] = "host=\"h\",cgroup=\"/a\"";
static const char line_b[] = "host=\"h\",cgroup=\"/b\"";

/* Two lines' samples of each family, as a level-4 interval writes them. */
static void fill(struct prom_rows *r, struct labels *l)
{
	assert_int_equal(prom_rows_labels(r, &l->pn), 0);
	assert_int_equal(prom_rows_line(r, line_a, strlen(line_a)), 0);
	assert_int_equal(sample(r, PROM_ROWS_RATIO, 1, 0.25), 0);
	assert_int_equal(sample(r, PROM_ROWS_RATIO, 0, 1.0 / 3), 0);
	assert_int_equal(sample(r, PROM_ROWS_NODE_SLOTS, 0, 12345678901234.0), 0);
	assert_int_equal(sample(r, PROM_ROWS_MEASURED, 0, 0.99999), 0);
	assert_int_equal(prom_rows_line(r, line_b, strlen(line_b)), 0);
	assert_int_equal(sample(r, PROM_ROWS_RATIO, 0, 0.5), 0);
}

static const char ratios[] = "n_ratio{host=\"h\",cgroup=\"/a\",node=\"x1\",g=\"0\"} 0.25\n"
			     "n_ratio{host=\"h\",cgroup=\"/a\",node=\"x0\",g=\"0\"} 0.333333333\n"
			     "n_ratio{host=\"h\",cgroup=\"/b\",node=\"x0\",g=\"0\"} 0.5\n";

static void samples_read_as_text(void **state)
{
	struct prom_rows *r = prom_rows_new(names);
	struct labels l;
	char *text;

	(void)state;
	assert_non_null(r);
	labels_init(&l, "x", 7);
	fill(r, &l);
	assert_int_equal(prom_rows_count(r, PROM_ROWS_RATIO), 3);
	assert_int_equal(prom_rows_count(r, PROM_ROWS_NODE_SLOTS), 1);
	assert_int_equal(prom_rows_count(r, PROM_ROWS_MEASURED), 1);
	text = read_family(r, PROM_ROWS_RATIO, 4096);
	assert_string_equal(text, ratios);
	free(text);
	/* Counters exact; shares cut toward zero: never read as measured whole. */
	text = read_family(r, PROM_ROWS_NODE_SLOTS, 4096);
	assert_string_equal(text, "n_slots{host=\"h\",cgroup=\"/a\",node=\"x0\"} 12345678901234\n");
	free(text);
	text = read_family(r, PROM_ROWS_MEASURED, 4096);
	assert_string_equal(text, "n_measured{host=\"h\",cgroup=\"/a\",g=\"x\"} 0.9999\n");
	free(text);
	/* Emptied for the next interval: nothing to read, labels to be given again. */
	prom_rows_reset(r);
	assert_int_equal(prom_rows_count(r, PROM_ROWS_RATIO), 0);
	text = read_family(r, PROM_ROWS_RATIO, 4096);
	assert_string_equal(text, "");
	free(text);
	assert_int_equal(prom_rows_line(r, line_a, strlen(line_a)), 0);
	assert_int_equal(sample(r, PROM_ROWS_RATIO, 0, 0.5), -EINVAL);
	prom_rows_free(r);
}

/* A line's samples of a family given at once read as given one by one, longest sample too. */
static void samples_at_once_as_one_by_one(void **state)
{
	static const int index_a[] = { 1, 0 }, index_b[] = { 0 };
	static const double v_a[] = { 0.25, 1.0 / 3 }, v_b[] = { 0.5 };
	struct prom_rows *one = prom_rows_new(names), *all = prom_rows_new(names);
	struct labels l;
	char *want, *got;

	(void)state;
	assert_non_null(one);
	assert_non_null(all);
	labels_init(&l, "x", 7);
	fill(one, &l);
	assert_int_equal(prom_rows_labels(all, &l.pn), 0);
	assert_int_equal(prom_rows_line(all, line_a, strlen(line_a)), 0);
	assert_int_equal(prom_rows_samples(all, PROM_ROWS_RATIO, index_a, v_a, 2), 0);
	assert_int_equal(prom_rows_samples(all, PROM_ROWS_MEASURED, index_a, v_a, 0), 0);
	assert_int_equal(prom_rows_line(all, line_b, strlen(line_b)), 0);
	assert_int_equal(prom_rows_samples(all, PROM_ROWS_RATIO, index_b, v_b, 1), 0);
	assert_int_equal(prom_rows_count(all, PROM_ROWS_RATIO), 3);
	assert_int_equal(prom_rows_count(all, PROM_ROWS_MEASURED), 0); /* none given: none */
	assert_int_equal(prom_rows_max_sample(all), prom_rows_max_sample(one));
	want = read_family(one, PROM_ROWS_RATIO, 4096);
	got = read_family(all, PROM_ROWS_RATIO, 4096);
	assert_string_equal(got, want);
	assert_string_equal(got, ratios);
	free(want);
	free(got);
	prom_rows_free(one);
	prom_rows_free(all);
}

/* Read through a buffer as long as the longest sample: one sample a read, joined whole. */
static void reads_in_whole_samples(void **state)
{
	struct prom_rows *r = prom_rows_new(names);
	struct labels l;
	size_t most;
	char *text;

	(void)state;
	assert_non_null(r);
	labels_init(&l, "x", 7);
	fill(r, &l);
	most = prom_rows_max_sample(r);
	/* The longest: a ratio of /a, its value's room (32) besides its text. */
	assert_int_equal(most, strlen("n_ratio{") + strlen(line_a) + l.ratio_len[0] + 1 + 32 + 1);
	text = read_family(r, PROM_ROWS_RATIO, most);
	assert_string_equal(text, ratios);
	free(text);
	prom_rows_free(r);
}

/*
 * The labels are copied: samples written before the builder's tables
 * changed keep the labels they were written with, and a change to the
 * tables once given (freed, remade) changes nothing kept.
 */
static void labels_kept_as_given(void **state)
{
	struct prom_rows *r = prom_rows_new(names);
	struct labels x, y;
	char *text;

	(void)state;
	assert_non_null(r);
	labels_init(&x, "x", 1);
	labels_init(&y, "y", 2);
	assert_int_equal(prom_rows_labels(r, &x.pn), 0);
	assert_int_equal(prom_rows_line(r, line_a, strlen(line_a)), 0);
	assert_int_equal(sample(r, PROM_ROWS_RATIO, 0, 0.5), 0);
	assert_int_equal(prom_rows_labels(r, &y.pn), 0);
	assert_int_equal(prom_rows_line(r, line_b, strlen(line_b)), 0);
	assert_int_equal(sample(r, PROM_ROWS_RATIO, 1, 0.5), 0);
	/* The same build again: nothing copied, the texts as they were. */
	memset(y.ratio[1], 'Z', 5);
	assert_int_equal(prom_rows_labels(r, &y.pn), 0);
	memset(x.ratio[0], 'Z', 5);
	text = read_family(r, PROM_ROWS_RATIO, 4096);
	assert_string_equal(text, "n_ratio{host=\"h\",cgroup=\"/a\",node=\"x0\",g=\"0\"} 0.5\n"
				  "n_ratio{host=\"h\",cgroup=\"/b\",node=\"y1\",g=\"0\"} 0.5\n");
	free(text);
	prom_rows_free(r);
}

/* A sample before its line or its labels, or of an index the labels lack, is refused. */
static void mistakes_refused(void **state)
{
	struct prom_rows *r = prom_rows_new(names);
	struct labels l;

	(void)state;
	assert_non_null(r);
	labels_init(&l, "x", 7);
	assert_int_equal(prom_rows_labels(r, &l.pn), 0);
	assert_int_equal(sample(r, PROM_ROWS_RATIO, 0, 0.5), -EINVAL);
	assert_int_equal(prom_rows_line(r, line_a, strlen(line_a)), 0);
	assert_int_equal(sample(r, PROM_ROWS_RATIO, 2, 0.5), -EINVAL);
	assert_int_equal(sample(r, PROM_ROWS_RATIO, -1, 0.5), -EINVAL);
	assert_int_equal(sample(r, PROM_ROWS_MEASURED, 1, 0.5), -EINVAL);
	assert_int_equal(prom_rows_count(r, PROM_ROWS_RATIO), 0);
	/* One wrong index among right ones: none of them kept. */
	{
		static const int index[] = { 0, 2, 1 };
		static const double v[] = { 0.1, 0.2, 0.3 };

		assert_int_equal(prom_rows_samples(r, PROM_ROWS_RATIO, index, v, 3), -EINVAL);
		assert_int_equal(prom_rows_count(r, PROM_ROWS_RATIO), 0);
	}
	prom_rows_free(r);
}

/*
 * Out of memory at each allocation in turn: that call says -ENOMEM, the
 * rows stay whole (freed without a leak), and once memory is back the same
 * interval written again reads as it should.
 */
static void out_of_memory_anywhere(void **state)
{
	bool failed = true;

	(void)state;
	for (int k = 1; failed; k++) {
		struct prom_rows *r = prom_rows_new(names);
		struct labels l;
		int ret;
		char *text;

		assert_non_null(r);
		labels_init(&l, "x", 7);
		fail_at = k;
		reallocs = 0;
		/* The first call to fail says why; those after it are not made. */
		ret = prom_rows_labels(r, &l.pn);
		ret = ret ?: prom_rows_line(r, line_a, strlen(line_a));
		ret = ret ?: sample(r, PROM_ROWS_RATIO, 1, 0.25);
		ret = ret ?: sample(r, PROM_ROWS_NODE_SLOTS, 0, 1);
		ret = ret ?: sample(r, PROM_ROWS_MEASURED, 0, 0.5);
		failed = reallocs >= k;
		fail_at = 0;
		assert_int_equal(ret, failed ? -ENOMEM : 0);
		prom_rows_reset(r);
		fill(r, &l);
		text = read_family(r, PROM_ROWS_RATIO, 4096);
		assert_string_equal(text, ratios);
		free(text);
		prom_rows_free(r);
	}
}

/*
 * Shares that repeat within a line and across lines, and hundreds that
 * differ: each sample reads its own value's text, cut toward zero, in a
 * read of many pieces as in one.
 */
static void shares_each_their_own_text(void **state)
{
	struct prom_rows *r = prom_rows_new(names);
	struct labels l;
	char want[1 << 15], *text;
	size_t len = 0;

	(void)state;
	assert_non_null(r);
	labels_init(&l, "x", 7);
	assert_int_equal(prom_rows_labels(r, &l.pn), 0);
	for (int i = 0; i < 300; i++) {
		double v = i % 4 == 0 ? 0.5 :
			   i % 4 == 1 ? 1.0 / (3 + i % 5) :
					0.001 * i + 0.0000123;
		char text_of_v[DOUBLE_TEXT_MAX];

		assert_int_equal(prom_rows_line(r, line_a, strlen(line_a)), 0);
		assert_int_equal(sample(r, PROM_ROWS_MEASURED, 0, v), 0);
		share_text(v, text_of_v);
		len += (size_t)snprintf(want + len, sizeof(want) - len,
					"n_measured{%s,g=\"x\"} %s\n", line_a, text_of_v);
	}
	text = read_family(r, PROM_ROWS_MEASURED, 4096);
	assert_string_equal(text, want);
	free(text);
	text = read_family(r, PROM_ROWS_MEASURED, 100);
	assert_string_equal(text, want);
	free(text);
	prom_rows_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(samples_read_as_text),
		cmocka_unit_test(samples_at_once_as_one_by_one),
		cmocka_unit_test(reads_in_whole_samples),
		cmocka_unit_test(labels_kept_as_given),
		cmocka_unit_test(mistakes_refused),
		cmocka_unit_test(out_of_memory_anywhere),
		cmocka_unit_test(shares_each_their_own_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
