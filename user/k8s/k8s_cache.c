// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "k8s/k8s_cache.h"

#include <stdlib.h>
#include <string.h>

void k8s_cache_init(struct k8s_cache *c, struct k8s_logs *logs, const char *host)
{
	memset(c, 0, sizeof(*c));
	u64map_init(&c->entries);
	c->logs = logs;
	c->host = host;
}

void k8s_cache_free(struct k8s_cache *c)
{
	size_t cur = 0;
	void *e;

	while (u64map_next(&c->entries, &cur, NULL, &e))
		free(e);
	u64map_free(&c->entries);
}

int k8s_cache_refresh(struct k8s_cache *c, char *err, size_t errlen)
{
	return c->logs ? k8s_logs_refresh(c->logs, err, errlen) : 0;
}

bool k8s_identity_complete(const struct k8s_identity *id)
{
	if (id->kind == K8S_NONE)
		return true;
	if (!id->res.k8s_namespace || !id->res.k8s_pod)
		return false;
	/* A sandbox is a guess from the names missing: look again after a rescan. */
	return id->kind != K8S_CONTAINER ? !id->sandbox : id->res.k8s_container != NULL;
}

static unsigned long scans_of(const struct k8s_cache *c)
{
	return c->logs ? k8s_logs_scans(c->logs) : 0;
}

const struct k8s_identity *k8s_cache_get(struct k8s_cache *c, uint64_t id, const char *path)
{
	struct k8s_cache_entry *e = u64map_get(&c->entries, id);
	bool fresh = !e;

	if (e && (k8s_identity_complete(&e->id) || e->scans == scans_of(c)))
		return &e->id;
	if (fresh) {
		e = calloc(1, sizeof(*e));
		if (!e)
			return NULL;
	}
	/* Only -EINVAL on NULL arguments, which path and e are not. */
	k8s_identity_lookup(c->logs, c->host, path, &e->id);
	e->scans = scans_of(c);
	c->resolves++;
	if (fresh && u64map_put(&c->entries, id, e)) {
		free(e);
		return NULL;
	}
	return &e->id;
}

struct sweep {
	bool (*alive)(uint64_t id, void *ctx);
	void *ctx;
};

static bool keep_alive(uint64_t id, void *e, void *ctx)
{
	const struct sweep *sw = ctx;

	if (sw->alive(id, sw->ctx))
		return true;
	free(e);
	return false;
}

void k8s_cache_sweep(struct k8s_cache *c, bool (*alive)(uint64_t id, void *ctx), void *ctx)
{
	struct sweep sw = { alive, ctx };

	u64map_retain(&c->entries, keep_alive, &sw);
}
