// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The live view's order and keys: rows sorted by the column the user picked
 * ("(other)" always last, unknown values after known ones, the name breaking
 * ties), and with --k8s-level container each container right below its pod.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "output/top_impl.h"

/*
 * CPU, the level-1 shares, the value columns, the name, then (rotating) MEAS%:
 * after the name, so a first rotating line, which adds it, moves no key.
 */
static int top_sort_keys(const struct top *t)
{
	return top_sort_name_key(t) + 1 + t->rotating;
}

int top_sort_name_key(const struct top *t)
{
	return 1 + t->nl1 + t->nextra;
}

enum top_sort_kind top_sort_kind(const struct top *t, int k, int *index)
{
	*index = 0;
	if (k <= 0)
		return TOP_SORT_CPU;
	if (k <= t->nl1) {
		*index = k - 1;
		return TOP_SORT_L1;
	}
	if (k <= t->nl1 + t->nextra) {
		*index = k - 1 - t->nl1;
		return TOP_SORT_EXTRA;
	}
	return k == top_sort_name_key(t) ? TOP_SORT_NAME : TOP_SORT_MEAS;
}

static double sort_value(const struct top *t, const struct top_row *r)
{
	int i;

	switch (top_sort_kind(t, t->sort, &i)) {
	case TOP_SORT_CPU:
		return r->cpu;
	case TOP_SORT_L1:
		return r->l1[i];
	case TOP_SORT_EXTRA:
		return r->extra[i];
	case TOP_SORT_MEAS:
		return top_path_measured(t, r);
	default:
		return NAN;
	}
}

/* What a row is called in the order: a pod's "namespace/pod", else its name. */
static int name_cmp(const struct top_row *x, const struct top_row *y)
{
	int c = strcmp(x->ns, y->ns);

	return c ? c : strcmp(x->name, y->name);
}

/* qsort_r's context: glibc passes it last. */
static int row_cmp(const void *a, const void *b, void *ctx)
{
	const struct top *t = ctx;
	const struct top_row *x = a, *y = b;
	int flip = t->reverse ? -1 : 1, i;
	double u, v;

	if (x->other != y->other)
		return x->other ? 1 : -1;
	if (top_sort_kind(t, t->sort, &i) == TOP_SORT_NAME)
		return flip * name_cmp(x, y);
	u = sort_value(t, x);
	v = sort_value(t, y);
	if (isnan(u) != isnan(v))
		return isnan(u) ? 1 : -1;
	/* Numbers: the largest first (busiest, most bound), reversed with r. */
	if (!isnan(u) && u != v)
		return flip * (u > v ? -1 : 1);
	return name_cmp(x, y);
}

/* The row of the pod a container belongs to, or -1 when that pod has no row. */
static long pod_row(const struct top *t, const struct top_row *c)
{
	for (size_t i = 0; i < t->n; i++) {
		const struct top_row *p = &t->rows[i];

		if (!p->container && !p->other && p->pod[0] && !strcmp(p->ns, c->ns) &&
		    !strcmp(p->pod, c->pod))
			return (long)i;
	}
	return -1;
}

int top_order(struct top *t)
{
	struct top_row *sorted;
	bool *placed;
	size_t o = 0;

	if (!t->n)
		return 0;
	qsort_r(t->rows, t->n, sizeof(*t->rows), row_cmp, t);
	if (!t->pods)
		return 0;
	/* Each pod's containers (in sort order) right after the pod, the pod where it sorts. */
	sorted = malloc(t->n * sizeof(*sorted));
	placed = calloc(t->n, sizeof(*placed));
	if (!sorted || !placed) {
		free(sorted);
		free(placed);
		return -ENOMEM;
	}
	for (size_t i = 0; i < t->n; i++) {
		t->rows[i].under_pod = t->rows[i].container && pod_row(t, &t->rows[i]) >= 0;
		placed[i] = false;
	}
	for (size_t i = 0; i < t->n; i++) {
		if (t->rows[i].under_pod)
			continue; /* placed with its pod */
		sorted[o++] = t->rows[i];
		placed[i] = true;
		if (t->rows[i].container || t->rows[i].other || !t->rows[i].pod[0])
			continue;
		for (size_t k = 0; k < t->n; k++) {
			const struct top_row *c = &t->rows[k];

			if (c->under_pod && !placed[k] && !strcmp(c->ns, t->rows[i].ns) &&
			    !strcmp(c->pod, t->rows[i].pod)) {
				sorted[o++] = *c;
				placed[k] = true;
			}
		}
	}
	memcpy(t->rows, sorted, o * sizeof(*sorted));
	t->n = o;
	free(sorted);
	free(placed);
	return 0;
}

enum top_key_action top_key(struct top *t, int key)
{
	switch (key) {
	case 'q':
	case 'Q':
		return TOP_KEY_QUIT;
	case 's':
		t->sort = (t->sort + 1) % top_sort_keys(t);
		return TOP_KEY_REDRAW;
	case 'r':
		t->reverse = !t->reverse;
		return TOP_KEY_REDRAW;
	case 'l':
		if (!t->paths)
			return TOP_KEY_IGNORED; /* no bottleneck path to deepen */
		t->show_level = t->show_level % t->level + 1;
		return TOP_KEY_REDRAW;
	default:
		if (key >= '1' && key <= '9' && t->paths && key - '0' <= t->level) {
			t->show_level = key - '0';
			return TOP_KEY_REDRAW;
		}
		return TOP_KEY_IGNORED;
	}
}
