// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The guest test's own perf_event_open user, independent of tmacg:
 *   pmutool hog GROUPS SIZE   opens, on every CPU, GROUPS groups of SIZE instruction
 *                             counters (not pinned) and waits for SIGTERM: with tmacg's
 *                             groups they need more counters than the PMU has, so the
 *                             kernel rotates them all (tmacg's multiplexing test)
 *   pmutool probe TYPE CONFIG... -- CMD ARGS
 *                             runs CMD counting each raw event CONFIG (hex) of PMU TYPE on
 *                             it, and prints "CONFIG count" or "CONFIG error ...": what an
 *                             emulated PMU counts (QEMU's -cpu neoverse-n1 stall events)
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static int open_event(__u32 type, __u64 config, pid_t pid, int cpu, int group, int disabled)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = type;
	a.config = config;
	a.disabled = disabled;
	a.enable_on_exec = disabled;
	a.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	return (int)syscall(SYS_perf_event_open, &a, pid, cpu, group, 0);
}

static int hog(int groups, int size)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	sigset_t set;
	int sig;

	for (int cpu = 0; cpu < ncpu; cpu++)
		for (int g = 0; g < groups; g++) {
			int leader = -1;

			for (int i = 0; i < size; i++) {
				int fd = open_event(PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS,
						    -1, cpu, leader, 0);

				if (fd < 0) {
					fprintf(stderr, "pmutool hog: cpu %d: %s\n", cpu,
						strerror(errno));
					return 1;
				}
				if (leader < 0)
					leader = fd;
			}
		}
	printf("pmutool hog: %d groups of %d on %ld CPUs\n", groups, size, ncpu);
	fflush(stdout);
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigprocmask(SIG_BLOCK, &set, NULL);
	sigwait(&set, &sig);
	return 0;
}

static int probe(int argc, char **argv)
{
	__u32 type = (__u32)strtoul(argv[0], NULL, 0);
	int n = 0, fds[16], sync[2];
	__u64 configs[16];
	pid_t pid;
	int status;

	while (n + 1 < argc && strcmp(argv[n + 1], "--") && n < 16) {
		configs[n] = strtoull(argv[n + 1], NULL, 16);
		n++;
	}
	if (n + 2 >= argc) {
		fprintf(stderr, "usage: pmutool probe TYPE CONFIG... -- CMD ARGS\n");
		return 2;
	}
	if (pipe(sync))
		return 1;
	pid = fork();
	if (pid == 0) {
		char c;

		close(sync[1]);
		if (read(sync[0], &c, 1) != 1)
			_exit(126);
		execv(argv[n + 2], argv + n + 2);
		_exit(127);
	}
	close(sync[0]);
	/* Each event alone (no group): one that cannot count does not stop the others. */
	for (int i = 0; i < n; i++)
		fds[i] = open_event(type, configs[i], pid, -1, -1, 1);
	if (write(sync[1], "x", 1) != 1)
		return 1;
	close(sync[1]);
	waitpid(pid, &status, 0);
	for (int i = 0; i < n; i++) {
		__u64 v[3];

		if (fds[i] < 0 || read(fds[i], v, sizeof(v)) != sizeof(v))
			printf("0x%llx error %s\n", (unsigned long long)configs[i],
			       strerror(errno));
		else
			printf("0x%llx %llu enabled %llu running %llu\n",
			       (unsigned long long)configs[i], (unsigned long long)v[0],
			       (unsigned long long)v[1], (unsigned long long)v[2]);
	}
	return WIFEXITED(status) && !WEXITSTATUS(status) ? 0 : 1;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "hog"))
		return hog(atoi(argv[2]), atoi(argv[3]));
	if (argc >= 5 && !strcmp(argv[1], "probe"))
		return probe(argc - 2, argv + 2);
	fprintf(stderr, "usage: pmutool hog GROUPS SIZE | pmutool probe TYPE CONFIG... -- CMD\n");
	return 2;
}
