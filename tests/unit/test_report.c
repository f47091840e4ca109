// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The report through its interface alone (report.h): built from a
 * report_config (no struct options, no struct measure), the sink and the
 * identity set from outside, the interval's losses passed to
 * report_interval() and found in every line, the table's title and the
 * sink's head; --top's busiest N with the rest summed as "(other)".
 */
#include <errno.h>
#include <signal.h>
#include <unistd.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cgroups/cgroup_tree.h"
#include "model/model.h"
#include "output/report.h"
#include "text_count.h"

static struct cgroup_mount mnt = { .dir = "/nonexistent", .root = "/" };
static const char *const count_names[] = { "on_cpu_s", "cpu_utilization" };

/* counts from the sum as measure.c does for the first two: enough to tell cgroups apart. */
static void evaluate(void *ctx, const struct tmacg_acc *sum, double interval_s, double *counts,
		     struct model_result *result)
{
	(void)result;
	++*(int *)ctx;
	counts[0] = sum->runtime_ns / 1e9;
	counts[1] = counts[0] / interval_s;
}

struct seen {
	int begins, lines, ends;
	uint64_t head_dropped, head_map_full;
	char cgroups[8][32];
	uint64_t map_full[8], dropped[8];
	char pod[8][32];
};

static void sink_begin(void *ctx, const struct report_line *head)
{
	struct seen *s = ctx;

	s->begins++;
	s->head_dropped = head->dropped;
	s->head_map_full = head->map_full;
}

static void sink_line(void *ctx, const struct report_line *l)
{
	struct seen *s = ctx;

	assert_true(s->lines < 8);
	snprintf(s->cgroups[s->lines], sizeof(s->cgroups[0]), "%s", l->cgroup);
	s->map_full[s->lines] = l->map_full;
	s->dropped[s->lines] = l->dropped;
	snprintf(s->pod[s->lines], sizeof(s->pod[0]), "%s",
		 l->resource && l->resource->k8s_pod ? l->resource->k8s_pod : "-");
	s->lines++;
}

static void sink_end(void *ctx)
{
	((struct seen *)ctx)->ends++;
}

static const struct resource pod_a = { .k8s_namespace = "ns", .k8s_pod = "pod-a" };

static const struct resource *identify(const struct cgroup_node *n, void *ctx)
{
	(void)ctx;
	return !strcmp(n->path, "/a") ? &pod_a : NULL;
}

struct fixture {
	struct tma_model *model;
	struct cgroup_tree tree;
	struct report_line facts;
	struct report_config cfg;
	int evaluations;
	char *out;
	size_t len;
	FILE *f;
	struct report_sink sink; /* report_with_sink(): its lines counted in seen */
	struct seen seen;
};

/* The sums' layout: one event in one group. */
static const struct acc_layout one = { 1, 1 };

static void fixture_init(struct fixture *fx, enum report_format format, int top)
{
	char err[512];

	memset(fx, 0, sizeof(*fx));
	fx->model = model_load_builtin("software", err, sizeof(err));
	if (!fx->model)
		fail_msg("%s", err);
	assert_int_equal(cgroup_tree_init(&fx->tree, &mnt, NULL, 0), 0);
	assert_int_equal(cgroup_tree_add(&fx->tree, 1, 0, "/"), 0);
	assert_int_equal(cgroup_tree_add(&fx->tree, 2, 1, "/a"), 0);
	assert_int_equal(cgroup_tree_add(&fx->tree, 3, 1, "/b"), 0);
	assert_int_equal(cgroup_tree_add(&fx->tree, 4, 1, "/c"), 0);
	cgroup_node_sum(cgroup_tree_get(&fx->tree, 2), &one)->runtime_ns = 3000000000ULL;
	cgroup_node_sum(cgroup_tree_get(&fx->tree, 3), &one)->runtime_ns = 1000000000ULL;
	cgroup_node_sum(cgroup_tree_get(&fx->tree, 4), &one)->runtime_ns = 2000000000ULL;
	fx->facts = (struct report_line){ .model = "software",
					  .ncounts = 2,
					  .count_names = count_names,
					  .nsummary = 2,
					  .tma = fx->model,
					  .level = 1,
					  .pmu_groups = 1 };
	fx->cfg = (struct report_config){ .format = format,
					  .top = top,
					  .host = "node-1",
					  .facts = &fx->facts,
					  .layout = one,
					  .evaluate = evaluate,
					  .evaluate_ctx = &fx->evaluations };
	fx->f = open_memstream(&fx->out, &fx->len);
	assert_non_null(fx->f);
}

static void fixture_free(struct fixture *fx)
{
	fclose(fx->f);
	free(fx->out);
	cgroup_tree_free(&fx->tree);
	model_free(fx->model);
}

/* The fixture's report, its lines also handed to a sink that counts them in fx->seen. */
static struct report *report_with_sink(struct fixture *fx, enum report_format format, int top)
{
	struct report *r;

	fixture_init(fx, format, top); /* clears fx: the sink is set after */
	fx->sink = (struct report_sink){ sink_begin, sink_line, sink_end, &fx->seen };
	r = report_new(&fx->cfg, fx->f);
	assert_non_null(r);
	report_set_sink(r, &fx->sink);
	return r;
}

static void interval_hands_losses_and_identity_to_every_line(void **state)
{
	struct fixture fx;
	struct report *r;

	(void)state;
	r = report_with_sink(&fx, REPORT_JSON, 0);
	assert_false(report_has_live_view(r));
	report_set_identify(r, identify, NULL);
	assert_int_equal(report_interval(r, &fx.tree, 1.0, 5, 3), 0);
	fflush(fx.f);
	assert_int_equal(fx.seen.begins, 1);
	assert_int_equal(fx.seen.ends, 1);
	assert_true(fx.seen.head_dropped == 5 && fx.seen.head_map_full == 3);
	/* The root's own tasks and its three children, by path; /a named by the identity. */
	assert_int_equal(fx.seen.lines, 4);
	assert_string_equal(fx.seen.cgroups[0], "/");
	assert_string_equal(fx.seen.cgroups[1], "/a");
	assert_string_equal(fx.seen.pod[1], "pod-a");
	assert_string_equal(fx.seen.pod[2], "-");
	for (int i = 0; i < fx.seen.lines; i++)
		assert_true(fx.seen.dropped[i] == 5 && fx.seen.map_full[i] == 3);
	assert_int_equal(fx.evaluations, 4);
	/* The same in the JSON lines printed, with the facts given at report_new(). */
	assert_non_null(strstr(fx.out, "\"map_full\":3"));
	assert_non_null(strstr(fx.out, "\"dropped\":5"));
	assert_non_null(strstr(fx.out, "\"model\":\"software\""));
	assert_non_null(strstr(fx.out, "\"k8s.pod.name\":\"pod-a\""));
	assert_non_null(strstr(fx.out, "\"on_cpu_s\":3"));
	/* The sums are cleared: the next interval starts from zero. */
	assert_true(cgroup_tree_get(&fx.tree, 2)->sum->runtime_ns == 0);
	report_free(r);
	fixture_free(&fx);
}

/*
 * The JSON printer writes the members an interval's lines share once an
 * interval: the next interval's lines carry its own losses, not the first's.
 */
static void each_json_interval_carries_its_own_losses(void **state)
{
	struct fixture fx;
	struct report *r;

	(void)state;
	fixture_init(&fx, REPORT_JSON, 0);
	r = report_new(&fx.cfg, fx.f);
	assert_non_null(r);
	assert_int_equal(report_interval(r, &fx.tree, 1.0, 5, 3), 0);
	assert_int_equal(report_interval(r, &fx.tree, 1.0, 9, 8), 0);
	fflush(fx.f);
	assert_int_equal(text_count(fx.out, "\"dropped\":5,\"map_full\":3"), 4);
	assert_int_equal(text_count(fx.out, "\"dropped\":9,\"map_full\":8"), 4);
	report_free(r);
	fixture_free(&fx);
}

static void table_title_says_what_was_lost(void **state)
{
	struct fixture fx;
	struct report *r;

	(void)state;
	fixture_init(&fx, REPORT_TABLE, 0);
	r = report_new(&fx.cfg, fx.f);
	assert_non_null(r);
	assert_int_equal(report_interval(r, &fx.tree, 2.0, 7, 4), 0);
	fflush(fx.f);
	assert_non_null(strstr(fx.out, "  interval 2.00s  host node-1  model software  samples "
				       "dropped: see stderr  map full: 4 dropped, raise "
				       "--max-cgroups\n"));
	/* Nothing lost, nothing said. */
	assert_int_equal(report_interval(r, &fx.tree, 2.0, 0, 0), 0);
	fflush(fx.f);
	assert_non_null(strstr(fx.out, "model software\n"));
	report_free(r);
	fixture_free(&fx);
}

/* The lines fx's sink saw in the last interval are these, in this order; then forgotten. */
static void expect_lines(struct fixture *fx, const char *const *paths, int n)
{
	assert_int_equal(fx->seen.lines, n);
	for (int i = 0; i < n; i++)
		assert_string_equal(fx->seen.cgroups[i], paths[i]);
	fx->seen.lines = 0;
}

static void top_keeps_the_busiest_and_sums_the_rest(void **state)
{
	struct fixture fx;
	struct report *r;

	(void)state;
	r = report_with_sink(&fx, REPORT_NONE, 2);
	assert_int_equal(report_interval(r, &fx.tree, 1.0, 0, 0), 0);
	fflush(fx.f);
	assert_int_equal(fx.len, 0); /* REPORT_NONE: the sink only */
	/* /a (3 s) and /c (2 s), by path, then /b and the root summed. */
	expect_lines(&fx, (const char *const[]){ "/a", "/c", "(other)" }, 3);
	report_free(r);
	fixture_free(&fx);
}

/*
 * Every interval's lines come in path order: the same tree's again,
 * cgroups added, and a cgroup removed, forgotten and another added in its
 * stead (which may take its memory).
 */
static void lines_stay_in_path_order_as_cgroups_come_and_go(void **state)
{
	struct fixture fx;
	struct report *r = report_with_sink(&fx, REPORT_NONE, 0);

	(void)state;
	for (int i = 0; i < 2; i++) { /* the second: the order kept from the first */
		assert_int_equal(report_interval(r, &fx.tree, 1.0, 0, 0), 0);
		expect_lines(&fx, (const char *const[]){ "/", "/a", "/b", "/c" }, 4);
	}
	assert_int_equal(cgroup_tree_add(&fx.tree, 5, 1, "/0"), 0);
	assert_int_equal(cgroup_tree_add(&fx.tree, 6, 1, "/bb"), 0);
	assert_int_equal(report_interval(r, &fx.tree, 1.0, 0, 0), 0);
	expect_lines(&fx, (const char *const[]){ "/", "/0", "/a", "/b", "/bb", "/c" }, 6);
	cgroup_tree_mark_removed(&fx.tree, 2);
	assert_int_equal(report_interval(r, &fx.tree, 1.0, 0, 0), 0); /* /a once more */
	expect_lines(&fx, (const char *const[]){ "/", "/0", "/a", "/b", "/bb", "/c" }, 6);
	/* as many lines as before, one of them another cgroup's */
	cgroup_tree_age_removed(&fx.tree, 1, NULL, NULL);
	assert_int_equal(cgroup_tree_add(&fx.tree, 7, 1, "/e"), 0);
	assert_int_equal(report_interval(r, &fx.tree, 1.0, 0, 0), 0);
	expect_lines(&fx, (const char *const[]){ "/", "/0", "/b", "/bb", "/c", "/e" }, 6);
	cgroup_tree_age_removed(&fx.tree, 1, NULL, NULL);
	assert_int_equal(cgroup_tree_add(&fx.tree, 2, 1, "/d"), 0);
	assert_int_equal(report_interval(r, &fx.tree, 1.0, 0, 0), 0);
	expect_lines(&fx, (const char *const[]){ "/", "/0", "/b", "/bb", "/c", "/d", "/e" }, 7);
	report_free(r);
	fixture_free(&fx);
}

/*
 * Live stdout is fully buffered (main.c): a reader that went away is found when
 * the interval is flushed, and report_interval says -EPIPE, which ends tmacg
 * quietly, rather than losing the interval unseen.
 */
static void closed_pipe_found_at_the_interval_flush(void **state)
{
	struct fixture fx;
	struct report *r;
	int fds[2];
	FILE *p;

	(void)state;
	signal(SIGPIPE, SIG_IGN); /* as main.c: EPIPE, not a signal */
	fixture_init(&fx, REPORT_JSON, 0);
	assert_int_equal(pipe(fds), 0);
	close(fds[0]);
	p = fdopen(fds[1], "w");
	assert_non_null(p);
	assert_int_equal(setvbuf(p, NULL, _IOFBF, 1 << 16), 0);
	r = report_new(&fx.cfg, p);
	assert_non_null(r);
	assert_int_equal(report_interval(r, &fx.tree, 1.0, 0, 0), -EPIPE);
	report_free(r);
	fclose(p);
	fixture_free(&fx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(interval_hands_losses_and_identity_to_every_line),
		cmocka_unit_test(each_json_interval_carries_its_own_losses),
		cmocka_unit_test(table_title_says_what_was_lost),
		cmocka_unit_test(top_keeps_the_busiest_and_sums_the_rest),
		cmocka_unit_test(lines_stay_in_path_order_as_cgroups_come_and_go),
		cmocka_unit_test(closed_pipe_found_at_the_interval_flush),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
