// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * What a plan needs of the host, checked before anything is opened.
 *
 * File descriptors (fd_limit.h): one per perf event per online CPU, where a
 * root shell's soft limit is 1024 (icx level 3 on 32 CPUs: 1,920).  tmacg
 * raises its own soft limit for the plan on this host, as far as the hard
 * limit allows; where the hard limit is too low it exits 2 before opening
 * anything, saying how many it needs and how to allow them.  getrlimit and
 * setrlimit are wrapped (test_fd_limit.wrap) and play the limits; the online
 * CPUs come from a fake sysfs (TMACG_SYSFS_ROOT); perf_event_open (through
 * syscall) and the BPF load (collector_open) are counted, to show nothing
 * was opened.
 *
 * Kernel memory for the BPF maps (map_room.h): the cgroup map preallocated
 * to --max-cgroups entries of the plan's size, against MemAvailable (a fake
 * /proc/meminfo): a --max-cgroups that cannot fit is exit 2, naming the
 * maps' size and what to lower, with nothing loaded.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cmocka.h>

#include "collect/collector.h"
#include "fake_root.h"
#include "fd_limit.h"
#include "map_room.h"
#include "monitor_capture.h"
#include "util/run_error.h"

static struct rlimit limits;	    /* what getrlimit says */
static int set_calls, set_refusals; /* setrlimit: calls; the first set_refusals fail */
static struct rlimit set_to;	    /* its last successful request */
static int perf_opens, bpf_loads;

int __real_getrlimit(__rlimit_resource_t res, struct rlimit *rl);
int __wrap_getrlimit(__rlimit_resource_t res, struct rlimit *rl)
{
	if (res != RLIMIT_NOFILE)
		return __real_getrlimit(res, rl);
	*rl = limits;
	return 0;
}

int __real_setrlimit(__rlimit_resource_t res, const struct rlimit *rl);
int __wrap_setrlimit(__rlimit_resource_t res, const struct rlimit *rl)
{
	if (res != RLIMIT_NOFILE)
		return __real_setrlimit(res, rl);
	set_calls++;
	if (set_refusals > 0) {
		set_refusals--;
		errno = EPERM; /* above fs.nr_open */
		return -1;
	}
	set_to = *rl;
	limits = *rl;
	return 0;
}

long __real_syscall(long nr, ...);
long __wrap_syscall(long nr, ...)
{
	va_list ap;
	long a[5];

	va_start(ap, nr);
	for (int i = 0; i < 5; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	perf_opens += nr == SYS_perf_event_open;
	return __real_syscall(nr, a[0], a[1], a[2], a[3], a[4]);
}

int __real_collector_open(struct collector *c, const struct collector_config *cfg,
			  struct run_error *e);
int __wrap_collector_open(struct collector *c, const struct collector_config *cfg,
			  struct run_error *e)
{
	bpf_loads++;
	return __real_collector_open(c, cfg, e);
}

static void play(rlim_t soft, rlim_t hard)
{
	limits = (struct rlimit){ soft, hard };
	set_calls = set_refusals = 0;
	set_to = (struct rlimit){ 0, 0 };
}

/* The plan's events on every CPU, and tmacg's own (more with --listen's connections). */
static void need_is_events_on_every_cpu_and_its_own(void **state)
{
	(void)state;
	assert_true(fd_limit_need(60, 32, false) == 60 * 32 + FD_LIMIT_OWN);
	assert_true(fd_limit_need(141, 512, false) == 72192 + FD_LIMIT_OWN);
	assert_true(fd_limit_need(141, 512, true) == 72192 + FD_LIMIT_OWN + FD_LIMIT_LISTEN);
}

static void soft_limit_raised_to_what_is_needed(void **state)
{
	struct run_error e = { RUN_OK, "" };

	(void)state;
	play(1024, 524288);
	assert_int_equal(fd_limit_raise(1984, 4096, &e), 0);
	assert_int_equal(set_calls, 1);
	assert_true(set_to.rlim_cur == 4096); /* room for every possible CPU */
	assert_true(set_to.rlim_max == 524288);
	/* The hard limit below what every possible CPU needs: as far as it allows. */
	play(1024, 3000);
	assert_int_equal(fd_limit_raise(1984, 4096, &e), 0);
	assert_true(set_to.rlim_cur == 3000);
	/* Above fs.nr_open the kernel refuses: what the online CPUs need, then. */
	play(1024, RLIM_INFINITY);
	set_refusals = 1;
	assert_int_equal(fd_limit_raise(1984, 1u << 30, &e), 0);
	assert_int_equal(set_calls, 2);
	assert_true(set_to.rlim_cur == 1984);
	/* A soft limit already high enough, or none: left as it is. */
	play(100000, RLIM_INFINITY);
	assert_int_equal(fd_limit_raise(1984, 4096, &e), 0);
	play(RLIM_INFINITY, RLIM_INFINITY);
	assert_int_equal(fd_limit_raise(1984, 4096, &e), 0);
	assert_int_equal(set_calls, 0);
	assert_int_equal(e.kind, RUN_OK);
}

static void hard_limit_too_low_says_how_many_and_how(void **state)
{
	struct run_error e = { RUN_OK, "" };

	(void)state;
	play(1024, 1024);
	assert_int_equal(fd_limit_raise(1984, 4096, &e), -1);
	assert_int_equal(set_calls, 0);
	assert_int_equal(e.kind, RUN_UNSUPPORTED);
	assert_int_equal(run_error_exit_code(&e), 2);
	assert_non_null(strstr(e.msg, "needs 1984 file descriptors"));
	assert_non_null(strstr(e.msg, "hard limit on open files is 1024"));
	assert_non_null(strstr(e.msg, "ulimit -n 1984"));
	assert_non_null(strstr(e.msg, "LimitNOFILE=1984"));
	assert_non_null(strstr(e.msg, "container runtime"));
	/* The soft limit that cannot be raised at all: said too. */
	play(1024, 4096);
	set_refusals = 2;
	assert_int_equal(fd_limit_raise(1984, 4096, &e), -1);
	assert_non_null(strstr(e.msg, "could not be raised"));
}

/* A fake root: sysfs's CPU lists, /proc/meminfo, and this machine's cpuinfo for cpu_detect. */
static void make_root(char *root, const char *online, const char *possible, const char *meminfo)
{
	static char cpuinfo[1 << 20];
	FILE *f = fopen("/proc/cpuinfo", "r");
	size_t len;

	assert_non_null(f);
	len = fread(cpuinfo, 1, sizeof(cpuinfo) - 1, f);
	cpuinfo[len] = '\0';
	fclose(f);
	assert_int_equal(fake_root_make(root), 0);
	fake_root_put(root, "/sys/devices/system/cpu/online", online);
	fake_root_put(root, "/sys/devices/system/cpu/possible", possible);
	fake_root_put(root, "/proc/cpuinfo", cpuinfo);
	fake_root_put(root, "/proc/meminfo", meminfo);
}

/* 16 GiB available: room for the maps of these tests' runs. */
static const char meminfo_16g[] = "MemTotal:       33554432 kB\n"
				  "MemFree:         1048576 kB\n"
				  "MemAvailable:   16777216 kB\n";
static const char *meminfo = meminfo_16g; /* run_on_512_cpus()'s */

static void cpus_counted_from_sysfs(void **state)
{
	char root[] = "/tmp/tmacg-fd-XXXXXX";

	(void)state;
	make_root(root, "0-31\n", "0-511\n", meminfo_16g);
	setenv("TMACG_SYSFS_ROOT", root, 1);
	assert_int_equal(fd_limit_cpus("online"), 32);
	assert_int_equal(fd_limit_cpus("possible"), 512);
	fake_root_put(root, "/sys/devices/system/cpu/online", "0,2-3,8\n");
	assert_int_equal(fd_limit_cpus("online"), 4);
	assert_true(fd_limit_cpus("nothing") < 0);
	unsetenv("TMACG_SYSFS_ROOT");
	assert_int_equal(fake_root_remove(root), 0);
}

/*
 * tmacg --pmu software --count 1 and more (NULL-terminated) on a fake host of
 * 512 CPUs and meminfo: its exit code, stderr in err.
 */
static int run_on_512_cpus(const char *const *more, char *err, size_t len)
{
	const char *args[16] = { "--pmu",      "software", "--count",  "1",
				 "--interval", "100ms",	   "--format", "json" };
	char root[] = "/tmp/tmacg-fd-XXXXXX";
	int n = 8, code;

	while (more && *more && n < 15)
		args[n++] = *more++;
	make_root(root, "0-511\n", "0-511\n", meminfo);
	setenv("TMACG_SYSFS_ROOT", root, 1);
	perf_opens = bpf_loads = 0;
	code = monitor_capture(args, err, len);
	unsetenv("TMACG_SYSFS_ROOT");
	assert_int_equal(fake_root_remove(root), 0);
	return code;
}

/* 4 software events on 512 CPUs: 2,048 perf events and tmacg's own. */
#define NEED_512 (4 * 512 + FD_LIMIT_OWN)

static void too_low_exits_2_before_opening_anything(void **state)
{
	char err[8192], want[64];

	(void)state;
	if (geteuid())
		skip(); /* tmacg checks its privileges first */
	play(1024, 1024);
	assert_int_equal(run_on_512_cpus(NULL, err, sizeof(err)), 2);
	snprintf(want, sizeof(want), "needs %d file descriptors", NEED_512);
	if (!strstr(err, want) || !strstr(err, "ulimit -n"))
		fail_msg("no word of the descriptors needed:\n%s", err);
	assert_int_equal(perf_opens, 0);
	assert_int_equal(bpf_loads, 0);
}

static void raised_then_measured(void **state)
{
	char err[8192];

	(void)state;
	if (geteuid())
		skip();
	play(64, 1 << 20);
	if (run_on_512_cpus(NULL, err, sizeof(err)) != 0)
		fail_msg("not exit 0:\n%s", err);
	assert_true(set_to.rlim_cur == NEED_512);
	assert_int_equal(bpf_loads, 1);
	assert_true(perf_opens > 0);
}

/* One entry of the cgroup map: the kernel's bookkeeping, the key, the plan's accumulator. */
static void map_bytes_follow_the_plan_and_max_cgroups(void **state)
{
	struct collector_map_bytes b;
	struct run_error e = { RUN_OK, "" };

	(void)state;
	/* icx's level 6: 140 events in 18 groups, 1,416-byte accumulators. */
	collector_map_bytes(acc_layout_of(140, 18), 16384, 16384, false, 512, &b);
	assert_true(b.cgroup_entry == HTAB_ENTRY_OVERHEAD + 8 + 1416);
	assert_true(b.cgroups == 16384 * b.cgroup_entry);
	assert_true(b.tasks == 0);
	assert_int_equal(map_room_check(&b, 1ull << 34, 16384, 16384, &e), 0);
	assert_int_equal(map_room_check(&b, 0, 16384, 16384, &e), 0); /* unknown: not checked */
	collector_map_bytes(acc_layout_of(140, 18), 1u << 24, 16384, true, 512, &b);
	assert_true(b.tasks > 0);
	assert_int_equal(map_room_check(&b, 1ull << 34, 1u << 24, 16384, &e), -1);
	assert_int_equal(e.kind, RUN_USAGE);
	assert_non_null(strstr(e.msg, "--max-cgroups 16777216 entries of 1488 bytes"));
	assert_non_null(strstr(e.msg, "16384.0 MiB available here"));
	assert_non_null(strstr(e.msg, "lower --max-cgroups or --max-tasks"));
}

static void map_too_big_exits_2_before_loading(void **state)
{
	const char *const more[] = { "--max-cgroups", "16777216", NULL };
	char err[8192];
	int code;

	(void)state;
	if (geteuid())
		skip();
	play(1 << 20, 1 << 20);
	/* The software model: 128 bytes an entry, 2 GiB for 2^24 cgroups; 1 GiB available. */
	meminfo = "MemTotal: 2097152 kB\nMemAvailable: 1048576 kB\n";
	code = run_on_512_cpus(more, err, sizeof(err));
	meminfo = meminfo_16g;
	if (code != 2 || !strstr(err, "--max-cgroups 16777216 entries of 128 bytes") ||
	    !strstr(err, "1024.0 MiB available here") || !strstr(err, "lower --max-cgroups"))
		fail_msg("exit %d, not 2 naming the maps and the fix:\n%s", code, err);
	assert_int_equal(perf_opens, 0);
	assert_int_equal(bpf_loads, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(need_is_events_on_every_cpu_and_its_own),
		cmocka_unit_test(soft_limit_raised_to_what_is_needed),
		cmocka_unit_test(hard_limit_too_low_says_how_many_and_how),
		cmocka_unit_test(cpus_counted_from_sysfs),
		cmocka_unit_test(too_low_exits_2_before_opening_anything),
		cmocka_unit_test(raised_then_measured),
		cmocka_unit_test(map_bytes_follow_the_plan_and_max_cgroups),
		cmocka_unit_test(map_too_big_exits_2_before_loading),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
