// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "k8s/k8s_classify.h"

#include <string.h>

#include "k8s/k8s_path.h"

/* Whether the parent of path (all but its last component) is a kubepods or QoS level. */
static bool parent_is_pod_parent(const char *path)
{
	char parent[4096];
	size_t len = strlen(path);

	while (len && path[len - 1] == '/')
		len--;
	while (len && path[len - 1] != '/')
		len--;
	if (!len || len >= sizeof(parent))
		return false;
	memcpy(parent, path, len);
	parent[len] = '\0';
	return k8s_path_is_pod_parent(parent);
}

enum k8s_class k8s_classify_path(const char *path)
{
	struct k8s_path kp;

	if (!path || k8s_path_parse(path, &kp))
		return K8S_CLASS_NONE;
	switch (kp.kind) {
	case K8S_POD:
		return K8S_CLASS_POD;
	case K8S_POD_OTHER:
		return K8S_CLASS_INSIDE;
	case K8S_CONTAINER:
		/* Only the scope itself: what lies below it rolls up into it. */
		return path[kp.container_path_len] ? K8S_CLASS_INSIDE : K8S_CLASS_CONTAINER;
	default:
		break;
	}
	/*
	 * Not a pod, yet where the kubelet puts pods (a uid it did not write,
	 * a newer naming scheme): reported by path rather than lost.
	 */
	if (!k8s_path_is_pod_parent(path) && parent_is_pod_parent(path))
		return K8S_CLASS_UNMAPPED;
	return K8S_CLASS_NONE;
}

const char *k8s_class_name(enum k8s_class c)
{
	static const char *const names[] = { "none", "pod", "container", "inside", "unmapped" };

	return k8s_enum_name(c, names, K8S_NAMES(names));
}
