// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Names from the kubelet's log directories, and the identity built from them:
 * fixture directories made here the way the kubelet names their entries,
 * rescans driven by mtime, missing directories, read errors, sandbox folding.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "k8s/k8s_identity.h"
#include "k8s/k8s_logs.h"
#include "model/model.h"
#include "output/output_json.h"

#define CART_UID "7d3c9a1e-2b4f-4c6d-8e0f-1a2b3c4d5e6f"
#define CART_UID_US "7d3c9a1e_2b4f_4c6d_8e0f_1a2b3c4d5e6f"
#define WEB_UID "0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f9"
#define STATIC_UID "3c5b2f1e9e5b4c0f8b2f0e5d3a1c4b6e"
#define CART_ID "4f9a3b2c1d0e5f6a7b8c9d0e1f2a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c"
#define SIDECAR_ID "a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90"
#define WEB_ID "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"
#define ETCD_ID "ffeeddccbbaa99887766554433221100ffeeddccbbaa99887766554433221100"
#define PAUSE_ID "1234567890abcdef1234567890abcdef1234567890abcdef1234567890abcdef"
#define NEW_ID "abcdefabcdefabcdefabcdefabcdefabcdefabcdefabcdefabcdefabcdefabcd"

/* opendir fails with this errno while non-zero (test_k8s_logs.wrap). */
static int opendir_errno;
DIR *__real_opendir(const char *name);
DIR *__wrap_opendir(const char *name)
{
	if (opendir_errno) {
		errno = opendir_errno;
		return NULL;
	}
	return __real_opendir(name);
}

/*
 * output_json.o calls the model engine only for lines with a model; these
 * lines have none.  Weak, so the real engine wins whenever it is linked.
 */
__attribute__((weak)) int model_node_count(const struct tma_model *m)
{
	(void)m;
	return 0;
}

__attribute__((weak)) const struct model_node_info *model_node(const struct tma_model *m, int i)
{
	(void)m;
	(void)i;
	return NULL;
}

struct fixture {
	char root[64];
	char cdir[96];
	char pdir[96];
};

static void path_join(char *buf, size_t len, const char *dir, const char *name)
{
	int n = snprintf(buf, len, "%s/%s", dir, name);

	assert_true(n > 0 && (size_t)n < len);
}

/* The kubelet's entry: a symlink into /var/log/pods, dangling here like on a host mount. */
static void add_container_log(struct fixture *f, const char *pod, const char *ns,
			      const char *container, const char *id)
{
	char name[512], path[640];

	snprintf(name, sizeof(name), "%s_%s_%s-%s.log", pod, ns, container, id);
	path_join(path, sizeof(path), f->cdir, name);
	assert_int_equal(symlink("/var/log/pods/x/0.log", path), 0);
}

static void add_raw(const char *dir, const char *name, bool is_dir)
{
	char path[640];

	path_join(path, sizeof(path), dir, name);
	if (is_dir) {
		assert_int_equal(mkdir(path, 0755), 0);
	} else {
		int fd = open(path, O_CREAT | O_WRONLY, 0644);

		assert_true(fd >= 0);
		close(fd);
	}
}

static void add_pod_dir(struct fixture *f, const char *ns, const char *pod, const char *uid)
{
	char name[512];

	snprintf(name, sizeof(name), "%s_%s_%s", ns, pod, uid);
	add_raw(f->pdir, name, true);
}

/* Moves a directory's mtime into the past, as if nothing had changed for a while. */
static void age_dir(const char *dir)
{
	struct timespec ts[2];

	clock_gettime(CLOCK_REALTIME, &ts[0]);
	ts[0].tv_sec -= 100;
	ts[1] = ts[0];
	assert_int_equal(utimensat(AT_FDCWD, dir, ts, 0), 0);
}

static void set_mtime(const char *dir, const struct timespec *mtime)
{
	struct timespec ts[2] = { *mtime, *mtime };

	assert_int_equal(utimensat(AT_FDCWD, dir, ts, 0), 0);
}

static struct timespec get_mtime(const char *dir)
{
	struct stat st;

	assert_int_equal(stat(dir, &st), 0);
	return st.st_mtim;
}

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	strcpy(f->root, "/tmp/tmacg-k8s-logs-XXXXXX");
	if (!mkdtemp(f->root))
		return -1;
	snprintf(f->cdir, sizeof(f->cdir), "%s/containers", f->root);
	snprintf(f->pdir, sizeof(f->pdir), "%s/pods", f->root);
	if (mkdir(f->cdir, 0755) || mkdir(f->pdir, 0755))
		return -1;
	/* Names with dashes and dots, as Deployments and StatefulSets make them. */
	add_container_log(f, "cart-5d8f7b9c4-x2k9q", "shop", "cart", CART_ID);
	add_container_log(f, "cart-5d8f7b9c4-x2k9q", "shop", "istio-proxy", SIDECAR_ID);
	add_container_log(f, "web.v2-0", "front.end-prod", "nginx-1", WEB_ID);
	add_container_log(f, "etcd-control-plane", "kube-system", "etcd", ETCD_ID);
	add_pod_dir(f, "shop", "cart-5d8f7b9c4-x2k9q", CART_UID);
	add_pod_dir(f, "front.end-prod", "web.v2-0", WEB_UID);
	add_pod_dir(f, "kube-system", "etcd-control-plane", STATIC_UID);
	age_dir(f->cdir);
	age_dir(f->pdir);
	opendir_errno = 0;
	*state = f;
	return 0;
}

static int remove_tree(const char *dir)
{
	char path[640];
	struct dirent *de;
	DIR *d = __real_opendir(dir);

	if (!d)
		return -1;
	while ((de = readdir(d))) {
		struct stat st;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (!lstat(path, &st) && S_ISDIR(st.st_mode))
			remove_tree(path);
		else
			unlink(path);
	}
	closedir(d);
	return rmdir(dir);
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	remove_tree(f->root);
	free(f);
	return 0;
}

static struct k8s_logs *open_logs(struct fixture *f)
{
	char err[256] = "";
	struct k8s_logs *l = k8s_logs_new(f->cdir, f->pdir, err, sizeof(err));

	if (!l)
		fail_msg("k8s_logs_new: %s", err);
	return l;
}

static void expect_container(const struct k8s_logs *l, const char *id, const char *ns,
			     const char *pod, const char *container)
{
	const struct k8s_log_container *c = k8s_logs_container(l, id);

	if (!c)
		fail_msg("container %s not found", id);
	assert_string_equal(c->id, id);
	assert_string_equal(c->ns, ns);
	assert_string_equal(c->pod, pod);
	assert_string_equal(c->container, container);
}

static void expect_pod(const struct k8s_logs *l, const char *uid, const char *ns, const char *pod)
{
	const struct k8s_log_pod *p = k8s_logs_pod(l, uid);

	if (!p)
		fail_msg("pod %s not found", uid);
	assert_string_equal(p->uid, uid);
	assert_string_equal(p->ns, ns);
	assert_string_equal(p->pod, pod);
}

static void test_names_from_logs(void **state)
{
	struct fixture *f = *state;
	struct k8s_logs *l = open_logs(f);

	expect_container(l, CART_ID, "shop", "cart-5d8f7b9c4-x2k9q", "cart");
	expect_container(l, SIDECAR_ID, "shop", "cart-5d8f7b9c4-x2k9q", "istio-proxy");
	expect_container(l, WEB_ID, "front.end-prod", "web.v2-0", "nginx-1");
	expect_container(l, ETCD_ID, "kube-system", "etcd-control-plane", "etcd");
	expect_pod(l, CART_UID, "shop", "cart-5d8f7b9c4-x2k9q");
	expect_pod(l, WEB_UID, "front.end-prod", "web.v2-0");
	expect_pod(l, STATIC_UID, "kube-system", "etcd-control-plane");
	assert_null(k8s_logs_container(l, PAUSE_ID));
	assert_null(k8s_logs_container(l, "4f9a3b2c"));
	assert_null(k8s_logs_container(l, NULL));
	assert_null(k8s_logs_pod(l, "00000000-0000-0000-0000-000000000000"));
	assert_null(k8s_logs_pod(l, CART_UID "0"));
	assert_true(k8s_logs_have_containers(l));
	assert_int_equal(k8s_logs_skipped(l), 0);
	k8s_logs_free(l);
}

static void test_foreign_entries_skipped(void **state)
{
	struct fixture *f = *state;
	static const char *const bad_containers[] = {
		"notalog.txt",
		"pod_ns_c-" CART_ID ".txt", /* not .log */
		"pod_ns_c-" CART_ID,	    /* no .log */
		"pod_ns_c" CART_ID ".log",  /* no dash */
		"pod_ns_c-4F9A3B2C1D0E5F6A7B8C9D0E1F2A3B4C5D6E7F8091A2B3C4D5E6F708192A3B4C.log",
		"pod_ns_c-" CART_ID "0.log",  /* 65 hex */
		"pod_ns_c_x-" CART_ID ".log", /* 3 underscores */
		"pod_ns-" CART_ID ".log",     /* 1 underscore */
		"_ns_c-" CART_ID ".log",      /* empty pod */
		"pod__c-" CART_ID ".log",     /* empty namespace */
		"pod_ns_-" CART_ID ".log",    /* empty container */
		"Pod_ns_c-" CART_ID ".log",   /* not a DNS name */
		"pod_ns_c c-" CART_ID ".log",
	};
	static const char *const bad_pods[] = {
		"shop_cart",
		"shop_cart_" CART_UID "_x",
		"shop_cart_" CART_UID_US, /* systemd's escaping is not the API's uid */
		"shop_cart_7d3c9a1e-2b4f-4c6d-8e0f-1a2b3c4d5e6",
		"shop_cart_not-a-uid",
		"_cart_" CART_UID,
		"shop__" CART_UID,
		"SHOP_cart_" CART_UID,
	};
	struct k8s_logs *l;

	for (size_t i = 0; i < sizeof(bad_containers) / sizeof(bad_containers[0]); i++)
		add_raw(f->cdir, bad_containers[i], false);
	for (size_t i = 0; i < sizeof(bad_pods) / sizeof(bad_pods[0]); i++)
		add_raw(f->pdir, bad_pods[i], true);
	l = open_logs(f);
	assert_int_equal(k8s_logs_skipped(l), sizeof(bad_containers) / sizeof(bad_containers[0]) +
						      sizeof(bad_pods) / sizeof(bad_pods[0]));
	/* Good entries beside them still count; none of the bad ones aliases one. */
	expect_container(l, CART_ID, "shop", "cart-5d8f7b9c4-x2k9q", "cart");
	expect_pod(l, CART_UID, "shop", "cart-5d8f7b9c4-x2k9q");
	k8s_logs_free(l);
}

static void test_rescan_only_on_change(void **state)
{
	struct fixture *f = *state;
	struct k8s_logs *l = open_logs(f);
	unsigned long scans = k8s_logs_scans(l);

	assert_int_equal(scans, 2); /* one per directory */
	assert_int_equal(k8s_logs_refresh(l, NULL, 0), 0);
	assert_int_equal(k8s_logs_refresh(l, NULL, 0), 0);
	assert_int_equal(k8s_logs_scans(l), scans);

	/* A new container: the directory's mtime moves, only that directory is read again. */
	add_container_log(f, "cart-5d8f7b9c4-x2k9q", "shop", "debugger", NEW_ID);
	assert_null(k8s_logs_container(l, NEW_ID));
	assert_int_equal(k8s_logs_refresh(l, NULL, 0), 0);
	assert_int_equal(k8s_logs_scans(l), scans + 1);
	expect_container(l, NEW_ID, "shop", "cart-5d8f7b9c4-x2k9q", "debugger");

	/* A deletion is seen the same way. */
	age_dir(f->cdir);
	assert_int_equal(k8s_logs_refresh(l, NULL, 0), 0);
	scans = k8s_logs_scans(l);
	{
		char path[640], name[512];

		snprintf(name, sizeof(name), "web.v2-0_front.end-prod_nginx-1-%s.log", WEB_ID);
		path_join(path, sizeof(path), f->cdir, name);
		assert_int_equal(unlink(path), 0);
	}
	assert_int_equal(k8s_logs_refresh(l, NULL, 0), 0);
	assert_int_equal(k8s_logs_scans(l), scans + 1);
	assert_null(k8s_logs_container(l, WEB_ID));
	assert_false(k8s_logs_pod_has_containers(l, "front.end-prod", "web.v2-0"));
	expect_container(l, CART_ID, "shop", "cart-5d8f7b9c4-x2k9q", "cart");
	assert_true(k8s_logs_pod_has_containers(l, "shop", "cart-5d8f7b9c4-x2k9q"));
	k8s_logs_free(l);
}

/* An entry added in the same clock tick as the last scan leaves the mtime unchanged. */
static void test_rescan_same_tick(void **state)
{
	struct fixture *f = *state;
	struct k8s_logs *l;
	struct timespec fresh;
	unsigned long scans;

	/* The kubelet just wrote the directory: its mtime is now. */
	add_pod_dir(f, "shop", "cart-5d8f7b9c4-y7z8w", "22222222-3333-4444-8555-666666666666");
	fresh = get_mtime(f->pdir);
	l = open_logs(f);
	add_pod_dir(f, "batch", "job-28373-abcde", "11111111-2222-4333-8444-555555555555");
	set_mtime(f->pdir, &fresh); /* same tick: no visible change */
	/* Rescans of an untrusted directory are spaced out: look-up misses refresh a lot. */
	scans = k8s_logs_scans(l);
	for (int i = 0; i < 50; i++)
		assert_int_equal(k8s_logs_refresh(l, NULL, 0), 0);
	assert_in_range(k8s_logs_scans(l), scans, scans + 1);
	nanosleep(&(struct timespec){ .tv_nsec = 150000000 }, NULL);
	assert_int_equal(k8s_logs_refresh(l, NULL, 0), 0);
	expect_pod(l, "11111111-2222-4333-8444-555555555555", "batch", "job-28373-abcde");

	/* Once the mtime is old enough to be trusted, refreshes stop scanning. */
	age_dir(f->pdir);
	assert_int_equal(k8s_logs_refresh(l, NULL, 0), 0);
	scans = k8s_logs_scans(l);
	assert_int_equal(k8s_logs_refresh(l, NULL, 0), 0);
	assert_int_equal(k8s_logs_scans(l), scans);
	k8s_logs_free(l);
}

static void test_missing_dirs(void **state)
{
	struct fixture *f = *state;
	char cdir[128], pdir[128], err[256] = "";
	struct k8s_logs *l;

	snprintf(cdir, sizeof(cdir), "%s/none/containers", f->root);
	snprintf(pdir, sizeof(pdir), "%s/none/pods", f->root);
	l = k8s_logs_new(cdir, pdir, err, sizeof(err));
	assert_non_null(l);
	assert_false(k8s_logs_have_containers(l));
	assert_null(k8s_logs_container(l, CART_ID));
	assert_null(k8s_logs_pod(l, CART_UID));
	assert_int_equal(k8s_logs_refresh(l, err, sizeof(err)), 0);
	assert_int_equal(k8s_logs_scans(l), 0);

	/* Mounted later (a hostPath that appears): picked up on the next refresh. */
	snprintf(err, sizeof(err), "%s/none", f->root);
	assert_int_equal(mkdir(err, 0755), 0);
	assert_int_equal(rename(f->cdir, cdir), 0);
	assert_int_equal(k8s_logs_refresh(l, NULL, 0), 0);
	assert_true(k8s_logs_have_containers(l));
	expect_container(l, CART_ID, "shop", "cart-5d8f7b9c4-x2k9q", "cart");

	/* And unmounted again: its names go with it. */
	assert_int_equal(rename(cdir, f->cdir), 0);
	assert_int_equal(k8s_logs_refresh(l, NULL, 0), 0);
	assert_false(k8s_logs_have_containers(l));
	assert_null(k8s_logs_container(l, CART_ID));
	assert_false(k8s_logs_pod_has_containers(l, "shop", "cart-5d8f7b9c4-x2k9q"));
	k8s_logs_free(l);
}

static void test_path_is_a_file(void **state)
{
	struct fixture *f = *state;
	char file[128], err[256] = "";
	struct k8s_logs *l;

	snprintf(file, sizeof(file), "%s/plain", f->root);
	add_raw(f->root, "plain", false);
	l = k8s_logs_new(file, f->pdir, err, sizeof(err));
	assert_non_null(l);
	assert_false(k8s_logs_have_containers(l));
	expect_pod(l, CART_UID, "shop", "cart-5d8f7b9c4-x2k9q");
	k8s_logs_free(l);
}

static void test_unreadable_dir(void **state)
{
	struct fixture *f = *state;
	char err[256] = "";
	struct k8s_logs *l;

	opendir_errno = EACCES;
	l = k8s_logs_new(f->cdir, f->pdir, err, sizeof(err));
	assert_null(l);
	assert_non_null(strstr(err, f->cdir));
	assert_non_null(strstr(err, strerror(EACCES)));
	assert_non_null(strstr(err, "mount"));
	assert_non_null(strstr(err, "--k8s-logs-containers"));

	/* Names read before a failure stay in use, and the next refresh tries again. */
	opendir_errno = 0;
	l = open_logs(f);
	add_container_log(f, "cart-5d8f7b9c4-x2k9q", "shop", "debugger", NEW_ID);
	opendir_errno = EIO;
	err[0] = '\0';
	assert_int_equal(k8s_logs_refresh(l, err, sizeof(err)), -EIO);
	assert_non_null(strstr(err, f->cdir));
	expect_container(l, CART_ID, "shop", "cart-5d8f7b9c4-x2k9q", "cart");
	assert_null(k8s_logs_container(l, NEW_ID));
	opendir_errno = 0;
	assert_int_equal(k8s_logs_refresh(l, err, sizeof(err)), 0);
	expect_container(l, NEW_ID, "shop", "cart-5d8f7b9c4-x2k9q", "debugger");
	k8s_logs_free(l);
}

static void test_refresh_null(void **state)
{
	(void)state;
	assert_int_equal(k8s_logs_refresh(NULL, NULL, 0), -EINVAL);
	assert_null(k8s_logs_container(NULL, CART_ID));
	assert_false(k8s_logs_have_containers(NULL));
	k8s_logs_free(NULL);
}

#define CART_POD_SD \
	"/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod" CART_UID_US ".slice"

static void resolve(struct k8s_logs *l, const char *path, struct k8s_identity *id)
{
	assert_int_equal(k8s_identity_resolve(l, "node-7", path, id), 0);
	assert_string_equal(id->res.host, "node-7");
}

static void test_identity_container(void **state)
{
	struct fixture *f = *state;
	struct k8s_logs *l = open_logs(f);
	struct k8s_identity id;

	resolve(l, CART_POD_SD "/cri-containerd-" CART_ID ".scope", &id);
	assert_int_equal(id.kind, K8S_CONTAINER);
	assert_false(id.sandbox);
	assert_string_equal(id.res.k8s_namespace, "shop");
	assert_string_equal(id.res.k8s_pod, "cart-5d8f7b9c4-x2k9q");
	assert_string_equal(id.res.k8s_pod_uid, CART_UID);
	assert_string_equal(id.res.k8s_container, "cart");
	assert_string_equal(id.res.container_id, CART_ID);

	/* The pod's own cgroup: no container fields. */
	resolve(l, CART_POD_SD, &id);
	assert_int_equal(id.kind, K8S_POD);
	assert_string_equal(id.res.k8s_namespace, "shop");
	assert_string_equal(id.res.k8s_pod, "cart-5d8f7b9c4-x2k9q");
	assert_string_equal(id.res.k8s_pod_uid, CART_UID);
	assert_null(id.res.k8s_container);
	assert_null(id.res.container_id);

	/* A static pod under cgroupfs. */
	resolve(l, "/kubepods/burstable/pod" STATIC_UID "/" ETCD_ID, &id);
	assert_string_equal(id.res.k8s_namespace, "kube-system");
	assert_string_equal(id.res.k8s_pod, "etcd-control-plane");
	assert_string_equal(id.res.k8s_container, "etcd");
	k8s_logs_free(l);
}

static void test_identity_sandbox_folded(void **state)
{
	struct fixture *f = *state;
	struct k8s_logs *l = open_logs(f);
	struct k8s_identity id;

	resolve(l, CART_POD_SD "/cri-containerd-" PAUSE_ID ".scope", &id);
	assert_int_equal(id.kind, K8S_POD_OTHER);
	assert_true(id.sandbox);
	assert_string_equal(id.res.k8s_namespace, "shop");
	assert_string_equal(id.res.k8s_pod, "cart-5d8f7b9c4-x2k9q");
	assert_string_equal(id.res.k8s_pod_uid, CART_UID);
	assert_null(id.res.k8s_container);
	assert_null(id.res.container_id);
	k8s_logs_free(l);
}

#define LONELY_UID "99999999-8888-4777-a666-555555555555"

/* No evidence that the logs cover the pod: an unlogged scope stays a container. */
static void test_identity_sandbox_needs_evidence(void **state)
{
	struct fixture *f = *state;
	struct k8s_logs *l;
	struct k8s_identity id;
	char cdir[128], err[256];

	/* A pod whose containers have no entry (not started yet, or logs elsewhere). */
	add_pod_dir(f, "shop", "lonely-0", LONELY_UID);
	l = open_logs(f);
	assert_true(k8s_logs_pod_has_containers(l, "shop", "cart-5d8f7b9c4-x2k9q"));
	assert_false(k8s_logs_pod_has_containers(l, "shop", "lonely-0"));
	assert_false(k8s_logs_pod_has_containers(l, "other", "cart-5d8f7b9c4-x2k9q"));
	resolve(l, "/kubepods/besteffort/pod" LONELY_UID "/" PAUSE_ID, &id);
	assert_int_equal(id.kind, K8S_CONTAINER);
	assert_false(id.sandbox);
	assert_string_equal(id.res.container_id, PAUSE_ID);
	assert_string_equal(id.res.k8s_pod, "lonely-0");
	assert_null(id.res.k8s_container);
	k8s_logs_free(l);

	/* Containers directory present but /var/log/pods missing: the pod is unknown. */
	snprintf(cdir, sizeof(cdir), "%s/none", f->root);
	l = k8s_logs_new(f->cdir, cdir, err, sizeof(err));
	assert_non_null(l);
	resolve(l, CART_POD_SD "/cri-containerd-" PAUSE_ID ".scope", &id);
	assert_int_equal(id.kind, K8S_CONTAINER);
	assert_false(id.sandbox);
	assert_string_equal(id.res.container_id, PAUSE_ID);
	k8s_logs_free(l);
}

static void test_identity_new_container_not_a_sandbox(void **state)
{
	struct fixture *f = *state;
	struct k8s_logs *l = open_logs(f);
	struct k8s_identity id;

	/* Started after the last refresh: resolving refreshes before calling it a sandbox. */
	add_container_log(f, "cart-5d8f7b9c4-x2k9q", "shop", "debugger", NEW_ID);
	resolve(l, CART_POD_SD "/crio-" NEW_ID ".scope", &id);
	assert_int_equal(id.kind, K8S_CONTAINER);
	assert_false(id.sandbox);
	assert_string_equal(id.res.k8s_container, "debugger");
	assert_string_equal(id.res.container_id, NEW_ID);
	k8s_logs_free(l);
}

static void test_identity_without_logs(void **state)
{
	struct fixture *f = *state;
	char cdir[128], pdir[128], err[256];
	struct k8s_logs *l;
	struct k8s_identity id;

	snprintf(cdir, sizeof(cdir), "%s/none/containers", f->root);
	snprintf(pdir, sizeof(pdir), "%s/none/pods", f->root);
	l = k8s_logs_new(cdir, pdir, err, sizeof(err));
	assert_non_null(l);
	for (int with_logs = 0; with_logs < 2; with_logs++) {
		/* No log directories: no sandbox can be told apart, ids only. */
		resolve(with_logs ? l : NULL, CART_POD_SD "/docker-" PAUSE_ID ".scope", &id);
		assert_int_equal(id.kind, K8S_CONTAINER);
		assert_false(id.sandbox);
		assert_string_equal(id.res.container_id, PAUSE_ID);
		assert_string_equal(id.res.k8s_pod_uid, CART_UID);
		assert_null(id.res.k8s_namespace);
		assert_null(id.res.k8s_pod);
		assert_null(id.res.k8s_container);
	}
	k8s_logs_free(l);
}

static void test_identity_pod_names_from_container_log(void **state)
{
	struct fixture *f = *state;
	struct k8s_logs *l;
	struct k8s_identity id;
	char path[640], name[512];

	/* /var/log/pods lacks the pod (cleaned up early): the container entry names it. */
	snprintf(name, sizeof(name), "shop_cart-5d8f7b9c4-x2k9q_%s", CART_UID);
	path_join(path, sizeof(path), f->pdir, name);
	assert_int_equal(rmdir(path), 0);
	l = open_logs(f);
	resolve(l, CART_POD_SD "/cri-containerd-" SIDECAR_ID ".scope", &id);
	assert_string_equal(id.res.k8s_namespace, "shop");
	assert_string_equal(id.res.k8s_pod, "cart-5d8f7b9c4-x2k9q");
	assert_string_equal(id.res.k8s_container, "istio-proxy");
	k8s_logs_free(l);
}

static void test_identity_not_kubernetes(void **state)
{
	struct fixture *f = *state;
	struct k8s_logs *l = open_logs(f);
	struct k8s_identity id;

	resolve(l, "/system.slice/containerd.service", &id);
	assert_int_equal(id.kind, K8S_NONE);
	assert_null(id.res.k8s_pod_uid);
	assert_null(id.res.container_id);
	assert_null(id.res.k8s_namespace);
	assert_int_equal(k8s_identity_resolve(l, NULL, NULL, &id), -EINVAL);
	assert_int_equal(k8s_identity_resolve(l, NULL, "/", NULL), -EINVAL);
	k8s_logs_free(l);
}

/* The identity reaches the JSON line under the OpenTelemetry names. */
static void test_identity_in_json_line(void **state)
{
	struct fixture *f = *state;
	struct k8s_logs *l = open_logs(f);
	struct report_line r = { .interval_s = 1.0,
				 .host = "node-7",
				 .model = "software",
				 .cgroup = CART_POD_SD,
				 .cgroup_id = 42,
				 .running_min = 1.0 };
	static const struct {
		const char *key, *value;
	} want[] = {
		{ "k8s.namespace.name", "shop" }, { "k8s.pod.name", "cart-5d8f7b9c4-x2k9q" },
		{ "k8s.pod.uid", CART_UID },	  { "k8s.container.name", "cart" },
		{ "container.id", CART_ID },	  { "host.name", "node-7" },
	};
	struct k8s_identity id;
	json_object *o, *res;
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	resolve(l, CART_POD_SD "/cri-containerd-" CART_ID ".scope", &id);
	r.resource = &id.res;
	assert_int_equal(output_json_line(out, &r), 0);
	fclose(out);
	o = json_tokener_parse(buf);
	assert_non_null(o);
	assert_true(json_object_object_get_ex(o, "resource", &res));
	assert_int_equal(json_object_object_length(res), 6);
	for (size_t i = 0; i < 6; i++) {
		json_object *v;

		assert_true(json_object_object_get_ex(res, want[i].key, &v));
		assert_string_equal(json_object_get_string(v), want[i].value);
	}
	json_object_put(o);
	free(buf);
	k8s_logs_free(l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_names_from_logs, setup, teardown),
		cmocka_unit_test_setup_teardown(test_foreign_entries_skipped, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rescan_only_on_change, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rescan_same_tick, setup, teardown),
		cmocka_unit_test_setup_teardown(test_missing_dirs, setup, teardown),
		cmocka_unit_test_setup_teardown(test_path_is_a_file, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unreadable_dir, setup, teardown),
		cmocka_unit_test(test_refresh_null),
		cmocka_unit_test_setup_teardown(test_identity_container, setup, teardown),
		cmocka_unit_test_setup_teardown(test_identity_sandbox_folded, setup, teardown),
		cmocka_unit_test_setup_teardown(test_identity_sandbox_needs_evidence, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_identity_new_container_not_a_sandbox, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_identity_without_logs, setup, teardown),
		cmocka_unit_test_setup_teardown(test_identity_pod_names_from_container_log, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_identity_not_kubernetes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_identity_in_json_line, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
