// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Cgroup path -> Kubernetes identity: every driver x QoS x runtime, pod and
 * container level, nested roots, and paths that must not be taken for pods.
 * Paths are built here the way the kubelet builds them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "k8s/k8s_path.h"

#define UID "0a1b2c3d-4e5f-6789-abcd-ef0123456789"
#define UID_US "0a1b2c3d_4e5f_6789_abcd_ef0123456789"
#define STATIC_UID "3c5b2f1e9e5b4c0f8b2f0e5d3a1c4b6e"
#define CID "4f9a3b2c1d0e5f6a7b8c9d0e1f2a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c"

static const enum k8s_qos all_qos[] = { K8S_QOS_GUARANTEED, K8S_QOS_BURSTABLE, K8S_QOS_BESTEFFORT };
static const enum k8s_runtime all_rt[] = { K8S_RUNTIME_CONTAINERD, K8S_RUNTIME_CRIO,
					   K8S_RUNTIME_DOCKER };

/* The runtime's scope prefix, as each runtime names its cgroups. */
static const char *rt_prefix(enum k8s_runtime rt)
{
	return rt == K8S_RUNTIME_CONTAINERD ? "cri-containerd-" :
	       rt == K8S_RUNTIME_CRIO	    ? "crio-" :
					      "docker-";
}

/* systemd pod slice path below root stem (e.g. "kubepods"), with parents prefix. */
static void systemd_pod(char *buf, size_t len, const char *parents, const char *stem,
			enum k8s_qos qos, const char *uid)
{
	if (qos == K8S_QOS_GUARANTEED)
		snprintf(buf, len, "%s/%s.slice/%s-pod%s.slice", parents, stem, stem, uid);
	else
		snprintf(buf, len, "%s/%s.slice/%s-%s.slice/%s-%s-pod%s.slice", parents, stem, stem,
			 k8s_qos_name(qos), stem, k8s_qos_name(qos), uid);
}

static void cgroupfs_pod(char *buf, size_t len, const char *parents, enum k8s_qos qos,
			 const char *uid)
{
	if (qos == K8S_QOS_GUARANTEED)
		snprintf(buf, len, "%s/kubepods/pod%s", parents, uid);
	else
		snprintf(buf, len, "%s/kubepods/%s/pod%s", parents, k8s_qos_name(qos), uid);
}

static void expect_pod(const char *path, enum k8s_driver drv, enum k8s_qos qos, const char *uid)
{
	struct k8s_path kp;

	assert_int_equal(k8s_path_parse(path, &kp), 0);
	assert_int_equal(kp.kind, K8S_POD);
	assert_int_equal(kp.driver, drv);
	assert_int_equal(kp.qos, qos);
	assert_string_equal(kp.pod_uid, uid);
	assert_string_equal(kp.container_id, "");
	assert_int_equal(kp.pod_path_len, strlen(path));
	assert_int_equal(kp.container_path_len, 0);
}

static void expect_container(const char *pod_path, const char *path, enum k8s_driver drv,
			     enum k8s_qos qos, enum k8s_runtime rt, const char *uid)
{
	struct k8s_path kp;
	char pod[512];

	assert_int_equal(k8s_path_parse(path, &kp), 0);
	assert_int_equal(kp.kind, K8S_CONTAINER);
	assert_int_equal(kp.driver, drv);
	assert_int_equal(kp.qos, qos);
	assert_int_equal(kp.runtime, rt);
	assert_string_equal(kp.pod_uid, uid);
	assert_string_equal(kp.container_id, CID);
	assert_int_equal(kp.pod_path_len, strlen(pod_path));
	assert_int_equal(kp.container_path_len, strlen(path));
	assert_int_equal(k8s_path_pod(path, pod, sizeof(pod)), 0);
	assert_string_equal(pod, pod_path);
}

static void expect_none(const char *path)
{
	struct k8s_path kp;
	char pod[512];

	assert_int_equal(k8s_path_parse(path, &kp), 0);
	if (kp.kind != K8S_NONE)
		fail_msg("taken for Kubernetes (%s): %s", k8s_kind_name(kp.kind), path);
	assert_string_equal(kp.pod_uid, "");
	assert_string_equal(kp.container_id, "");
	assert_int_equal(k8s_path_pod(path, pod, sizeof(pod)), -ENOENT);
}

/* Every QoS x runtime under the systemd driver, rooted below parents/stem. */
static void check_systemd(const char *parents, const char *stem)
{
	char pod[512], path[640];

	for (size_t q = 0; q < 3; q++) {
		systemd_pod(pod, sizeof(pod), parents, stem, all_qos[q], UID_US);
		expect_pod(pod, K8S_DRIVER_SYSTEMD, all_qos[q], UID);
		for (size_t r = 0; r < 3; r++) {
			snprintf(path, sizeof(path), "%s/%s%s.scope", pod, rt_prefix(all_rt[r]),
				 CID);
			expect_container(pod, path, K8S_DRIVER_SYSTEMD, all_qos[q], all_rt[r], UID);
		}
	}
}

static void check_cgroupfs(const char *parents)
{
	char pod[512], path[640];

	for (size_t q = 0; q < 3; q++) {
		cgroupfs_pod(pod, sizeof(pod), parents, all_qos[q], UID);
		expect_pod(pod, K8S_DRIVER_CGROUPFS, all_qos[q], UID);
		/* cgroupfs: containerd and Docker name the cgroup by the bare id. */
		snprintf(path, sizeof(path), "%s/%s", pod, CID);
		expect_container(pod, path, K8S_DRIVER_CGROUPFS, all_qos[q], K8S_RUNTIME_UNKNOWN,
				 UID);
		for (size_t r = 0; r < 3; r++) {
			snprintf(path, sizeof(path), "%s/%s%s", pod, rt_prefix(all_rt[r]), CID);
			expect_container(pod, path, K8S_DRIVER_CGROUPFS, all_qos[q], all_rt[r],
					 UID);
		}
	}
}

static void test_systemd_all_qos_runtimes(void **state)
{
	(void)state;
	check_systemd("", "kubepods");
}

static void test_cgroupfs_all_qos_runtimes(void **state)
{
	(void)state;
	check_cgroupfs("");
}

static void test_nested_roots(void **state)
{
	(void)state;
	/* kind / minikube: the kubelet's cgroup root is /kubelet. */
	check_systemd("/kubelet.slice", "kubelet-kubepods");
	check_cgroupfs("/kubelet");
	/* The host's hierarchy seen from a cgroup namespace: its root is "/../..". */
	check_systemd("/../..", "kubepods");
	check_cgroupfs("/../../..");
	check_systemd("/../../kubelet.slice", "kubelet-kubepods");
}

/*
 * A "kubepods" anyone could have made: in a delegated subtree (systemd's
 * user@.service, a container with its own cgroup namespace) at any depth
 * below level 1.  Each must not be taken for the victim's pod or container,
 * with either driver.
 */
static void test_fake_roots_are_not_pods(void **state)
{
	static const char *const fake_parents[] = {
		"/user.slice/user-1000.slice/user@1000.service",
		"/user.slice/user-1000.slice/user@1000.service/app.slice",
		"/system.slice/docker-0123.scope", /* a container's own cgroupns root */
		"/system.slice/docker-0123.scope/kubelet.slice",
		"/docker/" CID,
		"/lxc.payload.c1", /* LXC delegates at level 1 */
		"/a/b",
	};
	char pod[512], path[640], stem[256];

	(void)state;
	for (size_t i = 0; i < sizeof(fake_parents) / sizeof(fake_parents[0]); i++) {
		for (size_t q = 0; q < 3; q++) {
			cgroupfs_pod(pod, sizeof(pod), fake_parents[i], all_qos[q], UID);
			expect_none(pod);
			snprintf(path, sizeof(path), "%s/%s", pod, CID);
			expect_none(path);
			systemd_pod(pod, sizeof(pod), fake_parents[i], "kubepods", all_qos[q],
				    UID_US);
			expect_none(pod);
			snprintf(path, sizeof(path), "%s/cri-containerd-%s.scope", pod, CID);
			expect_none(path);
			/* And the nested form, one level too deep. */
			snprintf(stem, sizeof(stem), "%s/x.slice", fake_parents[i]);
			systemd_pod(pod, sizeof(pod), stem, "x-kubepods", all_qos[q], UID_US);
			expect_none(pod);
		}
		snprintf(path, sizeof(path), "%s/kubepods", fake_parents[i]);
		assert_false(k8s_path_is_pod_parent(path));
		snprintf(path, sizeof(path), "%s/kubepods/burstable", fake_parents[i]);
		assert_false(k8s_path_is_pod_parent(path));
		snprintf(path, sizeof(path), "%s/kubepods.slice", fake_parents[i]);
		assert_false(k8s_path_is_pod_parent(path));
	}
	/* The reproduction, verbatim. */
	expect_none("/user.slice/user-1000.slice/user@1000.service/kubepods/pod" UID "/" CID);
	/* Level 2 only below a slice of the same stem, or a plain (dot-free) name. */
	expect_none("/kubelet.slice/other-kubepods.slice/other-kubepods-pod" UID_US ".slice");
	expect_none("/kubelet/kubepods.slice/kubepods-pod" UID_US ".slice");
	expect_none("/kubelet.slice/kubepods/pod" UID);
	expect_none("/system.slice/kubepods/pod" UID);
	expect_none("/-kubepods.slice/kubepods-pod" UID_US ".slice");
	expect_none("/.slice/-kubepods.slice/-kubepods-pod" UID_US ".slice");
	/* A level-1 root named as if nested: systemd would have put it in its parent slice. */
	expect_none("/kubelet-kubepods.slice/kubelet-kubepods-pod" UID_US ".slice");
	/* ".." climbs to the host's root only at the start of a path. */
	expect_none("/a/../kubepods/pod" UID);
	expect_none("/../a/b/kubepods/pod" UID);
}

static void test_genuine_pod_parents(void **state)
{
	(void)state;
	assert_true(k8s_path_is_pod_parent("/kubepods"));
	assert_true(k8s_path_is_pod_parent("/kubepods/burstable"));
	assert_true(k8s_path_is_pod_parent("/kubepods.slice"));
	assert_true(k8s_path_is_pod_parent("/kubepods.slice/kubepods-besteffort.slice"));
	assert_true(k8s_path_is_pod_parent("/kubelet.slice/kubelet-kubepods.slice"));
	assert_true(k8s_path_is_pod_parent(
		"/kubelet.slice/kubelet-kubepods.slice/kubelet-kubepods-burstable.slice"));
	assert_true(k8s_path_is_pod_parent("/kubelet/kubepods/besteffort"));
	assert_false(k8s_path_is_pod_parent("/kubepods/burstable/pod" UID));
	assert_false(k8s_path_is_pod_parent("/kubepods/other"));
	assert_false(k8s_path_is_pod_parent("/"));
	assert_false(k8s_path_is_pod_parent(NULL));
}

static void test_no_leading_slash_and_extra_slashes(void **state)
{
	(void)state;
	expect_pod("kubepods/burstable/pod" UID, K8S_DRIVER_CGROUPFS, K8S_QOS_BURSTABLE, UID);
	expect_container("kubepods.slice/kubepods-pod" UID_US ".slice",
			 "kubepods.slice/kubepods-pod" UID_US ".slice/crio-" CID ".scope",
			 K8S_DRIVER_SYSTEMD, K8S_QOS_GUARANTEED, K8S_RUNTIME_CRIO, UID);
	expect_pod("//kubepods//pod" UID, K8S_DRIVER_CGROUPFS, K8S_QOS_GUARANTEED, UID);
}

static void test_static_pod_uid(void **state)
{
	(void)state;
	expect_pod("/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod" STATIC_UID
		   ".slice",
		   K8S_DRIVER_SYSTEMD, K8S_QOS_BURSTABLE, STATIC_UID);
	expect_pod("/kubepods/pod" STATIC_UID, K8S_DRIVER_CGROUPFS, K8S_QOS_GUARANTEED, STATIC_UID);
}

static void test_below_container_stays_container(void **state)
{
	const char *pod = "/kubepods.slice/kubepods-besteffort.slice/"
			  "kubepods-besteffort-pod" UID_US ".slice";
	char path[700], expect[640];
	struct k8s_path kp;

	(void)state;
	/* CRI-O puts a "container" child below the scope on some setups. */
	snprintf(expect, sizeof(expect), "%s/crio-%s.scope", pod, CID);
	snprintf(path, sizeof(path), "%s/container", expect);
	assert_int_equal(k8s_path_parse(path, &kp), 0);
	assert_int_equal(kp.kind, K8S_CONTAINER);
	assert_int_equal(kp.container_path_len, strlen(expect));
	assert_string_equal(kp.container_id, CID);
}

static void expect_pod_other(const char *path, const char *pod_path)
{
	struct k8s_path kp;
	char pod[512];

	assert_int_equal(k8s_path_parse(path, &kp), 0);
	if (kp.kind != K8S_POD_OTHER)
		fail_msg("kind %s, not pod-other: %s", k8s_kind_name(kp.kind), path);
	assert_string_equal(kp.pod_uid, UID);
	assert_string_equal(kp.container_id, "");
	assert_int_equal(k8s_path_pod(path, pod, sizeof(pod)), 0);
	assert_string_equal(pod, pod_path);
}

static void test_malformed_container_ids(void **state)
{
	const char *sd =
		"/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod" UID_US ".slice";
	const char *fs = "/kubepods/burstable/pod" UID;
	char path[640];

	(void)state;
	/* Inside a pod but no container id: attributed to the pod, never a container. */
	snprintf(path, sizeof(path), "%s/cri-containerd-%.63s.scope", sd, CID); /* 63 */
	expect_pod_other(path, sd);
	snprintf(path, sizeof(path), "%s/cri-containerd-%s0.scope", sd, CID); /* 65 */
	expect_pod_other(path, sd);
	snprintf(path, sizeof(path), "%s/crio-%.63sg.scope", sd, CID); /* non-hex */
	expect_pod_other(path, sd);
	snprintf(path, sizeof(path), "%s/crio-%.63sA.scope", sd, CID); /* upper case */
	expect_pod_other(path, sd);
	snprintf(path, sizeof(path), "%s/crio-conmon-%s.scope", sd, CID);
	expect_pod_other(path, sd);
	snprintf(path, sizeof(path), "%s/%s.scope", sd, CID); /* systemd needs a runtime */
	expect_pod_other(path, sd);
	snprintf(path, sizeof(path), "%s/podman-%s.scope", sd, CID);
	expect_pod_other(path, sd);
	snprintf(path, sizeof(path), "%s/docker-%s", sd, CID); /* no .scope */
	expect_pod_other(path, sd);
	snprintf(path, sizeof(path), "%s/%.63s", fs, CID);
	expect_pod_other(path, fs);
	snprintf(path, sizeof(path), "%s/%.63sx", fs, CID);
	expect_pod_other(path, fs);
}

static void test_malformed_pod_uids(void **state)
{
	(void)state;
	/* systemd escapes the uid's dashes: a dash there is not the kubelet's name. */
	expect_none("/kubepods.slice/kubepods-pod" UID ".slice");
	expect_none("/kubepods/pod" UID_US);
	expect_none("/kubepods/burstable/pod0a1b2c3d-4e5f-6789-abcd-ef012345678");   /* short */
	expect_none("/kubepods/burstable/pod0a1b2c3d-4e5f-6789-abcd-ef01234567890"); /* long */
	expect_none("/kubepods/burstable/pod0a1b2c3d-4e5f-6789-abcd-ef012345678z");  /* non-hex */
	expect_none("/kubepods/burstable/pod0A1B2C3D-4E5F-6789-ABCD-EF0123456789");  /* upper */
	expect_none("/kubepods/burstable/pod0a1b2c3d4-e5f-6789-abcd-ef0123456789"); /* dash moved */
	expect_none("/kubepods/burstable/pod" STATIC_UID "0");
	expect_none("/kubepods/burstable/pod");
	expect_none("/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod.slice");
}

static void test_not_kubernetes(void **state)
{
	(void)state;
	expect_none("/");
	expect_none("");
	expect_none("/system.slice/sshd.service");
	expect_none("/system.slice/containerd.service");
	expect_none("/system.slice/docker-" CID ".scope");
	expect_none("/user.slice/user-1000.slice/user@1000.service/app.slice/kubepods.scope");
	expect_none("/user.slice/user-1000.slice/session-3.scope");
	expect_none("/init.scope");
	expect_none("/docker/" CID);
	/* The kubepods root and the QoS levels hold no pod of their own. */
	expect_none("/kubepods.slice");
	expect_none("/kubepods.slice/kubepods-burstable.slice");
	expect_none("/kubepods");
	expect_none("/kubepods/besteffort");
	/* Look-alikes of the root. */
	expect_none("/mykubepods.slice/mykubepods-pod" UID_US ".slice");
	expect_none("/kubepods2/pod" UID);
	expect_none("/kubepods.scope/pod" UID);
	/* A QoS level that does not exist, or a pod slice of another stem. */
	expect_none("/kubepods/guaranteed/pod" UID);
	expect_none("/kubepods.slice/kubepods-guaranteed.slice/kubepods-guaranteed-pod" UID_US
		    ".slice");
	expect_none("/kubepods.slice/kubepods-burstable.slice/kubepods-besteffort-pod" UID_US
		    ".slice");
	expect_none("/kubepods.slice/other-pod" UID_US ".slice");
	expect_none("/kubepods.slice/kubepods-pod" UID_US); /* no .slice */
	/* Pod directly below the root with systemd but three levels deep. */
	expect_none("/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-x.slice/"
		    "kubepods-burstable-x-pod" UID_US ".slice");
}

static void test_pod_path_errors(void **state)
{
	char small[16];
	struct k8s_path kp;

	(void)state;
	assert_int_equal(k8s_path_pod("/kubepods/pod" UID "/" CID, small, sizeof(small)),
			 -ENAMETOOLONG);
	assert_int_equal(k8s_path_pod(NULL, small, sizeof(small)), -EINVAL);
	assert_int_equal(k8s_path_pod("/kubepods", NULL, 0), -EINVAL);
	assert_int_equal(k8s_path_parse(NULL, &kp), -EINVAL);
	assert_int_equal(k8s_path_parse("/kubepods", NULL), -EINVAL);
}

static void test_names(void **state)
{
	(void)state;
	assert_string_equal(k8s_qos_name(K8S_QOS_GUARANTEED), "guaranteed");
	assert_string_equal(k8s_qos_name(K8S_QOS_BURSTABLE), "burstable");
	assert_string_equal(k8s_qos_name(K8S_QOS_BESTEFFORT), "besteffort");
	assert_string_equal(k8s_runtime_name(K8S_RUNTIME_CONTAINERD), "containerd");
	assert_string_equal(k8s_runtime_name(K8S_RUNTIME_CRIO), "cri-o");
	assert_string_equal(k8s_runtime_name(K8S_RUNTIME_DOCKER), "docker");
	assert_string_equal(k8s_kind_name(K8S_CONTAINER), "container");
	assert_string_equal(k8s_kind_name(K8S_NONE), "none");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_systemd_all_qos_runtimes),
		cmocka_unit_test(test_cgroupfs_all_qos_runtimes),
		cmocka_unit_test(test_nested_roots),
		cmocka_unit_test(test_fake_roots_are_not_pods),
		cmocka_unit_test(test_genuine_pod_parents),
		cmocka_unit_test(test_no_leading_slash_and_extra_slashes),
		cmocka_unit_test(test_static_pod_uid),
		cmocka_unit_test(test_below_container_stays_container),
		cmocka_unit_test(test_malformed_container_ids),
		cmocka_unit_test(test_malformed_pod_uids),
		cmocka_unit_test(test_not_kubernetes),
		cmocka_unit_test(test_pod_path_errors),
		cmocka_unit_test(test_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
