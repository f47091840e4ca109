// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * --k8s classifies every cgroup path the kernel reports: on any bytes the
 * classes must agree with the path parser (a pod is a pod, an unmapped
 * cgroup is no pod and sits right below a level above pods).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "k8s/k8s_classify.h"
#include "k8s/k8s_path.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *path = malloc(size + 1);
	struct k8s_path kp;
	enum k8s_class c;

	if (!path)
		return 0;
	memcpy(path, data, size);
	path[size] = '\0';
	if (k8s_path_parse(path, &kp))
		abort();
	c = k8s_classify_path(path);
	if ((c == K8S_CLASS_POD) != (kp.kind == K8S_POD))
		abort();
	if (c == K8S_CLASS_CONTAINER && (kp.kind != K8S_CONTAINER || path[kp.container_path_len]))
		abort();
	if (c == K8S_CLASS_UNMAPPED && (kp.kind != K8S_NONE || k8s_path_is_pod_parent(path)))
		abort();
	if (k8s_path_is_pod_parent(path) && kp.kind == K8S_NONE && c != K8S_CLASS_NONE)
		abort();
	if (!strcmp(k8s_class_name(c), ""))
		abort();
	free(path);
	return 0;
}
