// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Cgroup paths come from the kernel and name anything a user or runtime
 * created: the parser must hold its invariants on any bytes.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "k8s/k8s_path.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *path = malloc(size + 1), pod[512];
	struct k8s_path kp;
	size_t len;

	if (!path)
		return 0;
	memcpy(path, data, size);
	path[size] = '\0';
	len = strlen(path);
	if (k8s_path_parse(path, &kp))
		abort();
	if (kp.kind == K8S_NONE) {
		if (kp.pod_uid[0] || kp.container_id[0] || kp.pod_path_len)
			abort();
	} else {
		size_t ulen = strlen(kp.pod_uid);

		if ((ulen != 32 && ulen != 36) || !kp.pod_path_len || kp.pod_path_len > len)
			abort();
		if (kp.kind == K8S_CONTAINER &&
		    (strlen(kp.container_id) != K8S_CONTAINER_ID_LEN ||
		     kp.container_path_len <= kp.pod_path_len || kp.container_path_len > len))
			abort();
		if (k8s_path_pod(path, pod, sizeof(pod)) == 0 &&
		    (strlen(pod) != kp.pod_path_len || memcmp(pod, path, kp.pod_path_len)))
			abort();
	}
	free(path);
	return 0;
}
