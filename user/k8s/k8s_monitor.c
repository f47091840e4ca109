// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "k8s/k8s_monitor.h"

#include <stdlib.h>
#include <string.h>

#include "cgroups/cgroup_tree.h"
#include "k8s/k8s_cache.h"
#include "k8s/k8s_classify.h"
#include "output/cgroup_record.h"

struct k8s_monitor {
	struct k8s_monitor_config cfg;
	struct k8s_logs *logs;
	struct k8s_cache cache;
	struct cgroup_tree *tree;
	unsigned long seen;
	bool noted_empty, noted_refresh, noted_no_logs;
};

struct k8s_monitor *k8s_monitor_new(const struct k8s_monitor_config *cfg, char *err, size_t errlen)
{
	struct k8s_monitor *km = calloc(1, sizeof(*km));

	if (!km) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	km->cfg = *cfg;
	km->logs = k8s_logs_new(cfg->log_containers, cfg->log_pods, err, errlen);
	if (!km->logs) {
		free(km);
		return NULL;
	}
	k8s_cache_init(&km->cache, km->logs, cfg->host);
	return km;
}

void k8s_monitor_free(struct k8s_monitor *km)
{
	if (!km)
		return;
	k8s_cache_free(&km->cache);
	k8s_logs_free(km->logs);
	free(km);
}

/*
 * Called once per cgroup as the tree learns it.  Pods and unmapped cgroups
 * are reported; everything inside a pod rolls up into it (the tree charges
 * every target above a cgroup), so a sandbox that is no target of its own
 * is folded into its pod.
 */
static bool classify(struct cgroup_node *n, void *ctx)
{
	struct k8s_monitor *km = ctx;
	enum k8s_class c = k8s_classify_path(n->path);
	const struct k8s_identity *id;

	km->seen += c != K8S_CLASS_NONE;
	if (c == K8S_CLASS_POD || c == K8S_CLASS_UNMAPPED)
		return true;
	if (c != K8S_CLASS_CONTAINER || !km->cfg.containers)
		return false;
	id = k8s_cache_get(&km->cache, n->id, n->path);
	return !id || !id->sandbox; /* out of memory: shown rather than hidden */
}

const struct resource *k8s_monitor_identify(const struct cgroup_node *n, void *ctx)
{
	struct k8s_monitor *km = ctx;
	const struct k8s_identity *id = k8s_cache_get(&km->cache, n->id, n->path);

	return id ? &id->res : NULL;
}

void k8s_monitor_install(struct k8s_monitor *km, struct cgroup_tree *t)
{
	km->tree = t;
	cgroup_tree_set_classifier(t, classify, km);
}

static bool alive(uint64_t id, void *ctx)
{
	return cgroup_tree_get(ctx, id) != NULL;
}

/*
 * A container scope judged a sandbox (or not) when the logs did not tell
 * yet: the sandbox is created before the pod's first container writes a
 * log.  Entries still missing names are resolved again after a rescan.
 */
static void redecide_containers(struct k8s_monitor *km)
{
	size_t cur = 0;
	uint64_t cgid;
	void *val;

	/* k8s_cache_get() below finds the entry: it changes it, never the map. */
	while (u64map_next(&km->cache.entries, &cur, &cgid, &val)) {
		const struct k8s_cache_entry *e = val;
		struct cgroup_node *n;
		const struct k8s_identity *id;

		if (e->id.path.kind != K8S_CONTAINER)
			continue;
		n = cgroup_tree_get(km->tree, cgid);
		if (!n || n->path[e->id.path.container_path_len])
			continue; /* gone, or below the scope: never a target */
		id = k8s_cache_get(&km->cache, n->id, n->path);
		if (id)
			n->target = !id->sandbox;
	}
}

void k8s_monitor_interval(struct k8s_monitor *km)
{
	char err[512];

	if (k8s_cache_refresh(&km->cache, err, sizeof(err)) && !km->noted_refresh) {
		if (km->cfg.notes)
			fprintf(km->cfg.notes, "tmacg: --k8s: %s (names known so far are kept)\n",
				err);
		km->noted_refresh = true;
	}
	if (km->tree) {
		k8s_cache_sweep(&km->cache, alive, km->tree);
		if (km->cfg.containers)
			redecide_containers(km);
	}
	if (!k8s_logs_have_containers(km->logs) && !km->noted_no_logs) {
		if (km->cfg.notes)
			fprintf(km->cfg.notes,
				"tmacg: --k8s: no kubelet log directory at %s: lines carry pod uids "
				"and container ids but no names; mount it (read-only) or point "
				"--k8s-logs-containers at it\n",
				km->cfg.log_containers ? km->cfg.log_containers :
							 K8S_LOGS_CONTAINERS_DIR);
		km->noted_no_logs = true;
	}
	if (!km->seen && !km->noted_empty) {
		if (km->cfg.notes)
			fprintf(km->cfg.notes,
				"tmacg: --k8s: no Kubernetes cgroups (kubepods) in the cgroup2 "
				"hierarchy yet: nothing to report until pods appear\n");
		km->noted_empty = true;
	}
}

unsigned long k8s_monitor_seen(const struct k8s_monitor *km)
{
	return km->seen;
}

size_t k8s_monitor_cached(const struct k8s_monitor *km)
{
	return u64map_len(&km->cache.entries);
}
