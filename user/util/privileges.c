// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "util/privileges.h"

#include <errno.h>
#include <linux/capability.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define GRANT                                                                                   \
	"run as root, or grant them (setcap cap_bpf,cap_perfmon+ep on the binary; Kubernetes: " \
	"securityContext.capabilities.add: [BPF, PERFMON]; before Linux 5.8, CAP_SYS_ADMIN)"

static bool effective(const struct __user_cap_data_struct data[2], int cap)
{
	return data[cap / 32].effective & (1u << (cap % 32));
}

int privileges_check(char *err, size_t errlen)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[2] = { 0 };
	bool bpf, perfmon;

	if (syscall(SYS_capget, &hdr, data))
		return 0; /* cannot tell: let the kernel say */
	if (effective(data, CAP_SYS_ADMIN))
		return 0;
	bpf = effective(data, CAP_BPF);
	perfmon = effective(data, CAP_PERFMON);
	if (bpf && perfmon)
		return 0;
	if (!bpf && !perfmon)
		snprintf(err, errlen,
			 "missing CAP_BPF and CAP_PERFMON: tmacg loads BPF programs on "
			 "sched_switch and opens per-CPU counters; " GRANT);
	else if (!bpf)
		snprintf(err, errlen,
			 "missing CAP_BPF (CAP_PERFMON is there): tmacg loads BPF programs on "
			 "sched_switch; " GRANT);
	else
		snprintf(err, errlen,
			 "missing CAP_PERFMON (CAP_BPF is there): tracing BPF programs and "
			 "per-CPU counters need it; " GRANT);
	return -EPERM;
}

/* "Seccomp:\t2" in /proc/self/status: a filter is in force. */
static bool seccomp_filtered(void)
{
	FILE *f = fopen("/proc/self/status", "re");
	char line[256];
	int mode = 0;

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Seccomp: %d", &mode) == 1)
			break;
	fclose(f);
	return mode == 2;
}

const char *privileges_denied_hint(void)
{
	/*
	 * Which runtimes do this (from their sources): containerd's
	 * default profile allows bpf() to CAP_BPF and perf_event_open() to
	 * CAP_PERFMON holders (containerd PR 7301, 2022), Docker's too (moby PR
	 * 43987); containers/common's, which CRI-O and Podman load, allows
	 * bpf() only with CAP_SYS_ADMIN, and perf_event_open() with CAP_PERFMON
	 * only since late 2025.  deploy/seccomp/tmacg.json is the way out that
	 * keeps a filter.
	 */
	if (seccomp_filtered())
		return "the capabilities are there, but a seccomp filter is in force (Seccomp: 2 "
		       "in /proc/self/status): the container runtime's default profile refuses "
		       "bpf() or perf_event_open() without CAP_SYS_ADMIN (CRI-O's and Podman's "
		       "do; containerd's allows them with CAP_BPF and CAP_PERFMON): run under "
		       "tmacg's seccomp profile deploy/seccomp/tmacg.json (Kubernetes: copy it to "
		       "/var/lib/kubelet/seccomp/tmacg.json on every node and set seccompProfile "
		       "type Localhost, localhostProfile tmacg.json; podman or docker: "
		       "--security-opt seccomp=deploy/seccomp/tmacg.json)";
	return "the capabilities are there, but the kernel refused: kernel lockdown, an LSM "
	       "(SELinux, AppArmor) or kernel.perf_event_paranoid denies it";
}
