// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "fd_limit.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "pmu/pmu.h"
#include "util/run_error.h"

uint64_t fd_limit_need(int nevents, int ncpus, bool listen)
{
	return (uint64_t)(nevents > 0 ? nevents : 0) * (uint64_t)(ncpus > 0 ? ncpus : 0) +
	       FD_LIMIT_OWN + (listen ? FD_LIMIT_LISTEN : 0);
}

int fd_limit_cpus(const char *which)
{
	const char *root = getenv("TMACG_SYSFS_ROOT");
	char path[4096];

	snprintf(path, sizeof(path), "%s/sys/devices/system/cpu/%s", root ? root : "", which);
	return pmu_count_cpus(path);
}

/*
 * The soft limit to n, or the hard limit when lower (above fs.nr_open, the
 * kernel refuses: the caller then asks for less).  0 or -1 (errno).
 */
static int raise_soft(const struct rlimit *now, uint64_t n)
{
	struct rlimit rl = *now;

	if (now->rlim_cur != RLIM_INFINITY && now->rlim_cur >= n)
		return 0;
	rl.rlim_cur = now->rlim_max != RLIM_INFINITY && now->rlim_max < n ? now->rlim_max : n;
	return setrlimit(RLIMIT_NOFILE, &rl);
}

int fd_limit_raise(uint64_t need, uint64_t want, struct run_error *e)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl))
		return 0; /* cannot tell: the opens say it if it matters */
	if (want < need)
		want = need;
	if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < need)
		return run_fail(
			e, RUN_UNSUPPORTED,
			"this plan needs %llu file descriptors here (its perf events on every "
			"online CPU, and tmacg's own), but the hard limit on open files is %llu: "
			"allow them with `ulimit -n %llu` (as root) before starting tmacg, "
			"LimitNOFILE=%llu in its systemd unit, or the container runtime's limit "
			"(docker run --ulimit nofile=%llu, containerd's and CRI-O's own unit's "
			"LimitNOFILE=); or measure less (a lower --level)",
			(unsigned long long)need, (unsigned long long)rl.rlim_max,
			(unsigned long long)need, (unsigned long long)need,
			(unsigned long long)need);
	if (rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur >= want)
		return 0;
	/* Raising the soft limit up to the hard one needs no privilege. */
	if (raise_soft(&rl, want) && raise_soft(&rl, need))
		return run_fail(e, RUN_UNSUPPORTED,
				"this plan needs %llu file descriptors here, and the soft limit "
				"on open files (%llu) could not be raised: %s; raise it with "
				"`ulimit -n %llu` before starting tmacg",
				(unsigned long long)need, (unsigned long long)rl.rlim_cur,
				strerror(errno), (unsigned long long)need);
	return 0;
}
