/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * A fleet on one machine, for the tests that hold the recording rules
 * (tmacg --prometheus-rules) and the workload dashboard to a real
 * Prometheus: pods of two workloads (a Deployment's, through its
 * ReplicaSet, and a StatefulSet's) in cgroups named as the kubelet names
 * them, each with a burner; two live tmacg, hosts "a" and "b", each naming
 * its own pods (its own kubelet log directories); kube-state-metrics'
 * series of those pods, served by the test; and Prometheus scraping all
 * three every second and evaluating the rules every second.
 */
#ifndef TMACG_FLEET_STAND_H
#define TMACG_FLEET_STAND_H

#include <stdbool.h>

#include "itest.h"
#include "prometheus_proc.h"

#define FLEET_NS "shop"
#define FLEET_NPODS 4
#define FLEET_NWORKLOADS 2
/* The rules' window (--rules-window): room for a dozen scrapes, a short test. */
#define FLEET_WINDOW "20s"
#define FLEET_WINDOW_S 20
#define FLEET_MODEL "icxsw" /* icx's software stand-in (tests/bench/standin-model) */
#define FLEET_LEVEL "3"

struct fleet_pod {
	const char *name;
	const char *owner_kind, *owner_name; /* kube_pod_owner's */
	const char *workload;		     /* what the rules call its workload */
	int host;			     /* 0: "a", 1: "b" */
	const char *duty;		     /* of a CPU, its burner's */
};

extern const struct fleet_pod fleet_pods[FLEET_NPODS];
extern const char *const fleet_workloads[FLEET_NWORKLOADS];

struct prom_server;

struct fleet_stand {
	char tmp[64];	  /* the stand-in model, the log directories, Prometheus's */
	char parent[128]; /* the cgroup holding the pods */
	char rules[300];  /* the rules file Prometheus loads */
	struct itest_tmacg tmacg[2];
	struct prom_server *ksm;
	struct prometheus_proc prom;
	/*
	 * An evaluation time of the rules at which every sample of the window
	 * was in Prometheus before the evaluation ran (see fleet_stand.c).
	 */
	double t;
};

/*
 * Skips (true, with why on stderr) when the stand cannot run here: not root,
 * no BPF, no prometheus.
 */
bool fleet_stand_skips(void);

/*
 * Everything above started, and s->t chosen once every workload has the
 * recorded series wait_for names (a PromQL selector) and the window is
 * full.  Fails the test when something does not come up; fleet_stand_down
 * then removes what did.
 */
void fleet_stand_up(struct fleet_stand *s, const char *wait_for);

/* Stops and removes everything the stand started or made, whatever state it is in. */
void fleet_stand_down(struct fleet_stand *s);

#endif
