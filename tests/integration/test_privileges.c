// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Issue 17.6: tmacg without the capabilities it needs.  It used to announce
 * "serving Prometheus metrics" first, relay 6-8 libbpf lines about
 * RLIMIT_MEMLOCK and CONFIG_BPF_SYSCALL, and give the same advice whatever
 * was missing.  Now the capabilities are checked first and the missing one
 * is named, alone on stderr.  Root (to drop capabilities); bounded at 10 s.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/capability.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <sys/syscall.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum who { NOBODY, NO_PERFMON, NO_BPF, SECCOMP_NO_BPF };

#if defined(__x86_64__)
#define THIS_AUDIT_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define THIS_AUDIT_ARCH AUDIT_ARCH_AARCH64
#endif

/*
 * What CRI-O's and Podman's default profile does to a process without
 * CAP_SYS_ADMIN: bpf() fails with EPERM, everything else is allowed.
 */
static int refuse_bpf(void)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, THIS_AUDIT_ARCH, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_bpf, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { .len = sizeof(f) / sizeof(f[0]), .filter = f };

	return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0);
}

/* tmacg's stderr and exit status, run as `who` with --listen. */
static int run_as(enum who who, char *err, size_t len)
{
	const char *bin = getenv("TMACG");
	int pipefd[2], status;
	size_t got = 0;
	ssize_t n;
	pid_t pid;

	assert_non_null(bin);
	assert_int_equal(pipe(pipefd), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		int null = open("/dev/null", O_WRONLY);

		dup2(null, STDOUT_FILENO);
		dup2(pipefd[1], STDERR_FILENO);
		close(pipefd[0]);
		alarm(10);
		if (who == NOBODY) {
			if (setgid(65534) || setuid(65534))
				_exit(126);
		} else if (who == SECCOMP_NO_BPF) {
			if (refuse_bpf())
				_exit(126);
		} else {
			/* Root keeps its uid; exec grants only what the bounding set holds. */
			prctl(PR_CAPBSET_DROP, CAP_SYS_ADMIN, 0, 0, 0);
			prctl(PR_CAPBSET_DROP, who == NO_BPF ? CAP_BPF : CAP_PERFMON, 0, 0, 0);
		}
		execl(bin, bin, "--pmu", "software", "--count", "1", "--interval", "100ms",
		      "--listen", "127.0.0.1:0", (char *)NULL);
		_exit(127);
	}
	close(pipefd[1]);
	while (got + 1 < len && (n = read(pipefd[0], err + got, len - 1 - got)) > 0)
		got += n;
	err[got] = '\0';
	close(pipefd[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	printf("  %s", err);
	assert_true(WIFEXITED(status));
	return WEXITSTATUS(status);
}

/* One line, naming what is missing and how to grant it; no listener, no libbpf. */
static void check(enum who who, const char *missing)
{
	char err[4096];

	if (geteuid()) {
		printf("  not root: cannot drop capabilities\n");
		skip();
	}
	assert_int_equal(run_as(who, err, sizeof(err)), 1);
	assert_true(!strncmp(err, missing, strlen(missing)));
	assert_non_null(strstr(err, "setcap cap_bpf,cap_perfmon+ep"));
	assert_ptr_equal(strchr(err, '\n'), err + strlen(err) - 1);
	assert_null(strstr(err, "serving Prometheus"));
	assert_null(strstr(err, "libbpf"));
	assert_null(strstr(err, "MEMLOCK"));
}

static void unprivileged_user_told_both(void **state)
{
	(void)state;
	check(NOBODY, "tmacg: missing CAP_BPF and CAP_PERFMON: ");
}

static void missing_perfmon_named(void **state)
{
	(void)state;
	check(NO_PERFMON, "tmacg: missing CAP_PERFMON (CAP_BPF is there): ");
}

static void missing_bpf_named(void **state)
{
	(void)state;
	check(NO_BPF, "tmacg: missing CAP_BPF (CAP_PERFMON is there): ");
}

/*
 * Every capability, but a seccomp filter refusing bpf() (issue 20): the
 * message names seccomp and the profile tmacg ships, not a capability.
 */
static void seccomp_refusal_names_the_profile(void **state)
{
	char err[4096];

	(void)state;
	if (geteuid()) {
		printf("  not root: no CAP_BPF to be refused\n");
		skip();
	}
	assert_int_equal(run_as(SECCOMP_NO_BPF, err, sizeof(err)), 1);
	assert_non_null(strstr(err, "Operation not permitted"));
	assert_non_null(strstr(err, "a seccomp filter is in force"));
	assert_non_null(strstr(err, "deploy/seccomp/tmacg.json"));
	assert_null(strstr(err, "missing CAP_"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(unprivileged_user_told_both),
		cmocka_unit_test(missing_perfmon_named),
		cmocka_unit_test(missing_bpf_named),
		cmocka_unit_test(seccomp_refusal_names_the_profile),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
