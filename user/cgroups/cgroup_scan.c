// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The startup (and recovery) scan of the mounted cgroup2 hierarchy.  Anyone
 * with a delegated subtree can nest cgroups as deep as they like (the kernel's
 * cgroup.max.depth is unlimited by default) and make paths far longer than
 * PATH_MAX, so the walk has neither limit: it is iterative (an explicit stack,
 * no recursion), keeps paths on the heap, and opens a directory by walking
 * from the mount in pieces shorter than PATH_MAX with openat().  Only one
 * directory is open at a time, so depth costs no file descriptors.
 */
#include "cgroups/cgroup_tree.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A directory found but not yet listed. */
struct scan_item {
	char *path; /* hierarchy path */
	uint64_t id;
};

struct scan_stack {
	struct scan_item *items;
	size_t len, cap;
};

static int push(struct scan_stack *s, char *path, uint64_t id)
{
	if (s->len == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 64;
		struct scan_item *items = realloc(s->items, cap * sizeof(*items));

		if (!items)
			return -ENOMEM;
		s->items = items;
		s->cap = cap;
	}
	s->items[s->len].path = path;
	s->items[s->len].id = id;
	s->len++;
	return 0;
}

/*
 * Opens rel (relative to dirfd, "" for dirfd itself) as a directory, in
 * pieces that each fit in PATH_MAX, split at a '/'.
 */
static int open_dir_at(int dirfd, const char *rel)
{
	char piece[PATH_MAX];
	int fd = dirfd;

	if (!*rel)
		return openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	while (*rel) {
		size_t len = strlen(rel);
		int next;

		if (len >= sizeof(piece)) {
			/* Cut at the last '/' that leaves a piece short enough; names are < 256. */
			len = sizeof(piece) - 1;
			while (len && rel[len] != '/')
				len--;
			if (!len) {
				if (fd != dirfd)
					close(fd);
				return -ENAMETOOLONG;
			}
		}
		memcpy(piece, rel, len);
		piece[len] = '\0';
		next = openat(fd, piece, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd != dirfd)
			close(fd);
		if (next < 0)
			return -errno;
		fd = next;
		rel += len;
		while (*rel == '/')
			rel++;
	}
	return fd;
}

/* The part of a hierarchy path below the mount's root ("" for the root itself). */
static const char *below_mount(const struct cgroup_mount *mnt, const char *path)
{
	size_t rl = strcmp(mnt->root, "/") ? strlen(mnt->root) : 0;

	path += rl;
	while (*path == '/')
		path++;
	return path;
}

/* Adds every child directory of item (open as dirfd) and queues it to be listed. */
static int list_children(struct cgroup_tree *t, struct scan_stack *s, const struct scan_item *item,
			 int dirfd)
{
	DIR *d = fdopendir(dirfd);
	struct dirent *de;
	int err = 0;

	if (!d) {
		close(dirfd);
		return -errno;
	}
	while (!err && (de = readdir(d))) {
		struct stat st;
		char *path;

		if (de->d_type != DT_DIR || de->d_name[0] == '.')
			continue;
		if (fstatat(dirfd, de->d_name, &st, AT_SYMLINK_NOFOLLOW)) {
			if (errno == ENOENT)
				continue; /* removed while we looked */
			err = -errno;
			break;
		}
		path = cgroup_child_path(item->path, de->d_name);
		if (!path) {
			err = -ENOMEM;
			break;
		}
		err = cgroup_tree_add(t, st.st_ino, item->id, path);
		if (!err)
			err = push(s, path, st.st_ino);
		if (err)
			free(path);
	}
	closedir(d);
	return err;
}

int cgroup_tree_scan(struct cgroup_tree *t)
{
	struct scan_stack s = { 0 };
	struct stat st;
	char *root;
	int mntfd, err;

	mntfd = open(t->mnt.dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (mntfd < 0)
		return -errno;
	root = strdup(t->mnt.root);
	err = !root ? -ENOMEM : fstat(mntfd, &st) ? -errno : 0;
	if (!err)
		err = cgroup_tree_add(t, st.st_ino, 0, root);
	if (!err)
		err = push(&s, root, st.st_ino);
	else
		free(root);
	while (!err && s.len) {
		struct scan_item item = s.items[--s.len];
		int fd = open_dir_at(mntfd, below_mount(&t->mnt, item.path));

		if (fd >= 0)
			err = list_children(t, &s, &item, fd);
		else if (fd != -ENOENT)
			err = fd; /* ENOENT: removed while we looked */
		free(item.path);
	}
	while (s.len)
		free(s.items[--s.len].path);
	free(s.items);
	close(mntfd);
	return err;
}
