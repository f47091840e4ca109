/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * --k8s: the glue between the cgroup tree, the report and the Kubernetes
 * identity.  It chooses the reported cgroups (a classifier on the tree: pods,
 * with --k8s-level container their containers too, sandboxes folded into
 * their pod) and names each line (k8s_monitor_identify), caching the identity
 * per cgroup id.  Kubernetes cgroups are found at any depth: a kubepods
 * component anywhere in the path (kind, minikube, a test's own parent).
 */
#ifndef TMACG_K8S_MONITOR_H
#define TMACG_K8S_MONITOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct cgroup_tree;
struct cgroup_node;
struct resource;
struct k8s_monitor;

struct k8s_monitor_config {
	bool containers;	    /* --k8s-level container */
	const char *log_containers; /* NULL: /var/log/containers */
	const char *log_pods;	    /* NULL: /var/log/pods */
	const char *host;	    /* host.name; NULL: none (the report adds its own) */
	FILE *notes;		    /* where the one-time notes go (stderr); NULL: nowhere */
};

/* NULL with the reason in err (a log directory exists but cannot be read, no memory). */
struct k8s_monitor *k8s_monitor_new(const struct k8s_monitor_config *cfg, char *err, size_t errlen);
void k8s_monitor_free(struct k8s_monitor *km);

/* Installs the classifier on t (before its first scan).  km must outlive t's use. */
void k8s_monitor_install(struct k8s_monitor *km, struct cgroup_tree *t);

/*
 * The Kubernetes identity of n (ctx: the k8s_monitor), NULL when none: the
 * report's identity callback (report_set_identify).
 */
const struct resource *k8s_monitor_identify(const struct cgroup_node *n, void *ctx);

/*
 * Once per interval, before the cgroups created meanwhile are added and the
 * counts attributed: refreshes the log directories (a stat each when
 * unchanged), decides again the container scopes whose sandbox status was a
 * guess, forgets identities of cgroups the tree no longer knows, and notes
 * once on the notes stream when no Kubernetes cgroup exists yet.
 */
void k8s_monitor_interval(struct k8s_monitor *km);

/* Kubernetes cgroups (pods, containers, unmapped) classified so far. */
unsigned long k8s_monitor_seen(const struct k8s_monitor *km);

/* Identities cached now (removed cgroups are forgotten at the next interval). */
size_t k8s_monitor_cached(const struct k8s_monitor *km);

#endif
