/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * Names of pods and containers from the kubelet's log directories, the only
 * place on a node that maps ids to names without asking the API server or the
 * runtime (both need credentials or sockets tmacg should not hold):
 *   <containers>/<pod>_<namespace>_<container>-<64 hex id>.log  (container id -> names)
 *   <pods>/<namespace>_<pod>_<uid>/                              (pod uid -> names)
 * Only directory entries are read, never the logs themselves.
 */
#ifndef TMACG_K8S_LOGS_H
#define TMACG_K8S_LOGS_H

#include <stdbool.h>
#include <stddef.h>

#include "k8s/k8s_path.h"

#define K8S_LOGS_CONTAINERS_DIR "/var/log/containers"
#define K8S_LOGS_PODS_DIR "/var/log/pods"

/* Kubernetes limits: namespaces and containers are DNS labels, pods DNS subdomains. */
#define K8S_NAMESPACE_MAX 63
#define K8S_POD_NAME_MAX 253
#define K8S_CONTAINER_NAME_MAX 63

struct k8s_log_container {
	char id[K8S_CONTAINER_ID_LEN + 1];
	char ns[K8S_NAMESPACE_MAX + 1];
	char pod[K8S_POD_NAME_MAX + 1];
	char container[K8S_CONTAINER_NAME_MAX + 1];
};

struct k8s_log_pod {
	char uid[K8S_UID_MAX + 1];
	char ns[K8S_NAMESPACE_MAX + 1];
	char pod[K8S_POD_NAME_MAX + 1];
};

struct k8s_logs;

/*
 * Directories NULL: the defaults above.  Scans both once; a missing directory
 * is not an error (names are then unknown).  NULL with the reason in err when
 * memory runs out or a directory exists but cannot be read.
 */
struct k8s_logs *k8s_logs_new(const char *containers_dir, const char *pods_dir, char *err,
			      size_t errlen);
void k8s_logs_free(struct k8s_logs *l);

/*
 * Rescans a directory only when its mtime, inode or presence changed, or its
 * last scan failed, or was too close to its mtime to be sure nothing followed
 * in the same clock tick (then again at most every 100 ms until the mtime is a
 * second old): a stat per directory when nothing changed.  0, or -errno with
 * the reason in err; the previous names stay in use on error.
 */
int k8s_logs_refresh(struct k8s_logs *l, char *err, size_t errlen);

/* Look-ups: NULL when unknown.  Pointers stay valid until the next refresh or free. */
const struct k8s_log_container *k8s_logs_container(const struct k8s_logs *l, const char *id);
const struct k8s_log_pod *k8s_logs_pod(const struct k8s_logs *l, const char *uid);

/* The containers directory existed at the last refresh. */
bool k8s_logs_have_containers(const struct k8s_logs *l);

/* Some entry of the containers directory belongs to pod ns/pod. */
bool k8s_logs_pod_has_containers(const struct k8s_logs *l, const char *ns, const char *pod);

/* Number of directory scans so far, to check that refreshes stay cheap. */
unsigned long k8s_logs_scans(const struct k8s_logs *l);

/* Entries that did not look like the kubelet's and were skipped at the last scans. */
unsigned long k8s_logs_skipped(const struct k8s_logs *l);

#endif
