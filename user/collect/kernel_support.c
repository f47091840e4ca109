// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "collect/kernel_support.h"

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

/* Where to get BTF for a kernel built without it: said wherever BTF is missing. */
#define BTF_WHERE                                                                             \
	"  BTFHub (https://github.com/aquasecurity/btfhub-archive) has a file for most\n"     \
	"  distribution kernels; or make one from the kernel's debug package (vmlinux with\n" \
	"  DWARF): pahole --btf_encode_detached FILE vmlinux"

/* A vmlinux BTF describes task_struct: a file that does not is not one. */
static int check_btf_file(const char *path, char *err, size_t errlen)
{
	struct btf *btf = btf__parse(path, NULL);
	int e_no = errno;
	bool vmlinux;

	if (!btf) {
		snprintf(err, errlen,
			 "--btf %s: %s: give the kernel's BTF, a raw BTF file or a vmlinux with a "
			 ".BTF section\n" BTF_WHERE,
			 path,
			 e_no == ENOENT || e_no == EACCES ? strerror(e_no) : "not a BTF file");
		return -EINVAL;
	}
	vmlinux = btf__find_by_name_kind(btf, "task_struct", BTF_KIND_STRUCT) >= 0;
	btf__free(btf);
	if (!vmlinux) {
		snprintf(err, errlen,
			 "--btf %s: this BTF has no struct task_struct: it is not a kernel's "
			 "(vmlinux) BTF\n" BTF_WHERE,
			 path);
		return -EINVAL;
	}
	return 0;
}

/* Whether libbpf finds a vmlinux BTF somewhere else (/boot, a debug package's vmlinux). */
static bool btf_elsewhere(void)
{
	struct btf *btf = btf__load_vmlinux_btf();

	if (!btf)
		return false;
	btf__free(btf);
	return true;
}

int kernel_btf_choose(const char *user_btf, const char *kernel_btf_path, bool search_others,
		      struct btf_choice *out, char *err, size_t errlen)
{
	out->custom_path = NULL;
	out->kernel_btf = access(kernel_btf_path, R_OK) == 0;
	if (user_btf) {
		out->custom_path = user_btf;
		return check_btf_file(user_btf, err, errlen);
	}
	if (out->kernel_btf || (search_others && btf_elsewhere()))
		return 0;
	snprintf(err, errlen,
		 "this kernel has no BTF (%s is missing), which tmacg's BPF programs need to\n"
		 "  read the kernel's structures (CO-RE).  Give it with --btf FILE:\n" BTF_WHERE,
		 kernel_btf_path);
	return -ENOENT;
}

/* Denied (no capability, a seccomp filter): the probe cannot tell. */
static bool denied(int e_no)
{
	return e_no == EPERM || e_no == EACCES;
}

static int probe_ringbuf(void)
{
	int ret;

	errno = 0;
	ret = libbpf_probe_bpf_map_type(BPF_MAP_TYPE_RINGBUF, NULL);
	/* libbpf answers 0 for any failure to create the map, a refusal too. */
	return ret == 0 && denied(errno) ? -errno : ret;
}

static int probe_perf_read_value(void)
{
	return libbpf_probe_bpf_helper(BPF_PROG_TYPE_RAW_TRACEPOINT, BPF_FUNC_perf_event_read_value,
				       NULL);
}

/* "return 0" as a raw_tp program, run on cpu the way the flush runs. */
static int probe_test_run_on_cpu(int cpu)
{
	const struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	LIBBPF_OPTS(bpf_test_run_opts, opts, .flags = BPF_F_TEST_RUN_ON_CPU, .cpu = cpu);
	int fd = bpf_prog_load(BPF_PROG_TYPE_RAW_TRACEPOINT, "tmacg_probe", "GPL", insns, 2, NULL);
	int ret, e_no;

	if (fd < 0)
		return -errno;
	ret = bpf_prog_test_run_opts(fd, &opts);
	e_no = errno;
	close(fd);
	if (!ret)
		return 1;
	/* Denied: cannot tell.  Otherwise (EINVAL for the flag, ENOTSUPP 524): missing. */
	return denied(e_no) ? -e_no : 0;
}

static void live_release(char *buf, size_t len)
{
	struct utsname u;

	snprintf(buf, len, "%s", uname(&u) ? "unknown" : u.release);
}

const struct kernel_probes kernel_probes_live = {
	.ringbuf = probe_ringbuf,
	.perf_read_value = probe_perf_read_value,
	.test_run_on_cpu = probe_test_run_on_cpu,
	.release = live_release,
};

int kernel_features_check(const struct kernel_probes *p, int cpu, char *err, size_t errlen)
{
	const char *missing = NULL, *since = NULL;
	char release[128];

	if (p->test_run_on_cpu(cpu) == 0) {
		missing = "BPF_PROG_TEST_RUN with BPF_F_TEST_RUN_ON_CPU for raw_tp programs "
			  "(the flush that reads every CPU each interval)";
		since = "5.10";
	} else if (p->ringbuf() == 0) {
		missing = "the BPF ring buffer (BPF_MAP_TYPE_RINGBUF, for cgroup events)";
		since = "5.8";
	} else if (p->perf_read_value() == 0) {
		missing = "bpf_perf_event_read_value() in tracing programs";
		since = "4.15";
	}
	if (!missing)
		return 0;
	p->release(release, sizeof(release));
	snprintf(err, errlen,
		 "this kernel (%s) lacks %s, which tmacg needs: it runs on Linux 5.10 or later "
		 "(this feature came in %s)",
		 release, missing, since);
	return -ENOSYS;
}
