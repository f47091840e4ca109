// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "cgroups/cgroup_fs.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* mountinfo escapes space, tab, newline and backslash as \ooo. */
static void unescape_octal(char *s)
{
	char *out = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*out++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 3;
		} else {
			*out++ = *s;
		}
	}
	*out = '\0';
}

/* "/a/b/" and "/a//b" name the same directory as "/a/b". */
static bool same_dir(const char *a, const char *b)
{
	while (*a || *b) {
		while (a[0] == '/' && (a[1] == '/' || !a[1]))
			a++;
		while (b[0] == '/' && (b[1] == '/' || !b[1]))
			b++;
		if (*a != *b)
			return false;
		if (*a) {
			a++;
			b++;
		}
	}
	return true;
}

int cgroup_find_mount(const char *mountinfo, const char *want_dir, struct cgroup_mount *out)
{
	FILE *f = fopen(mountinfo, "re");
	char *line = NULL;
	size_t cap = 0;
	int err = -ENOENT;

	if (!f)
		return -errno;
	/* "36 25 0:31 / /sys/fs/cgroup/unified rw,relatime shared:10 - cgroup2 cgroup2 rw" */
	while (getline(&line, &cap, f) > 0) {
		char root[CGROUP_PATH_MAX], dir[CGROUP_PATH_MAX], fstype[64];
		char *sep = strstr(line, " - ");

		if (!sep || sscanf(sep + 3, "%63s", fstype) != 1 || strcmp(fstype, "cgroup2"))
			continue;
		if (sscanf(line, "%*s %*s %*s %4095s %4095s", root, dir) != 2)
			continue;
		unescape_octal(root);
		unescape_octal(dir);
		if (want_dir && !same_dir(dir, want_dir))
			continue;
		snprintf(out->dir, sizeof(out->dir), "%s", dir);
		snprintf(out->root, sizeof(out->root), "%s", root);
		err = 0;
		break;
	}
	free(line);
	fclose(f);
	return err;
}

/*
 * A path made absolute and lexical: repeated slashes collapsed, "." dropped,
 * ".." taking off the component before it, no trailing slash.  -EXDEV where
 * ".." would climb above "/", -ENAMETOOLONG where it does not fit.
 */
static int normalise(const char *in, char *out, size_t len)
{
	size_t n = 0;

	if (len < 2)
		return -ENAMETOOLONG;
	out[n++] = '/';
	while (*in) {
		size_t c = strcspn(in, "/");

		if (c == 2 && in[0] == '.' && in[1] == '.') {
			if (n == 1)
				return -EXDEV;
			while (n > 1 && out[n - 1] != '/')
				n--;
			if (n > 1)
				n--; /* the slash before the component taken off */
		} else if (c && !(c == 1 && in[0] == '.')) {
			if (n > 1)
				out[n++] = '/';
			if (n + c >= len)
				return -ENAMETOOLONG;
			memcpy(out + n, in, c);
			n += c;
		}
		in += c;
		in += *in == '/';
		if (n >= len)
			return -ENAMETOOLONG;
	}
	out[n] = '\0';
	return 0;
}

int cgroup_dir_of(const struct cgroup_mount *mnt, const char *path, char *out, size_t len)
{
	size_t rl = strlen(mnt->root);
	const char *rest = path;

	/* A hierarchy path below the mount's own root (cgroup namespaces). */
	if (strcmp(mnt->root, "/") && !strncmp(path, mnt->root, rl) &&
	    (path[rl] == '/' || !path[rl]))
		rest = path + rl;
	if (snprintf(out, len, "%s%s", mnt->dir, strcmp(rest, "/") ? rest : "") >= (int)len)
		return -ENAMETOOLONG;
	return 0;
}

static int check_dir(const char *dir)
{
	struct stat st;

	if (stat(dir, &st))
		return -errno;
	return S_ISDIR(st.st_mode) ? 0 : -ENOTDIR;
}

/* The hierarchy path of dir, a directory path below the mount's directory mdir. */
static void below_mount(const struct cgroup_mount *mnt, const char *dir, size_t ml, char *out,
			size_t len)
{
	const char *rest = dir[ml] ? dir + ml : "/";

	if (strcmp(mnt->root, "/"))
		snprintf(out, len, "%s%s", mnt->root, strcmp(rest, "/") ? rest : "");
	else
		snprintf(out, len, "%s", rest);
}

int cgroup_resolve(const struct cgroup_mount *mnt, const char *user_path, char *out, size_t len)
{
	char norm[CGROUP_PATH_MAX], dir[CGROUP_PATH_MAX], *real = NULL, *mreal;
	bool outside = false;
	size_t ml;
	int err;

	/*
	 * A directory path, through its symlinks, "." and "..": the cgroup it
	 * names when that is below the mount (the mount's own path resolved
	 * too).  Else, or where no such directory exists, a hierarchy path.
	 */
	mreal = realpath(mnt->dir, NULL);
	if (user_path[0] == '/' && mreal)
		real = realpath(user_path, NULL);
	if (real) {
		ml = strlen(mreal);
		if (!strncmp(real, mreal, ml) && (real[ml] == '/' || !real[ml])) {
			err = check_dir(real);
			if (!err)
				below_mount(mnt, real, ml, out, len);
			free(real);
			free(mreal);
			return err;
		}
		outside = true;
	}
	free(real);
	free(mreal);
	err = normalise(user_path, norm, sizeof(norm));
	if (err)
		return err;
	if (cgroup_dir_of(mnt, norm, dir, sizeof(dir)))
		return -ENAMETOOLONG;
	if (check_dir(dir))
		return outside ? -EXDEV : -ENOENT;
	snprintf(out, len, "%s", norm);
	return 0;
}

void cgroup_parent_path(const char *path, char *out, size_t len)
{
	const char *slash = strrchr(path, '/');

	if (!strcmp(path, "/") || !slash) {
		snprintf(out, len, "%s", "");
		return;
	}
	if (slash == path)
		snprintf(out, len, "/");
	else
		snprintf(out, len, "%.*s", (int)(slash - path), path);
}

char *cgroup_child_path(const char *parent, const char *name)
{
	size_t plen = strcmp(parent, "/") ? strlen(parent) : 0, nlen = strlen(name);
	char *p = malloc(plen + nlen + 2);

	if (p) {
		memcpy(p, parent, plen);
		p[plen] = '/';
		memcpy(p + plen + 1, name, nlen + 1);
	}
	return p;
}

int cgroup_path_level(const char *path)
{
	int level = 0;

	if (!strcmp(path, "/"))
		return 0;
	for (; *path; path++)
		level += *path == '/';
	return level;
}
