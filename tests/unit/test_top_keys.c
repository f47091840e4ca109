// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The live view's keys and order (docs/live-view.md): q quits, s sorts by the
 * next column and r reverses it, l and 1-6 set the bottleneck path's level, a
 * key redraws the frame at once; with --k8s-level container each container
 * follows its pod, and a pod's namespace is never cut from the left.  The
 * expected orders and screens are worked out by hand from the rows below.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "output/cgroup_record.h"
#include "output/output_top.h"

/* Level 1 of TMA and one level-2 node, each formula one input. */
static const char model_text[] =
	"model k\n"
	"node 1 Frontend_Bound\n  formula E.F\n  threshold > 0.2\n"
	"node 2 Bad_Speculation\n  formula E.S\n  threshold > 0.15\n"
	"node 3 Backend_Bound\n  formula E.B\n  threshold > 0.2\n"
	"node 3.1 Memory_Bound\n  formula E.M\n  threshold > 0.2 and parent over threshold\n"
	"node 4 Retiring\n  formula E.R\n  threshold > 0.7\n";

static const char *const names[] = { "on_cpu_s" };

struct row {
	const char *cgroup, *ns, *pod, *container;
	double cpu, f, s, b, mem, r; /* cpu: seconds in a 1 s interval */
};

struct view {
	struct tma_model *m;
	struct top *t;
	struct model_result *res[8];
	double cpu[8];
	int n;
};

static void view_open(struct view *v, int level)
{
	char err[256];

	memset(v, 0, sizeof(*v));
	setenv("TZ", "UTC", 1);
	v->m = model_load(model_text, strlen(model_text), "k.tma", err, sizeof(err));
	assert_non_null(v->m);
	v->t = top_new(v->m, level, 1, names);
	assert_non_null(v->t);
}

static void view_close(struct view *v)
{
	for (int i = 0; i < v->n; i++)
		model_result_free(v->res[i]);
	top_free(v->t);
	model_free(v->m);
}

static void add(struct view *v, const struct row *r, int level)
{
	double ev[8] = { 0 };
	struct model_input in = { .events = ev, .interval_s = 1 };
	struct resource res = { .k8s_namespace = r->ns,
				.k8s_pod = r->pod,
				.k8s_container = r->container };
	struct report_line line = { .interval_s = 1,
				    .cgroup = r->cgroup ? r->cgroup : "/kubepods/x",
				    .resource = r->pod ? &res : NULL,
				    .ncounts = 1,
				    .count_names = names,
				    .running_min = 1,
				    .tma = v->m,
				    .level = level };
	int i = v->n++;

	assert_true(i < 8);
	ev[model_event_index(v->m, "E.F")] = r->f;
	ev[model_event_index(v->m, "E.S")] = r->s;
	ev[model_event_index(v->m, "E.B")] = r->b;
	ev[model_event_index(v->m, "E.M")] = r->mem;
	ev[model_event_index(v->m, "E.R")] = r->r;
	v->res[i] = model_result_new(v->m);
	assert_int_equal(model_eval(v->m, &in, v->res[i]), 0);
	v->cpu[i] = r->cpu;
	line.count_values = &v->cpu[i];
	line.result = v->res[i];
	assert_int_equal(top_add(v->t, &line, false), 0);
}

static const struct top_title title = { { 0, 0 }, 1.0, "h", "k", 0, 0 };

/* A frame (redraw: the last one again, as after a key) as text. */
static char *draw(struct view *v, int width, bool redraw)
{
	struct top_screen s = { width, 0, false, false };
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	assert_non_null(f);
	assert_int_equal(redraw ? top_redraw(v->t, f) : top_draw(v->t, f, &s, &title), 0);
	fclose(f);
	return out;
}

/* The first word of each row (after the title, legend and header), joined by spaces. */
static void row_names(const char *screen, char *out, size_t len)
{
	const char *line = screen + strspn(screen, "\n"); /* a plain redraw starts apart */
	int n = 0;

	out[0] = '\0';
	for (; line && *line; n++) {
		const char *end = strchr(line, '\n');

		if (n >= 3) {
			size_t w = strcspn(line, " \n");

			snprintf(out + strlen(out), len - strlen(out), "%s%.*s", n > 3 ? " " : "",
				 (int)w, line);
		}
		line = end ? end + 1 : NULL;
	}
}

/* /a backend bound, /b frontend bound and busiest, /c idle but for a little retiring. */
static const struct row cgroups[] = {
	{ "/a", NULL, NULL, NULL, 0.5, 0.10, 0.05, 0.60, 0.40, 0.25 },
	{ "/b", NULL, NULL, NULL, 1.5, 0.40, 0.10, 0.20, 0.10, 0.30 },
	{ "/c", NULL, NULL, NULL, 0.2, 0.00, 0.02, 0.00, 0.00, 0.08 },
};

static void three(struct view *v)
{
	for (int i = 0; i < 3; i++)
		add(v, &cgroups[i], 3);
}

static void q_quits_and_other_keys_are_ignored(void **state)
{
	struct view v;

	(void)state;
	view_open(&v, 3);
	assert_int_equal(top_key(v.t, 'q'), TOP_KEY_QUIT);
	assert_int_equal(top_key(v.t, 'x'), TOP_KEY_IGNORED);
	assert_int_equal(top_key(v.t, '\033'), TOP_KEY_IGNORED);
	assert_int_equal(top_key(v.t, '7'), TOP_KEY_IGNORED); /* deeper than --level 3 */
	view_close(&v);
}

/*
 * s walks CPU% -> FE% -> BAD% -> BE% -> RET% -> CGROUP -> CPU%, each a
 * redraw of the same rows: FE% .40/.10/0 puts b a c, BAD% .10/.05/.02 b a c,
 * BE% .60/.20/0 a b c, RET% .30/.25/.08 b a c, names ascending a b c; r turns
 * BE% around to c b a.  The header marks the column, the title says it.
 */
static void s_sorts_by_each_column_and_r_reverses(void **state)
{
	static const struct {
		const char *order, *mark, *says;
	} steps[] = {
		{ "/b /a /c", "*FE%", "sort FE%" },	  { "/b /a /c", "*BAD%", "sort BAD%" },
		{ "/a /b /c", "*BE%", "sort BE%" },	  { "/b /a /c", "*RET%", "sort RET%" },
		{ "/a /b /c", "*CGROUP", "sort CGROUP" },
	};
	struct view v;
	char *out, order[256];

	(void)state;
	view_open(&v, 3);
	three(&v);
	out = draw(&v, 120, false);
	row_names(out, order, sizeof(order));
	assert_string_equal(order, "/b /a /c"); /* CPU 150 %, 50 %, 20 % */
	assert_null(strstr(out, "*"));		/* the default sort is not marked */
	free(out);
	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		assert_int_equal(top_key(v.t, 's'), TOP_KEY_REDRAW);
		out = draw(&v, 120, true);
		row_names(out, order, sizeof(order));
		if (strcmp(order, steps[i].order) || !strstr(out, steps[i].mark) ||
		    !strstr(out, steps[i].says))
			fail_msg("step %zu: rows %s, want %s; screen:\n%s", i, order,
				 steps[i].order, out);
		free(out);
		if (i == 2) { /* BE%, reversed */
			assert_int_equal(top_key(v.t, 'r'), TOP_KEY_REDRAW);
			out = draw(&v, 120, true);
			row_names(out, order, sizeof(order));
			assert_string_equal(order, "/c /b /a");
			assert_non_null(strstr(out, "sort BE% reversed"));
			free(out);
			assert_int_equal(top_key(v.t, 'r'), TOP_KEY_REDRAW);
		}
	}
	assert_int_equal(top_key(v.t, 's'), TOP_KEY_REDRAW); /* back to CPU% */
	out = draw(&v, 120, true);
	row_names(out, order, sizeof(order));
	assert_string_equal(order, "/b /a /c");
	assert_null(strstr(out, "sort "));
	free(out);
	view_close(&v);
}

/* /a's path is Backend_Bound.Memory_Bound (both over threshold); 1 keeps level 1, l steps on. */
static void l_and_digits_set_the_level_shown(void **state)
{
	struct view v;
	char *out;

	(void)state;
	view_open(&v, 3);
	three(&v);
	out = draw(&v, 120, false);
	assert_non_null(strstr(out, "Backend_Bound.Memory_Bound"));
	free(out);
	assert_int_equal(top_key(v.t, '1'), TOP_KEY_REDRAW);
	out = draw(&v, 120, true);
	assert_null(strstr(out, "Memory_Bound"));
	assert_non_null(strstr(out, " Backend_Bound\n"));
	assert_non_null(strstr(out, "level 1"));
	free(out);
	assert_int_equal(top_key(v.t, 'l'), TOP_KEY_REDRAW); /* 1 -> 2 */
	out = draw(&v, 120, true);
	assert_non_null(strstr(out, "Backend_Bound.Memory_Bound"));
	assert_non_null(strstr(out, "level 2"));
	free(out);
	assert_int_equal(top_key(v.t, 'l'), TOP_KEY_REDRAW); /* 2 -> 3, --level: unmarked */
	assert_int_equal(top_key(v.t, 'l'), TOP_KEY_REDRAW); /* 3 -> 1 */
	out = draw(&v, 120, true);
	assert_non_null(strstr(out, "level 1"));
	free(out);
	view_close(&v);
}

/*
 * --k8s-level container: each container right below its pod, indented, the
 * pods by CPU (shop/cart 50 %, kube-system/kube-proxy 30 %); a container
 * whose pod has no row (here x/orphan, 100 %) stands alone with its full name.
 */
static void containers_follow_their_pod(void **state)
{
	static const struct row pods[] = {
		{ NULL, "kube-system", "kube-proxy", NULL, 0.3, 0.1, 0.1, 0.1, 0, 0.7 },
		{ NULL, "shop", "cart", "sidecar", 0.1, 0.1, 0.1, 0.1, 0, 0.7 },
		{ NULL, "kube-system", "kube-proxy", "proxy", 0.3, 0.1, 0.1, 0.1, 0, 0.7 },
		{ NULL, "shop", "cart", NULL, 0.5, 0.1, 0.1, 0.1, 0, 0.7 },
		{ NULL, "x", "orphan", "c", 1.0, 0.1, 0.1, 0.1, 0, 0.7 },
		{ NULL, "shop", "cart", "app", 0.4, 0.1, 0.1, 0.1, 0, 0.7 },
	};
	struct view v;
	char *out;
	const char *at;

	(void)state;
	view_open(&v, 3);
	for (size_t i = 0; i < sizeof(pods) / sizeof(pods[0]); i++)
		add(&v, &pods[i], 3);
	out = draw(&v, 120, false);
	at = strstr(out, "POD ");
	assert_non_null(at);
	at = strchr(at, '\n') + 1;
	/* Names as the screen shows them, each at the start of its row. */
	assert_memory_equal(at, "x/orphan/c ", 11);
	at = strchr(at, '\n') + 1;
	assert_memory_equal(at, "shop/cart ", 10);
	at = strchr(at, '\n') + 1;
	assert_memory_equal(at, "  app ", 6);
	at = strchr(at, '\n') + 1;
	assert_memory_equal(at, "  sidecar ", 10);
	at = strchr(at, '\n') + 1;
	assert_memory_equal(at, "kube-system/kube-proxy ", 23);
	at = strchr(at, '\n') + 1;
	assert_memory_equal(at, "  proxy ", 8);
	assert_non_null(strstr(out, "6 pods"));
	free(out);
	view_close(&v);
}

/*
 * 80 columns leave a pod's name 21 (12, and the 9 the other columns spare):
 * the namespace stays whole and the pod name keeps its generated end:
 * "kube-system/" (12) then "~" and the last 8 of the pod name.
 */
static void namespace_kept_at_80_columns(void **state)
{
	static const struct row pod = {
		NULL, "kube-system", "kube-proxy-7d9f8b6c5d-x2k9q", NULL, 0.3, 0.1, 0.1, 0.1, 0, 0.7
	};
	struct view v;
	char *out;
	const char *row;

	(void)state;
	view_open(&v, 3);
	add(&v, &pod, 3);
	out = draw(&v, 80, false);
	row = strstr(out, "\nkube-system/");
	if (!row || strncmp(row + 1, "kube-system/~5d-x2k9q ", 22))
		fail_msg("the pod's row at 80 columns:\n%s", out);
	free(out);
	view_close(&v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(q_quits_and_other_keys_are_ignored),
		cmocka_unit_test(s_sorts_by_each_column_and_r_reverses),
		cmocka_unit_test(l_and_digits_set_the_level_shown),
		cmocka_unit_test(containers_follow_their_pod),
		cmocka_unit_test(namespace_kept_at_80_columns),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
