// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Context-switch cost: two processes pass one byte back and forth through
 * two pipes, as `perf bench sched pipe` does, each pinned to a given CPU and
 * optionally placed in its own cgroup.  On one CPU with two cgroups every
 * switch goes from one container to another: the switch a per-cgroup monitor
 * must account in full (same-cgroup switches can be skipped, and cross-CPU
 * wake-ups on a VM cost an IPI each whose noise hides everything else).
 *
 *   pingpong CPU_A CPU_B ROUNDS [CGROUP_DIR_A CGROUP_DIR_B]
 * prints nanoseconds per round trip (two switches on one CPU).  A cgroup
 * argument may name several directories joined by ':', one per hierarchy (on
 * a hybrid host perf reads a cgroup v1 perf_event hierarchy, tmacg cgroup2).
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set) ? -errno : 0;
}

static int join_cgroup(const char *dir)
{
	char path[4096];
	int fd, ok;

	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -errno;
	ok = write(fd, "0", 1) == 1;
	close(fd);
	return ok ? 0 : -errno;
}

/* Pins and places the calling process in each of cgs (':'-separated); exits on failure. */
static void place(int cpu, const char *cgs)
{
	char dir[4000]; /* and "/cgroup.procs" fit join_cgroup's path */
	int err = pin(cpu);

	if (err) {
		fprintf(stderr, "pingpong: cannot pin to CPU %d: %s\n", cpu, strerror(-err));
		exit(1);
	}
	while (cgs && *cgs) {
		size_t len = strcspn(cgs, ":");

		snprintf(dir, sizeof(dir), "%.*s", (int)len, cgs);
		cgs += len + (cgs[len] == ':');
		err = join_cgroup(dir);
		if (err) {
			fprintf(stderr, "pingpong: cannot join cgroup %s: %s (run as root)\n", dir,
				strerror(-err));
			exit(1);
		}
	}
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	int ab[2], ba[2], status;
	double t0, t1;
	long rounds;
	pid_t peer;
	char b = 'x';

	if (argc != 4 && argc != 6) {
		fprintf(stderr, "usage: pingpong CPU_A CPU_B ROUNDS [CGROUP_DIR_A CGROUP_DIR_B]\n");
		return 2;
	}
	rounds = atol(argv[3]);
	if (rounds < 1 || pipe(ab) || pipe(ba)) {
		fprintf(stderr, "pingpong: ROUNDS must be positive, and pipes must open\n");
		return 2;
	}
	peer = fork();
	if (peer < 0) {
		fprintf(stderr, "pingpong: fork: %s\n", strerror(errno));
		return 1;
	}
	if (peer == 0) {
		/* Only the other side's ends stay open: its exit is our EOF, never a hang. */
		close(ab[1]);
		close(ba[0]);
		place(atoi(argv[2]), argc == 6 ? argv[5] : NULL);
		for (long i = 0; i < rounds; i++)
			if (read(ab[0], &b, 1) != 1 || write(ba[1], &b, 1) != 1)
				_exit(1);
		_exit(0);
	}
	close(ab[0]);
	close(ba[1]);
	signal(SIGPIPE, SIG_IGN); /* a failed peer is reported, not a silent death */
	place(atoi(argv[1]), argc == 6 ? argv[4] : NULL);
	/* One warm-up round: both sides placed and running before the clock starts. */
	if (write(ab[1], &b, 1) != 1 || read(ba[0], &b, 1) != 1)
		goto broken;
	t0 = now_ns();
	for (long i = 1; i < rounds; i++)
		if (write(ab[1], &b, 1) != 1 || read(ba[0], &b, 1) != 1)
			goto broken;
	t1 = now_ns();
	if (waitpid(peer, &status, 0) != peer || !WIFEXITED(status) || WEXITSTATUS(status))
		goto broken;
	printf("%.1f\n", rounds > 1 ? (t1 - t0) / (rounds - 1) : 0.0);
	return 0;
broken:
	fprintf(stderr, "pingpong: the peer failed (see its message above)\n");
	kill(peer, SIGKILL);
	waitpid(peer, &status, 0);
	return 1;
}
