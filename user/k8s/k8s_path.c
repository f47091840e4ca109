// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Cgroup path -> pod / container identity.  The names follow the kubelet's
 * cgroup manager (pkg/kubelet/cm): with the systemd driver each level is a
 * slice whose name repeats its parents joined by '-' ("kubepods-burstable-
 * pod<uid>.slice"), so the uid's own dashes become '_'; with cgroupfs the
 * levels are plain directory names.  Anything that does not match exactly is
 * not Kubernetes: a guess would put one service's counts under another's name.
 */
#include "k8s/k8s_path.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>

struct comp {
	const char *s;
	size_t len;
	size_t end; /* offset just past this component in the whole path */
};

/* The next non-empty component at or after *pos; false at the end. */
static bool comp_next(const char *path, size_t *pos, struct comp *c)
{
	size_t i = *pos;

	while (path[i] == '/')
		i++;
	if (!path[i])
		return false;
	c->s = path + i;
	while (path[i] && path[i] != '/')
		i++;
	c->len = (size_t)(path + i - c->s);
	c->end = i;
	*pos = i;
	return true;
}

static bool is_lower_hex(char ch)
{
	return (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'f');
}

bool k8s_all_hex(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (!is_lower_hex(s[i]))
			return false;
	return true;
}

/*
 * A pod uid: a UUID with sep ('-' for cgroupfs, '_' for systemd, which
 * reserves '-' for nesting) or, for static pods, the 32-hex hash the kubelet
 * gives them.  Copied into out with dashes.
 */
static bool parse_uid(const char *s, size_t len, char sep, char out[K8S_UID_MAX + 1])
{
	if (len == 32 && k8s_all_hex(s, len)) {
		memcpy(out, s, len);
		out[len] = '\0';
		return true;
	}
	if (len != 36)
		return false;
	for (size_t i = 0; i < len; i++) {
		bool dash_pos = i == 8 || i == 13 || i == 18 || i == 23;

		if (dash_pos ? s[i] != sep : !is_lower_hex(s[i]))
			return false;
		out[i] = dash_pos ? '-' : s[i];
	}
	out[len] = '\0';
	return true;
}

static bool has_suffix(const char *s, size_t len, const char *suffix)
{
	size_t n = strlen(suffix);

	return len >= n && !memcmp(s + len - n, suffix, n);
}

static const struct {
	const char *prefix;
	enum k8s_runtime rt;
} runtimes[] = {
	{ "cri-containerd-", K8S_RUNTIME_CONTAINERD },
	{ "crio-", K8S_RUNTIME_CRIO },
	{ "docker-", K8S_RUNTIME_DOCKER },
};

/*
 * A container component: "<runtime>-<64 hex>" (".scope" with systemd) or,
 * with cgroupfs, also the bare id most runtimes use there.
 */
static bool parse_container(const struct comp *c, enum k8s_driver drv, struct k8s_path *out)
{
	size_t len = c->len, plen = 0;
	const char *s = c->s;
	enum k8s_runtime rt = K8S_RUNTIME_UNKNOWN;

	if (drv == K8S_DRIVER_SYSTEMD) {
		if (!has_suffix(s, len, ".scope"))
			return false;
		len -= strlen(".scope");
	}
	for (size_t i = 0; i < sizeof(runtimes) / sizeof(runtimes[0]); i++) {
		size_t n = strlen(runtimes[i].prefix);

		if (len >= n && !memcmp(s, runtimes[i].prefix, n)) {
			rt = runtimes[i].rt;
			plen = n;
			break;
		}
	}
	if (rt == K8S_RUNTIME_UNKNOWN && drv == K8S_DRIVER_SYSTEMD)
		return false;
	s += plen;
	len -= plen;
	if (len != K8S_CONTAINER_ID_LEN || !k8s_all_hex(s, len))
		return false;
	memcpy(out->container_id, s, len);
	out->container_id[len] = '\0';
	out->runtime = rt;
	return true;
}

/* The QoS level name at s, or K8S_QOS_UNKNOWN. */
static enum k8s_qos qos_of(const char *s, size_t len)
{
	if (len == strlen("burstable") && !memcmp(s, "burstable", len))
		return K8S_QOS_BURSTABLE;
	if (len == strlen("besteffort") && !memcmp(s, "besteffort", len))
		return K8S_QOS_BESTEFFORT;
	return K8S_QOS_UNKNOWN;
}

/*
 * systemd: the component below the root (stem "<P>") is "<P>-<qos>.slice" or
 * "<P>-pod<uid>.slice"; below a QoS slice "<P>-<qos>-pod<uid>.slice".
 */
static bool parse_systemd_pod(const char *path, size_t *pos, const char *stem, size_t stem_len,
			      struct k8s_path *out)
{
	struct comp c;
	const char *rest;
	size_t len;

	out->qos = K8S_QOS_GUARANTEED;
	for (int depth = 0; depth < 2; depth++) {
		if (!comp_next(path, pos, &c) || !has_suffix(c.s, c.len, ".slice"))
			return false;
		len = c.len - strlen(".slice");
		if (len <= stem_len + 1 || memcmp(c.s, stem, stem_len) || c.s[stem_len] != '-')
			return false;
		rest = c.s + stem_len + 1;
		len -= stem_len + 1;
		if (len > 3 && !memcmp(rest, "pod", 3)) {
			if (!parse_uid(rest + 3, len - 3, '_', out->pod_uid))
				return false;
			out->pod_path_len = c.end;
			return true;
		}
		if (depth > 0 || (out->qos = qos_of(rest, len)) == K8S_QOS_UNKNOWN)
			return false;
		stem = c.s;
		stem_len = c.len - strlen(".slice");
	}
	return false;
}

/* cgroupfs: "[<qos>/]pod<uid>" below "kubepods". */
static bool parse_cgroupfs_pod(const char *path, size_t *pos, struct k8s_path *out)
{
	struct comp c;

	if (!comp_next(path, pos, &c))
		return false;
	out->qos = qos_of(c.s, c.len);
	if (out->qos == K8S_QOS_UNKNOWN)
		out->qos = K8S_QOS_GUARANTEED;
	else if (!comp_next(path, pos, &c))
		return false;
	if (c.len <= 3 || memcmp(c.s, "pod", 3) ||
	    !parse_uid(c.s + 3, c.len - 3, '-', out->pod_uid))
		return false;
	out->pod_path_len = c.end;
	return true;
}

static bool is_exactly(const struct comp *c, const char *s)
{
	return c->len == strlen(s) && !memcmp(c->s, s, c->len);
}

/*
 * The kubepods root, accepted only where the kubelet puts it: anyone with a
 * delegated subtree (user@.service, a container with its own cgroup
 * namespace) can create a "kubepods/pod<uid>/<id>" of their own deeper down
 * and be reported as someone else's pod.  The root is
 *   level 1: "kubepods" (cgroupfs) or "kubepods.slice" (systemd);
 *   level 2, the kubelet's --cgroup-root (kind: /kubelet): "<x>.slice/<x>-kubepods.slice"
 *            (systemd) or "<x>/kubepods" (cgroupfs, x a plain name: systemd units and
 *            LXC's lxc.payload.<name>, the level-1 cgroups that get delegated, have dots).
 * Only root on the host creates level-1 cgroups.  Leading ".." components are
 * skipped: seen from inside a cgroup namespace (the DaemonSet's), the host's
 * hierarchy mounted there has the root "/../..", one ".." per level of the
 * namespace's own root, and no cgroup can be named "..".  On success *pos is
 * past the root and *root is it.
 */
static enum k8s_driver find_root(const char *path, size_t *pos, struct comp *root)
{
	struct comp first, second;
	size_t stem;

	do {
		if (!comp_next(path, pos, &first))
			return K8S_DRIVER_UNKNOWN;
	} while (is_exactly(&first, ".."));
	*root = first;
	if (is_exactly(&first, "kubepods"))
		return K8S_DRIVER_CGROUPFS;
	if (is_exactly(&first, "kubepods.slice"))
		return K8S_DRIVER_SYSTEMD;
	if (!comp_next(path, pos, &second))
		return K8S_DRIVER_UNKNOWN;
	*root = second;
	if (is_exactly(&second, "kubepods"))
		return memchr(first.s, '.', first.len) ? K8S_DRIVER_UNKNOWN : K8S_DRIVER_CGROUPFS;
	/* "<x>.slice/<x>-kubepods.slice": systemd's own nesting of a slice named so. */
	if (!has_suffix(first.s, first.len, ".slice"))
		return K8S_DRIVER_UNKNOWN;
	stem = first.len - strlen(".slice");
	if (!stem || second.len != stem + strlen("-kubepods.slice") ||
	    memcmp(second.s, first.s, stem) ||
	    memcmp(second.s + stem, "-kubepods.slice", strlen("-kubepods.slice")))
		return K8S_DRIVER_UNKNOWN;
	return K8S_DRIVER_SYSTEMD;
}

/* Parses the pod and what lies below it, the root being the component c. */
static bool parse_below_root(const char *path, size_t pos, const struct comp *root,
			     enum k8s_driver drv, struct k8s_path *out)
{
	struct comp c;
	bool ok;

	memset(out, 0, sizeof(*out));
	out->driver = drv;
	if (drv == K8S_DRIVER_SYSTEMD)
		ok = parse_systemd_pod(path, &pos, root->s, root->len - strlen(".slice"), out);
	else
		ok = parse_cgroupfs_pod(path, &pos, out);
	if (!ok)
		return false;
	out->kind = K8S_POD;
	if (!comp_next(path, &pos, &c))
		return true;
	if (parse_container(&c, drv, out)) {
		out->kind = K8S_CONTAINER;
		out->container_path_len = c.end;
	} else {
		out->kind = K8S_POD_OTHER;
	}
	return true;
}

int k8s_path_parse(const char *path, struct k8s_path *out)
{
	enum k8s_driver drv;
	struct comp root;
	size_t pos = 0;

	if (!path || !out)
		return -EINVAL;
	drv = find_root(path, &pos, &root);
	if (drv == K8S_DRIVER_UNKNOWN || !parse_below_root(path, pos, &root, drv, out))
		memset(out, 0, sizeof(*out));
	return 0;
}

int k8s_path_pod(const char *path, char *buf, size_t len)
{
	struct k8s_path kp;
	int err;

	if (!path || !buf)
		return -EINVAL;
	err = k8s_path_parse(path, &kp);
	if (err)
		return err;
	if (kp.kind == K8S_NONE)
		return -ENOENT;
	if (kp.pod_path_len >= len)
		return -ENAMETOOLONG;
	memcpy(buf, path, kp.pod_path_len);
	buf[kp.pod_path_len] = '\0';
	return 0;
}

/* c is the QoS level named after root (whose driver is drv). */
static bool is_qos_below(const struct comp *root, enum k8s_driver drv, const struct comp *c)
{
	size_t stem = root->len - strlen(".slice");

	if (drv == K8S_DRIVER_CGROUPFS)
		return qos_of(c->s, c->len) != K8S_QOS_UNKNOWN;
	if (!has_suffix(c->s, c->len, ".slice") || c->len <= stem + 1 + strlen(".slice") ||
	    memcmp(c->s, root->s, stem) || c->s[stem] != '-')
		return false;
	return qos_of(c->s + stem + 1, c->len - stem - 1 - strlen(".slice")) != K8S_QOS_UNKNOWN;
}

bool k8s_path_is_pod_parent(const char *path)
{
	enum k8s_driver drv;
	struct comp root, c;
	size_t pos = 0;

	if (!path)
		return false;
	drv = find_root(path, &pos, &root);
	if (drv == K8S_DRIVER_UNKNOWN)
		return false;
	if (!comp_next(path, &pos, &c))
		return true; /* the root itself */
	return is_qos_below(&root, drv, &c) && !comp_next(path, &pos, &c);
}

const char *k8s_kind_name(enum k8s_kind kind)
{
	static const char *const names[] = { "none", "pod", "pod-other", "container" };

	return k8s_enum_name(kind, names, K8S_NAMES(names));
}

const char *k8s_qos_name(enum k8s_qos qos)
{
	static const char *const names[] = { "unknown", "guaranteed", "burstable", "besteffort" };

	return k8s_enum_name(qos, names, K8S_NAMES(names));
}

const char *k8s_runtime_name(enum k8s_runtime rt)
{
	static const char *const names[] = { "unknown", "containerd", "cri-o", "docker" };

	return k8s_enum_name(rt, names, K8S_NAMES(names));
}
