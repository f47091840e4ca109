// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * --k8s end to end: cgroup directories named exactly as the kubelet names
 * them (both cgroup drivers, every QoS class, the containerd, CRI-O and
 * Docker runtimes) under the test's own parent, burners inside, and fixture
 * kubelet log directories.  Every pod and container line must carry the
 * right names and ids, the sandbox must fold into its pod, and on-CPU time
 * must agree with the kernel's cpu.stat.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "itest.h"

#define HOST "node-k8s-test"
#define MAX_PODS 24

enum { DRV_SYSTEMD, DRV_CGROUPFS, NDRV };
enum { QOS_GUARANTEED, QOS_BURSTABLE, QOS_BESTEFFORT, NQOS };
enum { RT_CONTAINERD, RT_CRIO, RT_DOCKER, NRT };

static const char *const qos_name[] = { "guaranteed", "burstable", "besteffort" };
static const char *const rt_name[] = { "containerd", "crio", "docker" };
/* Container cgroup names: systemd scopes, and cgroupfs (bare ids but for CRI-O). */
static const char *const rt_scope[] = { "cri-containerd-", "crio-", "docker-" };
static const char *const rt_cgroupfs[] = { "", "crio-", "" };

struct ctr {
	char name[32];
	char id[65];
	char rel[1200]; /* below the cgroup2 mount */
	char duty[16];
	uint64_t usage_usec; /* cpu.stat after the burner ended */
	double got;	     /* tmacg's on_cpu_s summed over its lines */
	int lines;
};

struct pod {
	int drv, qos, rt;
	char ns[32], name[64], uid[37];
	char rel[1024];
	struct ctr sandbox, app[2];
	int napp;
	uint64_t usage_usec;
	double got;
	int lines;
};

struct fixture {
	char parent[128];    /* cgroupfs pods: <parent>/kubepods/... */
	char sd_parent[140]; /* systemd pods: <parent>.slice/<parent>-kubepods.slice/... */
	char logs[64];	     /* temp directory holding containers/ and pods/ */
	char containers[128], pods_dir[128];
	struct pod pods[MAX_PODS];
	int npods;
};

/* The fixture's log directory, removed by the teardown should a test fail. */
static char logs_left[64];

/* Creates every level of rel that does not exist yet. */
static void mkcg_all(const char *rel)
{
	char part[1024];

	for (const char *s = strchr(rel, '/');; s = strchr(s + 1, '/')) {
		size_t len = s ? (size_t)(s - rel) : strlen(rel);

		memcpy(part, rel, len);
		part[len] = '\0';
		assert_int_equal(itest_mkcg(part), 0);
		if (!s)
			break;
	}
}

static void touch(const char *path)
{
	int fd = open(path, O_CREAT | O_WRONLY, 0644);

	assert_true(fd >= 0);
	close(fd);
}

static void fixture_init(struct fixture *f, const char *name)
{
	memset(f, 0, sizeof(*f));
	itest_parent_name(f->parent, sizeof(f->parent), name);
	assert_int_equal(itest_mkcg(f->parent), 0);
	/* Level 1 and 2, as a kubelet with --cgroup-root has it: deeper is not trusted. */
	snprintf(f->sd_parent, sizeof(f->sd_parent), "%s.slice", f->parent);
	assert_int_equal(itest_mkcg(f->sd_parent), 0);
	snprintf(f->logs, sizeof(f->logs), "/tmp/tmacg-k8s-XXXXXX");
	assert_non_null(mkdtemp(f->logs));
	snprintf(logs_left, sizeof(logs_left), "%s", f->logs);
	snprintf(f->containers, sizeof(f->containers), "%s/containers", f->logs);
	snprintf(f->pods_dir, sizeof(f->pods_dir), "%s/pods", f->logs);
	assert_int_equal(mkdir(f->containers, 0755), 0);
	assert_int_equal(mkdir(f->pods_dir, 0755), 0);
}

static void rm_dir_files(const char *dir)
{
	char cmd[300];

	/* Only ever a mkdtemp directory of ours. */
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

static void fixture_free(struct fixture *f)
{
	assert_int_equal(itest_rmcg(f->parent), 0);
	assert_int_equal(itest_rmcg(f->sd_parent), 0);
	rm_dir_files(f->logs);
	logs_left[0] = '\0';
}

/* itest_cleanup, and the fixture's log directory. */
static int cleanup(void **state)
{
	if (logs_left[0])
		rm_dir_files(logs_left);
	logs_left[0] = '\0';
	return itest_cleanup(state);
}

/* A container's cgroup name, as the runtime names it under each driver. */
static void ctr_init(struct ctr *c, const struct pod *p, const char *name, int serial,
		     const char *duty)
{
	snprintf(c->name, sizeof(c->name), "%s", name);
	/* 64 lowercase hex digits, unique per pod and container. */
	snprintf(c->id, sizeof(c->id), "%08x%056x", 0xc0de0000u + serial,
		 (unsigned)(p->drv * 100 + p->qos * 10 + p->rt));
	if (p->drv == DRV_SYSTEMD)
		assert_true(snprintf(c->rel, sizeof(c->rel), "%s/%s%s.scope", p->rel,
				     rt_scope[p->rt], c->id) < (int)sizeof(c->rel));
	else
		assert_true(snprintf(c->rel, sizeof(c->rel), "%s/%s%s", p->rel, rt_cgroupfs[p->rt],
				     c->id) < (int)sizeof(c->rel));
	snprintf(c->duty, sizeof(c->duty), "%s", duty);
}

/*
 * Adds a pod: cgroups exactly as the kubelet names them (systemd turns the
 * uid's dashes into '_'), the log entries the kubelet writes (none for the
 * sandbox), created before the cgroups as on a node.
 */
static struct pod *add_pod(struct fixture *f, int drv, int qos, int rt, int napp,
			   const char *const duty[])
{
	static const char *const ns[] = { "shop", "kube-system", "team-a" };
	struct pod *p = &f->pods[f->npods];
	char uid[37], uid_[37], path[512], parent[128], rel[1024];
	int serial = f->npods * 4;

	assert_true(f->npods < MAX_PODS);
	f->npods++;
	p->drv = drv;
	p->qos = qos;
	p->rt = rt;
	p->napp = napp;
	snprintf(p->ns, sizeof(p->ns), "%s", ns[f->npods % 3]);
	snprintf(p->name, sizeof(p->name), "%s-%s-%s-%d", drv == DRV_SYSTEMD ? "sd" : "fs",
		 qos_name[qos], rt_name[rt], f->npods);
	snprintf(p->uid, sizeof(p->uid), "%08x-%04x-4%03x-8%03x-%012x", 0x7d3c0000u + f->npods, drv,
		 qos, rt, 0x1a2b3cu + f->npods);
	snprintf(uid, sizeof(uid), "%s", p->uid);
	snprintf(uid_, sizeof(uid_), "%s", p->uid);
	for (char *c = uid_; *c; c++)
		if (*c == '-')
			*c = '_';
	/* Via locals: p and f->parent are one object to the compiler's overlap check. */
	snprintf(parent, sizeof(parent), "%s", f->parent);
	if (drv == DRV_SYSTEMD && qos == QOS_GUARANTEED)
		snprintf(rel, sizeof(rel), "%s.slice/%s-kubepods.slice/%s-kubepods-pod%s.slice",
			 parent, parent, parent, uid_);
	else if (drv == DRV_SYSTEMD)
		snprintf(rel, sizeof(rel),
			 "%s.slice/%s-kubepods.slice/%s-kubepods-%s.slice/"
			 "%s-kubepods-%s-pod%s.slice",
			 parent, parent, parent, qos_name[qos], parent, qos_name[qos], uid_);
	else if (qos == QOS_GUARANTEED)
		snprintf(rel, sizeof(rel), "%s/kubepods/pod%s", parent, uid);
	else
		snprintf(rel, sizeof(rel), "%s/kubepods/%s/pod%s", parent, qos_name[qos], uid);
	snprintf(p->rel, sizeof(p->rel), "%s", rel);
	ctr_init(&p->sandbox, p, "pause", serial, "0.01");
	for (int i = 0; i < napp; i++)
		ctr_init(&p->app[i], p, i ? "sidecar" : "app", serial + 1 + i, duty[i]);

	snprintf(path, sizeof(path), "%s/%s_%s_%s", f->pods_dir, p->ns, p->name, p->uid);
	assert_int_equal(mkdir(path, 0755), 0);
	for (int i = 0; i < napp; i++) {
		snprintf(path, sizeof(path), "%s/%s_%s_%s-%s.log", f->containers, p->name, p->ns,
			 p->app[i].name, p->app[i].id);
		touch(path);
	}
	mkcg_all(p->sandbox.rel);
	for (int i = 0; i < napp; i++)
		mkcg_all(p->app[i].rel);
	return p;
}

/* Starts a burner in the sandbox and in each app container; returns how many. */
static int start_pod(const struct pod *p, const char *seconds, pid_t *pids)
{
	int n = 0;

	pids[n++] = itest_burn_in(p->sandbox.rel, seconds, p->sandbox.duty, NULL);
	for (int i = 0; i < p->napp; i++)
		pids[n++] = itest_burn_in(p->app[i].rel, seconds, p->app[i].duty, NULL);
	return n;
}

static void read_usage(struct pod *p)
{
	p->usage_usec = itest_usage_usec(p->rel);
	p->sandbox.usage_usec = itest_usage_usec(p->sandbox.rel);
	for (int i = 0; i < p->napp; i++)
		p->app[i].usage_usec = itest_usage_usec(p->app[i].rel);
}

static const char *res_str(json_object *line, const char *key)
{
	json_object *res = json_object_object_get(line, "resource"), *v;

	if (!res || !json_object_object_get_ex(res, key, &v))
		return NULL;
	return json_object_get_string(v);
}

static void expect_res(json_object *line, const char *key, const char *want, const char *cg)
{
	const char *got = res_str(line, key);

	if (!want && got)
		fail_msg("%s: resource %s is \"%s\", expected none", cg, key, got);
	if (want && (!got || strcmp(got, want)))
		fail_msg("%s: resource %s is \"%s\", expected \"%s\"", cg, key,
			 got ? got : "(absent)", want);
}

static void check_pod_line(json_object *line, const struct pod *p, const char *cg)
{
	expect_res(line, "k8s.namespace.name", p->ns, cg);
	expect_res(line, "k8s.pod.name", p->name, cg);
	expect_res(line, "k8s.pod.uid", p->uid, cg);
	expect_res(line, "k8s.container.name", NULL, cg);
	expect_res(line, "container.id", NULL, cg);
	expect_res(line, "host.name", HOST, cg);
}

static void check_ctr_line(json_object *line, const struct pod *p, const struct ctr *c,
			   const char *cg)
{
	expect_res(line, "k8s.namespace.name", p->ns, cg);
	expect_res(line, "k8s.pod.name", p->name, cg);
	expect_res(line, "k8s.pod.uid", p->uid, cg);
	expect_res(line, "k8s.container.name", c->name, cg);
	expect_res(line, "container.id", c->id, cg);
	expect_res(line, "host.name", HOST, cg);
}

static bool is_rel(const char *cg, const char *rel)
{
	return cg[0] == '/' && !strcmp(cg + 1, rel);
}

/* A line of one of the fixture's cgroups (below either parent). */
static bool is_mine(const struct fixture *f, const char *cg)
{
	for (int i = 0; i < 2; i++) {
		const char *top = i ? f->sd_parent : f->parent;
		size_t len = strlen(top);

		if (cg && cg[0] == '/' && !strncmp(cg + 1, top, len) && cg[len + 1] == '/')
			return true;
	}
	return false;
}

/*
 * Attributes every line below the fixture's parent to its pod or container,
 * checking its identity; any other line there (a sandbox, a kubepods or QoS
 * level) fails the test.
 */
static void match_lines(struct fixture *f, json_object **lines, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const char *cg = itest_str(lines[i], "cgroup");
		double s = itest_num(lines[i], "counts.on_cpu_s");
		bool found = false;

		if (!is_mine(f, cg))
			continue; /* another tenant of this machine */
		assert_false(isnan(s));
		for (int k = 0; k < f->npods && !found; k++) {
			struct pod *p = &f->pods[k];

			if (is_rel(cg, p->sandbox.rel))
				fail_msg("the sandbox got a line of its own: %s", cg);
			if (is_rel(cg, p->rel)) {
				check_pod_line(lines[i], p, cg);
				p->got += s;
				p->lines++;
				found = true;
			}
			for (int c = 0; c < p->napp && !found; c++) {
				if (is_rel(cg, p->app[c].rel)) {
					check_ctr_line(lines[i], p, &p->app[c], cg);
					p->app[c].got += s;
					p->app[c].lines++;
					found = true;
				}
			}
		}
		if (!found)
			fail_msg("a line for a cgroup that is neither pod nor container: %s", cg);
	}
}

static void assert_close(double got, double want, const char *what)
{
	/* 5 %, and 2 ms for the smallest: the burner's start before its first switch. */
	double tol = fmax(want * 0.05, 0.002);

	if (!(fabs(got - want) <= tol))
		fail_msg("%s: tmacg %.4f s, cpu.stat %.4f s (tolerance %.4f s)", what, got, want,
			 tol);
}

static void check_times(const struct fixture *f, bool containers)
{
	for (int k = 0; k < f->npods; k++) {
		const struct pod *p = &f->pods[k];

		if (!p->lines)
			fail_msg("pod %s (%s) has no line", p->name, p->rel);
		printf("  %-34s tmacg %.4f s, cpu.stat %.4f s\n", p->name, p->got,
		       p->usage_usec / 1e6);
		assert_close(p->got, p->usage_usec / 1e6, p->rel);
		/* The sandbox did run: its time is in the pod's, not on a line of its own. */
		assert_true(p->sandbox.usage_usec > 0);
		for (int c = 0; c < p->napp; c++) {
			const struct ctr *ct = &p->app[c];

			if (!containers) {
				assert_int_equal(ct->lines, 0);
				continue;
			}
			if (!ct->lines)
				fail_msg("container %s of %s has no line", ct->name, p->name);
			assert_close(ct->got, ct->usage_usec / 1e6, ct->rel);
		}
	}
}

static void start_tmacg(struct itest_tmacg *t, const struct fixture *f, const char *level,
			const char *top)
{
	const char *args[] = { "--pmu",	      "software",
			       "--k8s",	      "--k8s-level",
			       level,	      "--k8s-logs-containers",
			       f->containers, "--k8s-logs-pods",
			       f->pods_dir,   "--interval",
			       "1s",	      "--format",
			       "json",	      top ? "--top" : NULL,
			       top,	      NULL };

	setenv("TMACG_HOST", HOST, 1);
	assert_int_equal(itest_tmacg_start(t, args), 0);
	unsetenv("TMACG_HOST");
	itest_tmacg_drain(t);
}

static void every_pod_and_container_named(void **state)
{
	static const char *const duties[][2] = { { "0.015", "0.03" },
						 { "0.03", "0.045" },
						 { "0.045", "0.015" } };
	static struct fixture f;
	pid_t pids[3 * MAX_PODS], late_pids[3];
	struct itest_tmacg t;
	json_object **lines;
	struct pod *late;
	int npids = 0, nlate, serial = 0;
	size_t n;

	(void)state;
	ITEST_NEED_ROOT();
	fixture_init(&f, "k8s");
	for (int d = 0; d < NDRV; d++)
		for (int q = 0; q < NQOS; q++)
			for (int r = 0; r < NRT; r++, serial++)
				add_pod(&f, d, q, r, 1 + serial % 2, duties[serial % 3]);
	start_tmacg(&t, &f, "container", NULL);
	for (int k = 0; k < f.npods; k++)
		npids += start_pod(&f.pods[k], "4", pids + npids);

	/* A pod created after tmacg started and removed before it stops. */
	usleep(1100000);
	{
		static const char *const late_duty[] = { "0.2", "0.1" };

		late = add_pod(&f, DRV_SYSTEMD, QOS_BESTEFFORT, RT_CRIO, 2, late_duty);
	}
	nlate = start_pod(late, "0.6", late_pids);
	for (int i = 0; i < nlate; i++)
		assert_int_equal(itest_wait(late_pids[i]), 0);
	read_usage(late);
	assert_int_equal(itest_rmcg(late->rel), 0);

	for (int i = 0; i < npids; i++)
		assert_int_equal(itest_wait(pids[i]), 0);
	for (int k = 0; k < f.npods; k++)
		if (&f.pods[k] != late)
			read_usage(&f.pods[k]);
	assert_int_equal(itest_tmacg_stop(&t, SIGTERM), 0);
	assert_null(strstr(t.err, "no Kubernetes cgroups"));
	lines = itest_json_lines(t.out, &n);
	assert_non_null(lines);
	match_lines(&f, lines, n);
	check_times(&f, true);
	itest_json_free(lines, n);
	itest_tmacg_free(&t);
	fixture_free(&f);
}

/* Default level: one line per pod, containers and sandbox rolled up into it. */
static void pod_level_rolls_up_containers(void **state)
{
	static const char *const duty[] = { "0.05", "0.1" };
	static struct fixture f;
	pid_t pids[3 * 4];
	struct itest_tmacg t;
	json_object **lines;
	int npids = 0;
	size_t n;

	(void)state;
	ITEST_NEED_ROOT();
	fixture_init(&f, "k8spod");
	add_pod(&f, DRV_SYSTEMD, QOS_BURSTABLE, RT_CONTAINERD, 2, duty);
	add_pod(&f, DRV_CGROUPFS, QOS_GUARANTEED, RT_DOCKER, 2, duty);
	start_tmacg(&t, &f, "pod", NULL);
	for (int k = 0; k < f.npods; k++)
		npids += start_pod(&f.pods[k], "2", pids + npids);
	for (int i = 0; i < npids; i++)
		assert_int_equal(itest_wait(pids[i]), 0);
	for (int k = 0; k < f.npods; k++)
		read_usage(&f.pods[k]);
	lines = itest_stop_json(&t, SIGTERM, &n);
	match_lines(&f, lines, n);
	check_times(&f, false);
	itest_json_free(lines, n);
	itest_tmacg_free(&t);
	fixture_free(&f);
}

/* --format top names each row namespace/pod, and says so in its header. */
static void live_view_names_pods(void **state)
{
	static const char *const duty[] = { "0.05", "0.1" };
	static struct fixture f;
	pid_t pids[3 * 4];
	struct itest_tmacg t;
	int npids = 0;

	(void)state;
	ITEST_NEED_ROOT();
	fixture_init(&f, "k8slive");
	add_pod(&f, DRV_SYSTEMD, QOS_BURSTABLE, RT_CONTAINERD, 2, duty);
	add_pod(&f, DRV_CGROUPFS, QOS_GUARANTEED, RT_DOCKER, 1, duty);
	{
		const char *args[] = {
			"--pmu",      "software",	 "--k8s",    "--k8s-logs-containers",
			f.containers, "--k8s-logs-pods", f.pods_dir, "--interval",
			"500ms",      "--format",	 "top",	     NULL
		};

		setenv("COLUMNS", "200", 1); /* whole names: a pipe is 80 columns by default */
		assert_int_equal(itest_tmacg_start(&t, args), 0);
		unsetenv("COLUMNS");
		itest_tmacg_drain(&t);
	}
	for (int k = 0; k < f.npods; k++)
		npids += start_pod(&f.pods[k], "1.5", pids + npids);
	for (int i = 0; i < npids; i++)
		assert_int_equal(itest_wait(pids[i]), 0);
	assert_int_equal(itest_tmacg_stop(&t, SIGTERM), 0);
	print_message("%s", t.out);
	assert_non_null(strstr(t.out, "\nPOD "));
	assert_null(strchr(t.out, '\033'));
	for (int k = 0; k < f.npods; k++) {
		char row[128];

		snprintf(row, sizeof(row), "\n%s/%s ", f.pods[k].ns, f.pods[k].name);
		if (!strstr(t.out, row))
			fail_msg("no row for %s/%s", f.pods[k].ns, f.pods[k].name);
	}
	itest_tmacg_free(&t);
	fixture_free(&f);
}

/* Sum of on_cpu_s over the lines of the fixture's pods, and over "(other)". */
static void sums(const struct fixture *f, json_object **lines, size_t n, double *pods,
		 double *other)
{
	*pods = *other = 0;
	for (size_t i = 0; i < n; i++) {
		const char *cg = itest_str(lines[i], "cgroup");

		if (cg && !strcmp(cg, "(other)"))
			*other += itest_num(lines[i], "counts.on_cpu_s");
		else if (is_mine(f, cg))
			*pods += itest_num(lines[i], "counts.on_cpu_s");
	}
}

/* Lines per interval (one "time" each): at most top cgroups plus one "(other)". */
static void check_top_per_interval(json_object **lines, size_t n, int top, int *others)
{
	*others = 0;
	for (size_t i = 0; i < n;) {
		const char *when = itest_str(lines[i], "time");
		int cgroups = 0, other = 0;

		for (; i < n && !strcmp(itest_str(lines[i], "time"), when); i++) {
			if (!strcmp(itest_str(lines[i], "cgroup"), "(other)"))
				other++;
			else
				cgroups++;
		}
		if (cgroups > top || other > 1)
			fail_msg("interval at %s: %d cgroup lines and %d \"(other)\" (--top %d)",
				 when, cgroups, other, top);
		*others += other;
	}
}

static void top_limits_cgroup_lines(void **state)
{
	static const char *const duty[][1] = { { "0.05" }, { "0.1" }, { "0.15" }, { "0.2" } };
	static struct fixture f;
	struct itest_tmacg all, top;
	json_object **la, **lt;
	size_t na, nt;
	pid_t pids[2 * 4];
	double all_pods, all_other, top_pods, top_other, kernel = 0;
	int npids = 0, others;

	(void)state;
	ITEST_NEED_ROOT();
	fixture_init(&f, "k8stop");
	for (int k = 0; k < 4; k++)
		add_pod(&f, k % 2 ? DRV_CGROUPFS : DRV_SYSTEMD, QOS_BURSTABLE, k % NRT, 1, duty[k]);
	/* Both watch the same burners: the same totals, printed two ways. */
	start_tmacg(&all, &f, "pod", NULL);
	start_tmacg(&top, &f, "pod", "2");
	for (int k = 0; k < f.npods; k++)
		npids += start_pod(&f.pods[k], "3", pids + npids);
	for (int i = 0; i < npids; i++)
		assert_int_equal(itest_wait(pids[i]), 0);
	for (int k = 0; k < f.npods; k++) {
		read_usage(&f.pods[k]);
		kernel += f.pods[k].usage_usec / 1e6;
	}
	assert_int_equal(itest_tmacg_stop(&top, SIGTERM), 0);
	assert_int_equal(itest_tmacg_stop(&all, SIGTERM), 0);
	la = itest_json_lines(all.out, &na);
	lt = itest_json_lines(top.out, &nt);
	assert_non_null(la);
	assert_non_null(lt);
	check_top_per_interval(lt, nt, 2, &others);
	assert_true(others >= 1); /* four pods busy, two shown */
	sums(&f, la, na, &all_pods, &all_other);
	sums(&f, lt, nt, &top_pods, &top_other);
	printf("  without --top: pods %.4f s; --top 2: pods %.4f s + (other) %.4f s; "
	       "cpu.stat %.4f s\n",
	       all_pods, top_pods, top_other, kernel);
	assert_true(all_other == 0);
	assert_true(top_other > 0);
	assert_close(top_pods + top_other, all_pods, "--top 2 total");
	assert_close(all_pods, kernel, "pods total");
	itest_json_free(la, na);
	itest_json_free(lt, nt);
	itest_tmacg_free(&all);
	itest_tmacg_free(&top);
	fixture_free(&f);
}

/*
 * Issue 10: a user with a delegated subtree copies a victim's pod and
 * container names below it, with either driver.  Neither copy may be
 * reported as the victim (or at all: an unmapped line there would print
 * names the user chose), and the victim's lines carry only its own time.
 */
static void fake_roots_in_a_delegated_subtree_are_not_pods(void **state)
{
	static const char *const duty[] = { "0.1" };
	static struct fixture f;
	char deleg[300], fake[4][1024];
	pid_t pids[16];
	struct itest_tmacg t;
	json_object **lines;
	struct pod *fs, *sd;
	int npids = 0;
	size_t n;

	(void)state;
	ITEST_NEED_ROOT();
	fixture_init(&f, "k8sfake");
	fs = add_pod(&f, DRV_CGROUPFS, QOS_BURSTABLE, RT_CONTAINERD, 1, duty);
	sd = add_pod(&f, DRV_SYSTEMD, QOS_GUARANTEED, RT_CONTAINERD, 1, duty);
	snprintf(deleg, sizeof(deleg), "%s/user.slice/user-1000.slice/user@1000.service", f.parent);
	/* The cgroupfs layout, the systemd one, and an unmapped name below each root. */
	snprintf(fake[0], sizeof(fake[0]), "%s/%s", deleg, strstr(fs->app[0].rel, "kubepods"));
	snprintf(fake[1], sizeof(fake[1]), "%s/kubepods.slice/kubepods-pod%s.slice/%s", deleg,
		 strstr(sd->rel, "-pod") + 4, strrchr(sd->app[0].rel, '/') + 1);
	snprintf(fake[2], sizeof(fake[2]), "%s/kubepods/burstable/chosen-name", deleg);
	snprintf(fake[3], sizeof(fake[3]), "%s/kubepods.slice/kubepods-burstable.slice/x", deleg);
	for (int i = 0; i < 4; i++)
		mkcg_all(fake[i]);
	start_tmacg(&t, &f, "container", NULL);
	for (int i = 0; i < 4; i++)
		pids[npids++] = itest_burn_in(fake[i], "1.5", "0.3", NULL);
	npids += start_pod(fs, "1.5", pids + npids);
	npids += start_pod(sd, "1.5", pids + npids);
	for (int i = 0; i < npids; i++)
		assert_int_equal(itest_wait(pids[i]), 0);
	read_usage(fs);
	read_usage(sd);
	lines = itest_stop_json(&t, SIGTERM, &n);
	for (size_t i = 0; i < n; i++) {
		const char *cg = itest_str(lines[i], "cgroup");

		if (cg && strstr(cg, "user@1000.service"))
			fail_msg("a cgroup of the delegated subtree was reported: %s", cg);
	}
	/* Every line below the fixture is the victims' own, with their own time. */
	match_lines(&f, lines, n);
	check_times(&f, true);
	itest_json_free(lines, n);
	itest_tmacg_free(&t);
	fixture_free(&f);
}

/* No kubepods anywhere: a note once, no line, and the run goes on. */
static void no_kubernetes_is_noted(void **state)
{
	const char *args[] = { "--pmu",	     "software", "--k8s",    "--count", "2",
			       "--interval", "200ms",	 "--format", "json",	NULL };
	struct itest_tmacg t;
	const char *note;
	char cmd[200];

	(void)state;
	ITEST_NEED_ROOT();
	snprintf(cmd, sizeof(cmd), "find %s -name '*kubepods*' | grep -q .", itest_cgroup_mount());
	if (!system(cmd))
		skip(); /* some kubepods exists here: not this test's situation */
	assert_int_equal(itest_tmacg_start(&t, args), 0);
	assert_int_equal(itest_tmacg_stop(&t, 0), 0);
	note = strstr(t.err, "no Kubernetes cgroups");
	assert_non_null(note);
	assert_null(strstr(note + 1, "no Kubernetes cgroups")); /* once */
	assert_string_equal(t.out, "");
	itest_tmacg_free(&t);
}

/*
 * Without the log directories: a note saying what is missing, and lines
 * that still carry the uid and ids (a sandbox cannot be told apart then).
 */
static void missing_logs_give_ids_only(void **state)
{
	static const char *const duty[] = { "0.05" };
	static struct fixture f;
	const char *args[] = { "--pmu",
			       "software",
			       "--k8s",
			       "--k8s-level",
			       "container",
			       "--k8s-logs-containers",
			       "/nonexistent/containers",
			       "--k8s-logs-pods",
			       "/nonexistent/pods",
			       "--count",
			       "2",
			       "--interval",
			       "300ms",
			       "--format",
			       "json",
			       NULL };
	struct itest_tmacg t;
	json_object **lines;
	struct pod *p;
	int pod_lines = 0, ctr_lines = 0;
	size_t n;

	(void)state;
	ITEST_NEED_ROOT();
	fixture_init(&f, "k8snolog");
	p = add_pod(&f, DRV_SYSTEMD, QOS_GUARANTEED, RT_DOCKER, 1, duty);
	assert_int_equal(itest_tmacg_start(&t, args), 0);
	assert_int_equal(itest_tmacg_stop(&t, 0), 0);
	assert_non_null(strstr(t.err, "/nonexistent/containers"));
	assert_non_null(strstr(t.err, "--k8s-logs-containers"));
	lines = itest_json_lines(t.out, &n);
	assert_non_null(lines);
	for (size_t i = 0; i < n; i++) {
		const char *cg = itest_str(lines[i], "cgroup");

		if (!is_mine(&f, cg))
			continue;
		expect_res(lines[i], "k8s.pod.uid", p->uid, cg);
		expect_res(lines[i], "k8s.namespace.name", NULL, cg);
		expect_res(lines[i], "k8s.pod.name", NULL, cg);
		expect_res(lines[i], "k8s.container.name", NULL, cg);
		if (is_rel(cg, p->rel)) {
			expect_res(lines[i], "container.id", NULL, cg);
			pod_lines++;
		} else if (is_rel(cg, p->app[0].rel)) {
			expect_res(lines[i], "container.id", p->app[0].id, cg);
			ctr_lines++;
		} else if (is_rel(cg, p->sandbox.rel)) {
			expect_res(lines[i], "container.id", p->sandbox.id, cg);
			ctr_lines++;
		} else {
			fail_msg("unexpected line %s", cg);
		}
	}
	assert_int_equal(pod_lines, 2);
	assert_int_equal(ctr_lines, 4);
	itest_json_free(lines, n);
	itest_tmacg_free(&t);
	fixture_free(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(every_pod_and_container_named, cleanup),
		cmocka_unit_test_teardown(pod_level_rolls_up_containers, cleanup),
		cmocka_unit_test_teardown(top_limits_cgroup_lines, cleanup),
		cmocka_unit_test_teardown(fake_roots_in_a_delegated_subtree_are_not_pods, cleanup),
		cmocka_unit_test_teardown(live_view_names_pods, cleanup),
		cmocka_unit_test_teardown(no_kubernetes_is_noted, cleanup),
		cmocka_unit_test_teardown(missing_logs_give_ids_only, cleanup),
	};
	return cmocka_run_group_tests_name("k8s", tests, itest_group_setup, NULL);
}
