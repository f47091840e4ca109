// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * --listen end to end: tmacg on cgroups this test creates, scraped over
 * loopback with a plain socket (the test's own minimal HTTP client).  The
 * counter must agree with cpu.stat, a removed cgroup's series must go, the
 * text must pass promtool, the TMA series must carry node paths, --k8s
 * must label pods and containers while JSON lines still go to stdout, a
 * hostile client must be cut off without holding up scrapes or intervals,
 * and a port in use or a bad address must end tmacg with a message.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "itest.h"
#include "promtool.h"
#include "repo_root.h"
#include "test_models.h"

#define HOST "prom-test-host"

static char model_path[1024];
static char logs_left[64];

static int setup(void **state)
{
	if (test_model_find(model_path, sizeof(model_path), "software_test.tma"))
		return -1;
	return itest_group_setup(state);
}

static int cleanup(void **state)
{
	char cmd[128];

	if (logs_left[0]) {
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", logs_left);
		if (system(cmd))
			fprintf(stderr, "could not remove %s\n", logs_left);
		logs_left[0] = '\0';
	}
	return itest_cleanup(state);
}

struct http_reply {
	int status;
	char content_type[128];
	char *body;
};

/* One request over a fresh connection, read to EOF ("Connection: close"). */
static void http(int port, const char *method, const char *path, struct http_reply *r)
{
	struct sockaddr_in sin = { .sin_family = AF_INET,
				   .sin_port = htons(port),
				   .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	struct timeval tv = { .tv_sec = 10 };
	char req[256], chunk[65536], *all = NULL, *p, *head_end;
	size_t len = 0;
	ssize_t n;
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	memset(r, 0, sizeof(*r));
	assert_true(fd >= 0);
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	assert_int_equal(connect(fd, (struct sockaddr *)&sin, sizeof(sin)), 0);
	n = snprintf(req, sizeof(req),
		     "%s %s HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", method,
		     path);
	assert_int_equal(write(fd, req, n), n);
	while ((n = read(fd, chunk, sizeof(chunk))) > 0) {
		all = realloc(all, len + n + 1);
		memcpy(all + len, chunk, n);
		len += n;
		all[len] = '\0';
	}
	close(fd);
	assert_non_null(all);
	assert_int_equal(sscanf(all, "HTTP/1.%*d %d", &r->status), 1);
	head_end = strstr(all, "\r\n\r\n");
	assert_non_null(head_end);
	*head_end = '\0';
	for (p = strstr(all, "\r\n"); p; p = strstr(p + 2, "\r\n"))
		if (!strncasecmp(p + 2, "Content-Type:", 13))
			sscanf(p + 15, " %127[^\r]", r->content_type);
	r->body = strdup(head_end + 4);
	free(all);
}

static char *scrape(int port)
{
	struct http_reply r;

	http(port, "GET", "/metrics", &r);
	assert_int_equal(r.status, 200);
	assert_string_equal(r.content_type, "text/plain; version=0.0.4; charset=utf-8");
	return r.body;
}

/* The value of the sample "name{labels}", NAN when absent. */
static double sample(const char *text, const char *name, const char *labels)
{
	char needle[1024];
	const char *p;

	snprintf(needle, sizeof(needle), "\n%s{%s} ", name, labels);
	p = strstr(text, needle);
	return p ? strtod(p + strlen(needle), NULL) : NAN;
}

static void assert_close(double got, double want, const char *what)
{
	double tol = fmax(want * 0.02, 0.020);

	if (!(fabs(got - want) <= tol))
		fail_msg("%s: /metrics %.4f s, cpu.stat %.4f s (tolerance %.4f s)", what, got, want,
			 tol);
	printf("  %s: /metrics %.4f s, cpu.stat %.4f s\n", what, got, want);
}

/* Starts tmacg with --listen 127.0.0.1:0 and returns the port it says it bound. */
static int start_listening(struct itest_tmacg *t, const char *const args[])
{
	const char *at;
	int port = 0;

	setenv("TMACG_HOST", HOST, 1);
	assert_int_equal(itest_tmacg_start(t, args), 0);
	unsetenv("TMACG_HOST");
	at = strstr(t->err, "serving Prometheus metrics at http://127.0.0.1:");
	assert_non_null(at);
	assert_int_equal(
		sscanf(at, "serving Prometheus metrics at http://127.0.0.1:%d/metrics", &port), 1);
	assert_true(port > 0);
	itest_tmacg_drain(t);
	return port;
}

static void scrape_matches_cpu_stat_and_forgets_removed(void **state)
{
	char parent[128], keep[160], gone[160], mnt[300], lk[300], lg[300];
	const char *args[] = { "--pmu",	   "software",	 "--cgroup", mnt,	 "--depth",
			       "1",	   "--interval", "500ms",    "--listen", "127.0.0.1:0",
			       "--format", "none",	 NULL };
	struct itest_tmacg t;
	struct http_reply r;
	pid_t a, b;
	double keep_s, gone_s, before;
	char *text;
	int port;

	(void)state;
	ITEST_NEED_ROOT();
	itest_parent_name(parent, sizeof(parent), "prom");
	snprintf(keep, sizeof(keep), "%s/keep", parent);
	snprintf(gone, sizeof(gone), "%s/gone", parent);
	assert_int_equal(itest_mkcg(parent), 0);
	assert_int_equal(itest_mkcg(keep), 0);
	assert_int_equal(itest_mkcg(gone), 0);
	snprintf(mnt, sizeof(mnt), "%s/%s", itest_cgroup_mount(), parent);
	snprintf(lk, sizeof(lk), "host=\"" HOST "\",cgroup=\"/%s\"", keep);
	snprintf(lg, sizeof(lg), "host=\"" HOST "\",cgroup=\"/%s\"", gone);
	port = start_listening(&t, args);

	a = itest_burn_in(keep, "1", "0.5", NULL);
	b = itest_burn_in(gone, "0.5", "1", NULL);
	assert_int_equal(itest_wait(a), 0);
	assert_int_equal(itest_wait(b), 0);
	keep_s = itest_usage_usec(keep) / 1e6;
	gone_s = itest_usage_usec(gone) / 1e6;
	usleep(1200000); /* two intervals: both burners' time is in the served one */
	text = scrape(port);
	assert_close(sample(text, "tmacg_on_cpu_seconds_total", lk), keep_s, keep);
	assert_close(sample(text, "tmacg_on_cpu_seconds_total", lg), gone_s, gone);
	assert_true(sample(text, "tmacg_context_switches_total", lk) > 0);
	/* Idle in the interval served: no running_min sample (JSON's null), never a 0. */
	assert_true(isnan(sample(text, "tmacg_running_ratio_min", lk)));
	/* Host-wide: other cgroups coming and going here may have lost deltas. */
	assert_true(sample(text, "tmacg_dropped_total", "host=\"" HOST "\"") >= 0);
	assert_true(sample(text, "tmacg_interval_seconds", "host=\"" HOST "\"") > 0.4);
	assert_non_null(strstr(text, "\ntmacg_build_info{host=\"" HOST "\",version=\""));
	before = sample(text, "tmacg_on_cpu_seconds_total", lk);
	promtool_accepts(text); /* software mode; the next test skips without promtool */
	free(text);

	assert_int_equal(itest_rmcg(gone), 0);
	usleep(1600000); /* the removal's interval, then one without it */
	text = scrape(port);
	if (strstr(text, "/gone\""))
		fail_msg("a removed cgroup still has series:\n%s", text);
	/* Still reported, idle: the counter keeps its total (monotonic). */
	assert_true(sample(text, "tmacg_on_cpu_seconds_total", lk) >= before);
	assert_true(sample(text, "tmacg_on_cpu_seconds_total", lk) - before < 0.005);
	assert_true(sample(text, "tmacg_reported_cgroups", "host=\"" HOST "\"") == 2);
	free(text);

	http(port, "GET", "/nothing", &r);
	assert_int_equal(r.status, 404);
	free(r.body);
	/* Probes: alive, and ready once an interval has completed (several have). */
	http(port, "GET", "/healthz", &r);
	assert_int_equal(r.status, 200);
	free(r.body);
	http(port, "GET", "/readyz", &r);
	assert_int_equal(r.status, 200);
	assert_string_equal(r.body, "ready\n");
	free(r.body);
	http(port, "POST", "/metrics", &r);
	assert_int_equal(r.status, 405);
	free(r.body);
	http(port, "HEAD", "/metrics", &r);
	assert_int_equal(r.status, 200);
	assert_string_equal(r.body, "");
	free(r.body);

	assert_int_equal(itest_tmacg_stop(&t, SIGTERM), 0);
	assert_string_equal(t.out, ""); /* --format none */
	itest_tmacg_free(&t);
	assert_int_equal(itest_rmcg(parent), 0);
}

/*
 * Before its first interval ends (a minute here, the test takes a second)
 * tmacg is alive but not ready: a readiness probe keeps it out of the
 * Service's endpoints, a liveness probe does not restart it.
 */
static void alive_not_ready_before_the_first_interval(void **state)
{
	const char *args[] = { "--pmu",	   "software",	  "--depth",  "0",    "--interval", "60s",
			       "--listen", "127.0.0.1:0", "--format", "none", NULL };
	struct itest_tmacg t;
	struct http_reply r;
	int port;

	(void)state;
	ITEST_NEED_ROOT();
	port = start_listening(&t, args);
	http(port, "GET", "/healthz", &r);
	assert_int_equal(r.status, 200);
	assert_string_equal(r.body, "ok\n");
	free(r.body);
	http(port, "GET", "/readyz", &r);
	assert_int_equal(r.status, 503);
	assert_non_null(strstr(r.body, "not ready"));
	free(r.body);
	http(port, "HEAD", "/readyz", &r);
	assert_int_equal(r.status, 503);
	free(r.body);
	assert_int_equal(itest_tmacg_stop(&t, SIGTERM), 0);
	itest_tmacg_free(&t);
}

/*
 * Cgroup cg made (mnt: its path, which args name), tmacg started with args,
 * two busy threads in cg for two intervals, then one scrape; tmacg stopped
 * and cg removed.  The scrape's text.
 */
static char *scrape_while_burning(const char *cg, char *mnt, size_t mntlen,
				  const char *const args[])
{
	struct itest_tmacg t;
	pid_t burner;
	char *text;
	int port;

	assert_int_equal(itest_mkcg(cg), 0);
	snprintf(mnt, mntlen, "%s/%s", itest_cgroup_mount(), cg);
	port = start_listening(&t, args);
	burner = itest_burn_in(cg, "2", "1", "1");
	usleep(1300000); /* two intervals while it burns */
	text = scrape(port);
	assert_int_equal(itest_wait(burner), 0);
	assert_int_equal(itest_tmacg_stop(&t, SIGTERM), 0);
	itest_tmacg_free(&t);
	assert_int_equal(itest_rmcg(cg), 0);
	return text;
}

/* promtool, Prometheus's own checker, on a real scrape with a model's TMA series. */
static void scrape_passes_promtool_with_tma_series(void **state)
{
	char parent[128], cg[160], mnt[300], lab[400];
	const char *args[] = { "--model-file",
			       model_path,
			       "--level",
			       "3",
			       "--cgroup",
			       mnt,
			       "--interval",
			       "500ms",
			       "--listen",
			       "127.0.0.1:0",
			       "--format",
			       "none",
			       NULL };
	double share;
	char *text;

	(void)state;
	ITEST_NEED_ROOT();
	itest_parent_name(parent, sizeof(parent), "promtma");
	snprintf(cg, sizeof(cg), "%s", parent);
	text = scrape_while_burning(cg, mnt, sizeof(mnt), args);

	snprintf(lab, sizeof(lab),
		 "host=\"" HOST "\",cgroup=\"/%s\",tma_node=\"CPU_Share\",level=\"1\"", cg);
	share = sample(text, "tmacg_tma_ratio", lab);
	if (!(share > 0.05 && share < 2.2))
		fail_msg("CPU_Share of two busy threads: %g in\n%s", share, text);
	/* Off_CPU is max(0, 1 - CPU_Share): the tree's nodes come from one evaluation. */
	snprintf(lab, sizeof(lab),
		 "host=\"" HOST "\",cgroup=\"/%s\",tma_node=\"Off_CPU\",level=\"1\"", cg);
	assert_true(fabs(sample(text, "tmacg_tma_ratio", lab) - fmax(0, 1 - share)) < 1e-9);
	snprintf(lab, sizeof(lab),
		 "host=\"" HOST "\",cgroup=\"/%s\",tma_node=\"CPU_Share.Computing\","
		 "level=\"2\"",
		 cg);
	assert_false(isnan(sample(text, "tmacg_tma_ratio", lab)));
	/* Over 0.5 one of the two level-1 nodes is flagged: the bottleneck starts there. */
	snprintf(lab, sizeof(lab),
		 "\ntmacg_bottleneck_info{host=\"" HOST "\",cgroup=\"/%s\","
		 "bottleneck=\"%s",
		 cg, share > 0.5 ? "CPU_Share" : "Off_CPU");
	if (fabs(share - 0.5) > 1e-6 && !strstr(text, lab))
		fail_msg("no %s...\" in\n%s", lab + 1, text);
	assert_non_null(strstr(text, "\n# TYPE tmacg_tma_ratio gauge\n"));
	/* The model's counts are counters only (issue 20: they leaked in as level="0"). */
	assert_null(strstr(text, "level=\"0\""));
	assert_null(strstr(text, "tma_node=\"context_switches\""));
	/* No SLOTS in the software model: no slot counters. */
	assert_null(strstr(text, "tmacg_topdown_slots_total"));
	snprintf(lab, sizeof(lab), "host=\"" HOST "\",cgroup=\"/%s\"", cg);
	assert_true(sample(text, "tmacg_running_ratio_min", lab) == 1);

	if (!promtool_accepts(text)) {
		free(text);
		skip();
	}
	free(text);
}

/*
 * --prom-counts: the model's counts on /metrics are the JSON lines' counts of the
 * same cgroup summed over the intervals up to the one served (the same k for every
 * count), and the counts that are not events (context_switches) have none.
 */
static void prom_counts_are_the_json_counts(void **state)
{
	static const char *const events[] = { "SW.CONTEXT_SWITCHES", "SW.CPU_CLOCK",
					      "SW.CPU_MIGRATIONS", "SW.PAGE_FAULTS" };
	char cg[160], mnt[300], lab[512], path[200];
	const char *args[] = { "--pmu",		"software", "--cgroup", mnt,
			       "--interval",	"500ms",    "--listen", "127.0.0.1:0",
			       "--prom-counts", "--format", "json",	NULL };
	double scraped[4], sum[4] = { 0 };
	struct itest_tmacg t;
	pid_t burner;
	char *text, *line, *save = NULL;
	int port, matched = 0, lines = 0;

	(void)state;
	ITEST_NEED_ROOT();
	itest_parent_name(cg, sizeof(cg), "promcounts");
	assert_int_equal(itest_mkcg(cg), 0);
	snprintf(mnt, sizeof(mnt), "%s/%s", itest_cgroup_mount(), cg);
	port = start_listening(&t, args);
	burner = itest_burn_in(cg, "2", "1", "1");
	usleep(1300000);
	text = scrape(port);
	assert_int_equal(itest_wait(burner), 0);
	assert_int_equal(itest_tmacg_stop(&t, SIGTERM), 0);
	for (int e = 0; e < 4; e++) {
		snprintf(lab, sizeof(lab), "host=\"" HOST "\",cgroup=\"/%s\",event=\"%s\"", cg,
			 events[e]);
		scraped[e] = sample(text, "tmacg_events_total", lab);
	}
	if (!(scraped[1] > 0))
		fail_msg("no tmacg_events_total of SW.CPU_CLOCK for /%s in\n%s", cg, text);
	assert_null(strstr(text, "event=\"context_switches\""));
	snprintf(path, sizeof(path), "\"cgroup\":\"/%s\"", cg);
	for (line = strtok_r(t.out, "\n", &save); line && !matched;
	     line = strtok_r(NULL, "\n", &save)) {
		int same = 0;

		if (!strstr(line, path))
			continue;
		lines++;
		for (int e = 0; e < 4; e++) {
			char key[64];
			const char *at;

			snprintf(key, sizeof(key), "\"%s\":", events[e]);
			at = strstr(line, key);
			if (at && strncmp(at + strlen(key), "null", 4))
				sum[e] += strtod(at + strlen(key), NULL);
			same += sum[e] == scraped[e] || (isnan(scraped[e]) && sum[e] == 0);
		}
		matched = same == 4;
	}
	if (!matched)
		fail_msg("/metrics' counts (%.17g, %.17g, %.17g, %.17g) are no sum of the first "
			 "of %d JSON lines of /%s",
			 scraped[0], scraped[1], scraped[2], scraped[3], lines, cg);
	printf("  /metrics' counts: the sum of the first %d JSON lines\n", lines);
	free(text);
	itest_tmacg_free(&t);
	assert_int_equal(itest_rmcg(cg), 0);
}

/*
 * The value of the tma_groups label of a sample name{labels,tma_groups="G"}
 * in text (into g), or fails.
 */
static void groups_of(const char *text, const char *name, const char *labels, char *g, size_t len)
{
	char needle[1024];
	const char *p;
	size_t n;

	snprintf(needle, sizeof(needle), "\n%s{%s,tma_groups=\"", name, labels);
	p = strstr(text, needle);
	if (!p)
		fail_msg("no %s with tma_groups in\n%s", needle + 1, text);
	p += strlen(needle);
	n = strcspn(p, "\"");
	assert_true(n < len);
	memcpy(g, p, n);
	g[n] = '\0';
}

/*
 * --level 6 live, on the rotation fixture's model (software stand-ins,
 * planned as three groups that do not fit together, tests/fixtures/rotation):
 * every node down to level 6 has its ratio, labelled with the perf groups its
 * events are in as --list-events numbers them (Busy reads SW.CPU_CLOCK, of
 * group 1; Switches_per_busy_ms SW.CONTEXT_SWITCHES too, of group 0), and
 * each set of those groups its measured share, Busy's all of it (every group
 * enabled all the time, and the kernel never runs out of software
 * counters); promtool accepts the scrape.
 */
static void level_6_nodes_and_measured_share(void **state)
{
	char parent[128], mnt[300], lab[600], dir[4200], root[4096];
	const char *args[] = { "--model",  "rot",	 "--level", "6",	"--cgroup",
			       mnt,	   "--interval", "500ms",   "--listen", "127.0.0.1:0",
			       "--format", "none",	 NULL };
	const char *busy = "Switching.Faulting.Minor_Faulting.Busy";
	double measured;
	char *text, groups[64];

	(void)state;
	ITEST_NEED_ROOT();
	assert_int_equal(repo_root(root, sizeof(root)), 0);
	snprintf(dir, sizeof(dir), "%s/tests/fixtures/rotation", root);
	setenv("TMACG_MODEL_DIR", dir, 1);
	itest_parent_name(parent, sizeof(parent), "promrot");
	text = scrape_while_burning(parent, mnt, sizeof(mnt), args);
	unsetenv("TMACG_MODEL_DIR");

	snprintf(lab, sizeof(lab), "host=\"" HOST "\",cgroup=\"/%s\",tma_node=\"%s\",level=\"4\"",
		 parent, busy);
	groups_of(text, "tmacg_tma_ratio", lab, groups, sizeof(groups));
	assert_string_equal(groups, "1");
	snprintf(lab + strlen(lab), sizeof(lab) - strlen(lab), ",tma_groups=\"1\"");
	if (isnan(sample(text, "tmacg_tma_ratio", lab)))
		fail_msg("no level-4 Busy ratio in\n%s", text);
	snprintf(lab, sizeof(lab), "host=\"" HOST "\",cgroup=\"/%s\",tma_groups=\"1\"", parent);
	measured = sample(text, "tmacg_tma_measured_ratio", lab);
	if (!(measured > 0.99 && measured <= 1))
		fail_msg("Busy measured %g, want all the time, in\n%s", measured, text);
	snprintf(lab, sizeof(lab),
		 "host=\"" HOST "\",cgroup=\"/%s\",tma_node=\"%s.Migrating.Switches_per_busy_ms\","
		 "level=\"6\"",
		 parent, busy);
	groups_of(text, "tmacg_tma_ratio", lab, groups, sizeof(groups));
	assert_string_equal(groups, "0+1");
	snprintf(lab, sizeof(lab), "host=\"" HOST "\",cgroup=\"/%s\",tma_groups=\"0+1\"", parent);
	if (isnan(sample(text, "tmacg_tma_measured_ratio", lab)))
		fail_msg("no level-6 measured share in\n%s", text);
	assert_non_null(strstr(text, "\n# TYPE tmacg_tma_measured_ratio gauge\n"));
	if (!promtool_accepts(text)) {
		free(text);
		skip();
	}
	free(text);
}

/* --k8s: pods and containers by name, JSON lines still on stdout alongside. */
static void k8s_series_carry_pod_names(void **state)
{
	static const char uid[] = "7d3c9a1e-2b4f-4c6d-8e0f-1a2b3c4d5e6f";
	static const char id[] = "4f9a0000000000000000000000000000000000000000000000000000000003b4";
	char name[100], parent[128], pod[1024], ctr[1200], logs[64] = "/tmp/tmacg-prom-k8s-XXXXXX";
	char containers[128], pods[128], path[512], lab[1200];
	const char *args[] = { "--pmu",	      "software",	 "--k8s",
			       "--k8s-level", "container",	 "--k8s-logs-containers",
			       containers,    "--k8s-logs-pods", pods,
			       "--interval",  "500ms",		 "--listen",
			       "127.0.0.1:0", "--format",	 "json",
			       NULL };
	struct itest_tmacg t;
	char *text;
	int port, fd;

	(void)state;
	ITEST_NEED_ROOT();
	itest_parent_name(name, sizeof(name), "promk8s");
	/* A kind-style node: kubepods below <x>.slice, where the kubelet puts it there. */
	snprintf(parent, sizeof(parent), "%s.slice", name);
	snprintf(pod, sizeof(pod),
		 "%s/%s-kubepods.slice/%s-kubepods-besteffort.slice/"
		 "%s-kubepods-besteffort-pod7d3c9a1e_2b4f_4c6d_8e0f_1a2b3c4d5e6f.slice",
		 parent, name, name, name);
	snprintf(ctr, sizeof(ctr), "%s/cri-containerd-%s.scope", pod, id);
	assert_non_null(mkdtemp(logs));
	snprintf(logs_left, sizeof(logs_left), "%s", logs);
	snprintf(containers, sizeof(containers), "%s/containers", logs);
	snprintf(pods, sizeof(pods), "%s/pods", logs);
	assert_int_equal(mkdir(containers, 0755), 0);
	assert_int_equal(mkdir(pods, 0755), 0);
	snprintf(path, sizeof(path), "%s/shop_cart-1_%s", pods, uid);
	assert_int_equal(mkdir(path, 0755), 0);
	snprintf(path, sizeof(path), "%s/cart-1_shop_app-%s.log", containers, id);
	fd = open(path, O_CREAT | O_WRONLY, 0644);
	assert_true(fd >= 0);
	close(fd);
	{
		char part[1024];

		assert_int_equal(itest_mkcg(parent), 0);
		snprintf(part, sizeof(part), "%s/%s-kubepods.slice", parent, name);
		assert_int_equal(itest_mkcg(part), 0);
		snprintf(part, sizeof(part), "%s/%s-kubepods.slice/%s-kubepods-besteffort.slice",
			 parent, name, name);
		assert_int_equal(itest_mkcg(part), 0);
		assert_int_equal(itest_mkcg(pod), 0);
		assert_int_equal(itest_mkcg(ctr), 0);
	}
	port = start_listening(&t, args);
	assert_int_equal(itest_wait(itest_burn_in(ctr, "0.5", "0.5", NULL)), 0);
	usleep(1200000);
	text = scrape(port);
	assert_int_equal(itest_tmacg_stop(&t, SIGTERM), 0);

	snprintf(lab, sizeof(lab), "host=\"" HOST "\",namespace=\"shop\",pod=\"cart-1\"");
	if (!(sample(text, "tmacg_on_cpu_seconds_total", lab) > 0.1))
		fail_msg("no pod series {%s} in\n%s", lab, text);
	snprintf(lab, sizeof(lab),
		 "host=\"" HOST "\",namespace=\"shop\",pod=\"cart-1\","
		 "container=\"app\"");
	if (!(sample(text, "tmacg_on_cpu_seconds_total", lab) > 0.1))
		fail_msg("no container series {%s} in\n%s", lab, text);
	/* The JSON lines are still there, with the same names. */
	assert_non_null(strstr(t.out, "\"k8s.container.name\":\"app\""));
	free(text);
	itest_tmacg_free(&t);
	assert_int_equal(itest_rmcg(parent), 0);
	snprintf(path, sizeof(path), "rm -rf '%s'", logs);
	assert_int_equal(system(path), 0);
	logs_left[0] = '\0';
}

/* --top N: N cgroups and "(other)" per scrape, however many cgroups run. */
static void top_bounds_the_series(void **state)
{
	char parent[128], child[4][160], mnt[300];
	const char *args[] = { "--pmu",	   "software",	  "--cgroup", mnt,	    "--depth",
			       "1",	   "--top",	  "2",	      "--interval", "500ms",
			       "--listen", "127.0.0.1:0", "--format", "none",	    NULL };
	struct itest_tmacg t;
	pid_t burners[4];
	char *text;
	int port;

	(void)state;
	ITEST_NEED_ROOT();
	assert_int_equal(itest_make_parent("promtop", parent, sizeof(parent), mnt, sizeof(mnt)), 0);
	for (int i = 0; i < 4; i++) {
		snprintf(child[i], sizeof(child[i]), "%s/c%d", parent, i);
		assert_int_equal(itest_mkcg(child[i]), 0);
	}
	port = start_listening(&t, args);
	for (int i = 0; i < 4; i++)
		burners[i] = itest_burn_in(child[i], "1.5", "0.2", NULL);
	usleep(1200000);
	text = scrape(port);
	for (int i = 0; i < 4; i++)
		assert_int_equal(itest_wait(burners[i]), 0);
	assert_int_equal(itest_tmacg_stop(&t, SIGTERM), 0);
	itest_tmacg_free(&t);
	assert_int_equal(itest_rmcg(parent), 0);
	/* Five cgroups reported (the parent and four children): two, and the rest summed. */
	assert_true(sample(text, "tmacg_reported_cgroups", "host=\"" HOST "\"") == 3);
	{
		int n = 0;

		for (const char *p = text; (p = strstr(p, "\ntmacg_on_cpu_seconds_total{")); p++)
			n++;
		assert_int_equal(n, 3);
	}
	assert_false(isnan(sample(text, "tmacg_on_cpu_seconds_total",
				  "host=\"" HOST "\",cgroup=\"(other)\"")));
	free(text);
}

/* A connection to the server with a receive timeout of timeout_s seconds. */
static int connect_to(int port, int timeout_s)
{
	struct sockaddr_in sin = { .sin_family = AF_INET,
				   .sin_port = htons(port),
				   .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	struct timeval tv = { .tv_sec = timeout_s };
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	assert_true(fd >= 0);
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	assert_int_equal(connect(fd, (struct sockaddr *)&sin, sizeof(sin)), 0);
	return fd;
}

/*
 * Reads what the server sends until it closes the connection; fails the test
 * if it is still open after the receive timeout.  The status line's code in
 * *status (0 when nothing came).
 */
static void read_until_closed(int fd, int *status, const char *what)
{
	char buf[4096], head[64] = "";
	size_t got = 0;
	ssize_t n;

	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		if (got < sizeof(head) - 1) {
			size_t k = (size_t)n < sizeof(head) - 1 - got ? (size_t)n :
									sizeof(head) - 1 - got;

			memcpy(head + got, buf, k);
			head[got + k] = '\0';
		}
		got += n;
	}
	if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
		fail_msg("%s: the server kept the connection open", what);
	*status = 0;
	sscanf(head, "HTTP/1.%*d %d", status);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * What a hostile client can make the server do is bounded: 1 MB of headers or
 * a 1 MB body is refused and the connection closed (not buffered), a client
 * that stops mid-request is dropped at the 5 s request deadline, and meanwhile
 * scrapes are answered and the interval loop goes on printing lines.
 */
static void hostile_clients_are_bounded(void **state)
{
	char parent[128], mnt[300], line[1100], *text;
	const char *args[] = { "--pmu",	   "software",	 "--cgroup", mnt,	 "--depth",
			       "0",	   "--interval", "500ms",    "--listen", "127.0.0.1:0",
			       "--format", "json",	 NULL };
	static const char slow_req[] = "GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ";
	static const char body_req[] = "GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n"
				       "Content-Length: 1048576\r\n\r\n";
	struct itest_tmacg t;
	size_t sent = 0, nlines = 0;
	double slow_at, slow_closed;
	int port, fd, slow, status;

	(void)state;
	ITEST_NEED_ROOT();
	assert_int_equal(itest_make_parent("promhostile", parent, sizeof(parent), mnt, sizeof(mnt)),
			 0);
	port = start_listening(&t, args);

	/* Stops mid-header and stays silent. */
	slow = connect_to(port, 20);
	assert_int_equal(write(slow, slow_req, strlen(slow_req)), (ssize_t)strlen(slow_req));
	slow_at = now_s();

	/* 1 MB of headers: refused once past the limit, the connection closed. */
	fd = connect_to(port, 5);
	assert_int_equal(send(fd, "GET /metrics HTTP/1.1\r\n", 23, MSG_NOSIGNAL), 23);
	memset(line, 'a', sizeof(line));
	memcpy(line, "X-Pad: ", 7);
	memcpy(line + sizeof(line) - 2, "\r\n", 2);
	while (sent < 1 << 20) {
		ssize_t n = send(fd, line, sizeof(line), MSG_NOSIGNAL);

		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			fail_msg("the server neither read nor closed (%zu bytes sent)", sent);
		if (n < 0)
			break; /* EPIPE, ECONNRESET: closed, as it should */
		sent += n;
	}
	read_until_closed(fd, &status, "1 MB of headers");
	close(fd);
	printf("  1 MB of headers: closed after %zu bytes sent, status %d\n", sent, status);
	assert_int_not_equal(status, 200);

	/* A body announced as 1 MB: refused before it is read. */
	fd = connect_to(port, 5);
	assert_int_equal(write(fd, body_req, strlen(body_req)), (ssize_t)strlen(body_req));
	read_until_closed(fd, &status, "a 1 MB body");
	close(fd);
	assert_int_equal(status, 413);

	/* Scrapes still work, the silent client still connected. */
	text = scrape(port);
	assert_non_null(strstr(text, "\ntmacg_build_info{"));
	free(text);

	read_until_closed(slow, &status, "a client silent mid-request");
	slow_closed = now_s() - slow_at;
	close(slow);
	printf("  silent client closed after %.1f s\n", slow_closed);
	assert_true(slow_closed > 4 && slow_closed < 8);
	text = scrape(port);
	free(text);

	assert_int_equal(itest_tmacg_stop(&t, SIGTERM), 0);
	for (const char *p = t.out; (p = strchr(p, '\n')); p++)
		nlines++;
	/* About 10 intervals went by (5 s at 500 ms): the loop was never held up by the server. */
	printf("  %zu JSON lines in %.1f s\n", nlines, now_s() - slow_at);
	assert_true(nlines >= 7);
	itest_tmacg_free(&t);
	assert_int_equal(itest_rmcg(parent), 0);
}

/* Runs tmacg to its end; its exit code, stderr in err. */
static int run_tmacg(const char *listen, char *err, size_t len)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd),
		 "'%s' --pmu software --count 1 --interval 100ms --format none "
		 "--listen '%s' 2>&1 >/dev/null",
		 getenv("TMACG"), listen);
	return itest_shell(cmd, err, len);
}

static void bad_listen_ends_with_a_message(void **state)
{
	struct sockaddr_in sin = { .sin_family = AF_INET,
				   .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(sin);
	char err[2048], spec[64];
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	(void)state;
	ITEST_NEED_ROOT();
	assert_int_equal(run_tmacg("9464", err, sizeof(err)), 2);
	assert_non_null(strstr(err, "--listen '9464': no port"));
	assert_int_equal(run_tmacg("host.invalid:9464", err, sizeof(err)), 2);
	assert_non_null(strstr(err, "is not an IP address"));
	assert_true(fd >= 0);
	assert_int_equal(bind(fd, (struct sockaddr *)&sin, sizeof(sin)), 0);
	assert_int_equal(listen(fd, 1), 0);
	assert_int_equal(getsockname(fd, (struct sockaddr *)&sin, &len), 0);
	snprintf(spec, sizeof(spec), "127.0.0.1:%u", ntohs(sin.sin_port));
	assert_int_equal(run_tmacg(spec, err, sizeof(err)), 1);
	if (!strstr(err, "the port is in use"))
		fail_msg("port in use: %s", err);
	close(fd);
	assert_int_equal(run_tmacg("192.0.2.1:9464", err, sizeof(err)), 1);
	assert_non_null(strstr(err, "no such address on this host"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(scrape_matches_cpu_stat_and_forgets_removed),
		cmocka_unit_test(alive_not_ready_before_the_first_interval),
		cmocka_unit_test(scrape_passes_promtool_with_tma_series),
		cmocka_unit_test(prom_counts_are_the_json_counts),
		cmocka_unit_test(level_6_nodes_and_measured_share),
		cmocka_unit_test(k8s_series_carry_pod_names),
		cmocka_unit_test(top_bounds_the_series),
		cmocka_unit_test(hostile_clients_are_bounded),
		cmocka_unit_test(bad_listen_ends_with_a_message),
	};

	return cmocka_run_group_tests(tests, setup, cleanup);
}
