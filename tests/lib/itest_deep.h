/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * Cgroups deeper and with longer paths than PATH_MAX allows to name in one
 * system call: created, joined and removed through directory descriptors.
 */
#ifndef TMACG_ITEST_DEEP_H
#define TMACG_ITEST_DEEP_H

#include <stddef.h>
#include <sys/types.h>

/*
 * Creates levels nested directories all called name below dirfd (existing
 * ones are reused); returns a descriptor of the deepest, or -errno.
 */
int itest_deep_mkdir(int dirfd, const char *name, int levels);
/* Opens "<mount>/<rel>" as a directory; a descriptor or -errno. */
int itest_deep_open(const char *rel);
/* Starts argv inside the cgroup open as dirfd (joined before exec). */
pid_t itest_deep_spawn(int dirfd, char *const argv[]);
/* The burn helper (SECONDS DUTY) inside the cgroup open as dirfd. */
pid_t itest_deep_burn(int dirfd, const char *seconds, const char *duty);
/*
 * Kills what runs in the tree below (and in) the directory name of dirfd,
 * and removes it at any depth.  0 or -errno.
 */
int itest_deep_remove(int dirfd, const char *name);
/* "/<mount>/<rel>" removed at any depth: itest_rmcg's worker. */
int itest_deep_rmcg(const char *rel);

#endif
