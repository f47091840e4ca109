// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * tmacg's kernel half: on every context switch read this CPU's counters and
 * charge the delta since the last switch to the outgoing task's cgroup (and,
 * when asked, to the task).  One set of counters per CPU serves every cgroup,
 * so the cost does not grow with the number of containers.
 *
 * Counters are read with bpf_perf_event_read_value() only: it reads this
 * CPU's event, returns an error instead of a count on failure, and gives
 * enabled/running so multiplexed groups can be scaled in userspace.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include "tmacg.h"

char LICENSE[] SEC("license") = "Dual BSD/GPL";

/*
 * Sanity bound on an unseen slice (sum_exec_runtime - prev_sum_exec_runtime,
 * see resync): a longer one is taken for a stale or foreign value rather than
 * CPU time, and not charged.
 */
#define UNSEEN_SLICE_MAX_NS 1000000000ull

/*
 * bpf_perf_event_read_value()'s answer for a pinned event not on the PMU: the
 * kernel had no room for its group (include/uapi/asm-generic/errno-base.h).
 */
#define PINNED_OFF_PMU (-16)

/* Scheduling policies of the fair class (include/uapi/linux/sched.h). */
#define SCHED_NORMAL_POLICY 0
#define SCHED_BATCH_POLICY 3
#define SCHED_IDLE_POLICY 5

/* Set by userspace before load, so the verifier prunes what is off. */
const volatile __u32 nr_cpus = 1;
const volatile __u32 nr_events = 0;
const volatile __u32 nr_groups = 0;
const volatile __u8 event_group[TMACG_MAX_EVENTS]; /* group of each event */
const volatile __u8 event_is_leader[TMACG_MAX_EVENTS];
const volatile bool per_task = false;
/*
 * The groups a switch reads (bit g: group g): every group that opened.  A
 * group the kernel refused (at start, or on a CPU coming back) is left out
 * by userspace: it has no event in the array, and reading it would fail
 * every pass.  Every other group is enabled all the time; the kernel
 * multiplexes those the PMU cannot hold at once (docs/architecture.md,
 * "Multiplexing (levels 4-6)").
 */
volatile __u64 active_groups = ~0ull;

/* Event e on CPU c sits at index e * nr_cpus + c; max_entries set at load. */
struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(__u32));
} events SEC(".maps");

/* State, pending slots and the delta being charged: one lookup per switch. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct tmacg_cpu);
} cpu_data SEC(".maps");

/*
 * Each CPU's stats at its CPU number, apart from cpu_data: userspace sums them
 * every interval through a mapping of this array, reading a slot of 128 bytes
 * per CPU instead of a copy of every CPU's whole cpu_data.  An array, not a
 * per-CPU one, so the lookup is inlined; a slot is two cache lines of its own,
 * so CPUs do not write each other's lines.  max_entries: the possible CPUs,
 * set at load.
 */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct tmacg_stats_slot);
} cpu_stats SEC(".maps");

/*
 * One shared (not per-CPU) entry per cgroup, added to atomically: per-CPU
 * values would cost cgroups x CPUs x value size, 1 GiB for 10,000 cgroups on a
 * 256-CPU host.  max_entries is set by userspace, and so is value_size: a
 * struct tmacg_acc of the plan's layout (TMACG_ACC_BYTES(nr_events,
 * nr_groups)), the largest one's here.  Sizes, not BTF types: the kernel
 * checks a BTF value type's size against value_size.
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16384);
	__uint(key_size, sizeof(__u64));
	__uint(value_size, 8 * TMACG_ACC_MAX_WORDS);
} cgroup_acc SEC(".maps");

/* value_size: TMACG_TASK_ACC_BYTES(nr_events, nr_groups), set at load too. */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 16384);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(struct tmacg_task_acc) + 8 * TMACG_ACC_MAX_WORDS);
} task_acc SEC(".maps");

/* A new task's first entry is built here: too large for the stack; the largest layout's room. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, sizeof(struct tmacg_task_acc) + 8 * TMACG_ACC_MAX_WORDS);
} task_scratch SEC(".maps");

/*
 * Sized at load from --max-cgroups (user/collect/collector.c): a burst of that many
 * mkdirs within one wakeup still fits.  Userspace drains it while it waits.
 */
struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 2 * 1024 * 1024);
} cgroup_events SEC(".maps");

static __always_inline __u64 delta_of(__u64 now, __u64 before, struct tmacg_stats *st)
{
	/* Kernels before 6.3 could report enabled/running going backwards. */
	if (now < before) {
		st->negative_deltas++;
		return 0;
	}
	return now - before;
}

/*
 * What walk_delta() does with each field of a delta.  A cgroup's accumulator
 * is charged from every CPU at once: atomic adds, skipped for a zero.  A
 * task's has one writer at a time: it is charged only on the CPU the task
 * runs on, while it runs (prev inside sched_switch, current in the flush and
 * attach programs), as is a CPU's pending slot: plain adds do.
 */
enum delta_step {
	STEP_ADD_ATOMIC,   /* dst += d, atomically: a cgroup's entry */
	STEP_ADD_OWNED,	   /* dst += d: an accumulator only this CPU writes now */
	STEP_COPY,	   /* dst = d: a pending slot taken over */
	STEP_CLEAR_COUNTS, /* dst's counts and times = 0, its CPU time kept (d unused) */
};

static __always_inline void delta_field(__u64 *dst, __u64 v, enum delta_step step)
{
	switch (step) {
	case STEP_ADD_ATOMIC:
		if (v)
			__sync_fetch_and_add(dst, v);
		break;
	case STEP_ADD_OWNED:
		*dst += v;
		break;
	case STEP_COPY:
		*dst = v;
		break;
	case STEP_CLEAR_COUNTS:
		*dst = 0;
		break;
	}
}

/*
 * The one walk over the words of a delta (include/tmacg.h: runtime, the
 * nr_events counters, the nr_groups {enabled, running} pairs, one run of
 * words).  Always inlined with a constant step, so the switch folds away and
 * the verifier sees only that step's loads and stores.  The bound is a
 * load-time constant the verifier reads from .rodata, so each word's offset
 * is known and within the plan-sized map values; the per-CPU scratch has the
 * largest layout's room.  It is clamped once, before the loop, and the index
 * is 64-bit: a switch walks every word of the plan (185 at spr's level 6),
 * and a bound tested inside the loop or a 32-bit index zero-extended at each
 * word cost a third of the walk.  Accumulators are handled as words
 * (__u64 *), one type for the compiler's aliasing rules on every path.
 */
static __always_inline __u32 acc_words(void)
{
	return TMACG_ACC_WORDS(nr_events, nr_groups);
}

static __always_inline void walk_delta(__u64 *dst, const __u64 *d, enum delta_step step)
{
	__u64 words = acc_words();

	if (words > TMACG_ACC_MAX_WORDS)
		words = TMACG_ACC_MAX_WORDS;
	if (step != STEP_CLEAR_COUNTS)
		delta_field(&dst[TMACG_ACC_RUNTIME], d[TMACG_ACC_RUNTIME], step);
	for (__u64 i = 1; i < words; i++) {
		/* A copy or clear loop would become a memset/memcpy call, which BPF has not. */
		if (step == STEP_COPY || step == STEP_CLEAR_COUNTS)
			barrier_var(i);
		delta_field(&dst[i], d[i], step);
	}
}

/*
 * Task fields on the switch path.  tp_btf hands typed pointers, so plain
 * loads do (the verifier turns them into fault-safe loads): about 7 helper
 * calls per switch fewer than bpf_probe_read_kernel() through BPF_CORE_READ,
 * which the raw_tp fallback and the flush (untyped pointers) still need.
 * btf is a constant at every call, so each program keeps one of the two.
 */
static __always_inline __u64 task_runtime(struct task_struct *t, bool btf)
{
	return btf ? t->se.sum_exec_runtime : BPF_CORE_READ(t, se.sum_exec_runtime);
}

static __always_inline __u64 task_cgroup_id(struct task_struct *t, bool btf)
{
	return btf ? t->cgroups->dfl_cgrp->kn->id : BPF_CORE_READ(t, cgroups, dfl_cgrp, kn, id);
}

static __always_inline bool task_is_idle(struct task_struct *t, bool btf)
{
	return (btf ? t->pid : BPF_CORE_READ(t, pid)) == 0;
}

/* Thread id, process id and name of t, which is the task running on this CPU. */
static __always_inline __u32 task_ident(struct task_struct *t, bool btf, __u32 *tgid, char comm[16])
{
	__u64 pid_tgid;

	if (btf) {
		__builtin_memcpy(comm, t->comm, 16);
		*tgid = t->tgid;
		return t->pid;
	}
	bpf_get_current_comm(comm, 16);
	pid_tgid = bpf_get_current_pid_tgid();
	*tgid = pid_tgid >> 32;
	return (__u32)pid_tgid;
}

static __always_inline void charge_cgroup(__u64 cgid, const __u64 *d, struct tmacg_stats *st)
{
	__u64 *acc = bpf_map_lookup_elem(&cgroup_acc, &cgid);

	if (!acc) {
		/* The first charge creates the entry with the delta itself. */
		long err = bpf_map_update_elem(&cgroup_acc, &cgid, d, BPF_NOEXIST);

		if (!err)
			return;
		acc = bpf_map_lookup_elem(&cgroup_acc, &cgid); /* lost a race: add */
		if (!acc) {
			st->map_full++;
			return;
		}
	}
	walk_delta(acc, d, STEP_ADD_ATOMIC);
}

/*
 * Charges d to cgid through this CPU's pending slots (struct tmacg_pending):
 * the cgroups a CPU switches between are few, and each keeps its slot.
 */
static __always_inline void charge_cgroup_pending(struct tmacg_cpu *pc, struct tmacg_stats *st,
						  __u64 cgid, const __u64 *d)
{
	struct tmacg_pending *p = &pc->pending[cgid & (TMACG_CPU_PENDING - 1)];

	if (p->cgroup_id == cgid) {
		walk_delta(p->acc, d, STEP_ADD_OWNED);
		return;
	}
	if (p->cgroup_id)
		charge_cgroup(p->cgroup_id, p->acc, st); /* evicted: to its entry */
	p->cgroup_id = cgid;
	walk_delta(p->acc, d, STEP_COPY); /* the words past this load's layout stay 0 */
}

/* Adds every pending slot to its cgroup's entry: before userspace reads them. */
static __always_inline void drain_pending(struct tmacg_cpu *pc, struct tmacg_stats *st)
{
	for (__u32 i = 0; i < TMACG_CPU_PENDING; i++) {
		struct tmacg_pending *p = &pc->pending[i];

		if (!p->cgroup_id)
			continue;
		charge_cgroup(p->cgroup_id, p->acc, st);
		p->cgroup_id = 0;
	}
}

static __always_inline void charge_task(__u64 cgid, const __u64 *d, struct tmacg_stats *st,
					struct task_struct *task, bool btf)
{
	__u32 zero = 0, tgid;
	char comm[16];
	__u32 tid = task_ident(task, btf, &tgid, comm);
	struct tmacg_task_acc *t = bpf_map_lookup_elem(&task_acc, &tid);

	if (!t) {
		struct tmacg_task_acc *init = bpf_map_lookup_elem(&task_scratch, &zero);

		if (!init)
			return;
		init->cgroup_id = cgid;
		init->created_ns = bpf_ktime_get_ns(); /* a re-created tid restarts from zero */
		init->tgid = tgid;
		init->pad = 0;
		__builtin_memcpy(init->comm, comm, sizeof(init->comm));
		walk_delta(init->acc, d, STEP_COPY); /* the words this load uses: the rest stay 0 */
		if (!bpf_map_update_elem(&task_acc, &tid, init, BPF_NOEXIST))
			return;
		t = bpf_map_lookup_elem(&task_acc, &tid);
		if (!t) {
			st->task_map_full++;
			return;
		}
	}
	/* Userspace reports a task's delta under the cgroup it ran in last. */
	t->cgroup_id = cgid;
	__builtin_memcpy(t->comm, comm, sizeof(t->comm)); /* threads rename themselves */
	walk_delta(t->acc, d, STEP_ADD_OWNED);
}

/* How account() reads task and whom it charges. */
enum account_flags {
	ACCOUNT_TYPED = 1 << 0,	      /* task is a tp_btf pointer: plain loads (see task_runtime) */
	ACCOUNT_TASK = 1 << 1,	      /* with per_task, charge the task too, not only its cgroup */
	ACCOUNT_COUNTS_IDLE = 1 << 2, /* the counts are idle time's: charge CPU time only */
};

static __always_inline __u32 typed_if(bool btf)
{
	return btf ? ACCOUNT_TYPED : 0;
}

/*
 * Group g is not in active (active_groups, read once a pass): refused, so
 * never read; enabled and running stay 0, its nodes null (running_min).
 */
static __always_inline bool refused_skips(__u32 g, __u32 e, __u64 *time, __u64 active)
{
	if ((active >> g) & 1)
		return false;
	if (event_is_leader[e]) {
		time[2 * g] = 0;     /* enabled */
		time[2 * g + 1] = 0; /* running */
	}
	return true;
}

/*
 * The group times of the delta d: after its nr_events counters.  Clamped for
 * the verifier (nr_events is at most TMACG_MAX_EVENTS): the scratch has that
 * room, and the pairs of every group fit behind.
 */
static __always_inline __u64 *delta_times(__u64 *d)
{
	__u32 ne = nr_events;

	if (ne > TMACG_MAX_EVENTS)
		ne = TMACG_MAX_EVENTS;
	return &d[TMACG_ACC_ENABLED(ne, 0)];
}

/*
 * Read every event of this CPU and charge the delta since the last reading
 * to the current task, which is task.  Called from sched_switch (current is
 * the outgoing task), the flush program (current is whatever runs on the
 * CPU) and the attach program (the task moving itself).
 */
static __always_inline int account(struct tmacg_cpu *pc, struct tmacg_stats *st,
				   struct task_struct *task, __u32 flags)
{
	struct tmacg_cpu_state *cs = &pc->state;
	__u64 *d = pc->delta, *time = delta_times(d);
	__u32 ne = nr_events, stride = nr_cpus, key = bpf_get_smp_processor_id();
	__u64 failed, read = 0, active = active_groups;

	cs->pass_failed = 0;
	cs->pass_skip = 0;
	cs->pass_off_pmu = 0;
	if (ne > TMACG_MAX_EVENTS)
		ne = TMACG_MAX_EVENTS;
	/*
	 * The bound and the stride read once (the .rodata loads are volatile, so
	 * the compiler would reload them at every event); key is event e's on
	 * this CPU, e * nr_cpus + cpu.
	 */
	for (__u32 e = 0; e < ne; e++, key += stride) {
		struct bpf_perf_event_value v;
		__u32 g;
		__u64 bit;
		bool had;
		long err;

		g = event_group[e] & (TMACG_MAX_GROUPS - 1);
		bit = 1ull << g;
		d[TMACG_ACC_COUNTER(e)] = 0;
		if (refused_skips(g, e, time, active))
			continue;
		read |= bit;
		if (cs->pass_skip & bit)
			continue; /* this group's members did not count, or failed */
		err = bpf_perf_event_read_value(&events, key, &v, sizeof(v));
		if (err == PINNED_OFF_PMU && event_is_leader[e]) {
			/*
			 * A pinned group the kernel could not put on the PMU (its
			 * error state, named by userspace: pmu/group_health.c): none
			 * of it counts, no time to scale by, and the other groups'
			 * counts stand.  Not a baseline either.
			 */
			time[2 * g] = 0;
			time[2 * g + 1] = 0;
			cs->pass_skip |= bit;
			cs->pass_off_pmu |= bit;
			continue;
		}
		if (err) {
			st->read_errors++;
			cs->pass_failed |= bit;
			cs->pass_skip |= bit;
			continue;
		}
		had = cs->valid & bit;
		if (event_is_leader[e]) {
			__u64 den = delta_of(v.enabled, cs->time[g].enabled, st);
			__u64 drun = delta_of(v.running, cs->time[g].running, st);

			cs->time[g].enabled = v.enabled;
			cs->time[g].running = v.running;
			time[2 * g] = had ? den : 0;	  /* enabled */
			time[2 * g + 1] = had ? drun : 0; /* running */
			if (had && !drun) {
				/* Not on the PMU since the last read: members are unchanged. */
				st->groups_not_running++;
				cs->pass_skip |= bit;
				continue;
			}
		}
		d[TMACG_ACC_COUNTER(e)] = had ? delta_of(v.counter, cs->counter[e], st) : 0;
		cs->counter[e] = v.counter;
	}
	failed = cs->pass_failed;
	/*
	 * A group read without failure has its baseline; one that failed takes its
	 * next reading as a fresh baseline.  A read failed here: this CPU's events
	 * were dropped (CPU hotplug, cpus/cpu_events.c) and will be new ones, so
	 * every group's next reading is a baseline, not a delta against the old
	 * events'.
	 */
	cs->valid = (failed ? read & ~failed : cs->valid | read) & ~cs->pass_off_pmu;
	d[TMACG_ACC_RUNTIME] = cs->run_pending;
	cs->run_pending = 0;
	/*
	 * Never charge counts measured against a stale baseline; CPU time comes
	 * from the scheduler, not the counters, so it is charged all the same.
	 */
	if (failed || (flags & ACCOUNT_COUNTS_IDLE)) {
		/* Only the CPU time stays (rare: not on the fast path). */
		walk_delta(d, d, STEP_CLEAR_COUNTS);
		if (!d[TMACG_ACC_RUNTIME])
			return 0;
	}
	if (cs->cur_idle || !cs->cur_cgid) {
		st->idle++; /* idle time belongs to no cgroup */
		return 0;
	}
	/*
	 * Charged to the cgroup the task was in when it was switched in: with
	 * the early return, what is pending may include earlier tasks of that
	 * cgroup, and the current task may have moved since.
	 */
	charge_cgroup_pending(pc, st, cs->cur_cgid, d);
	if (per_task && (flags & ACCOUNT_TASK))
		charge_task(cs->cur_cgid, d, st, task, flags & ACCOUNT_TYPED);
	return 0;
}

static __always_inline struct tmacg_cpu *this_cpu(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&cpu_data, &zero);
}

static __always_inline struct tmacg_stats *this_stats(void)
{
	__u32 cpu = bpf_get_smp_processor_id();
	struct tmacg_stats_slot *slot = bpf_map_lookup_elem(&cpu_stats, &cpu);

	return slot ? &slot->stats : NULL;
}

/*
 * Adds the runtime of the task leaving (or, from the flush, still running)
 * since it was switched in; next becomes the task whose runtime is tracked.
 */
static __always_inline void track_runtime(struct tmacg_cpu_state *cs, struct task_struct *prev,
					  struct task_struct *next, bool btf)
{
	__u64 now = task_runtime(prev, btf);

	if (cs->run_task == (__u64)prev && now > cs->run_start)
		cs->run_pending += now - cs->run_start;
	cs->run_task = (__u64)next;
	cs->run_start = prev == next ? now : task_runtime(next, btf);
}

/*
 * The task running now (prev at a switch, current at a flush) should be the
 * one this CPU saw switched in.  Some kernels do not report every switch
 * (seen on a VM whose agent threads never appear in sched_switch); then the
 * pending delta is charged to the task known to run, not to a stale cgroup,
 * and the miss is counted.  Also how the first event after loading starts.
 */
static __always_inline void resync(struct tmacg_cpu *pc, struct tmacg_stats *st,
				   struct task_struct *running, bool btf)
{
	struct tmacg_cpu_state *cs = &pc->state;
	bool idle;

	if (cs->run_task == (__u64)running)
		return;
	idle = task_is_idle(running, btf);
	if (cs->run_task) {
		__u64 now = task_runtime(running, btf);
		__u64 begin =
			BPF_CORE_READ(running, se.prev_sum_exec_runtime); /* rare: no fast path */
		__u32 policy = BPF_CORE_READ(running, policy);
		__u64 slice = begin <= now ? now - begin : 0;

		st->missed_switches++;
		/*
		 * What is pending was gathered for cur_cgid (its tasks' runtime, the
		 * counters): charged there before this CPU follows the running task.
		 * Per task it is not charged: the tasks it belongs to are not known.
		 * Found in idle (a VM's kernel may not report the switch into idle):
		 * the counts since the last reading are mostly idle time, which the
		 * cgroup before did not use (the root's clock would take it): they
		 * go to idle, counted; its runtime, the scheduler's, is still charged.
		 */
		if (idle)
			st->missed_into_idle++;
		account(pc, st, running, typed_if(btf) | (idle ? ACCOUNT_COUNTS_IDLE : 0));
		/*
		 * The fair class sets prev_sum_exec_runtime when it picks a task, and
		 * this pick was unseen (a seen one, a flush or an attach would have
		 * made it the tracked task): the unseen slice's CPU time exactly,
		 * charged.  For other classes the field is stale: counted as lost.
		 */
		if (slice > UNSEEN_SLICE_MAX_NS || idle)
			slice = 0; /* not a slice: a stale or foreign value, or idle's */
		if (policy == SCHED_NORMAL_POLICY || policy == SCHED_BATCH_POLICY ||
		    policy == SCHED_IDLE_POLICY)
			cs->run_pending += slice;
		else
			st->missed_runtime_ns += slice;
	}
	cs->cur_cgid = task_cgroup_id(running, btf);
	cs->cur_idle = idle;
}

static __always_inline int on_switch(struct task_struct *prev, struct task_struct *next, bool btf)
{
	struct tmacg_cpu *pc = this_cpu();
	struct tmacg_stats *st = this_stats();
	struct tmacg_cpu_state *cs;
	__u64 next_cgid;
	bool next_idle;

	if (!pc || !st)
		return 0;
	cs = &pc->state;
	st->switches++;
	resync(pc, st, prev, btf);
	track_runtime(cs, prev, next, btf);
	next_cgid = task_cgroup_id(next, btf);
	next_idle = task_is_idle(next, btf);
	/*
	 * Same cgroup on both sides: the delta would go to the same place at
	 * the next switch anyway.  Idle on either side must be read, so idle
	 * time is split off instead of charged to the root cgroup.
	 */
	if (!per_task && !cs->cur_idle && !next_idle && cs->cur_cgid == next_cgid) {
		st->early_returns++;
		return 0;
	}
	account(pc, st, prev, typed_if(btf) | ACCOUNT_TASK);
	cs->cur_cgid = next_cgid;
	cs->cur_idle = next_idle;
	return 0;
}

SEC("tp_btf/sched_switch")
int BPF_PROG(tmacg_switch, bool preempt, struct task_struct *prev, struct task_struct *next)
{
	return on_switch(prev, next, true);
}

/* For kernels without tp_btf; chosen at run time by userspace. */
SEC("raw_tp/sched_switch")
int BPF_PROG(tmacg_switch_raw, bool preempt, struct task_struct *prev, struct task_struct *next)
{
	return on_switch(prev, next, false);
}

/*
 * Whether this CPU's events are still in the array: one read, of the first
 * leader of a group a switch reads.  Userspace takes every event of a CPU out
 * at once (CPU hotplug, cpus/cpu_events.c), so one tells for all.  True when
 * no group is read at all: nothing to lose either.
 */
static __always_inline bool events_in_place(void)
{
	__u32 ne = nr_events, cpu = bpf_get_smp_processor_id();
	__u64 active = active_groups;

	if (ne > TMACG_MAX_EVENTS)
		ne = TMACG_MAX_EVENTS;
	for (__u32 e = 0; e < ne; e++) {
		struct bpf_perf_event_value v;
		__u32 g = event_group[e] & (TMACG_MAX_GROUPS - 1);

		if (!event_is_leader[e] || !((active >> g) & 1))
			continue;
		return !bpf_perf_event_read_value(&events, e * nr_cpus + cpu, &v, sizeof(v));
	}
	return true;
}

/*
 * Run on each CPU through BPF_PROG_TEST_RUN + BPF_F_TEST_RUN_ON_CPU at every
 * interval: charges what the running task accumulated since its last switch,
 * so a task that never yields is still reported each interval.
 *
 * On a CPU in idle it reads no counter: an idle interval's counts belong to
 * no cgroup, and the switch out of idle reads every event against the
 * baselines of the last reading and charges all since to idle, so skipping
 * loses nothing and costs the waiting thread (userspace, in system time) a
 * read per event less on every idle CPU.  Except when the CPU's events left
 * the array (the probe's read fails): the full pass fails its reads and drops
 * the old baselines, so the events put in next do not count against them.
 */
SEC("raw_tp")
int tmacg_flush(void *ctx)
{
	struct tmacg_cpu *pc = this_cpu();
	struct tmacg_stats *st = this_stats();
	struct task_struct *current = (struct task_struct *)bpf_get_current_task();

	(void)ctx;
	if (!pc || !st)
		return 0;
	st->flushes++;
	resync(pc, st, current, false);
	track_runtime(&pc->state, current, current, false);
	if (pc->state.cur_idle && events_in_place()) {
		st->idle_flushes++;
		pc->state.run_pending = 0; /* the idle task's own runtime: no cgroup's */
	} else {
		account(pc, st, current, ACCOUNT_TASK);
	}
	drain_pending(pc, st);
	return 0;
}

/*
 * A running task moving itself (echo $$ > cgroup.procs): what it and its
 * cgroup mates did so far belongs to the cgroup it leaves.
 */
static __always_inline int on_attach(struct cgroup *dst, struct task_struct *task)
{
	struct tmacg_cpu *pc = this_cpu();
	struct tmacg_stats *st = this_stats();

	if (!pc || !st || (__u64)task != bpf_get_current_task() ||
	    BPF_CORE_READ(dst, root, hierarchy_id) != 0)
		return 0;
	st->migrations++;
	resync(pc, st, task, false);
	track_runtime(&pc->state, task, task, false);
	account(pc, st, task, ACCOUNT_TASK);
	pc->state.cur_cgid = BPF_CORE_READ(dst, kn, id);
	return 0;
}

SEC("tp_btf/cgroup_attach_task")
int BPF_PROG(tmacg_attach, struct cgroup *dst, const char *path, struct task_struct *task,
	     bool threadgroup)
{
	return on_attach(dst, task);
}

SEC("raw_tp/cgroup_attach_task")
int BPF_PROG(tmacg_attach_raw, struct cgroup *dst, const char *path, struct task_struct *task,
	     bool threadgroup)
{
	return on_attach(dst, task);
}

static __always_inline int send_cgroup_event(struct cgroup *cgrp, __u32 type)
{
	struct tmacg_cgroup_event *ev;
	struct cgroup *parent;
	const char *name;

	ev = bpf_ringbuf_reserve(&cgroup_events, sizeof(*ev), 0);
	if (!ev) {
		struct tmacg_stats *st = this_stats();

		if (st)
			st->events_lost++;
		return 0;
	}
	ev->id = BPF_CORE_READ(cgrp, kn, id);
	/* struct cgroup starts with its css, so the parent css is the parent cgroup. */
	parent = (struct cgroup *)BPF_CORE_READ(cgrp, self.parent);
	ev->parent_id = parent ? BPF_CORE_READ(parent, kn, id) : 0;
	ev->level = BPF_CORE_READ(cgrp, level);
	ev->type = type;
	ev->hierarchy_id = BPF_CORE_READ(cgrp, root, hierarchy_id);
	ev->pad = 0;
	name = BPF_CORE_READ(cgrp, kn, name);
	if (bpf_probe_read_kernel_str(ev->name, sizeof(ev->name), name) < 0)
		ev->name[0] = '\0';
	bpf_ringbuf_submit(ev, 0);
	return 0;
}

SEC("tp_btf/cgroup_mkdir")
int BPF_PROG(tmacg_mkdir, struct cgroup *cgrp, const char *path)
{
	return send_cgroup_event(cgrp, TMACG_CGROUP_MKDIR);
}

SEC("tp_btf/cgroup_rmdir")
int BPF_PROG(tmacg_rmdir, struct cgroup *cgrp, const char *path)
{
	return send_cgroup_event(cgrp, TMACG_CGROUP_RMDIR);
}

SEC("raw_tp/cgroup_mkdir")
int BPF_PROG(tmacg_mkdir_raw, struct cgroup *cgrp, const char *path)
{
	return send_cgroup_event(cgrp, TMACG_CGROUP_MKDIR);
}

SEC("raw_tp/cgroup_rmdir")
int BPF_PROG(tmacg_rmdir_raw, struct cgroup *cgrp, const char *path)
{
	return send_cgroup_event(cgrp, TMACG_CGROUP_RMDIR);
}

/*
 * CPU hotplug: how many hotplug steps each CPU went through, [nr_cpus] the
 * total.  A CPU that went offline and came back within one interval looks
 * unchanged in the online list, but its perf events are off for good:
 * userspace (cpus/cpu_events.c) reopens the events of a CPU whose count
 * moved.  max_entries (nr_cpus + 1) is set at load.
 */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} cpu_hotplug SEC(".maps");

SEC("raw_tp/cpuhp_enter")
int tmacg_cpuhp(struct bpf_raw_tracepoint_args *ctx)
{
	__u32 cpu = (__u32)ctx->args[0], total = nr_cpus;
	__u64 *n = bpf_map_lookup_elem(&cpu_hotplug, &cpu);

	if (n)
		__sync_fetch_and_add(n, 1);
	n = bpf_map_lookup_elem(&cpu_hotplug, &total);
	if (n)
		__sync_fetch_and_add(n, 1);
	return 0;
}
