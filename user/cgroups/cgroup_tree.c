// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "cgroups/cgroup_tree.h"

#include <errno.h>
#include <linux/types.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/acc_layout.h"
#include "tmacg.h"

int cgroup_tree_init(struct cgroup_tree *t, const struct cgroup_mount *mnt,
		     const struct cgroup_spec *specs, int nspecs)
{
	memset(t, 0, sizeof(*t));
	t->mnt = *mnt;
	u64map_init(&t->nodes);
	t->whole_host = nspecs == 0;
	if (nspecs) {
		t->specs = calloc(nspecs, sizeof(*specs));
		if (!t->specs)
			return -ENOMEM;
		memcpy(t->specs, specs, nspecs * sizeof(*specs));
		t->nspecs = nspecs;
	}
	return 0;
}

static void node_free(struct cgroup_node *n)
{
	if (n) {
		free(n->path);
		free(n->sum);
		free(n);
	}
}

void cgroup_tree_free(struct cgroup_tree *t)
{
	struct cgroup_node *n;
	size_t cur = 0;

	while ((n = cgroup_tree_next(t, &cur)))
		node_free(n);
	u64map_free(&t->nodes);
	free(t->specs);
	t->specs = NULL;
}

static bool below(const char *path, const char *top)
{
	size_t n = strlen(top);

	if (!strcmp(top, "/"))
		return true;
	return !strncmp(path, top, n) && (path[n] == '/' || !path[n]);
}

void cgroup_tree_set_classifier(struct cgroup_tree *t,
				bool (*classify)(struct cgroup_node *n, void *ctx), void *ctx)
{
	t->classify = classify;
	t->classify_ctx = ctx;
}

static void classify(const struct cgroup_tree *t, struct cgroup_node *n)
{
	if (t->classify) {
		n->target = t->classify(n, t->classify_ctx);
		return;
	}
	if (t->whole_host) {
		n->target = n->level <= 1;
		n->self_only = n->level == 0;
		return;
	}
	for (int i = 0; i < t->nspecs; i++) {
		const struct cgroup_spec *s = &t->specs[i];
		int rel = n->level - cgroup_path_level(s->path);

		if (below(n->path, s->path) && rel >= 0 && rel <= s->depth) {
			n->target = true;
			return;
		}
	}
}

int cgroup_tree_add(struct cgroup_tree *t, uint64_t id, uint64_t parent_id, const char *path)
{
	struct cgroup_node *n = u64map_get(&t->nodes, id);

	if (n) {
		n->removed = false;
		return 0;
	}
	n = calloc(1, sizeof(*n));
	if (!n || !(n->path = strdup(path))) {
		free(n);
		return -ENOMEM;
	}
	n->id = id;
	n->parent_id = parent_id;
	n->level = cgroup_path_level(path);
	classify(t, n);
	if (u64map_put(&t->nodes, id, n)) {
		node_free(n);
		return -ENOMEM;
	}
	return 0;
}

void cgroup_tree_mark_removed(struct cgroup_tree *t, uint64_t id)
{
	struct cgroup_node *n = u64map_get(&t->nodes, id);

	if (n)
		n->removed = true;
}

struct cgroup_node *cgroup_tree_get(const struct cgroup_tree *t, uint64_t id)
{
	return u64map_get(&t->nodes, id);
}

struct tmacg_acc *cgroup_node_sum(struct cgroup_node *n, const struct acc_layout *l)
{
	if (!n->sum)
		n->sum = acc_new(l); /* the plan's size: the tree's memory follows the level */
	return n->sum;
}

int cgroup_tree_add_child(struct cgroup_tree *t, uint64_t id, uint64_t parent_id, const char *name)
{
	struct cgroup_node *parent = u64map_get(&t->nodes, parent_id);
	char *path;
	int err;

	if (!parent)
		return -ENOENT;
	if (!*name || strchr(name, '/'))
		return -EINVAL;
	path = cgroup_child_path(parent->path, name);
	if (!path)
		return -ENOMEM;
	err = cgroup_tree_add(t, id, parent_id, path);
	free(path);
	return err;
}

/* One walk up id's chain, calling fn (if not NULL) on each target: the count, or the error. */
static int walk_targets(const struct cgroup_tree *t, uint64_t id,
			void (*fn)(struct cgroup_node *target, void *ctx), void *ctx)
{
	struct cgroup_node *n = u64map_get(&t->nodes, id);
	int count = 0;

	if (!n)
		return -ENOENT;
	/*
	 * To the root, however deep: ids are unique, so a sound chain has at
	 * most one step per known node.  More steps mean a corrupt chain (a
	 * loop), fewer an ancestor not known.
	 */
	for (size_t steps = 0; steps <= u64map_len(&t->nodes); steps++) {
		if (n->target && (!n->self_only || n->id == id)) {
			if (fn)
				fn(n, ctx);
			count++;
		}
		if (!n->parent_id)
			return count;
		n = u64map_get(&t->nodes, n->parent_id);
		if (!n)
			return -ESRCH;
	}
	return -ELOOP;
}

int cgroup_tree_for_each_target(const struct cgroup_tree *t, uint64_t id,
				void (*fn)(struct cgroup_node *target, void *ctx), void *ctx)
{
	/*
	 * The chain is checked whole before anything is charged: on an error the
	 * caller counts the delta as lost, so no target may have it as well.
	 */
	int ret = walk_targets(t, id, NULL, NULL);

	return ret < 0 || !fn ? ret : walk_targets(t, id, fn, ctx);
}

struct collect_targets {
	struct cgroup_node **out;
	int max, count;
};

static void collect_target(struct cgroup_node *n, void *ctx)
{
	struct collect_targets *c = ctx;

	if (c->count < c->max)
		c->out[c->count++] = n;
}

int cgroup_tree_targets_of(const struct cgroup_tree *t, uint64_t id, struct cgroup_node **out,
			   int max)
{
	struct collect_targets c = { .out = out, .max = max };

	cgroup_tree_for_each_target(t, id, collect_target, &c);
	return c.count;
}

struct ager {
	int keep;
	void (*forget)(uint64_t id, void *ctx);
	void *ctx;
};

static bool age_one(uint64_t id, void *val, void *ctx)
{
	struct ager *a = ctx;
	struct cgroup_node *n = val;

	if (!n->removed || ++n->removed_age <= a->keep)
		return true;
	if (a->forget)
		a->forget(id, a->ctx);
	node_free(n);
	return false;
}

void cgroup_tree_age_removed(struct cgroup_tree *t, int keep,
			     void (*forget)(uint64_t id, void *ctx), void *ctx)
{
	struct ager a = { keep, forget, ctx };

	u64map_retain(&t->nodes, age_one, &a);
}
