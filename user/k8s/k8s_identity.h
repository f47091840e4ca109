/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * A cgroup path -> the "resource" of a JSON line (OpenTelemetry names):
 * k8s.pod.uid and container.id from the path, namespace, pod and container
 * names from the kubelet's log directories, host.name from the caller.
 */
#ifndef TMACG_K8S_IDENTITY_H
#define TMACG_K8S_IDENTITY_H

#include <stdbool.h>
#include <stddef.h>

#include "k8s/k8s_logs.h"
#include "k8s/k8s_path.h"
#include "output/cgroup_record.h"

struct k8s_identity {
	struct resource res; /* points into this struct and to host: copy it with care */
	/*
	 * K8S_POD_OTHER also for a sandbox: a container scope folded into its pod
	 * (see k8s_identity_resolve).
	 */
	enum k8s_kind kind;
	bool sandbox;
	struct k8s_path path;
	char ns[K8S_NAMESPACE_MAX + 1];
	char pod[K8S_POD_NAME_MAX + 1];
	char container[K8S_CONTAINER_NAME_MAX + 1];
};

/*
 * Fills id for cgroup_path.  logs may be NULL (ids only, no names); host may
 * be NULL (no host.name).  A path that is not Kubernetes gives kind K8S_NONE
 * and a resource holding only host.name.  When a name is unknown the log
 * directories are refreshed once (a stat each when nothing changed) before
 * giving up, so a new pod is named on the interval it appears.  0, or -EINVAL
 * on NULL path or id.
 */
int k8s_identity_resolve(struct k8s_logs *logs, const char *host, const char *cgroup_path,
			 struct k8s_identity *id);

/*
 * As k8s_identity_resolve, without refreshing the log directories: for a
 * caller that refreshes them itself on its own schedule (once an interval).
 */
int k8s_identity_lookup(struct k8s_logs *logs, const char *host, const char *cgroup_path,
			struct k8s_identity *id);

#endif
