// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The floor for tmacg's BPF time: on every sched_switch read this CPU's
 * events from a perf event array laid out as tmacg's (event * nr_cpus + cpu)
 * and do nothing else.  Reading the counters is the work no per-switch
 * monitor can avoid; tmacg's target is within 1.5x of this.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "tmacg.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

const volatile __u32 nr_cpus = 1;
const volatile __u32 nr_events = 0;

struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
} events SEC(".maps");

SEC("tp_btf/sched_switch")
int BPF_PROG(floor_switch, bool preempt, struct task_struct *prev, struct task_struct *next)
{
	__u32 cpu = bpf_get_smp_processor_id();

	for (__u32 e = 0; e < TMACG_MAX_EVENTS; e++) {
		struct bpf_perf_event_value v;

		if (e >= nr_events)
			break;
		bpf_perf_event_read_value(&events, e * nr_cpus + cpu, &v, sizeof(v));
	}
	return 0;
}
