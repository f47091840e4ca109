// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * A threshold that is a node's own comparisons and then its parent's whole
 * threshold is compiled as its own comparisons and the parent's flag
 * (model_compile.c, own_links), and where that is one comparison kept as
 * data (model_code.above_node): the flags must be those of every link
 * compared, the model compiled plain, whatever the values, nulls included;
 * where the parent's flag would not say the same (a link with a negative
 * number, a parent whose links do not read itself) the links stay.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "model/model_impl.h"
#include "test_models.h"

/*
 * A and its line B, C: rewritten.  P2's link reads "> NEG" (-1, a constant:
 * a number once resolved, where "-1" stays a negation): a null P2 is never
 * flagged, yet its link holds (null reads as 0).  P3's threshold reads A, not
 * P3: a null P3 is never flagged, yet A's link may hold.  P4 is null where
 * E.Z is 0: its child's link then fails, as P4's flag does.  Z reads Y2's
 * flag, so Y2's threshold comes first in threshold order, before its parent
 * Y1's has set Y1's flag.
 */
static const char chain_model[] =
	"model t\nconst NEG = -1\n"
	"node 1 Z\n  formula E.Z2\n  threshold (Z > 0.1) and Y2 over threshold\n"
	"node 2 A\n  formula E.A\n  threshold (A > 0.2)\n"
	"node 2.1 B\n  formula E.B\n  threshold (B > 0.1) and (A > 0.2)\n"
	"node 2.1.1 C\n  formula E.C\n  threshold (C > 0.1) and (B > 0.1) and (A > 0.2)\n"
	"node 3 P2\n  formula E.P / E.Z\n  threshold (P2 > NEG)\n"
	"node 3.1 Q2\n  formula E.Q\n  threshold (Q2 > 0.1) and (P2 > NEG)\n"
	"node 4 P3\n  formula E.P / E.Z\n  threshold (A > 0.2)\n"
	"node 4.1 Q3\n  formula E.Q\n  threshold (Q3 > 0.1) and (A > 0.2)\n"
	"node 5 P4\n  formula E.P / E.Z\n  threshold (P4 > 0.1)\n"
	"node 5.1 Q4\n  formula E.Q\n  threshold (Q4 > 0.1) and (P4 > 0.1)\n"
	"node 6 Y1\n  formula E.Y1\n  threshold (Y1 > 0.3)\n"
	"node 6.1 Y2\n  formula E.Y2\n  threshold (Y2 > 0.1) and (Y1 > 0.3)\n";

static struct tma_model *load_chain(bool plain)
{
	struct tma_model *m = test_model_text(chain_model, "chain.tma");

	return plain ? test_model_plain(m) : m;
}

/* Node name's threshold code reads a flag (EXPR_OVER): its parent's links were left to its flag. */
static bool reads_parent_flag(const struct tma_model *m, const char *name)
{
	int i = model_node_index(m, name);

	assert_true(i >= 0);
	for (int pc = m->code.thresh_pc[i]; m->code.ops[pc].code != OP_RET; pc++)
		if (m->code.ops[pc].code == EXPR_OVER)
			return true;
	return false;
}

static void rewritten_only_where_the_flag_says_the_same(void **state)
{
	struct tma_model *m = load_chain(false), *plain = load_chain(true);

	(void)state;
	assert_true(reads_parent_flag(m, "B"));
	assert_true(reads_parent_flag(m, "C"));
	assert_true(reads_parent_flag(m, "Q4"));
	assert_false(reads_parent_flag(m, "Q2"));
	assert_false(reads_parent_flag(m, "Q3"));
	assert_false(reads_parent_flag(m, "Y2"));
	assert_false(reads_parent_flag(plain, "C"));
	model_free(m);
	model_free(plain);
}

static uint64_t rng = 0x9e3779b97f4a7c15u;

/*
 * 0, 0.05, 0.1, ... 1.1, or a value below 0: around every link's number
 * and on it (2 / 20 is the double 0.1 reads as: a value equal to the number
 * is not over it).
 */
static double draw(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng % 24 == 23 ? -0.05 : (double)(rng % 24) / 20;
}

static void flags_as_every_link_compared(void **state)
{
	struct tma_model *m = load_chain(false), *plain = load_chain(true);
	struct model_result *r = model_result_new(m), *pr = model_result_new(plain);
	int n = model_event_count(m), flagged_c = 0, flagged_q2_null_p2 = 0;
	double *ev = calloc((size_t)n, sizeof(double));

	(void)state;
	assert_non_null(r);
	assert_non_null(pr);
	assert_non_null(ev);
	for (int v = 0; v < 20000; v++) {
		struct model_input in = { .events = ev, .interval_s = 1 };
		int p2 = model_node_index(m, "P2");

		for (int e = 0; e < n; e++)
			ev[e] = draw();
		ev[model_event_index(m, "E.Z")] =
			v % 3 ? 1 : 0; /* the P nodes null a third of the time */
		assert_int_equal(model_eval(m, &in, r), 0);
		assert_int_equal(model_eval(plain, &in, pr), 0);
		for (int i = 0; i < model_node_count(m); i++)
			if (r->flagged[i] != pr->flagged[i])
				fail_msg("vector %d: %s flagged %d, every link compared %d", v,
					 model_node(m, i)->name, r->flagged[i], pr->flagged[i]);
		flagged_c += r->flagged[model_node_index(m, "C")];
		flagged_q2_null_p2 += isnan(r->value[p2]) && r->flagged[model_node_index(m, "Q2")];
	}
	/* the draws reach both sides of each case */
	assert_true(flagged_c > 0);
	assert_true(flagged_q2_null_p2 > 0);
	free(ev);
	model_result_free(r);
	model_result_free(pr);
	model_free(m);
	model_free(plain);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rewritten_only_where_the_flag_says_the_same),
		cmocka_unit_test(flags_as_every_link_compared),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
