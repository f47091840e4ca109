/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * The BPF half seen from userspace: load and attach the programs, hand them
 * the perf events, flush every CPU, and turn the ever-growing accumulators
 * into per-interval deltas.
 */
#ifndef TMACG_COLLECTOR_H
#define TMACG_COLLECTOR_H

#include <errno.h>
#include <linux/types.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/acc_layout.h"
#include "tmacg.h"
#include "util/u64map.h"

struct kernel_probes;
struct pmu_set;
struct run_error;
struct tmacg_bpf;
struct ring_buffer;

struct collector_config {
	int nevents;
	int ngroups;
	const int *event_group;	     /* [nevents] */
	const bool *event_is_leader; /* [nevents] */
	bool per_task;
	uint32_t max_cgroups; /* cgroup accumulator entries */
	uint32_t max_tasks;   /* task accumulator entries (LRU) */
	int verbose;	      /* libbpf's warnings at 1 (-v), everything at 2 (-vv) */
	const char *btf;      /* --btf FILE: BTF for CO-RE where the kernel has none; NULL */
	const struct kernel_probes *probes; /* NULL: ask the running kernel */
	/* Called for every cgroup mkdir/rmdir of the cgroup2 hierarchy. */
	void (*on_cgroup)(const struct tmacg_cgroup_event *ev, void *ctx);
	void *ctx;
};

struct collector {
	struct tmacg_bpf *skel;
	struct ring_buffer *rb;
	struct collector_config cfg;
	int ncpus;		  /* possible CPUs */
	bool raw_tp;		  /* tp_btf unavailable: raw tracepoints */
	struct acc_layout layout; /* the accumulators' (BPF map values and snapshots) */
	struct u64map snaps;	  /* cgroup id -> struct tmacg_acc: last seen */
	struct u64map task_snaps; /* tid -> struct task_snap */
	uint64_t negative_deltas; /* clamped in userspace */
	uint64_t flush_errors;
	uint64_t task_generation; /* read pass, to find tids the LRU dropped */
	char *batch_keys;	  /* read buffers, sized to the maps */
	char *batch_vals;
	const struct tmacg_stats_slot *stats; /* the BPF cpu_stats array, mapped: [ncpus] */
	struct tmacg_acc *delta;	      /* the delta handed to a read's callback, reused */
};

/*
 * collector_open()'s answer when the kernel lacks what tmacg needs (its BTF, a
 * feature: collect/kernel_support.h) or --btf FILE is unusable: for the user
 * to fix (*kind RUN_UNSUPPORTED).
 */
#define COLLECTOR_KERNEL_UNSUPPORTED (-ENOSYS)

/*
 * Checks the kernel, then opens, configures and loads the BPF programs.  0 or
 * -errno with a message in e (its kind: RUN_UNSUPPORTED when the kernel lacks
 * what tmacg needs, RUN_FAILED otherwise).
 */
int collector_open(struct collector *c, const struct collector_config *cfg, struct run_error *e);

int collector_put_cpu_events(struct collector *c, const struct pmu_set *pmu, int cpu, char *err,
			     size_t errlen);
/*
 * Takes a CPU's events out of the array: the BPF side's reads there fail
 * (counted as read errors) and its next reading after new ones are put is a
 * fresh baseline, never a delta against the old events' counts.
 */
void collector_drop_cpu_events(struct collector *c, int cpu);
int collector_attach(struct collector *c, char *err, size_t errlen);
/*
 * Groups (bit g: group g) refused late, by a CPU coming back (pmu_open_cpu()):
 * out of what a switch reads, and their events out of the array on every CPU.
 */
void collector_leave_out(struct collector *c, uint64_t groups);
/*
 * The groups a switch reads (bit g: group g): every group opened.  A group
 * left out has no enabled time either: its nodes are null.
 */
void collector_set_active(struct collector *c, uint64_t groups);
/* Delivers pending cgroup events to cfg.on_cgroup. */
int collector_poll_cgroups(struct collector *c);
/* The same, waiting up to timeout_ms for the first; -EINTR on a signal. */
int collector_wait_cgroups(struct collector *c, int timeout_ms);
/*
 * Charges the pending delta of cpu to what runs there now, and drains its
 * pending slots (struct tmacg_pending) into the cgroup map.  0, -ENXIO (it
 * is offline: its occupied slots counted as flush errors) or -errno (a
 * flush error, counted).
 */
int collector_flush_cpu(struct collector *c, int cpu);

/* Calls fn for every cgroup whose counts changed since the last read. */
int collector_read_cgroups(struct collector *c,
			   void (*fn)(uint64_t id, const struct tmacg_acc *delta, void *ctx),
			   void *ctx);

struct collector_task {
	uint32_t tid;
	uint32_t tgid;
	uint64_t cgroup_id;
	char comm[16];
};
int collector_read_tasks(struct collector *c,
			 void (*fn)(const struct collector_task *t, const struct tmacg_acc *delta,
				    void *ctx),
			 void *ctx);

/* Drops a removed cgroup's accumulator, in BPF and in the snapshots. */
void collector_forget_cgroup(struct collector *c, uint64_t id);

/*
 * The CPU hotplug steps cpu went through since tmacg attached (cpu -1: all
 * CPUs'); -ENOENT where the kernel's cpuhp_enter tracepoint could not be used.
 */
int collector_hotplug_count(struct collector *c, int cpu, uint64_t *n);

/* Sums the per-CPU BPF counters. */
int collector_stats(struct collector *c, struct tmacg_stats *out);
void collector_close(struct collector *c);

/*
 * The kernel memory the maps of a run take, at least (the kernel's own
 * bookkeeping of a hash map entry counted as HTAB_ENTRY_OVERHEAD bytes):
 * the cgroup accumulators, preallocated to max_cgroups entries of the plan's
 * layout; the task accumulators under --per-task (max_tasks entries); the
 * rest (the cgroup event ring, every possible CPU's data).
 */
struct collector_map_bytes {
	uint64_t cgroups, cgroup_entry; /* the cgroup map, and one entry of it */
	uint64_t tasks;
	uint64_t other;
};
#define HTAB_ENTRY_OVERHEAD 64 /* struct htab_elem (48 bytes on 64-bit) and its bucket's share */
void collector_map_bytes(struct acc_layout layout, uint32_t max_cgroups, uint32_t max_tasks,
			 bool per_task, int ncpus, struct collector_map_bytes *out);

/* The cgroup event ring buffer's size, from --max-cgroups. */
/* Never smaller than this (the size before it followed --max-cgroups). */
#define RING_MIN_BYTES (2u << 20)
/* Nor larger: 2^24 cgroups' records would be 9 GiB of kernel memory. */
#define RING_MAX_BYTES (256u << 20)

/*
 * Bytes for max_cgroups records of record_size (plus the ring's 8-byte header
 * each): a burst of --max-cgroups mkdir events, or half as many cgroups
 * created and removed, between two polls.  A power of two, as the kernel
 * requires, within [RING_MIN_BYTES, RING_MAX_BYTES].
 */
uint32_t ring_bytes_for(uint32_t max_cgroups, uint32_t record_size);

#endif
