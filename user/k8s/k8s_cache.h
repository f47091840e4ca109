/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * Kubernetes identity per cgroup id, resolved once and kept: the names of a
 * pod or container never change, so only an entry still missing a name is
 * looked at again, and only after the log directories were rescanned.  The
 * directories are refreshed by k8s_cache_refresh() alone, which the caller
 * runs once per interval: a look-up never touches the filesystem.
 */
#ifndef TMACG_K8S_CACHE_H
#define TMACG_K8S_CACHE_H

#include <stdbool.h>
#include <stdint.h>

#include "k8s/k8s_identity.h"
#include "util/u64map.h"

struct k8s_cache_entry {
	struct k8s_identity id; /* its resource points into this entry: entries never move */
	unsigned long scans;	/* k8s_logs_scans() when resolved */
};

struct k8s_cache {
	struct u64map entries;	/* cgroup id -> struct k8s_cache_entry * */
	struct k8s_logs *logs;	/* not owned; NULL: ids only, no names */
	const char *host;	/* not owned; host.name, may be NULL */
	unsigned long resolves; /* identities computed so far (tests check the caching) */
};

void k8s_cache_init(struct k8s_cache *c, struct k8s_logs *logs, const char *host);
void k8s_cache_free(struct k8s_cache *c);

/* Rescans the log directories if they changed; 0 or -errno with the reason in err. */
int k8s_cache_refresh(struct k8s_cache *c, char *err, size_t errlen);

/*
 * The identity of cgroup id at path: cached, or resolved now when unknown,
 * or when incomplete and the logs were rescanned since.  NULL only when
 * memory runs out.
 */
const struct k8s_identity *k8s_cache_get(struct k8s_cache *c, uint64_t id, const char *path);

/* Forgets the entries whose cgroup alive() no longer knows. */
void k8s_cache_sweep(struct k8s_cache *c, bool (*alive)(uint64_t id, void *ctx), void *ctx);

/* Every name the kubelet's logs can give is known (or the cgroup is not Kubernetes). */
bool k8s_identity_complete(const struct k8s_identity *id);

#endif
