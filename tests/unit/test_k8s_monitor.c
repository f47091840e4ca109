// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * --k8s without the kernel: which cgroup paths are reported (classifier),
 * the per-cgroup identity cache and when it looks again, and the glue on a
 * cgroup tree fed by hand, with fixture log directories made here.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cgroups/cgroup_tree.h"
#include "k8s/k8s_cache.h"
#include "k8s/k8s_classify.h"
#include "k8s/k8s_monitor.h"
#include "output/cgroup_record.h"
#include "output/cgroup_record.h"

#define UID "7d3c9a1e-2b4f-4c6d-8e0f-1a2b3c4d5e6f"
#define UID_US "7d3c9a1e_2b4f_4c6d_8e0f_1a2b3c4d5e6f"
#define UID2 "0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f9"
#define UID2_US "0f1e2d3c_4b5a_4978_8695_a4b3c2d1e0f9"
#define STATIC_UID "3c5b2f1e9e5b4c0f8b2f0e5d3a1c4b6e"
#define APP_ID "4f9a3b2c1d0e5f6a7b8c9d0e1f2a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c"
#define PAUSE_ID "1234567890abcdef1234567890abcdef1234567890abcdef1234567890abcdef"
#define APP2_ID "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"
#define PAUSE2_ID "ffeeddccbbaa99887766554433221100ffeeddccbbaa99887766554433221100"

#define SD_POD "/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod" UID_US ".slice"
#define SD_APP SD_POD "/cri-containerd-" APP_ID ".scope"
#define SD_PAUSE SD_POD "/cri-containerd-" PAUSE_ID ".scope"
#define SD_POD2 "/kubepods.slice/kubepods-pod" UID2_US ".slice"

/* opendir fails with this errno for paths containing "unreadable". */
static int opendir_errno;
DIR *__real_opendir(const char *name);
DIR *__wrap_opendir(const char *name)
{
	if (opendir_errno && strstr(name, "unreadable")) {
		errno = opendir_errno;
		return NULL;
	}
	return __real_opendir(name);
}

/* --- classifier ------------------------------------------------------------------------ */

static void test_classify_paths(void **state)
{
	static const struct {
		const char *path;
		enum k8s_class want;
	} cases[] = {
		/* Pods: both drivers, every QoS class, any prefix. */
		{ SD_POD, K8S_CLASS_POD },
		{ SD_POD2, K8S_CLASS_POD },
		{ "/kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod" UID_US
		  ".slice",
		  K8S_CLASS_POD },
		{ "/kubepods/pod" UID, K8S_CLASS_POD },
		{ "/kubepods/burstable/pod" UID, K8S_CLASS_POD },
		{ "/kubepods/besteffort/pod" STATIC_UID, K8S_CLASS_POD },
		{ "/kubelet.slice/kubelet-kubepods.slice/kubelet-kubepods-besteffort.slice/"
		  "kubelet-kubepods-besteffort-pod" UID_US ".slice",
		  K8S_CLASS_POD },
		{ "/tmacg-test-1-k8s/kubepods/pod" UID, K8S_CLASS_POD },
		/* Container scopes of the three runtimes, cgroupfs bare ids. */
		{ SD_APP, K8S_CLASS_CONTAINER },
		{ SD_POD "/crio-" APP_ID ".scope", K8S_CLASS_CONTAINER },
		{ SD_POD "/docker-" APP_ID ".scope", K8S_CLASS_CONTAINER },
		{ "/kubepods/burstable/pod" UID "/" APP_ID, K8S_CLASS_CONTAINER },
		{ "/kubepods/pod" UID "/crio-" APP_ID, K8S_CLASS_CONTAINER },
		/* Inside: rolled up into the pod or container above. */
		{ SD_POD "/crio-conmon-" APP_ID ".scope", K8S_CLASS_INSIDE },
		{ SD_APP "/init.scope", K8S_CLASS_INSIDE },
		{ "/kubepods/pod" UID "/" APP_ID "/nested", K8S_CLASS_INSIDE },
		/* Where a pod should be, but not one: reported by path. */
		{ "/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-podNOTAUID.slice",
		  K8S_CLASS_UNMAPPED },
		{ "/kubepods.slice/kubepods-pod" UID ".slice", K8S_CLASS_UNMAPPED },
		{ "/kubepods/besteffort/something", K8S_CLASS_UNMAPPED },
		{ "/kubepods/pod-without-uid", K8S_CLASS_UNMAPPED },
		/* Not reported: the levels above pods, the rest of the host. */
		{ "/", K8S_CLASS_NONE },
		{ "/kubepods.slice", K8S_CLASS_NONE },
		{ "/kubepods.slice/kubepods-burstable.slice", K8S_CLASS_NONE },
		{ "/kubepods", K8S_CLASS_NONE },
		{ "/kubepods/burstable", K8S_CLASS_NONE },
		{ "/kubepods/besteffort/something/deeper", K8S_CLASS_NONE },
		{ "/system.slice/docker-" APP_ID ".scope", K8S_CLASS_NONE },
		{ "/user.slice/user-0.slice", K8S_CLASS_NONE },
		{ "/notkubepods/pod" UID, K8S_CLASS_NONE },
		/* A fake root in a delegated subtree: no pod, no container, no unmapped line. */
		{ "/user.slice/user-1000.slice/user@1000.service/kubepods/pod" UID "/" APP_ID,
		  K8S_CLASS_NONE },
		{ "/user.slice/user-1000.slice/user@1000.service/kubepods/pod" UID,
		  K8S_CLASS_NONE },
		{ "/user.slice/user-1000.slice/user@1000.service/kubepods/\x1b[2Jfake",
		  K8S_CLASS_NONE },
		{ "/user.slice/user-1000.slice/user@1000.service/kubepods.slice/"
		  "kubepods-burstable.slice/anything",
		  K8S_CLASS_NONE },
		{ "/system.slice/docker-" APP_ID ".scope/kubepods/besteffort/x", K8S_CLASS_NONE },
		{ "", K8S_CLASS_NONE },
		{ NULL, K8S_CLASS_NONE },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		enum k8s_class got = k8s_classify_path(cases[i].path);

		if (got != cases[i].want)
			fail_msg("%s: %s, expected %s", cases[i].path ? cases[i].path : "NULL",
				 k8s_class_name(got), k8s_class_name(cases[i].want));
	}
}

static void test_class_names(void **state)
{
	(void)state;
	assert_string_equal(k8s_class_name(K8S_CLASS_POD), "pod");
	assert_string_equal(k8s_class_name(K8S_CLASS_CONTAINER), "container");
	assert_string_equal(k8s_class_name(K8S_CLASS_INSIDE), "inside");
	assert_string_equal(k8s_class_name(K8S_CLASS_UNMAPPED), "unmapped");
	assert_string_equal(k8s_class_name(K8S_CLASS_NONE), "none");
}

static void test_pod_parent(void **state)
{
	static const char *const yes[] = {
		"/kubepods",
		"/kubepods.slice",
		"/kubelet.slice/kubelet-kubepods.slice",
		"/kubepods.slice/kubepods-besteffort.slice",
		"/kubepods/burstable",
		"/kubelet.slice/kubelet-kubepods.slice/kubelet-kubepods-burstable.slice",
		"kubepods/besteffort/",
	};
	static const char *const no[] = {
		"/",
		"",
		"/kubepods.slice/kubepods-guaranteed.slice",
		"/kubepods.slice/other-burstable.slice",
		"/xkubepods.slice",
		"/kubepods/burstable/x",
		"/kubepods.slice/kubepods-burstable",
		"/kubepods/guaranteed",
		"/burstable",
		SD_POD,
		/* Deeper than the kubelet puts them: anyone's to create (issue 10). */
		"/a/b/kubelet-kubepods.slice",
		"/a/b/kubepods",
		"/user.slice/user-1000.slice/user@1000.service/kubepods",
		"/user.slice/user-1000.slice/user@1000.service/kubepods/burstable",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++)
		if (!k8s_path_is_pod_parent(yes[i]))
			fail_msg("%s: not seen as a level above pods", yes[i]);
	for (size_t i = 0; i < sizeof(no) / sizeof(no[0]); i++)
		if (k8s_path_is_pod_parent(no[i]))
			fail_msg("%s: seen as a level above pods", no[i]);
	assert_false(k8s_path_is_pod_parent(NULL));
}

/* --- fixture log directories ----------------------------------------------------------- */

struct fixture {
	char root[64];
	char cdir[96];
	char pdir[96];
};

static void touch_in(const char *dir, const char *name)
{
	char path[512];
	int fd;

	assert_true(snprintf(path, sizeof(path), "%s/%s", dir, name) < (int)sizeof(path));
	fd = open(path, O_CREAT | O_WRONLY, 0644);
	assert_true(fd >= 0);
	close(fd);
}

static void mkdir_in(const char *dir, const char *name)
{
	char path[512];

	assert_true(snprintf(path, sizeof(path), "%s/%s", dir, name) < (int)sizeof(path));
	assert_int_equal(mkdir(path, 0755), 0);
}

static int fixture_setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	snprintf(f->root, sizeof(f->root), "/tmp/tmacg-k8smon-XXXXXX");
	assert_non_null(mkdtemp(f->root));
	snprintf(f->cdir, sizeof(f->cdir), "%s/containers", f->root);
	snprintf(f->pdir, sizeof(f->pdir), "%s/pods", f->root);
	assert_int_equal(mkdir(f->cdir, 0755), 0);
	assert_int_equal(mkdir(f->pdir, 0755), 0);
	/* Pod "cart" in "shop": one app container with a log, the sandbox without. */
	mkdir_in(f->pdir, "shop_cart-1_" UID);
	touch_in(f->cdir, "cart-1_shop_app-" APP_ID ".log");
	*state = f;
	return 0;
}

static int fixture_teardown(void **state)
{
	struct fixture *f = *state;
	char cmd[128];

	opendir_errno = 0;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", f->root);
	assert_int_equal(system(cmd), 0);
	free(f);
	return 0;
}

/* The directories' mtime may not move within one clock tick: wait out the racy window. */
static void settle(void)
{
	usleep(150000);
}

/* --- cache ------------------------------------------------------------------------------ */

static void test_cache_resolves_once(void **state)
{
	struct fixture *f = *state;
	struct k8s_logs *logs = k8s_logs_new(f->cdir, f->pdir, NULL, 0);
	const struct k8s_identity *id;
	struct k8s_cache c;

	assert_non_null(logs);
	k8s_cache_init(&c, logs, "node-7");
	id = k8s_cache_get(&c, 10, SD_APP);
	assert_non_null(id);
	assert_string_equal(id->res.k8s_namespace, "shop");
	assert_string_equal(id->res.k8s_pod, "cart-1");
	assert_string_equal(id->res.k8s_pod_uid, UID);
	assert_string_equal(id->res.k8s_container, "app");
	assert_string_equal(id->res.container_id, APP_ID);
	assert_string_equal(id->res.host, "node-7");
	assert_true(k8s_identity_complete(id));
	assert_int_equal(c.resolves, 1);
	/* Cached: the same entry, nothing computed again, even after a refresh. */
	assert_ptr_equal(k8s_cache_get(&c, 10, SD_APP), id);
	assert_int_equal(k8s_cache_refresh(&c, NULL, 0), 0);
	assert_ptr_equal(k8s_cache_get(&c, 10, SD_APP), id);
	assert_int_equal(c.resolves, 1);
	/* Not Kubernetes: complete at once, host only. */
	id = k8s_cache_get(&c, 11, "/system.slice/cron.service");
	assert_int_equal(id->kind, K8S_NONE);
	assert_null(id->res.k8s_pod_uid);
	assert_string_equal(id->res.host, "node-7");
	assert_true(k8s_identity_complete(id));
	k8s_cache_free(&c);
	k8s_logs_free(logs);
}

static void test_cache_incomplete_waits_for_rescan(void **state)
{
	struct fixture *f = *state;
	struct k8s_logs *logs = k8s_logs_new(f->cdir, f->pdir, NULL, 0);
	const char *path = "/kubepods/pod" UID2 "/" APP2_ID;
	const struct k8s_identity *id;
	struct k8s_cache c;

	assert_non_null(logs);
	k8s_cache_init(&c, logs, NULL);
	id = k8s_cache_get(&c, 20, path);
	assert_string_equal(id->res.k8s_pod_uid, UID2);
	assert_string_equal(id->res.container_id, APP2_ID);
	assert_null(id->res.k8s_pod);
	assert_false(k8s_identity_complete(id));
	/* No rescan yet: looked up again would give the same, so it is not. */
	k8s_cache_get(&c, 20, path);
	assert_int_equal(c.resolves, 1);
	/* The kubelet writes the logs; the next refresh rescans and names it. */
	settle();
	mkdir_in(f->pdir, "web_web-0_" UID2);
	touch_in(f->cdir, "web-0_web_nginx-" APP2_ID ".log");
	settle();
	assert_int_equal(k8s_cache_refresh(&c, NULL, 0), 0);
	id = k8s_cache_get(&c, 20, path);
	assert_int_equal(c.resolves, 2);
	assert_string_equal(id->res.k8s_namespace, "web");
	assert_string_equal(id->res.k8s_pod, "web-0");
	assert_string_equal(id->res.k8s_container, "nginx");
	assert_true(k8s_identity_complete(id));
	k8s_cache_free(&c);
	k8s_logs_free(logs);
}

static bool alive_below_100(uint64_t id, void *ctx)
{
	(void)ctx;
	return id < 100;
}

static void test_cache_sweep_forgets(void **state)
{
	struct k8s_cache c;

	(void)state;
	/* No logs at all: ids from the path only. */
	k8s_cache_init(&c, NULL, NULL);
	assert_string_equal(k8s_cache_get(&c, 5, SD_APP)->res.container_id, APP_ID);
	assert_null(k8s_cache_get(&c, 5, SD_APP)->res.k8s_container);
	k8s_cache_get(&c, 150, SD_POD);
	k8s_cache_get(&c, 200, SD_POD2);
	assert_int_equal(u64map_len(&c.entries), 3);
	k8s_cache_sweep(&c, alive_below_100, NULL);
	assert_int_equal(u64map_len(&c.entries), 1);
	assert_non_null(u64map_get(&c.entries, 5));
	/* A forgotten id is resolved afresh. */
	k8s_cache_get(&c, 150, SD_POD);
	assert_int_equal(c.resolves, 4);
	k8s_cache_free(&c);
}

/* --- the glue on a cgroup tree ---------------------------------------------------------- */

struct glue {
	struct cgroup_tree tree;
	struct k8s_monitor *km;
	char *notes;
	size_t notes_len;
	FILE *notes_f;
};

static void glue_init(struct glue *g, const struct fixture *f, bool containers, const char *cdir)
{
	struct cgroup_mount mnt = { .dir = "/nonexistent", .root = "/" };
	struct k8s_monitor_config cfg = {
		.containers = containers,
		.log_containers = cdir ? cdir : f->cdir,
		.log_pods = f->pdir,
		.host = "node-7",
	};
	char err[512];

	memset(g, 0, sizeof(*g));
	g->notes_f = open_memstream(&g->notes, &g->notes_len);
	assert_non_null(g->notes_f);
	cfg.notes = g->notes_f;
	assert_int_equal(cgroup_tree_init(&g->tree, &mnt, NULL, 0), 0);
	g->km = k8s_monitor_new(&cfg, err, sizeof(err));
	assert_non_null(g->km);
	k8s_monitor_install(g->km, &g->tree);
}

static void glue_free(struct glue *g)
{
	cgroup_tree_free(&g->tree);
	k8s_monitor_free(g->km);
	fclose(g->notes_f);
	free(g->notes);
}

static struct cgroup_node *add(struct glue *g, uint64_t id, uint64_t parent, const char *path)
{
	assert_int_equal(cgroup_tree_add(&g->tree, id, parent, path), 0);
	return cgroup_tree_get(&g->tree, id);
}

static const struct resource *identify(struct glue *g, const struct cgroup_node *n)
{
	return k8s_monitor_identify(n, g->km);
}

/* The hierarchy of one systemd-driver pod: ids 1..8. */
static void add_pod_tree(struct glue *g)
{
	add(g, 1, 0, "/");
	add(g, 2, 1, "/kubepods.slice");
	add(g, 3, 2, "/kubepods.slice/kubepods-burstable.slice");
	add(g, 4, 3, SD_POD);
	add(g, 5, 4, SD_APP);
	add(g, 6, 4, SD_PAUSE);
	add(g, 7, 4, SD_POD "/crio-conmon-" APP_ID ".scope");
	add(g, 8, 1, "/system.slice");
}

static void test_container_level(void **state)
{
	struct fixture *f = *state;
	struct cgroup_node *targets[8];
	const struct resource *res;
	struct glue g;

	glue_init(&g, f, true, NULL);
	add_pod_tree(&g);
	for (uint64_t id = 1; id <= 8; id++) {
		bool want = id == 4 || id == 5; /* the pod and its app container */

		if (cgroup_tree_get(&g.tree, id)->target != want)
			fail_msg("cgroup %s: target %d", cgroup_tree_get(&g.tree, id)->path, !want);
	}
	/* The sandbox and conmon fold into the pod; the app counts in both lines. */
	assert_int_equal(cgroup_tree_targets_of(&g.tree, 6, targets, 8), 1);
	assert_int_equal(targets[0]->id, 4);
	assert_int_equal(cgroup_tree_targets_of(&g.tree, 7, targets, 8), 1);
	assert_int_equal(cgroup_tree_targets_of(&g.tree, 5, targets, 8), 2);

	res = identify(&g, cgroup_tree_get(&g.tree, 4));
	assert_string_equal(res->k8s_namespace, "shop");
	assert_string_equal(res->k8s_pod, "cart-1");
	assert_string_equal(res->k8s_pod_uid, UID);
	assert_null(res->k8s_container);
	assert_null(res->container_id);
	assert_string_equal(res->host, "node-7");
	res = identify(&g, cgroup_tree_get(&g.tree, 5));
	assert_string_equal(res->k8s_container, "app");
	assert_string_equal(res->container_id, APP_ID);
	assert_string_equal(res->k8s_pod, "cart-1");
	assert_int_equal(k8s_monitor_seen(g.km), 4);
	k8s_monitor_interval(g.km);
	fflush(g.notes_f);
	assert_null(strstr(g.notes, "no Kubernetes"));
	glue_free(&g);
}

static void test_pod_level(void **state)
{
	struct fixture *f = *state;
	struct cgroup_node *targets[8];
	struct glue g;

	glue_init(&g, f, false, NULL);
	add_pod_tree(&g);
	for (uint64_t id = 1; id <= 8; id++)
		assert_int_equal(cgroup_tree_get(&g.tree, id)->target, id == 4);
	assert_int_equal(cgroup_tree_targets_of(&g.tree, 5, targets, 8), 1);
	assert_int_equal(targets[0]->id, 4);
	/* Pod level needs no container identity: only the pod is looked up, when shown. */
	assert_int_equal(k8s_monitor_cached(g.km), 0);
	glue_free(&g);
}

static void test_unmapped_reported_by_path(void **state)
{
	struct fixture *f = *state;
	const char *bad =
		"/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-podXYZ.slice";
	const struct resource *res;
	struct cgroup_node *n, *targets[4];
	char below[256];
	struct glue g;

	glue_init(&g, f, true, NULL);
	add(&g, 1, 0, "/");
	add(&g, 2, 1, "/kubepods.slice");
	add(&g, 3, 2, "/kubepods.slice/kubepods-burstable.slice");
	n = add(&g, 4, 3, bad);
	snprintf(below, sizeof(below), "%s/docker-%s.scope", bad, APP_ID);
	add(&g, 5, 4, below);
	assert_true(n->target);
	assert_false(cgroup_tree_get(&g.tree, 5)->target);
	assert_int_equal(cgroup_tree_targets_of(&g.tree, 5, targets, 4), 1);
	assert_ptr_equal(targets[0], n);
	res = identify(&g, n);
	assert_non_null(res);
	assert_null(res->k8s_pod_uid);
	assert_string_equal(res->host, "node-7");
	glue_free(&g);
}

/*
 * On a node the sandbox comes first, before any container of its pod has a
 * log: it is shown by id until the logs tell, then folded into the pod.
 */
static void test_sandbox_decided_later(void **state)
{
	struct fixture *f = *state;
	const char *pause = SD_POD2 "/crio-" PAUSE2_ID ".scope";
	const char *app = SD_POD2 "/crio-" APP2_ID ".scope";
	struct cgroup_node *sandbox, *ctr;
	const struct resource *res;
	struct glue g;

	mkdir_in(f->pdir, "web_web-0_" UID2);
	glue_init(&g, f, true, NULL);
	add(&g, 1, 0, "/");
	add(&g, 2, 1, "/kubepods.slice");
	add(&g, 3, 2, SD_POD2);
	sandbox = add(&g, 4, 3, pause);
	assert_true(sandbox->target);
	res = identify(&g, sandbox);
	assert_string_equal(res->container_id, PAUSE2_ID);
	assert_null(res->k8s_container);

	settle();
	touch_in(f->cdir, "web-0_web_nginx-" APP2_ID ".log");
	settle();
	/* Created before the next refresh: known by id for now. */
	ctr = add(&g, 5, 3, app);
	assert_true(ctr->target);
	k8s_monitor_interval(g.km);
	assert_false(sandbox->target);
	assert_true(ctr->target);
	res = identify(&g, ctr);
	assert_string_equal(res->k8s_container, "nginx");
	assert_string_equal(res->k8s_pod, "web-0");
	/* Decided: more intervals change nothing. */
	k8s_monitor_interval(g.km);
	assert_false(sandbox->target);
	assert_true(ctr->target);
	glue_free(&g);
}

static void forget(uint64_t id, void *ctx)
{
	(void)id;
	(void)ctx;
}

static void test_removed_cgroups_forgotten(void **state)
{
	struct fixture *f = *state;
	struct glue g;

	glue_init(&g, f, true, NULL);
	add_pod_tree(&g);
	identify(&g, cgroup_tree_get(&g.tree, 4));
	assert_int_equal(k8s_monitor_cached(g.km), 3); /* pod, app, sandbox */
	cgroup_tree_mark_removed(&g.tree, 5);
	cgroup_tree_mark_removed(&g.tree, 6);
	cgroup_tree_age_removed(&g.tree, 0, forget, NULL);
	k8s_monitor_interval(g.km);
	assert_int_equal(k8s_monitor_cached(g.km), 1);
	glue_free(&g);
}

static void test_notes_once(void **state)
{
	struct fixture *f = *state;
	const char *note;
	struct glue g;

	glue_init(&g, f, false, "/nonexistent/containers");
	add(&g, 1, 0, "/");
	add(&g, 2, 1, "/system.slice");
	k8s_monitor_interval(g.km);
	k8s_monitor_interval(g.km);
	fflush(g.notes_f);
	note = strstr(g.notes, "no Kubernetes cgroups");
	assert_non_null(note);
	assert_null(strstr(note + 1, "no Kubernetes cgroups"));
	note = strstr(g.notes, "/nonexistent/containers");
	assert_non_null(note);
	assert_non_null(strstr(g.notes, "--k8s-logs-containers"));
	assert_null(strstr(note + 1, "/nonexistent/containers"));
	assert_int_equal(k8s_monitor_seen(g.km), 0);
	glue_free(&g);
}

static void test_unreadable_logs_fail(void **state)
{
	struct fixture *f = *state;
	struct k8s_monitor_config cfg = { .log_containers = f->cdir };
	char unreadable[128], err[512] = "";

	snprintf(unreadable, sizeof(unreadable), "%s/unreadable", f->root);
	assert_int_equal(mkdir(unreadable, 0755), 0);
	cfg.log_pods = unreadable;
	opendir_errno = EACCES;
	assert_null(k8s_monitor_new(&cfg, err, sizeof(err)));
	opendir_errno = 0;
	assert_non_null(strstr(err, unreadable));
	assert_non_null(strstr(err, "--k8s-logs-pods"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_classify_paths),
		cmocka_unit_test(test_class_names),
		cmocka_unit_test(test_pod_parent),
		cmocka_unit_test_setup_teardown(test_cache_resolves_once, fixture_setup,
						fixture_teardown),
		cmocka_unit_test_setup_teardown(test_cache_incomplete_waits_for_rescan,
						fixture_setup, fixture_teardown),
		cmocka_unit_test(test_cache_sweep_forgets),
		cmocka_unit_test_setup_teardown(test_container_level, fixture_setup,
						fixture_teardown),
		cmocka_unit_test_setup_teardown(test_pod_level, fixture_setup, fixture_teardown),
		cmocka_unit_test_setup_teardown(test_unmapped_reported_by_path, fixture_setup,
						fixture_teardown),
		cmocka_unit_test_setup_teardown(test_sandbox_decided_later, fixture_setup,
						fixture_teardown),
		cmocka_unit_test_setup_teardown(test_removed_cgroups_forgotten, fixture_setup,
						fixture_teardown),
		cmocka_unit_test_setup_teardown(test_notes_once, fixture_setup, fixture_teardown),
		cmocka_unit_test_setup_teardown(test_unreadable_logs_fail, fixture_setup,
						fixture_teardown),
	};
	return cmocka_run_group_tests_name("k8s_monitor", tests, NULL, NULL);
}
