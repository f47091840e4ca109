// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The keys of a line's many members (jw_keys, jw_number_members): a name
 * that needs no escape (jw_plain_length) is its key as it is, quoted with
 * a colon; every node name of a model needs none and comes out so;
 * and the nodes shown at each depth (model_shown_nodes) are the ones a
 * line reports.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "util/json_writer.h"

/* The member key:1 as jw_number_members writes each of an object's many, into w. */
static void count_member(struct json_writer *w, const char *key)
{
	const char *const one_key[] = { key };
	struct jw_keys *k = jw_keys_new(1, one_key);
	double one = 1;

	assert_non_null(k);
	jw_number_members(w, k, 1, &one, NULL, JW_EXACT, NULL, false);
	jw_keys_free(k);
}

/* The member count_member writes for key (len bytes) and 1, in braces. */
static void check_member(const char *key, size_t len)
{
	struct json_writer w;
	char want[256];
	const char *t;
	size_t n;

	json_writer_init(&w);
	jw_begin_object(&w);
	count_member(&w, key);
	jw_end_object(&w);
	assert_false(json_writer_failed(&w));
	t = json_writer_text(&w, &n);
	snprintf(want, sizeof(want), "{\"%.*s\":1}", (int)len, key);
	assert_int_equal(n, strlen(want));
	assert_memory_equal(t, want, n);
	json_writer_release(&w);
}

static void keys_are_quoted_names_with_colons(void **state)
{
	(void)state;
	assert_int_equal(jw_plain_length("on_cpu_s"), 8);
	check_member("on_cpu_s", 8);
	assert_int_equal(jw_plain_length("odd\"name"),
			 0); /* '"': escaped by jw_key, not a member's key */
	assert_int_equal(jw_plain_length("back\\slash"), 0);
	assert_int_equal(jw_plain_length("tab\tbed"), 0);
	assert_int_equal(jw_plain_length("caf\xc3\xa9"), 0);
	assert_int_equal(jw_plain_length(""), 0);
	assert_int_equal(jw_plain_length(NULL), 0);
	assert_int_equal(jw_plain_length("TOPDOWN.SLOTS"), 13);
	check_member("TOPDOWN.SLOTS", 13);
	assert_int_equal(jw_plain_length("x"), 1);
	check_member("x", 1);
}

static void a_model_has_a_key_for_every_node(void **state)
{
	char err[256];
	struct tma_model *m = model_load_builtin("icx", err, sizeof(err));

	(void)state;
	assert_non_null(m);
	for (int i = 0; i < model_node_count(m); i++) {
		const struct model_node_info *node = model_node(m, i);

		assert_int_equal(jw_plain_length(node->name), node->name_len);
		check_member(node->name, node->name_len);
	}
	model_free(m);
}

static void the_nodes_shown_are_the_ones_a_line_reports(void **state)
{
	char err[256];
	struct tma_model *m = model_load_builtin("icx", err, sizeof(err));

	(void)state;
	assert_non_null(m);
	for (int info = 0; info < 2; info++) {
		for (int level = -1; level <= 8; level++) {
			int n, j = 0, lv = level < 0 ? 0 : level > 8 ? 8 : level;
			const int *shown = model_shown_nodes(m, level, info, &n);

			for (int i = 0; i < model_node_count(m); i++) {
				const struct model_node_info *node = model_node(m, i);

				if (node->is_count || !model_node_in_run(node, lv, info))
					continue;
				assert_true(j < n);
				assert_int_equal(shown[j++], i);
			}
			assert_int_equal(j, n);
		}
	}
	/* icx: 37 nodes down to level 3, 105 down to level 6 (without --info) */
	{
		int n3, n6;

		model_shown_nodes(m, 3, false, &n3);
		model_shown_nodes(m, 6, false, &n6);
		assert_int_equal(n3, 37);
		assert_int_equal(n6, 105);
	}
	model_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(keys_are_quoted_names_with_colons),
		cmocka_unit_test(a_model_has_a_key_for_every_node),
		cmocka_unit_test(the_nodes_shown_are_the_ones_a_line_reports),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
