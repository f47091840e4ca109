/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* The cgroup2 filesystem: where it is mounted, paths and ids. */
#ifndef TMACG_CGROUP_FS_H
#define TMACG_CGROUP_FS_H

#include <stddef.h>
#include <stdint.h>

#define CGROUP_PATH_MAX 4096

struct cgroup_mount {
	char dir[CGROUP_PATH_MAX];  /* where it is mounted: "/sys/fs/cgroup/unified" */
	char root[CGROUP_PATH_MAX]; /* the hierarchy path mounted there: "/" */
};

/*
 * Finds a cgroup2 mount in a mountinfo file (normally /proc/self/mountinfo):
 * the one mounted at want_dir, or the first when want_dir is NULL.
 * 0, -ENOENT when there is none, -errno when the file cannot be read.
 */
int cgroup_find_mount(const char *mountinfo, const char *want_dir, struct cgroup_mount *out);

/*
 * Turns what the user typed into a hierarchy path ("/a/b"): a directory below
 * the mount ("/sys/fs/cgroup/a/b", through symlinks, "." and ".."), or a path
 * relative to the cgroup2 root ("/a/b", "a/b", "." and ".." taken lexically).
 * The directory must exist.  0, -ENOENT or -ENOTDIR; -EXDEV for a directory
 * outside the mount or a path above its root; -ENAMETOOLONG.
 */
int cgroup_resolve(const struct cgroup_mount *mnt, const char *user_path, char *out, size_t len);

/* The mounted directory of a hierarchy path. */
int cgroup_dir_of(const struct cgroup_mount *mnt, const char *path, char *out, size_t len);

/* "/a/b" -> "/a"; "/a" -> "/"; "/" -> "" (no parent). */
void cgroup_parent_path(const char *path, char *out, size_t len);

/* "/a" and "b" -> "/a/b"; "/" and "b" -> "/b"; malloc'd, NULL when out of memory. */
char *cgroup_child_path(const char *parent, const char *name);

/* Depth of a hierarchy path: "/" is 0, "/a/b" is 2. */
int cgroup_path_level(const char *path);

#endif
