// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Placeholder: the per-cgroup counting program lands in the next commit. */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include "tmacg.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

SEC("raw_tp")
int tmacg_flush(void *ctx)
{
	(void)ctx;
	return 0;
}
