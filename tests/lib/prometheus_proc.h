/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * Debian's `prometheus` started by a test on a free loopback port, with a
 * configuration the test writes, and its HTTP query API read with json-c:
 * the tests that hold PromQL (the dashboards', the recording rules') to a
 * real server.
 */
#ifndef TMACG_PROMETHEUS_PROC_H
#define TMACG_PROMETHEUS_PROC_H

#include <json-c/json.h>
#include <stdbool.h>
#include <sys/types.h>

struct prometheus_proc {
	pid_t pid; /* 0: not running */
	int port;
	char dir[256]; /* its config (prometheus.yml), data/ and prometheus.log */
};

/* True when prometheus and promtool are installed; else false, said on stderr. */
bool prometheus_installed(void);

/*
 * Writes config as dir/prometheus.yml and starts prometheus on it, its TSDB
 * in dir/data, its log in dir/prometheus.log; waits (up to 60 s: a loaded
 * machine) until it says it is ready.  0, or -1 with why on stderr and
 * nothing left running.
 */
int prometheus_start(struct prometheus_proc *p, const char *dir, const char *config);

/* Rereads the configuration and rule files (SIGHUP), as `kill -HUP` does. */
void prometheus_reload(const struct prometheus_proc *p);

/*
 * GET target of the HTTP API ("/api/v1/rules"): its data, for the caller to
 * json_object_put.  Fails the test when Prometheus does not answer
 * "success", showing what it said.
 */
json_object *prometheus_api(const struct prometheus_proc *p, const char *target);

/*
 * GET /api/v1/query of expr at time t (Unix seconds; 0: now): data.result,
 * for the caller to json_object_put.  Fails the test when Prometheus does
 * not answer "success", showing the expression and what it said.
 */
json_object *prometheus_query(const struct prometheus_proc *p, const char *expr, double t);

/* SIGTERM, then reaped; nothing when not running.  The directory is the caller's. */
void prometheus_stop(struct prometheus_proc *p);

#endif
