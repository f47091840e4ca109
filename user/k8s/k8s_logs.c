// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Directory scans of the kubelet's log directories into two sorted arrays,
 * looked up by binary search.  A scan builds new arrays and swaps them in, so
 * a failure midway leaves the previous names in use.
 */
#include "k8s/k8s_logs.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

/*
 * A directory's mtime has the granularity of the kernel's coarse clock: an
 * entry added in the same tick as our scan, after it, leaves the mtime as we
 * saw it.  A scan this close to the mtime is not trusted and is repeated.
 */
#define K8S_LOGS_RACY_NS 1000000000LL
/*
 * Look-up misses refresh too, possibly hundreds of times an interval: while a
 * scan is not trusted, repeat it at most this often, or each miss would read
 * the whole directory again.
 */
#define K8S_LOGS_RACY_RESCAN_NS 100000000LL

struct dir_state {
	char *path;
	bool present;
	bool racy;
	struct timespec scanned; /* start of the last scan */
	dev_t dev;
	ino_t ino;
	struct timespec mtime;
};

struct k8s_logs {
	struct dir_state cdir, pdir;
	struct k8s_log_container *containers; /* by id */
	size_t ncontainers;
	const struct k8s_log_container **by_pod; /* the same, by namespace and pod */
	struct k8s_log_pod *pods;
	size_t npods;
	unsigned long scans;
	unsigned long skipped_containers, skipped_pods;
};

/* A DNS name of at most max bytes: lowercase letters, digits, '-' and '.' (RFC 1123). */
static bool copy_dns_name(char *dst, const char *s, size_t len, size_t max)
{
	if (!len || len > max)
		return false;
	for (size_t i = 0; i < len; i++) {
		char ch = s[i];

		if (!((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '-' ||
		      ch == '.'))
			return false;
	}
	memcpy(dst, s, len);
	dst[len] = '\0';
	return true;
}

/* Splits s (len bytes) at its two '_' into three parts; false unless exactly two. */
static bool split3(const char *s, size_t len, const char *part[3], size_t plen[3])
{
	int k = 0;

	part[0] = s;
	for (size_t i = 0; i < len; i++) {
		if (s[i] != '_')
			continue;
		if (k == 2)
			return false;
		plen[k] = (size_t)(s + i - part[k]);
		part[++k] = s + i + 1;
	}
	if (k != 2)
		return false;
	plen[2] = (size_t)(s + len - part[2]);
	return true;
}

/* "<pod>_<namespace>_<container>-<64 hex>.log" */
static bool parse_container_name(const char *name, void *item)
{
	struct k8s_log_container *c = item;
	size_t len = strlen(name), idlen = K8S_CONTAINER_ID_LEN;
	const char *part[3], *id;
	size_t plen[3];

	if (len < idlen + 1 + strlen(".log") || strcmp(name + len - 4, ".log"))
		return false;
	len -= strlen(".log");
	id = name + len - idlen;
	if (id[-1] != '-' || !k8s_all_hex(id, idlen))
		return false;
	len -= idlen + 1;
	if (!split3(name, len, part, plen))
		return false;
	memcpy(c->id, id, idlen);
	c->id[idlen] = '\0';
	return copy_dns_name(c->pod, part[0], plen[0], K8S_POD_NAME_MAX) &&
	       copy_dns_name(c->ns, part[1], plen[1], K8S_NAMESPACE_MAX) &&
	       copy_dns_name(c->container, part[2], plen[2], K8S_CONTAINER_NAME_MAX);
}

/* "<namespace>_<pod>_<uid>", uid as the API server writes it (dashes) or a static pod's hash. */
static bool parse_pod_name(const char *name, void *item)
{
	struct k8s_log_pod *p = item;
	const char *part[3];
	size_t plen[3];
	struct k8s_path kp;
	char path[K8S_UID_MAX + 16];

	if (!split3(name, strlen(name), part, plen) || plen[2] > K8S_UID_MAX)
		return false;
	/* One uid grammar for the whole program: k8s_path's, on the cgroupfs name. */
	snprintf(path, sizeof(path), "kubepods/pod%.*s", (int)plen[2], part[2]);
	if (k8s_path_parse(path, &kp) || kp.kind != K8S_POD)
		return false;
	memcpy(p->uid, kp.pod_uid, sizeof(p->uid));
	return copy_dns_name(p->ns, part[0], plen[0], K8S_NAMESPACE_MAX) &&
	       copy_dns_name(p->pod, part[1], plen[1], K8S_POD_NAME_MAX);
}

static int cmp_container(const void *a, const void *b)
{
	return strcmp(((const struct k8s_log_container *)a)->id,
		      ((const struct k8s_log_container *)b)->id);
}

static int cmp_pod(const void *a, const void *b)
{
	return strcmp(((const struct k8s_log_pod *)a)->uid, ((const struct k8s_log_pod *)b)->uid);
}

/*
 * Reads the entries of d->path through parse (one element of size bytes
 * each) into a new sorted array.  0 with *items and *n set, or -errno with err set.
 */
static int scan_dir(const struct dir_state *d, size_t size, bool (*parse)(const char *, void *),
		    int (*cmp)(const void *, const void *), void **items, size_t *n,
		    unsigned long *skipped, char *err, size_t errlen)
{
	size_t have = 0, cap = 0;
	void *fresh = NULL;
	struct dirent *de;
	DIR *dir;
	int ret = 0;

	*skipped = 0;
	dir = opendir(d->path);
	if (!dir) {
		ret = -errno;
		snprintf(err, errlen,
			 "cannot read %s: %s: mount the kubelet's log directory read-only into "
			 "tmacg's container, or point --k8s-logs-containers/--k8s-logs-pods "
			 "at it",
			 d->path, strerror(-ret));
		return ret;
	}
	for (;;) {
		errno = 0;
		de = readdir(dir);
		if (!de) {
			ret = -errno;
			break;
		}
		if (de->d_name[0] == '.')
			continue;
		if (have == cap) {
			void *grown = realloc(fresh, (cap = cap ? cap * 2 : 64) * size);

			if (!grown) {
				ret = -ENOMEM;
				break;
			}
			fresh = grown;
		}
		if (parse(de->d_name, (char *)fresh + have * size))
			have++;
		else
			(*skipped)++;
	}
	closedir(dir);
	if (ret) {
		snprintf(err, errlen, "cannot read %s: %s", d->path, strerror(-ret));
		free(fresh);
		return ret;
	}
	if (have)
		qsort(fresh, have, size, cmp);
	*items = fresh;
	*n = have;
	return 0;
}

static long long ts_ns(const struct timespec *ts)
{
	return (long long)ts->tv_sec * 1000000000LL + ts->tv_nsec;
}

/*
 * Decides whether d must be scanned: DIR_SCAN, DIR_KEEP, DIR_GONE (its names
 * are then dropped), or -errno when stat failed otherwise.
 */
enum { DIR_KEEP, DIR_SCAN, DIR_GONE };

static int dir_check(struct dir_state *d, const struct timespec *now, char *err, size_t errlen)
{
	struct stat st;

	if (stat(d->path, &st)) {
		int ret = -errno;

		if (ret == -ENOENT || ret == -ENOTDIR) {
			d->present = false;
			return DIR_GONE;
		}
		snprintf(err, errlen,
			 "cannot stat %s: %s: check the hostPath mount and permissions", d->path,
			 strerror(-ret));
		return ret;
	}
	if (!S_ISDIR(st.st_mode)) {
		d->present = false;
		return DIR_GONE;
	}
	if (d->present && st.st_dev == d->dev && st.st_ino == d->ino &&
	    ts_ns(&st.st_mtim) == ts_ns(&d->mtime) &&
	    (!d->racy || ts_ns(now) - ts_ns(&d->scanned) < K8S_LOGS_RACY_RESCAN_NS))
		return DIR_KEEP;
	d->dev = st.st_dev;
	d->ino = st.st_ino;
	d->mtime = st.st_mtim;
	return DIR_SCAN;
}

/* One directory's refresh into *items and *n (an array of size-byte elements). */
static int refresh_dir(struct k8s_logs *l, struct dir_state *d, size_t size,
		       bool (*parse)(const char *, void *), int (*cmp)(const void *, const void *),
		       void **items, size_t *n, unsigned long *skipped, char *err, size_t errlen)
{
	struct timespec t0;
	void *fresh = NULL;
	size_t nfresh = 0;
	int ret;

	clock_gettime(CLOCK_REALTIME, &t0);
	ret = dir_check(d, &t0, err, errlen);
	if (ret < 0 || ret == DIR_KEEP)
		return ret;
	if (ret == DIR_SCAN) {
		ret = scan_dir(d, size, parse, cmp, &fresh, &nfresh, skipped, err, errlen);
		l->scans++;
		d->scanned = t0;
		if (!ret) {
			/* racy: the scan started too close to the mtime to be trusted */
			d->present = true;
			d->racy = ts_ns(&t0) - ts_ns(&d->mtime) < K8S_LOGS_RACY_NS;
		} else if (ret == -ENOENT || ret == -ENOTDIR) {
			d->present = false; /* removed between stat and opendir */
			ret = 0;
		} else {
			/* Keep the old names; an mtime never seen forces a retry next time. */
			d->mtime = (struct timespec){ 0 };
			return ret;
		}
	}
	free(*items);
	*items = fresh;
	*n = nfresh;
	return 0;
}

static int cmp_by_pod(const void *a, const void *b)
{
	const struct k8s_log_container *x = *(const struct k8s_log_container *const *)a;
	const struct k8s_log_container *y = *(const struct k8s_log_container *const *)b;
	int c = strcmp(x->ns, y->ns);

	return c ? c : strcmp(x->pod, y->pod);
}

static int refresh_containers(struct k8s_logs *l, char *err, size_t errlen)
{
	void *items = l->containers;
	unsigned long scans = l->scans;
	int ret;

	ret = refresh_dir(l, &l->cdir, sizeof(struct k8s_log_container), parse_container_name,
			  cmp_container, &items, &l->ncontainers, &l->skipped_containers, err,
			  errlen);
	if (ret || (items == l->containers && scans == l->scans))
		return ret;
	l->containers = items;
	free(l->by_pod);
	l->by_pod = NULL;
	if (!l->ncontainers)
		return 0;
	l->by_pod = malloc(l->ncontainers * sizeof(*l->by_pod));
	if (!l->by_pod) {
		/* Lookups by id still work; pods just look container-less until the next scan. */
		l->cdir.racy = true;
		snprintf(err, errlen, "out of memory indexing %s", l->cdir.path);
		return -ENOMEM;
	}
	for (size_t i = 0; i < l->ncontainers; i++)
		l->by_pod[i] = &l->containers[i];
	qsort(l->by_pod, l->ncontainers, sizeof(*l->by_pod), cmp_by_pod);
	return 0;
}

static int refresh_pods(struct k8s_logs *l, char *err, size_t errlen)
{
	void *items = l->pods;
	int ret;

	ret = refresh_dir(l, &l->pdir, sizeof(struct k8s_log_pod), parse_pod_name, cmp_pod, &items,
			  &l->npods, &l->skipped_pods, err, errlen);
	l->pods = items;
	return ret;
}

int k8s_logs_refresh(struct k8s_logs *l, char *err, size_t errlen)
{
	int ret, ret2;

	if (!l)
		return -EINVAL;
	ret = refresh_containers(l, err, errlen);
	/* The other directory is still worth refreshing; report the first error. */
	ret2 = refresh_pods(l, ret ? NULL : err, ret ? 0 : errlen);
	return ret ? ret : ret2;
}

struct k8s_logs *k8s_logs_new(const char *containers_dir, const char *pods_dir, char *err,
			      size_t errlen)
{
	struct k8s_logs *l = calloc(1, sizeof(*l));

	if (!l)
		goto nomem;
	l->cdir.path = strdup(containers_dir ? containers_dir : K8S_LOGS_CONTAINERS_DIR);
	l->pdir.path = strdup(pods_dir ? pods_dir : K8S_LOGS_PODS_DIR);
	if (!l->cdir.path || !l->pdir.path)
		goto nomem;
	if (k8s_logs_refresh(l, err, errlen)) {
		k8s_logs_free(l);
		return NULL;
	}
	return l;
nomem:
	k8s_logs_free(l);
	snprintf(err, errlen, "out of memory reading the kubelet's log directories");
	return NULL;
}

void k8s_logs_free(struct k8s_logs *l)
{
	if (!l)
		return;
	free(l->cdir.path);
	free(l->pdir.path);
	free(l->containers);
	free(l->by_pod);
	free(l->pods);
	free(l);
}

const struct k8s_log_container *k8s_logs_container(const struct k8s_logs *l, const char *id)
{
	struct k8s_log_container key;

	if (!l || !id || strlen(id) != K8S_CONTAINER_ID_LEN || !l->ncontainers)
		return NULL;
	memcpy(key.id, id, sizeof(key.id));
	return bsearch(&key, l->containers, l->ncontainers, sizeof(key), cmp_container);
}

const struct k8s_log_pod *k8s_logs_pod(const struct k8s_logs *l, const char *uid)
{
	struct k8s_log_pod key;

	if (!l || !uid || strlen(uid) > K8S_UID_MAX || !l->npods)
		return NULL;
	strcpy(key.uid, uid);
	return bsearch(&key, l->pods, l->npods, sizeof(key), cmp_pod);
}

bool k8s_logs_pod_has_containers(const struct k8s_logs *l, const char *ns, const char *pod)
{
	struct k8s_log_container key;
	const struct k8s_log_container *kp = &key;

	if (!l || !l->by_pod || !ns || !pod || strlen(ns) > K8S_NAMESPACE_MAX ||
	    strlen(pod) > K8S_POD_NAME_MAX)
		return false;
	strcpy(key.ns, ns);
	strcpy(key.pod, pod);
	return bsearch(&kp, l->by_pod, l->ncontainers, sizeof(kp), cmp_by_pod) != NULL;
}

bool k8s_logs_have_containers(const struct k8s_logs *l)
{
	return l && l->cdir.present;
}

unsigned long k8s_logs_scans(const struct k8s_logs *l)
{
	return l ? l->scans : 0;
}

unsigned long k8s_logs_skipped(const struct k8s_logs *l)
{
	return l ? l->skipped_containers + l->skipped_pods : 0;
}
