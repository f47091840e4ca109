// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "k8s/k8s_identity.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/*
 * Sandbox ("pause") containers: every pod has one, created by the runtime
 * before the pod's containers, holding its namespaces.  It gets a container
 * scope like any other, but the kubelet writes no log for it, so it has no
 * /var/log/containers entry.  Rule: a container scope whose id has no entry
 * there (after a refresh, so a container started since the last one is
 * found) is the pod's sandbox and is reported as part of the pod (no
 * container fields) when the pod's names are known from /var/log/pods and
 * other containers of that pod do have entries: the log directories are
 * mounted and complete for this pod.  Otherwise (directories missing or
 * empty, a pod whose first container has not started yet) nothing can be
 * told apart and the scope stays a container known by its id.
 */
static void resolve_container(struct k8s_logs *logs, bool refresh, bool pod_known,
			      struct k8s_identity *id)
{
	const struct k8s_log_container *c = k8s_logs_container(logs, id->path.container_id);

	/* A miss may be a container started since the last refresh. */
	if (!c && logs && refresh && !k8s_logs_refresh(logs, NULL, 0))
		c = k8s_logs_container(logs, id->path.container_id);
	if (c) {
		strcpy(id->container, c->container);
		id->res.k8s_container = id->container;
		id->res.container_id = id->path.container_id;
		/* The pod's names, should /var/log/pods lack it. */
		strcpy(id->ns, c->ns);
		strcpy(id->pod, c->pod);
		return;
	}
	if (pod_known && k8s_logs_have_containers(logs) &&
	    k8s_logs_pod_has_containers(logs, id->ns, id->pod)) {
		id->sandbox = true;
		id->kind = K8S_POD_OTHER;
		return;
	}
	id->res.container_id = id->path.container_id;
}

static int resolve(struct k8s_logs *logs, bool refresh, const char *host, const char *cgroup_path,
		   struct k8s_identity *id)
{
	const struct k8s_log_pod *p;
	int err;

	if (!cgroup_path || !id)
		return -EINVAL;
	memset(id, 0, sizeof(*id));
	id->res.host = host;
	err = k8s_path_parse(cgroup_path, &id->path);
	if (err)
		return err;
	id->kind = id->path.kind;
	if (id->kind == K8S_NONE)
		return 0;
	id->res.k8s_pod_uid = id->path.pod_uid;
	p = k8s_logs_pod(logs, id->path.pod_uid);
	if (!p && logs && refresh && !k8s_logs_refresh(logs, NULL, 0))
		p = k8s_logs_pod(logs, id->path.pod_uid);
	if (p) {
		strcpy(id->ns, p->ns);
		strcpy(id->pod, p->pod);
	}
	/* Container look-ups may refresh the logs, freeing p: only its copy is used. */
	if (id->kind == K8S_CONTAINER)
		resolve_container(logs, refresh, p != NULL, id);
	if (id->ns[0])
		id->res.k8s_namespace = id->ns;
	if (id->pod[0])
		id->res.k8s_pod = id->pod;
	return 0;
}

int k8s_identity_resolve(struct k8s_logs *logs, const char *host, const char *cgroup_path,
			 struct k8s_identity *id)
{
	return resolve(logs, true, host, cgroup_path, id);
}

int k8s_identity_lookup(struct k8s_logs *logs, const char *host, const char *cgroup_path,
			struct k8s_identity *id)
{
	return resolve(logs, false, host, cgroup_path, id);
}
