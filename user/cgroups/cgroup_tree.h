/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * Every cgroup of the cgroup2 hierarchy tmacg knows of (id, parent, path),
 * which of them are reported ("targets"), and the roll-up of a cgroup's own
 * counts into the targets that contain it.  The BPF side charges leaves only.
 */
#ifndef TMACG_CGROUP_TREE_H
#define TMACG_CGROUP_TREE_H

#include <stdbool.h>
#include <stdint.h>

#include "cgroups/cgroup_fs.h"
#include "util/u64map.h"

struct tmacg_acc;
struct acc_layout;

struct cgroup_node {
	uint64_t id;
	uint64_t parent_id; /* 0 for the root */
	int level;
	char *path;	       /* hierarchy path, "/a/b" */
	bool removed;	       /* rmdir seen: reported once more, then forgotten */
	int removed_age;       /* intervals reported since the rmdir */
	bool target;	       /* reported */
	bool self_only;	       /* target counting only its own tasks (the root line) */
	struct tmacg_acc *sum; /* a target's counts this interval: cgroup_node_sum() */
};

struct cgroup_spec {
	char path[CGROUP_PATH_MAX]; /* hierarchy path */
	int depth;		    /* descendants this many levels down are targets too */
};

struct cgroup_tree {
	struct cgroup_mount mnt;
	struct u64map nodes; /* id -> struct cgroup_node * */
	struct cgroup_spec *specs;
	int nspecs;
	bool whole_host; /* no --cgroup: children of the root, plus the root's own tasks */
	/*
	 * Optional, instead of specs: decides whether a cgroup is reported (and
	 * may set self_only).  --k8s reports pods and containers this way.
	 */
	bool (*classify)(struct cgroup_node *n, void *ctx);
	void *classify_ctx;
};

/* specs NULL/0: the whole host.  Copies specs. */
int cgroup_tree_init(struct cgroup_tree *t, const struct cgroup_mount *mnt,
		     const struct cgroup_spec *specs, int nspecs);
void cgroup_tree_free(struct cgroup_tree *t);

/* Installs a classifier (before the first scan); see struct cgroup_tree. */
void cgroup_tree_set_classifier(struct cgroup_tree *t,
				bool (*classify)(struct cgroup_node *n, void *ctx), void *ctx);

/*
 * Walks the mounted hierarchy and adds every cgroup not yet known, at any
 * depth and path length (cgroup_scan.c).  0 or -errno.
 */
int cgroup_tree_scan(struct cgroup_tree *t);

/* A cgroup seen being created (or found); 0 or -ENOMEM. */
int cgroup_tree_add(struct cgroup_tree *t, uint64_t id, uint64_t parent_id, const char *path);
/*
 * A cgroup created below a known parent, named by its directory entry: the
 * path is the parent's plus name, so it is complete at any length.  0,
 * -ENOENT when the parent is not known, -EINVAL for an empty name or one
 * with a '/', -ENOMEM.
 */
int cgroup_tree_add_child(struct cgroup_tree *t, uint64_t id, uint64_t parent_id, const char *name);
/* A cgroup seen being removed: kept until cgroup_tree_age_removed() forgets it. */
void cgroup_tree_mark_removed(struct cgroup_tree *t, uint64_t id);

struct cgroup_node *cgroup_tree_get(const struct cgroup_tree *t, uint64_t id);

/* n->sum, allocated zeroed on first use (NULL if out of memory); freed with the node. */
struct tmacg_acc *cgroup_node_sum(struct cgroup_node *n, const struct acc_layout *l);

/*
 * Calls fn (if not NULL) for each target a count charged to cgroup id
 * belongs to (itself and the ancestors that are targets, deepest first),
 * walking to the root at any depth.  Returns how many; -ENOENT when id is not
 * known, -ESRCH when an ancestor is not known, -ELOOP when the parent chain
 * is longer than the tree (corrupt): the count then belongs to no target,
 * and fn is called for none (the chain is checked before any call).
 */
int cgroup_tree_for_each_target(const struct cgroup_tree *t, uint64_t id,
				void (*fn)(struct cgroup_node *target, void *ctx), void *ctx);
/* The same, storing up to max targets in out; returns how many were stored (0 on errors). */
int cgroup_tree_targets_of(const struct cgroup_tree *t, uint64_t id, struct cgroup_node **out,
			   int max);

/*
 * Called after each report: removed cgroups age by one interval; those older
 * than keep intervals are forgotten, calling forget(id, ctx) first.  Keeping
 * them a little longer lets a charge that lands after the rmdir (an exiting
 * task's last switch) still roll up into its ancestors.
 */
void cgroup_tree_age_removed(struct cgroup_tree *t, int keep,
			     void (*forget)(uint64_t id, void *ctx), void *ctx);

/*
 * The nodes, in no particular order:
 *	size_t cur = 0;
 *	while ((n = cgroup_tree_next(t, &cur))) ...
 * Nodes must not be added or forgotten during the walk.
 */
static inline struct cgroup_node *cgroup_tree_next(const struct cgroup_tree *t, size_t *cur)
{
	void *n;

	return u64map_next(&t->nodes, cur, NULL, &n) ? n : NULL;
}

static inline size_t cgroup_tree_len(const struct cgroup_tree *t)
{
	return u64map_len(&t->nodes);
}

/* Reported this interval: a target, alive or removed since the last report. */
static inline bool cgroup_node_reported(const struct cgroup_node *n)
{
	return n->target && (!n->removed || n->removed_age == 0);
}

#endif
