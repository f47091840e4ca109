// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * A synthetic fleet's exposition, for the cost of the recording rules
 * (tests/bench/fleet-cost): what the DaemonSet's tmacg with --prom-counts
 * and kube-state-metrics would serve for PODS pods, from one address.
 *   - tmacg_events_total{host, namespace, pod, event} for each event of
 *     EVENTS (a file, one name a line: the model's events at its level), each
 *     pod's counts a golden vector's (GOLDEN, cycled through), scaled by the
 *     pod's share of a CPU and growing with time as a busy pod's do;
 *   - tmacg_build_info of each host (50 pods a host);
 *   - kube_pod_owner of every pod and kube_replicaset_owner of every
 *     Deployment's ReplicaSet: 10 pods a workload, Deployments and
 *     StatefulSets in turn, in 10 namespaces.
 * The text is made again every PERIOD seconds (the counts grown by that),
 * and served at 127.0.0.1 on a free port, printed as "port N" once serving.
 * Runs until killed.
 *
 *   fleet_expo PODS GOLDEN.jsonl EVENTS MODEL TMA_VERSION PERIOD
 */
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "prom/prom_listen.h"
#include "prom/prom_server.h"

#define PODS_PER_HOST 50
#define PODS_PER_WORKLOAD 10
#define NAMESPACES 10
#define MAX_EVENTS 512
#define MAX_VECTORS 64

static char *event[MAX_EVENTS];
static int nevents;
/* Counts a second of each golden vector, by event. */
static double per_s[MAX_VECTORS][MAX_EVENTS];
static int nvectors;

static void die(const char *what)
{
	fprintf(stderr, "fleet_expo: %s\n", what);
	exit(2);
}

static void read_events(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[256];

	if (!f)
		die("cannot read the events file");
	while (fgets(line, sizeof(line), f) && nevents < MAX_EVENTS) {
		line[strcspn(line, "\n")] = '\0';
		if (line[0])
			event[nevents++] = strdup(line);
	}
	fclose(f);
	if (!nevents)
		die("no events in the events file");
}

/* Each line's counters divided by its interval_s; an event a vector lacks counts 0. */
static void read_golden(const char *path)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;

	if (!f)
		die("cannot read the golden vectors");
	while (getline(&line, &cap, f) > 0 && nvectors < MAX_VECTORS) {
		json_object *o = json_tokener_parse(line), *counters, *iv, *v;
		double interval;

		if (!o || !json_object_object_get_ex(o, "counters", &counters) ||
		    !json_object_object_get_ex(o, "interval_s", &iv))
			die("a golden line without counters or interval_s");
		interval = json_object_get_double(iv);
		for (int e = 0; e < nevents; e++)
			per_s[nvectors][e] = json_object_object_get_ex(counters, event[e], &v) ?
						     json_object_get_double(v) / interval :
						     0;
		nvectors++;
		json_object_put(o);
	}
	free(line);
	fclose(f);
	if (!nvectors)
		die("no golden vectors");
}

/* Pod p's workload, its name and its pod's name. */
static void names(int p, char *workload, char *pod, size_t len)
{
	int w = p / PODS_PER_WORKLOAD;

	snprintf(workload, len, "w%05d", w);
	if (w % 2 == 0)
		snprintf(pod, len, "w%05d-6c9f7d5b8-%05d", w, p); /* a Deployment's ReplicaSet's */
	else
		snprintf(pod, len, "w%05d-%d", w, p % PODS_PER_WORKLOAD); /* a StatefulSet's */
}

static char *exposition(int pods, const char *model, const char *version, double elapsed,
			size_t *len)
{
	char *text = NULL, workload[32], pod[64];
	FILE *f = open_memstream(&text, len);

	if (!f)
		die("out of memory");
	fputs("# TYPE tmacg_events_total counter\n", f);
	for (int p = 0; p < pods; p++) {
		const double *rate = per_s[p % nvectors];
		double cpus = 0.1 + (p % 9) / 10.0; /* a pod's share of a CPU */

		names(p, workload, pod, sizeof(pod));
		for (int e = 0; e < nevents; e++)
			fprintf(f,
				"tmacg_events_total{host=\"node-%04d\",namespace=\"ns-%d\","
				"pod=\"%s\",event=\"%s\"} %.0f\n",
				p / PODS_PER_HOST, (p / PODS_PER_WORKLOAD) % NAMESPACES, pod,
				event[e], floor(rate[e] * cpus * elapsed));
	}
	fputs("# TYPE tmacg_build_info gauge\n", f);
	for (int h = 0; h * PODS_PER_HOST < pods; h++)
		fprintf(f,
			"tmacg_build_info{host=\"node-%04d\",version=\"bench\",model=\"%s\","
			"tma_version=\"%s\",smt=\"true\",topdown_fixed=\"true\"} 1\n",
			h, model, version);
	fputs("# TYPE kube_pod_owner gauge\n", f);
	for (int p = 0; p < pods; p++) {
		int w = p / PODS_PER_WORKLOAD;

		names(p, workload, pod, sizeof(pod));
		fprintf(f,
			"kube_pod_owner{namespace=\"ns-%d\",pod=\"%s\",owner_kind=\"%s\","
			"owner_name=\"%s%s\",owner_is_controller=\"true\"} 1\n",
			w % NAMESPACES, pod, w % 2 ? "StatefulSet" : "ReplicaSet", workload,
			w % 2 ? "" : "-6c9f7d5b8");
	}
	fputs("# TYPE kube_replicaset_owner gauge\n", f);
	for (int w = 0; w * PODS_PER_WORKLOAD < pods; w += 2)
		fprintf(f,
			"kube_replicaset_owner{namespace=\"ns-%d\",replicaset=\"w%05d-6c9f7d5b8\","
			"owner_kind=\"Deployment\",owner_name=\"w%05d\","
			"owner_is_controller=\"true\"} 1\n",
			w % NAMESPACES, w, w);
	if (fclose(f))
		die("out of memory");
	return text;
}

int main(int argc, char **argv)
{
	struct prom_listen_addr a;
	struct prom_server *s;
	char bound[80], err[256];
	int pods, port = 0;
	double period;

	if (argc != 7)
		die("usage: fleet_expo PODS GOLDEN.jsonl EVENTS MODEL TMA_VERSION PERIOD");
	pods = atoi(argv[1]);
	period = atof(argv[6]);
	if (pods <= 0 || !(period > 0))
		die("PODS and PERIOD must be positive");
	read_events(argv[3]);
	read_golden(argv[2]);
	if (prom_listen_parse("127.0.0.1:0", &a, err, sizeof(err)) ||
	    !(s = prom_server_start(&a, bound, sizeof(bound), err, sizeof(err))) ||
	    sscanf(bound, "127.0.0.1:%d", &port) != 1)
		die(err);
	for (double elapsed = period;; elapsed += period) {
		size_t len;
		char *text = exposition(pods, argv[4], argv[5], elapsed, &len);

		if (prom_server_publish(s, text, len))
			die("out of memory");
		if (elapsed == period) {
			printf("port %d\n", port);
			fflush(stdout);
		}
		usleep((useconds_t)(period * 1e6));
	}
}
