// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "itest_deep.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "itest.h"

int itest_deep_mkdir(int dirfd, const char *name, int levels)
{
	int fd = dup(dirfd);

	for (int i = 0; fd >= 0 && i < levels; i++) {
		int next;

		if (mkdirat(fd, name, 0755) && errno != EEXIST) {
			int err = -errno;

			close(fd);
			return err;
		}
		next = openat(fd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		close(fd);
		fd = next;
	}
	return fd < 0 ? -errno : fd;
}

int itest_deep_open(const char *rel)
{
	char p[4096];
	int fd;

	if (snprintf(p, sizeof(p), "%s/%s", itest_cgroup_mount(), rel) >= (int)sizeof(p))
		return -ENAMETOOLONG;
	fd = open(p, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

pid_t itest_deep_spawn(int dirfd, char *const argv[])
{
	pid_t pid = fork();

	if (pid == 0) {
		char me[32];
		int fd = openat(dirfd, "cgroup.procs", O_WRONLY | O_CLOEXEC);
		int len = snprintf(me, sizeof(me), "%d\n", getpid());

		if (fd < 0 || write(fd, me, len) != len)
			_exit(126);
		close(fd);
		execv(argv[0], argv);
		_exit(127);
	}
	return pid;
}

pid_t itest_deep_burn(int dirfd, const char *seconds, const char *duty)
{
	char burn[4096];
	char *argv[] = { burn, (char *)seconds, (char *)duty, NULL };
	const char *helpers = getenv("TMACG_HELPERS");

	snprintf(burn, sizeof(burn), "%s/burn",
		 helpers ? helpers : "build/tests/integration/helpers");
	return itest_deep_spawn(dirfd, argv);
}

static void kill_in(int fd)
{
	int k = openat(fd, "cgroup.kill", O_WRONLY | O_CLOEXEC);
	FILE *f;
	int pid;

	/* cgroup.kill needs 5.14; fall back to the process list. */
	if (k >= 0) {
		if (write(k, "1", 1) < 0)
			(void)0; /* the list below still works */
		close(k);
	}
	k = openat(fd, "cgroup.procs", O_RDONLY | O_CLOEXEC);
	f = k >= 0 ? fdopen(k, "r") : NULL;
	if (!f) {
		if (k >= 0)
			close(k);
		return;
	}
	while (fscanf(f, "%d", &pid) == 1)
		kill(pid, SIGKILL);
	fclose(f);
}

/* One descriptor per level: fine for the few hundred levels tests make. */
int itest_deep_remove(int dirfd, const char *name)
{
	int fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	struct dirent *de;
	DIR *d;

	if (fd < 0)
		return errno == ENOENT ? 0 : -errno;
	d = fdopendir(dup(fd));
	if (!d) {
		close(fd);
		return -errno;
	}
	while ((de = readdir(d))) {
		if (de->d_type == DT_DIR && de->d_name[0] != '.')
			itest_deep_remove(fd, de->d_name);
	}
	closedir(d);
	kill_in(fd);
	close(fd);
	/* A killed task leaves the cgroup asynchronously: retry for a second. */
	for (int i = 0; i < 100; i++) {
		if (!unlinkat(dirfd, name, AT_REMOVEDIR) || errno == ENOENT)
			return 0;
		usleep(10000);
	}
	return -errno;
}

int itest_deep_rmcg(const char *rel)
{
	char parent[4096];
	const char *slash = strrchr(rel, '/');
	int fd, err;

	if (snprintf(parent, sizeof(parent), "%.*s", slash ? (int)(slash - rel) : 0, rel) >=
	    (int)sizeof(parent))
		return -ENAMETOOLONG;
	fd = itest_deep_open(parent);
	if (fd < 0)
		return fd;
	err = itest_deep_remove(fd, slash ? slash + 1 : rel);
	close(fd);
	return err;
}
