/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * Which cgroups --k8s reports, from the path alone: pods (their containers,
 * sandbox included, rolled up), container scopes (reported with
 * --k8s-level container unless found to be a sandbox), and cgroups standing
 * where a pod should be but that do not parse as one (reported by path so
 * their CPU time is never lost).
 */
#ifndef TMACG_K8S_CLASSIFY_H
#define TMACG_K8S_CLASSIFY_H

enum k8s_class {
	K8S_CLASS_NONE,	     /* not Kubernetes, or a kubepods/QoS level: not reported */
	K8S_CLASS_POD,	     /* a pod's own cgroup */
	K8S_CLASS_CONTAINER, /* a container scope itself */
	K8S_CLASS_INSIDE,    /* deeper in a pod or container (conmon, nested): rolled up */
	K8S_CLASS_UNMAPPED,  /* a child of a kubepods or QoS level that is not a pod */
};

/* NULL gives K8S_CLASS_NONE. */
enum k8s_class k8s_classify_path(const char *path);

const char *k8s_class_name(enum k8s_class c); /* "pod", "container", ... */

#endif
