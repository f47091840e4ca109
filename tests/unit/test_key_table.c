// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * JSON keys made once (util/key_table.h) and a model's (model_json_keys,
 * model_shown_nodes): each key is its name quoted with a colon, a name that
 * needs an escape has none, KEY_TABLE_PAD bytes can be read from every key
 * (under AddressSanitizer a read past the table fails), and the nodes shown
 * at each depth are the ones a line reports.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "util/json_writer.h"
#include "util/key_table.h"

/* Key i of t as a string. */
static char *key_text(const struct key_table *t, int i)
{
	char *s = calloc(t->len[i] + 1, 1);

	assert_non_null(s);
	memcpy(s, t->text + t->at[i], t->len[i]);
	return s;
}

static void keys_are_quoted_names_with_colons(void **state)
{
	static const char *const names[] = { "on_cpu_s", "odd\"name", "TOPDOWN.SLOTS", "x" };
	struct key_table t;
	char copy[KEY_TABLE_PAD], *s;

	(void)state;
	assert_int_equal(key_table_make(&t, 4, 40), 0);
	for (int i = 0; i < 4; i++) {
		size_t len = jw_plain_length(names[i]);

		if (len)
			key_table_set(&t, i, names[i], len);
	}
	s = key_text(&t, 0);
	assert_string_equal(s, "\"on_cpu_s\":");
	free(s);
	assert_int_equal(t.len[1], 0); /* '"': escaped by the writer, no key */
	s = key_text(&t, 2);
	assert_string_equal(s, "\"TOPDOWN.SLOTS\":");
	free(s);
	s = key_text(&t, 3);
	assert_string_equal(s, "\"x\":");
	free(s);
	/* The fixed-size copy jw_run_quoted_key makes, from the last key. */
	memcpy(copy, t.text + t.at[3], sizeof(copy));
	assert_memory_equal(copy, "\"x\":", 4);
	key_table_free(&t);
	assert_null(t.text);
}

static void a_model_has_a_key_for_every_node(void **state)
{
	char err[256];
	struct tma_model *m = model_load_builtin("icx", err, sizeof(err));
	const struct key_table *keys;
	char copy[KEY_TABLE_PAD];

	(void)state;
	assert_non_null(m);
	keys = model_json_keys(m);
	for (int i = 0; i < model_node_count(m); i++) {
		const struct model_node_info *node = model_node(m, i);
		char *s = key_text(keys, i);

		assert_int_equal(keys->len[i], node->name_len + 3);
		assert_int_equal(s[0], '"');
		assert_memory_equal(s + 1, node->name, node->name_len);
		assert_string_equal(s + 1 + node->name_len, "\":");
		memcpy(copy, keys->text + keys->at[i], sizeof(copy));
		free(s);
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
