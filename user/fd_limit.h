/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * File descriptors: one per perf event per CPU (spr at --level 6 opens 141
 * events per CPU: 72,192 descriptors on 512 CPUs), where a root shell's
 * default RLIMIT_NOFILE is 1024.  tmacg raises its own soft limit as far as
 * the hard limit allows, before it opens anything; where the hard limit is
 * below what the plan needs on this host, it says how many and how to allow
 * them instead of failing on the 1,025th event.
 */
#ifndef TMACG_FD_LIMIT_H
#define TMACG_FD_LIMIT_H

#include <stdbool.h>
#include <stdint.h>

struct run_error;

/*
 * Descriptors tmacg holds besides the perf events: stdio, the BPF objects
 * (maps, programs, links, BTF: about 30), the cgroup scan (one directory at a
 * time), the log directories under --k8s, -o's file.
 */
#define FD_LIMIT_OWN 64
/* --listen: the listening socket, libevent's own, and at most 256 connections (prom_conns.c). */
#define FD_LIMIT_LISTEN (256 + 16)

/* What a plan of nevents events per CPU needs on ncpus CPUs; listen: --listen. */
uint64_t fd_limit_need(int nevents, int ncpus, bool listen);

/*
 * The CPUs in a list file of sysfs (under TMACG_SYSFS_ROOT when set, a test's
 * fake tree): "online" or "possible".  >= 1, or -errno.
 */
int fd_limit_cpus(const char *which);

/*
 * Raises RLIMIT_NOFILE's soft limit to want (what the plan needs should every
 * possible CPU come online), as far as the hard limit allows; a soft limit
 * already higher is kept.  When even need (the CPUs online now) is above the
 * hard limit: -1 with e (RUN_UNSUPPORTED) saying how many descriptors are
 * needed and how to allow them.  0 otherwise.
 */
int fd_limit_raise(uint64_t need, uint64_t want, struct run_error *e);

#endif
