// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * prom/prom_nodes.c: a node sample's own labels and the sets of perf groups
 * of a rotating run (tma_groups), exact texts written out by hand; made
 * again only when the model or the groups change; out of memory at any of
 * its allocations, -ENOMEM with nothing held (the sanitizer build finds a
 * leak) and the next call whole.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "prom/prom_nodes.h"
#include "test_models.h"

static const char model_text[] = "model nodes\n"
				 "node 1 Backend\n  formula E.K\n  domain Slots\n"
				 "node 1.1 Memory\n  formula E.M\n  domain Slots\n"
				 "node 1.1.1 Stores\n  formula E.D\n  domain Slots\n"
				 "node 1.1.2 Core\n  formula E.C\n  domain Clocks\n"
				 "info IPC\n  formula E.I\n";

/* Memory and Core read groups 0 and 3, Stores 0, 1 and 63. */
static const uint64_t groups[5] = { 0, 0x9, 0x8000000000000003ull, 0x9, 0 };

/* The allocation (calloc or malloc) that fails: 1 the first; 0 none. */
static int fail_at, allocs;

void *__real_calloc(size_t n, size_t size);
void *__real_malloc(size_t size);

static bool failing(void)
{
	return fail_at && ++allocs == fail_at;
}

void *__wrap_calloc(size_t n, size_t size)
{
	return failing() ? NULL : __real_calloc(n, size);
}

void *__wrap_malloc(size_t size)
{
	return failing() ? NULL : __real_malloc(size);
}

void *__real_realloc(void *p, size_t size);
void *__wrap_realloc(void *p, size_t size)
{
	return failing() ? NULL : __real_realloc(p, size);
}

static struct tma_model *nodes_model(void)
{
	return test_model_text(model_text, "n.tma");
}

static void labels_and_sets(void **state)
{
	struct tma_model *m = nodes_model();
	struct prom_nodes pn = { 0 };
	char *first;

	(void)state;
	assert_int_equal(prom_nodes_map(&pn, m, groups), 0);
	assert_int_equal(pn.n, 5);
	assert_string_equal(pn.plain[0], ",tma_node=\"Backend\",level=\"1\"}");
	assert_string_equal(pn.ratio[0], ",tma_node=\"Backend\",level=\"1\"}");
	assert_string_equal(pn.plain[1], ",tma_node=\"Backend.Memory\",level=\"2\"}");
	assert_string_equal(pn.ratio[1],
			    ",tma_node=\"Backend.Memory\",level=\"2\",tma_groups=\"0+3\"}");
	assert_string_equal(pn.ratio[2], ",tma_node=\"Backend.Memory.Stores\",level=\"3\","
					 "tma_groups=\"0+1+63\"}");
	assert_int_equal(pn.ratio_len[2], strlen(pn.ratio[2]));
	assert_int_equal(pn.plain_len[3], strlen(pn.plain[3]));
	/* Sets in the order of their first node; Core's is Memory's. */
	assert_int_equal(pn.nsets, 2);
	assert_int_equal(pn.set_of[0], -1);
	assert_int_equal(pn.set_of[1], 0);
	assert_int_equal(pn.set_of[2], 1);
	assert_int_equal(pn.set_of[3], 0);
	assert_string_equal(pn.set_label[0], ",tma_groups=\"0+3\"}");
	assert_string_equal(pn.set_label[1], ",tma_groups=\"0+1+63\"}");
	assert_int_equal(pn.set_label_len[1], strlen(pn.set_label[1]));
	/* Each set's shallowest node, the first of equals: Memory (not Core), Stores. */
	assert_int_equal(pn.set_node[0], 1);
	assert_int_equal(pn.set_node[1], 2);
	/* What each node is: a tree node's level, an Info metric; in slots at levels 1-2 only. */
	assert_int_equal(pn.tree_level[0], 1);
	assert_int_equal(pn.tree_level[1], 2);
	assert_int_equal(pn.tree_level[2], 3);
	assert_int_equal(pn.tree_level[3], 3);
	assert_int_equal(pn.tree_level[4], PROM_NODES_INFO);
	assert_true(pn.in_slots[0]);
	assert_true(pn.in_slots[1]);
	assert_false(pn.in_slots[2]); /* level 3 */
	assert_false(pn.in_slots[3]); /* Clocks */
	assert_false(pn.in_slots[4]);

	/* The same model and groups: nothing made again. */
	first = pn.ratio[1];
	assert_int_equal(prom_nodes_map(&pn, m, groups), 0);
	assert_ptr_equal(pn.ratio[1], first);

	/* Not rotating: no groups, no sets. */
	assert_int_equal(prom_nodes_map(&pn, m, NULL), 0);
	assert_string_equal(pn.ratio[1], ",tma_node=\"Backend.Memory\",level=\"2\"}");
	assert_int_equal(pn.nsets, 0);
	assert_int_equal(pn.set_of[1], -1);
	prom_nodes_free(&pn);
	model_free(m);
}

static void out_of_memory_anywhere(void **state)
{
	struct tma_model *m = nodes_model();
	int k;

	(void)state;
	for (k = 1;; k++) {
		struct prom_nodes pn = { 0 };
		int ret;

		allocs = 0;
		fail_at = k;
		ret = prom_nodes_map(&pn, m, groups);
		fail_at = 0;
		if (allocs < k) {
			/* Every allocation made it: the whole labels. */
			assert_int_equal(ret, 0);
			assert_int_equal(pn.nsets, 2);
			prom_nodes_free(&pn);
			break;
		}
		assert_int_equal(ret, -ENOMEM);
		assert_null(pn.plain);
		assert_null(pn.groups);
		assert_int_equal(pn.tma_serial, 0);
		/* The next call, memory back, makes them whole. */
		assert_int_equal(prom_nodes_map(&pn, m, groups), 0);
		assert_string_equal(pn.set_label[1], ",tma_groups=\"0+1+63\"}");
		prom_nodes_free(&pn);
	}
	/* The arrays and the copy of the groups at least. */
	assert_true(k > 8);
	model_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(labels_and_sets),
		cmocka_unit_test(out_of_memory_anywhere),
	};
	return cmocka_run_group_tests_name("prom_nodes", tests, NULL, NULL);
}
