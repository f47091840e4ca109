/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * Layout shared by the BPF program (bpf/tmacg.bpf.c) and userspace.
 * Fixed-width __u32/__u64 only and no includes of its own: the BPF side gets
 * the types from vmlinux.h, userspace from <linux/types.h>.
 */
#ifndef TMACG_H
#define TMACG_H

/*
 * Events opened per CPU.  Bounds the BPF read loop and sizes the accumulators:
 * ICX at level 3 needs about 50 events, read at every switch (at most 64 there,
 * PLAN_UNROTATED_EVENTS); levels 4-6 need up to 146 (gnr), multiplexed by the
 * kernel, and a switch reads every leader and only the members of the groups
 * that counted since the last read.
 */
#define TMACG_MAX_EVENTS 256
/* Perf groups per CPU; each keeps its own enabled/running times.  Masks are 64-bit. */
#define TMACG_MAX_GROUPS 64
/* The BPF program masks group numbers with TMACG_MAX_GROUPS - 1 (bounds for the verifier). */
_Static_assert((TMACG_MAX_GROUPS & (TMACG_MAX_GROUPS - 1)) == 0,
	       "TMACG_MAX_GROUPS is a power of two");
/* A cgroup's directory entry name: NAME_MAX (255) and its NUL. */
#define TMACG_NAME_MAX 256

/* A perf group's times: enabled and running side by side, one cache line. */
struct tmacg_group_time {
	__u64 enabled; /* ns the group was enabled */
	__u64 running; /* ns the group was on the PMU */
};

/*
 * Both sides compile this header with their own compiler (clang -target bpf,
 * gcc): the asserts below pin every size and offset userspace relies on, so a
 * field added on one side without thought fails the build, not the counts.
 * __builtin_offsetof: the header includes nothing, not even <stddef.h>.
 */
_Static_assert(sizeof(struct tmacg_group_time) == 16, "enabled and running, no padding");

/*
 * Per-cgroup (and per-task) accumulator: only ever grows; userspace subtracts.
 * Sized to the run's plan, not to the maxima: words of 8 bytes,
 *
 *   [0]                          runtime_ns
 *   [1, 1 + nevents)             the counters, in plan order
 *   [1 + nevents + 2g]           group g's enabled time (ns)
 *   [1 + nevents + 2g + 1]       group g's running time (ns)
 *
 * TMACG_ACC_BYTES(nevents, ngroups) in all: 56 bytes at level 1 on software
 * events, not 3,080.  The BPF side sets the cgroup_acc and task_acc value
 * sizes from it at load (user/collect/collector.c), walks it as one run of
 * words (every field after runtime is added alike), and finds a group's times
 * from the load-time nr_events; userspace reads it through
 * user/util/acc_layout.h.  Counters and times are adjacent, so a charge to
 * a cold entry touches as few cache lines as the plan has words.
 */
struct tmacg_acc {
	/*
	 * CPU time from the scheduler's sum_exec_runtime, as cpu.stat counts it:
	 * unlike per-CPU perf time it leaves out steal time on virtual machines.
	 */
	__u64 runtime_ns;
	__u64 field[]; /* the counters, then the groups' {enabled, running} */
};

#define TMACG_ACC_WORDS(nevents, ngroups) (1 + (nevents) + 2 * (ngroups))
#define TMACG_ACC_BYTES(nevents, ngroups) (8 * TMACG_ACC_WORDS(nevents, ngroups))
/* The largest plan's: the per-CPU scratch (delta, pending slots) has this room. */
#define TMACG_ACC_MAX_WORDS TMACG_ACC_WORDS(TMACG_MAX_EVENTS, TMACG_MAX_GROUPS)
/* Word indexes: runtime, counter e, group g's enabled (its running follows). */
#define TMACG_ACC_RUNTIME 0
#define TMACG_ACC_COUNTER(e) (1 + (e))
#define TMACG_ACC_ENABLED(nevents, g) (1 + (nevents) + 2 * (g))
#define TMACG_ACC_RUNNING(nevents, g) (2 + (nevents) + 2 * (g))

/* Userspace and BPF index the same words: no padding, runtime first. */
_Static_assert(sizeof(struct tmacg_acc) == 8, "runtime_ns, then the words");
_Static_assert(__builtin_offsetof(struct tmacg_acc, field) == 8, "counters follow runtime_ns");
_Static_assert(TMACG_ACC_BYTES(TMACG_MAX_EVENTS, TMACG_MAX_GROUPS) == 3080,
	       "the largest accumulator is the old fixed one");
_Static_assert(TMACG_ACC_RUNNING(4, 0) == TMACG_ACC_WORDS(4, 1) - 1,
	       "a group's running is the last word of its pair");

/* This CPU's previous reading of every event: the baseline for the next delta. */
struct tmacg_cpu_state {
	__u64 counter[TMACG_MAX_EVENTS];
	struct tmacg_group_time time[TMACG_MAX_GROUPS];
	__u64 valid;	   /* bit g set: group g has a baseline */
	__u64 cur_cgid;	   /* cgroup of the task switched in last: pending work is its */
	__u64 cur_idle;	   /* that task is the idle task: its time belongs to no cgroup */
	__u64 run_task;	   /* the task switched in last (its address) */
	__u64 run_start;   /* its sum_exec_runtime then */
	__u64 run_pending; /* runtime since the last charge, not yet charged */
	/*
	 * Scratch of one read pass: groups that failed, groups whose members are
	 * skipped.  Kept in map memory on purpose: the verifier does not track
	 * values there, so its cost stays linear in the number of events.
	 */
	__u64 pass_failed;
	__u64 pass_skip;
	__u64 pass_off_pmu; /* pinned groups the kernel could not put on the PMU */
};

struct tmacg_task_acc {
	__u64 cgroup_id;
	/*
	 * When the BPF side created this entry (bpf_ktime_get_ns): the LRU can
	 * evict a tid and create it again, with counts that may already exceed
	 * the old snapshot's; only this tells userspace to start from zero.
	 */
	__u64 created_ns;
	__u32 tgid;
	__u32 pad;
	char comm[16];
	__u64 acc[]; /* a struct tmacg_acc of the plan's layout */
};

/* The task map's values are read in batches of this size (collector.c). */
_Static_assert(__builtin_offsetof(struct tmacg_task_acc, comm) == 24, "comm after the ids");
_Static_assert(__builtin_offsetof(struct tmacg_task_acc, acc) == 40, "acc 8-byte aligned");
_Static_assert(sizeof(struct tmacg_task_acc) == 40, "struct tmacg_task_acc has no padding");
/* A task entry's bytes: the header and its accumulator. */
#define TMACG_TASK_ACC_BYTES(nevents, ngroups) (40 + TMACG_ACC_BYTES(nevents, ngroups))

/* Per-CPU counters of what the BPF side did and, above all, what it lost. */
struct tmacg_stats {
	__u64 switches;		  /* sched_switch runs */
	__u64 early_returns;	  /* prev and next in one cgroup: nothing read */
	__u64 idle;		  /* prev was the idle task: baseline advanced, nothing charged */
	__u64 flushes;		  /* flush program runs */
	__u64 groups_not_running; /* group's running did not advance: members not read */
	__u64 read_errors;     /* bpf_perf_event_read_value failed: counts dropped, CPU time kept */
	__u64 map_full;	       /* no room for a cgroup accumulator: delta dropped */
	__u64 task_map_full;   /* no room for a task accumulator: task delta dropped */
	__u64 negative_deltas; /* a reading went backwards: clamped to 0 */
	__u64 events_lost;     /* cgroup mkdir/rmdir events lost: ring buffer full */
	__u64 migrations;      /* a running task moved itself: its pending delta charged first */
	__u64 missed_switches; /* the running task was not the one switched in: resynced */
	__u64 missed_runtime_ns; /* CPU time of such slices that could not be charged (non-fair class) */
	/*
	 * Of missed_switches, those found with the idle task running: the unseen
	 * switch went into idle, so the counts since the last reading are mostly
	 * idle time.  Charged to idle (to no cgroup), not to the cgroup before.
	 */
	__u64 missed_into_idle;
	/*
	 * Of flushes, those that found this CPU in idle: no counter read (the
	 * switch out of idle reads them and charges the idle time to no cgroup).
	 */
	__u64 idle_flushes;
};

/*
 * Userspace sums the per-CPU copies as an array of __u64 (collector_stats()):
 * every field must be a __u64.  A new counter raises this count.
 */
#define TMACG_STATS_COUNTERS 15
_Static_assert(sizeof(struct tmacg_stats) == TMACG_STATS_COUNTERS * sizeof(__u64),
	       "struct tmacg_stats is TMACG_STATS_COUNTERS __u64 fields");

/*
 * A CPU's stats in the cpu_stats array, at its CPU number: two cache lines, so
 * that no two CPUs write one line (the array's mapping starts on a page).
 */
#define TMACG_STATS_SLOT_BYTES 128
struct tmacg_stats_slot {
	struct tmacg_stats stats;
	__u64 pad[TMACG_STATS_SLOT_BYTES / 8 - TMACG_STATS_COUNTERS];
};
_Static_assert(sizeof(struct tmacg_stats_slot) == TMACG_STATS_SLOT_BYTES,
	       "a stats slot is TMACG_STATS_SLOT_BYTES");

/*
 * Cgroups this CPU charged last, with what it has not yet added to their
 * shared entries: a cgroup charged again while it keeps its slot is added to
 * with plain adds, not a hash lookup and atomic adds.  The slot of a cgroup is
 * its id's low bits; the flush program drains every slot at each interval, and
 * a cgroup taking an occupied slot drains it first.  A power of two.
 */
#define TMACG_CPU_PENDING 4
_Static_assert((TMACG_CPU_PENDING & (TMACG_CPU_PENDING - 1)) == 0,
	       "TMACG_CPU_PENDING is a power of two");

struct tmacg_pending {
	__u64 cgroup_id;		/* 0: free */
	__u64 acc[TMACG_ACC_MAX_WORDS]; /* the plan's layout; the words past it stay 0 */
};

/*
 * All a CPU keeps, in one per-CPU array entry: the switch program looks it up
 * once, not once per part.  Userspace reads the stats (collector_stats()).
 */
struct tmacg_cpu {
	struct tmacg_cpu_state state;
	/* The delta being charged, in the plan's layout: too large for the 512-byte stack. */
	__u64 delta[TMACG_ACC_MAX_WORDS];
	struct tmacg_pending pending[TMACG_CPU_PENDING];
};

/* Every part 8-byte sized, no padding: both sides agree on where each is. */
_Static_assert(sizeof(struct tmacg_cpu) == sizeof(struct tmacg_cpu_state) +
						   8 * TMACG_ACC_MAX_WORDS +
						   TMACG_CPU_PENDING * sizeof(struct tmacg_pending),
	       "struct tmacg_cpu has no padding");

enum tmacg_cgroup_event_type {
	TMACG_CGROUP_MKDIR = 1,
	TMACG_CGROUP_RMDIR = 2,
};

/* Sent through the ring buffer so a cgroup that lives for a millisecond has a name. */
struct tmacg_cgroup_event {
	__u64 id; /* kernfs id: the directory's inode number in cgroup2 */
	__u64 parent_id;
	__u32 level;	    /* 0 is the root */
	__u32 type;	    /* enum tmacg_cgroup_event_type */
	__u32 hierarchy_id; /* the cgroup2 hierarchy's, so v1 events can be told apart */
	__u32 pad;
	/*
	 * The directory's own name (kernfs): userspace names the cgroup by its
	 * parent's path plus this, complete at any depth and length.
	 */
	char name[TMACG_NAME_MAX];
	/*
	 * No path: the tracepoint's is cut (1024 bytes in the kernel) and relative
	 * to the cgroup namespace of the task calling mkdir, so it cannot name a
	 * cgroup; leaving it out keeps a record at 288 bytes, not 800.
	 */
};

/* Ring buffer records shorter than this are refused (collector.c). */
_Static_assert(__builtin_offsetof(struct tmacg_cgroup_event, name) == 32, "name after the ids");
_Static_assert(sizeof(struct tmacg_cgroup_event) == 32 + TMACG_NAME_MAX,
	       "struct tmacg_cgroup_event has no padding");

#endif /* TMACG_H */
