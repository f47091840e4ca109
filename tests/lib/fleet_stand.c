// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "fleet_stand.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "prom/prom_server.h"
#include "prom_test_server.h"
#include "repo_root.h"

/*
 * Each workload has a pod on each host, busy at different duties, so that a
 * workload's sums mix hosts and pods of unequal weight.
 */
const struct fleet_pod fleet_pods[FLEET_NPODS] = {
	{ "web-5d8f7b9c4-x2k9q", "ReplicaSet", "web-5d8f7b9c4", "web", 0, "0.12" },
	{ "web-5d8f7b9c4-p7m3z", "ReplicaSet", "web-5d8f7b9c4", "web", 1, "0.25" },
	{ "db-0", "StatefulSet", "db", "db", 0, "0.2" },
	{ "db-1", "StatefulSet", "db", "db", 1, "0.08" },
};
const char *const fleet_workloads[FLEET_NWORKLOADS] = { "web", "db" };

/* Long enough for any run of the tests; the cgroups' removal ends the burners sooner. */
#define BURN_SECONDS "150"

bool fleet_stand_skips(void)
{
	char why[256];

	if (!itest_can_run(why, sizeof(why))) {
		fprintf(stderr, "  skipped: %s\n", why);
		return true;
	}
	return !prometheus_installed();
}

static void pod_uid(int i, char *uid, size_t len)
{
	snprintf(uid, len, "%08x-5eed-4f1e-8a7b-%012x", 0xf1ee7000u + i, 0xc0ffeeu + i);
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (!f || fputs(text, f) < 0 || fclose(f))
		fail_msg("cannot write %s: %s", path, strerror(errno));
}

static void make_dir(const char *fmt, ...)
{
	char path[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(path, sizeof(path), fmt, ap);
	va_end(ap);
	if (mkdir(path, 0755))
		fail_msg("mkdir %s: %s", path, strerror(errno));
}

/*
 * Pod i as the kubelet lays it out with the cgroupfs driver below a
 * --cgroup-root (<parent>/kubepods/burstable/pod<uid>/<container id>), its
 * burner started, and its log entries in its host's directories only: the
 * other host's tmacg sees the cgroup too (one machine) but cannot name it,
 * so its series there carry no pod label and join no workload.
 */
static void make_pod(struct fleet_stand *s, int i)
{
	const struct fleet_pod *p = &fleet_pods[i];
	char uid[40], id[65], pod[400], ctr[480], path[700];
	const char host = p->host ? 'b' : 'a';

	pod_uid(i, uid, sizeof(uid));
	snprintf(id, sizeof(id), "%08x%056x", 0xf1ee7c00u + i, 0x5eedu);
	snprintf(pod, sizeof(pod), "%s/kubepods/burstable/pod%s", s->parent, uid);
	snprintf(ctr, sizeof(ctr), "%s/%s", pod, id);
	assert_int_equal(itest_mkcg(pod), 0);
	assert_int_equal(itest_mkcg(ctr), 0);
	make_dir("%s/logs-%c/pods/%s_%s_%s", s->tmp, host, FLEET_NS, p->name, uid);
	snprintf(path, sizeof(path), "%s/logs-%c/containers/%s_%s_app-%s.log", s->tmp, host,
		 p->name, FLEET_NS, id);
	write_file(path, "");
	if (itest_burn_in(ctr, BURN_SECONDS, p->duty, NULL) <= 0)
		fail_msg("cannot start a burner in %s", ctr);
}

/* kube-state-metrics' series of the pods and the Deployment's ReplicaSet; the port. */
static int serve_kube_state_metrics(struct fleet_stand *s)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	int port;

	assert_non_null(f);
	fputs("# HELP kube_pod_owner Information about the Pod's owner.\n"
	      "# TYPE kube_pod_owner gauge\n",
	      f);
	for (int i = 0; i < FLEET_NPODS; i++) {
		char uid[40];

		pod_uid(i, uid, sizeof(uid));
		fprintf(f,
			"kube_pod_owner{namespace=\"%s\",pod=\"%s\",uid=\"%s\",owner_kind=\"%s\","
			"owner_name=\"%s\",owner_is_controller=\"true\"} 1\n",
			FLEET_NS, fleet_pods[i].name, uid, fleet_pods[i].owner_kind,
			fleet_pods[i].owner_name);
	}
	fputs("# HELP kube_replicaset_owner Information about the ReplicaSet's owner.\n"
	      "# TYPE kube_replicaset_owner gauge\n"
	      "kube_replicaset_owner{namespace=\"" FLEET_NS "\",replicaset=\"web-5d8f7b9c4\","
	      "owner_kind=\"Deployment\",owner_name=\"web\",owner_is_controller=\"true\"} 1\n",
	      f);
	assert_int_equal(fclose(f), 0);
	s->ksm = prom_test_server_start(&port);
	assert_int_equal(prom_server_publish(s->ksm, text, len), 0);
	return port;
}

/* tmacg for host ("a" or "b") on its own log directories; its port. */
static int start_tmacg(struct fleet_stand *s, int h)
{
	char containers[128], pods[128];
	const char *host = h ? "b" : "a";
	const char *args[] = { "--host",      host,
			       "--model",     FLEET_MODEL,
			       "--level",     FLEET_LEVEL,
			       "--k8s",	      "--k8s-logs-containers",
			       containers,    "--k8s-logs-pods",
			       pods,	      "--listen",
			       "127.0.0.1:0", "--prom-counts",
			       "--format",    "none",
			       "--interval",  "1s",
			       NULL };
	const char *at;
	int port = 0;

	snprintf(containers, sizeof(containers), "%s/logs-%s/containers", s->tmp, host);
	snprintf(pods, sizeof(pods), "%s/logs-%s/pods", s->tmp, host);
	if (itest_tmacg_start(&s->tmacg[h], args))
		fail_msg("tmacg --host %s did not start:\n%s", host, s->tmacg[h].err);
	at = strstr(s->tmacg[h].err, "serving Prometheus metrics at http://127.0.0.1:");
	if (!at || sscanf(at, "serving Prometheus metrics at http://127.0.0.1:%d/", &port) != 1)
		fail_msg("tmacg --host %s: no address served:\n%s", host, s->tmacg[h].err);
	itest_tmacg_drain(&s->tmacg[h]);
	return port;
}

/* The rules for the stand-in, from the tmacg under test. */
static void write_rules(struct fleet_stand *s)
{
	char cmd[1024];
	int st;

	snprintf(s->rules, sizeof(s->rules), "%s/prom/rules-0.yml", s->tmp);
	snprintf(cmd, sizeof(cmd),
		 "TMACG_MODEL_DIR=%s/model %s --prometheus-rules --model " FLEET_MODEL
		 " --level " FLEET_LEVEL " --rules-window " FLEET_WINDOW " >%s 2>%s/prom/rules.err",
		 s->tmp, getenv("TMACG"), s->rules, s->tmp);
	st = system(cmd);
	if (st) {
		snprintf(cmd, sizeof(cmd), "cat %s/prom/rules.err >&2", s->tmp);
		if (system(cmd))
			fprintf(stderr, "(and no stderr to show)\n");
		fail_msg("tmacg --prometheus-rules failed (status %d)", st);
	}
}

static void start_prometheus(struct fleet_stand *s, const int port[3])
{
	char config[2048], dir[128];

	/* Scrapes and evaluations every second: the rules' window holds a score of scrapes. */
	snprintf(config, sizeof(config),
		 "global:\n"
		 "  scrape_interval: 1s\n"
		 "  scrape_timeout: 1s\n"
		 "  evaluation_interval: 1s\n"
		 "rule_files:\n"
		 "  - %s/prom/rules-*.yml\n"
		 "scrape_configs:\n"
		 "  - job_name: tmacg\n"
		 "    static_configs:\n"
		 "      - targets: ['127.0.0.1:%d', '127.0.0.1:%d']\n"
		 "  - job_name: kube-state-metrics\n"
		 "    honor_labels: true\n"
		 "    static_configs:\n"
		 "      - targets: ['127.0.0.1:%d']\n",
		 s->tmp, port[0], port[1], port[2]);
	snprintf(dir, sizeof(dir), "%s/prom", s->tmp);
	if (prometheus_start(&s->prom, dir, config))
		fail_msg("prometheus did not start (%s)", dir);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static size_t result_len(json_object *r)
{
	size_t n = json_object_array_length(r);

	json_object_put(r);
	return n;
}

/* The end of Prometheus's log on stderr, before a failure removes it. */
static void show_log(const struct fleet_stand *s)
{
	char cmd[400];

	snprintf(cmd, sizeof(cmd), "tail -n 20 %s/prometheus.log >&2", s->prom.dir);
	if (system(cmd))
		fprintf(stderr, "(no log of Prometheus's to show)\n");
}

/* Waits until every workload has the series of wait_for, or fails after 60 s. */
static void wait_for_workloads(struct fleet_stand *s, const char *wait_for)
{
	char expr[1024];
	double give_up = now_s() + 60;

	snprintf(expr, sizeof(expr), "count by (workload) (%s)", wait_for);
	while (result_len(prometheus_query(&s->prom, expr, 0)) < FLEET_NWORKLOADS) {
		if (now_s() > give_up) {
			show_log(s);
			fail_msg("no recorded series %s for %d workloads after 60 s", wait_for,
				 FLEET_NWORKLOADS);
		}
		sleep(1);
	}
}

/* The number of a [ts, "value"] pair of a query's answer. */
static double pair_number(json_object *pair, int i)
{
	json_object *v = json_object_array_get_idx(pair, i);

	return json_object_is_type(v, json_type_string) ? strtod(json_object_get_string(v), NULL) :
							  json_object_get_double(v);
}

/*
 * The latest time a scrape of tmacg's may have put samples in Prometheus
 * that are dated t or earlier: each target's last scrape dated t or earlier,
 * plus its scrape_duration_seconds, which runs from the scrape's start (the
 * samples' date) to their append; the commit follows at once.
 */
static double last_commit(struct fleet_stand *s, double t)
{
	json_object *r = prometheus_query(
		&s->prom, "timestamp(up{job=\"tmacg\"}) + scrape_duration_seconds{job=\"tmacg\"}",
		t);
	double last = -INFINITY;

	assert_int_equal(json_object_array_length(r), 2);
	for (size_t i = 0; i < 2; i++)
		last = fmax(last, pair_number(json_object_object_get(
						      json_object_array_get_idx(r, i), "value"),
					      1));
	json_object_put(r);
	return last;
}

/*
 * When the rule group's last finished evaluation began (wall clock, Unix
 * seconds; /api/v1/rules says it once the evaluation is done).  An
 * evaluation dated on or before it is complete: Prometheus dates each one
 * at the last multiple of the interval (offset by the group's hash) before
 * it begins, and runs them one after the other.
 */
static double last_finished(struct fleet_stand *s)
{
	json_object *data = prometheus_api(&s->prom, "/api/v1/rules?type=record"), *groups, *at;
	struct tm tm = { 0 };
	double sec = 0, t;

	assert_true(json_object_object_get_ex(data, "groups", &groups));
	assert_int_equal(json_object_array_length(groups), 1);
	assert_true(json_object_object_get_ex(json_object_array_get_idx(groups, 0),
					      "lastEvaluation", &at));
	if (sscanf(json_object_get_string(at), "%d-%d-%dT%d:%d:%lf", &tm.tm_year, &tm.tm_mon,
		   &tm.tm_mday, &tm.tm_hour, &tm.tm_min, &sec) != 6)
		fail_msg("lastEvaluation \"%s\" is not RFC 3339", json_object_get_string(at));
	tm.tm_year -= 1900;
	tm.tm_mon--;
	t = (double)timegm(&tm) + sec;
	json_object_put(data);
	return t;
}

/*
 * An evaluation time of the rules (a date of wait_for's samples) whose
 * evaluation is complete (every rule of the group recorded at it: they run
 * in order, after wait_for's) and at which every sample of the window had
 * been committed before the evaluation ran.  A scrape dated just before an
 * evaluation may still be appending when the evaluation reads: the rules
 * would not have seen a sample that a query made later sees.  The gap
 * between a target's scrapes and the group's evaluations is the same every
 * second (both are offsets Prometheus derives from hashes: the target's
 * labels, the rule file's name), so when the last evaluations are all too
 * close, the rules are loaded again under another file name, which moves
 * the group's evaluations.
 */
static double safe_eval_time(struct fleet_stand *s, const char *wait_for)
{
	char expr[1024];

	snprintf(expr, sizeof(expr), "%s[15s]", wait_for);
	for (int attempt = 1, waits = 0;; waits++) {
		double done = last_finished(s);
		json_object *r = prometheus_query(&s->prom, expr, 0), *values = NULL;
		int complete = 0;

		/* None: the evaluations of a loaded machine lag; waited for below. */
		if (json_object_array_length(r))
			values = json_object_object_get(json_object_array_get_idx(r, 0), "values");
		for (size_t i = values ? json_object_array_length(values) : 0; i-- > 0;) {
			double t = pair_number(json_object_array_get_idx(values, i), 0);

			if (t > done + 1e-3)
				continue; /* still being evaluated */
			complete++;
			/* Room for the commit after the append, and a late wake-up of the group. */
			if (last_commit(s, t) < t - 0.2) {
				json_object_put(r);
				return t;
			}
		}
		json_object_put(r);
		if (complete < 3 && waits < 60) {
			sleep(1); /* a loaded machine: evaluations finish late */
			continue;
		}
		if (complete < 3) {
			show_log(s);
			fail_msg("the rules finished %d evaluations recording %s in the last 15 s, "
				 "after 60 s of waiting",
				 complete, wait_for);
		}
		if (attempt == 4)
			fail_msg("every evaluation of the rules in 4 phases ran within 0.2 s of "
				 "a scrape's commit: a machine this loaded cannot tell which "
				 "samples the rules saw");
		{
			char moved[300];

			snprintf(moved, sizeof(moved), "%s/prom/rules-%d.yml", s->tmp, attempt++);
			assert_int_equal(rename(s->rules, moved), 0);
			snprintf(s->rules, sizeof(s->rules), "%s", moved);
			prometheus_reload(&s->prom);
			waits = 0;
			sleep(3); /* the group's new evaluations */
		}
	}
}

void fleet_stand_up(struct fleet_stand *s, const char *wait_for)
{
	char root[4096], cmd[8192], out[256];
	int port[3];
	double started;

	memset(s, 0, sizeof(*s));
	snprintf(s->tmp, sizeof(s->tmp), "/tmp/tmacg-fleet-XXXXXX");
	assert_non_null(mkdtemp(s->tmp));
	make_dir("%s/model", s->tmp);
	make_dir("%s/prom", s->tmp);
	for (const char *h = "ab"; *h; h++) {
		make_dir("%s/logs-%c", s->tmp, *h);
		make_dir("%s/logs-%c/pods", s->tmp, *h);
		make_dir("%s/logs-%c/containers", s->tmp, *h);
	}
	assert_int_equal(repo_root(root, sizeof(root)), 0);
	snprintf(cmd, sizeof(cmd), "%s/tests/bench/standin-model icx %s/model", root, s->tmp);
	if (itest_shell(cmd, out, sizeof(out)) || !strstr(out, FLEET_MODEL))
		fail_msg("%s: %s", cmd, out);
	write_rules(s);

	itest_parent_name(s->parent, sizeof(s->parent), "fleet");
	assert_int_equal(itest_mkcg(s->parent), 0);
	snprintf(cmd, sizeof(cmd), "%s/kubepods", s->parent);
	assert_int_equal(itest_mkcg(cmd), 0);
	snprintf(cmd, sizeof(cmd), "%s/kubepods/burstable", s->parent);
	assert_int_equal(itest_mkcg(cmd), 0);
	for (int i = 0; i < FLEET_NPODS; i++)
		make_pod(s, i);

	snprintf(cmd, sizeof(cmd), "%s/model", s->tmp);
	setenv("TMACG_MODEL_DIR", cmd, 1);
	port[0] = start_tmacg(s, 0);
	port[1] = start_tmacg(s, 1);
	unsetenv("TMACG_MODEL_DIR");
	port[2] = serve_kube_state_metrics(s);
	start_prometheus(s, port);
	started = now_s();
	wait_for_workloads(s, wait_for);
	/* A full window of scrapes behind the evaluation compared. */
	while (now_s() < started + FLEET_WINDOW_S + 2)
		sleep(1);
	s->t = safe_eval_time(s, wait_for);
}

void fleet_stand_down(struct fleet_stand *s)
{
	char cmd[128];

	prometheus_stop(&s->prom);
	for (int h = 0; h < 2; h++)
		if (s->tmacg[h].pid > 0) {
			itest_tmacg_stop(&s->tmacg[h], SIGTERM);
			itest_tmacg_free(&s->tmacg[h]);
			s->tmacg[h].pid = 0;
		}
	if (s->ksm) {
		prom_server_stop(s->ksm);
		s->ksm = NULL;
	}
	if (s->parent[0]) {
		itest_rmcg(s->parent);
		s->parent[0] = '\0';
	}
	if (s->tmp[0]) {
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", s->tmp);
		if (system(cmd))
			fprintf(stderr, "could not remove %s\n", s->tmp);
		s->tmp[0] = '\0';
	}
}
