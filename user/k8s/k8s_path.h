/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * Kubernetes identity from a cgroup path alone, as the kubelet names its
 * cgroups with either cgroup driver:
 *   systemd:  kubepods.slice/kubepods-<qos>.slice/kubepods-<qos>-pod<uid>.slice/<rt>-<id>.scope
 *   cgroupfs: kubepods/<qos>/pod<uid>/<id>
 * Guaranteed pods sit directly below the kubepods root.  The root is taken
 * only where the kubelet puts it: at level 1, or at level 2 below its
 * --cgroup-root (kind: /kubelet.slice/kubelet-kubepods.slice, /kubelet/kubepods).
 * Deeper "kubepods" are anyone's to create in a delegated subtree: not pods.
 * Pure string work: no file is read, so the collector can call it for every
 * cgroup the mkdir tracepoint reports.
 */
#ifndef TMACG_K8S_PATH_H
#define TMACG_K8S_PATH_H

#include <stdbool.h>
#include <stddef.h>

/* "8-4-4-4-12" with dashes; static (mirror) pods have 32 hex digits instead. */
#define K8S_UID_MAX 36
#define K8S_CONTAINER_ID_LEN 64

enum k8s_kind {
	K8S_NONE,      /* not below a kubepods root, or the root/QoS level itself */
	K8S_POD,       /* the pod's own cgroup */
	K8S_POD_OTHER, /* below the pod, not a container scope (crio-conmon, unknown) */
	K8S_CONTAINER, /* a container scope, or a cgroup below one */
};

enum k8s_qos {
	K8S_QOS_UNKNOWN,
	K8S_QOS_GUARANTEED, /* no QoS level in the path */
	K8S_QOS_BURSTABLE,
	K8S_QOS_BESTEFFORT,
};

enum k8s_driver {
	K8S_DRIVER_UNKNOWN,
	K8S_DRIVER_SYSTEMD,
	K8S_DRIVER_CGROUPFS,
};

enum k8s_runtime {
	K8S_RUNTIME_UNKNOWN,	/* cgroupfs bare id: any runtime */
	K8S_RUNTIME_CONTAINERD, /* cri-containerd-<id> */
	K8S_RUNTIME_CRIO,	/* crio-<id> */
	K8S_RUNTIME_DOCKER,	/* docker-<id> */
};

struct k8s_path {
	enum k8s_kind kind;
	enum k8s_driver driver;
	enum k8s_qos qos;
	enum k8s_runtime runtime;
	char pod_uid[K8S_UID_MAX + 1];		     /* dashes, lowercase; "" if none */
	char container_id[K8S_CONTAINER_ID_LEN + 1]; /* bare 64 hex; "" if none */
	size_t pod_path_len;	   /* bytes of the path naming the pod cgroup; 0 if none */
	size_t container_path_len; /* bytes naming the container cgroup; 0 if none */
};

/*
 * Parses path ("/kubepods.slice/..." relative to the cgroup2 root, leading
 * slash optional).  0 with out->kind K8S_NONE for any path that is not a
 * Kubernetes pod or container (including malformed uids and ids at pod
 * level); -EINVAL if path or out is NULL.
 */
int k8s_path_parse(const char *path, struct k8s_path *out);

/* Whether the len bytes at s are all lowercase hex digits (ids as runtimes write them). */
bool k8s_all_hex(const char *s, size_t len);

/* names[v], or names[0] (the enum's "none" or "unknown") for a value out of range. */
static inline const char *k8s_enum_name(unsigned v, const char *const *names, size_t n)
{
	return v < n ? names[v] : names[0];
}
#define K8S_NAMES(names) (sizeof(names) / sizeof((names)[0]))

/*
 * The pod's cgroup path for a path inside a pod (container or deeper) or for
 * the pod itself, copied into buf.  0; -ENOENT when path is not inside a pod;
 * -ENAMETOOLONG when buf is too small; -EINVAL on NULL arguments.
 */
int k8s_path_pod(const char *path, char *buf, size_t len);

/*
 * The path ends at a level the kubelet creates above pods: a kubepods root
 * or a QoS level just below one.  A child of such a level that does not
 * parse as a pod is Kubernetes-looking but unmapped.  False on NULL.
 */
bool k8s_path_is_pod_parent(const char *path);

const char *k8s_kind_name(enum k8s_kind kind);	   /* "pod", "container", ... */
const char *k8s_qos_name(enum k8s_qos qos);	   /* "guaranteed", ... */
const char *k8s_runtime_name(enum k8s_runtime rt); /* "containerd", "cri-o", ... */

#endif
