// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Creates N cgroups, each with one active task: a thread that wakes every
 * PERIOD_MS (at a random phase), spins for SPIN_US and sleeps again, so every
 * cgroup is charged in every interval of a monitor.  Threads, not processes:
 * 10,000 of them cost megabytes, not gigabytes.  They live in a threaded
 * subtree (DIR/pool is the threaded domain, DIR/pool/cNNNNN its threaded
 * children), where each thread has a cgroup of its own.
 *
 *   populate DIR N PERIOD_MS SPIN_US
 * prints "ready" once every thread sits in its cgroup, then runs until
 * killed.  The caller removes the cgroups after it exits (rmdir DIR/pool/c*).
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static const char *dir;
static long period_ns, spin_ns;
static atomic_long placed, failed;

static int write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, text, strlen(text));
	close(fd);
	return n == (ssize_t)strlen(text) ? 0 : -errno;
}

static long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000L + ts.tv_nsec;
}

static void *active(void *arg)
{
	long idx = (long)arg, phase = (idx * 7919) % (period_ns / 1000 + 1) * 1000;
	char path[4096], tid[32];
	struct timespec ts;
	long next;

	snprintf(path, sizeof(path), "%s/pool/c%05ld/cgroup.threads", dir, idx);
	snprintf(tid, sizeof(tid), "%ld", (long)syscall(SYS_gettid));
	if (write_file(path, tid)) {
		fprintf(stderr, "populate: cannot move thread into %s: %s\n", path,
			strerror(errno));
		atomic_fetch_add(&failed, 1);
		return NULL;
	}
	atomic_fetch_add(&placed, 1);
	next = now_ns() + phase;
	for (;;) {
		long until;

		ts.tv_sec = next / 1000000000L;
		ts.tv_nsec = next % 1000000000L;
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
		until = now_ns() + spin_ns;
		while (now_ns() < until)
			;
		next += period_ns;
	}
	return NULL;
}

static int make_cgroups(long n)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/pool", dir);
	if (mkdir(path, 0755) && errno != EEXIST)
		return -errno;
	snprintf(path, sizeof(path), "%s/pool/cgroup.procs", dir);
	if (write_file(path, "0"))
		return -errno;
	for (long i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/pool/c%05ld", dir, i);
		if (mkdir(path, 0755) && errno != EEXIST)
			return -errno;
		snprintf(path, sizeof(path), "%s/pool/c%05ld/cgroup.type", dir, i);
		if (write_file(path, "threaded"))
			return -errno;
	}
	return 0;
}

int main(int argc, char **argv)
{
	pthread_attr_t attr;
	long n;
	int err;

	if (argc != 5) {
		fprintf(stderr, "usage: populate DIR N PERIOD_MS SPIN_US\n");
		return 2;
	}
	dir = argv[1];
	n = atol(argv[2]);
	period_ns = atol(argv[3]) * 1000000L;
	spin_ns = atol(argv[4]) * 1000L;
	if (n < 0 || n > 99999 || period_ns <= 0 || spin_ns < 0) {
		fprintf(stderr, "populate: N must be 0-99999, PERIOD_MS positive\n");
		return 2;
	}
	err = make_cgroups(n);
	if (err) {
		fprintf(stderr,
			"populate: cannot create the cgroups under %s/pool: %s "
			"(run as root; DIR must be in a cgroup2 hierarchy)\n",
			dir, strerror(-err));
		return 1;
	}
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 64 * 1024); /* 10,000 threads: keep it small */
	for (long i = 0; i < n; i++) {
		pthread_t th;

		err = pthread_create(&th, &attr, active, (void *)i);
		if (err) {
			fprintf(stderr, "populate: thread %ld: %s (raise kernel.threads-max?)\n", i,
				strerror(err));
			return 1;
		}
	}
	while (atomic_load(&placed) + atomic_load(&failed) < n)
		usleep(10000);
	if (atomic_load(&failed))
		return 1;
	printf("ready\n");
	fflush(stdout);
	for (;;)
		pause();
}
