/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * What tmacg needs of the kernel, checked before the BPF programs load, so a
 * kernel that lacks it gets a message naming what is missing and the fix
 * (exit 2) instead of a verifier or libbpf error, or data lost each interval:
 *   - BTF, for CO-RE (every program reads kernel structures through it): the
 *     kernel's own (/sys/kernel/btf/vmlinux) or a file given with --btf;
 *   - the BPF ring buffer (cgroup events; Linux 5.8);
 *   - bpf_perf_event_read_value() from tracing programs (Linux 4.15);
 *   - BPF_PROG_TEST_RUN of a raw_tp program on a chosen CPU
 *     (BPF_F_TEST_RUN_ON_CPU, Linux 5.10): the flush, every interval.
 */
#ifndef TMACG_KERNEL_SUPPORT_H
#define TMACG_KERNEL_SUPPORT_H

#include <stdbool.h>
#include <stddef.h>

/* The kernel's BTF, where tmacg looks for it (TMACG_TEST_KERNEL_BTF replaces it in tests). */
#define KERNEL_BTF_PATH "/sys/kernel/btf/vmlinux"

/* Where the BPF programs' BTF comes from. */
struct btf_choice {
	const char *custom_path; /* --btf FILE for libbpf's btf_custom_path; NULL: the kernel's */
	bool kernel_btf;	 /* the kernel has BTF of its own: tp_btf programs can attach */
};

/*
 * Picks the BTF: user_btf (--btf FILE, NULL when not given) must be a BTF
 * file; else the kernel's at kernel_btf_path; else, when search_others, one
 * of the places libbpf also looks (/boot/vmlinux-RELEASE, a debug package's
 * vmlinux).  0; -EINVAL when --btf FILE is not usable; -ENOENT when there is
 * no BTF at all.  err says why and what to do, in at most five lines.
 */
int kernel_btf_choose(const char *user_btf, const char *kernel_btf_path, bool search_others,
		      struct btf_choice *out, char *err, size_t errlen);

/*
 * The kernel's answers, replaceable so tests can make each one fail.  Each
 * returns 1 (supported), 0 (not supported) or -errno (cannot tell: not taken
 * for a missing feature, the load then says what is wrong).
 */
struct kernel_probes {
	int (*ringbuf)(void);
	int (*perf_read_value)(void);	 /* bpf_perf_event_read_value from raw_tp programs */
	int (*test_run_on_cpu)(int cpu); /* a raw_tp program run by BPF_PROG_TEST_RUN on cpu */
	/* The kernel's release ("6.1.0-18-amd64") into buf. */
	void (*release)(char *buf, size_t len);
};

/* The probes that ask the running kernel. */
extern const struct kernel_probes kernel_probes_live;

/*
 * Asks p about every feature tmacg needs (the test run on cpu, an online
 * CPU).  0, or -ENOSYS with err naming the kernel's release, the missing
 * feature and the first Linux version that has it.
 */
int kernel_features_check(const struct kernel_probes *p, int cpu, char *err, size_t errlen);

#endif
