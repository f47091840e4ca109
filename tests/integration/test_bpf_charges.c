// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * What the BPF side charges in its rare cases, made to happen on demand:
 * a failed counter read, a switch into idle the kernel did not report, a
 * task entry the LRU evicted and created again, a pending slot taken over.
 *
 * The programs are loaded but never attached: only this test runs them, with
 * BPF_PROG_TEST_RUN on the CPU it is pinned to, after writing that CPU's
 * state into the map.  The raw_tp switch program (TMACG_FORCE_RAW_TP) reads
 * tasks through bpf_probe_read_kernel, which zeroes what it cannot read: a
 * user-space address stands for a task whose every field is 0, the idle
 * task's pid among them.  A charge waits in the CPU's pending slots until the
 * flush program drains them, so each test flushes before it reads.  Nothing here is a real cgroup: the charges go to
 * made-up ids, and nothing is left behind.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pmu_drive.h"
#include "collect/collector.h"
#include "itest.h"
#include "itest_collect.h"
#include "pmu/pmu.h"
#include "util/run_error.h"
#include "tmacg.skel.h"

/* collector_open()'s failure, when it fails. */
static struct run_error load_error;

/* Not a kernel address: every field read through it is 0, so pid 0 (idle). */
#define TASK_READS_AS_IDLE 0x10ull
/* Another task the CPU believes it switched in last; never dereferenced. */
#define TASK_SEEN_LAST 0x20ull
/* A cgroup id no kernel gives out this early: the charges of this test. */
#define TEST_CGROUP 0x7e57000000000001ull

struct rig {
	struct collector col;
	struct pmu_set pmu;
	int cpu; /* the CPU this test is pinned to, where the programs run */
};

/* The groups whose leaders rig_open() opens pinned (bit g: group g). */
static uint64_t rig_pinned;

/* nevents software events, each leading its own group when own_groups. */
static void rig_open(struct rig *r, int nevents, bool own_groups, bool per_task)
{
	struct pmu_event events[4];
	int event_group[4];
	bool leader[4];
	struct collector_config cfg = { 0 };
	char err[1024];
	cpu_set_t set;

	assert_true(nevents <= 4);
	assert_int_equal(pmu_software_events(events, 4), 4);
	for (int e = 0; e < nevents; e++) {
		events[e].group = own_groups ? e : 0;
		event_group[e] = events[e].group;
		leader[e] = own_groups || e == 0;
		events[e].attr.pinned = leader[e] && ((rig_pinned >> events[e].group) & 1);
	}
	cfg.nevents = nevents;
	cfg.ngroups = own_groups ? nevents : 1;
	cfg.event_group = event_group;
	cfg.event_is_leader = leader;
	cfg.per_task = per_task;
	cfg.max_cgroups = 64;
	cfg.max_tasks = 64;
	r->cpu = sched_getcpu();
	assert_true(r->cpu >= 0);
	CPU_ZERO(&set);
	CPU_SET(r->cpu, &set);
	assert_int_equal(sched_setaffinity(0, sizeof(set), &set), 0);
	/* raw_tp programs can be test-run with chosen arguments; tp_btf ones cannot. */
	setenv("TMACG_FORCE_RAW_TP", "1", 1);
	if (collector_open(&r->col, &cfg, &load_error))
		fail_msg("%s", load_error.msg);
	unsetenv("TMACG_FORCE_RAW_TP");
	if (pmu_open(&r->pmu, events, nevents, r->col.ncpus, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(collector_set_events(&r->col, &r->pmu, err, sizeof(err)), 0);
	assert_int_equal(pmu_enable(&r->pmu), 0);
}

static void rig_close(struct rig *r)
{
	cpu_set_t set;

	collector_close(&r->col);
	pmu_close(&r->pmu);
	CPU_ZERO(&set);
	for (int c = 0; c < CPU_SETSIZE && c < 1024; c++)
		CPU_SET(c, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

/* Replaces the state of the rig's CPU in the BPF per-CPU map. */
static void set_cpu_state(struct rig *r, const struct tmacg_cpu_state *state)
{
	int fd = bpf_map__fd(r->col.skel->maps.cpu_data);
	struct tmacg_cpu *all = calloc(r->col.ncpus, sizeof(*all));
	__u32 zero = 0;

	assert_non_null(all);
	assert_int_equal(bpf_map_lookup_elem(fd, &zero, all), 0);
	all[r->cpu].state = *state;
	assert_int_equal(bpf_map_update_elem(fd, &zero, all, BPF_ANY), 0);
	free(all);
}

/* Runs the sched_switch program on the rig's CPU as if prev gave way to next. */
static void run_switch(struct rig *r, __u64 prev, __u64 next)
{
	__u64 args[4] = { 0, prev, next, 0 }; /* preempt, prev, next, prev_state */
	LIBBPF_OPTS(bpf_test_run_opts, opts, .ctx_in = args, .ctx_size_in = sizeof(args),
		    .flags = BPF_F_TEST_RUN_ON_CPU, .cpu = r->cpu);

	assert_int_equal(
		bpf_prog_test_run_opts(bpf_program__fd(r->col.skel->progs.tmacg_switch_raw), &opts),
		0);
}

/* Runs the flush program on the rig's CPU: current is this test's thread. */
static void run_flush(struct rig *r)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts, .flags = BPF_F_TEST_RUN_ON_CPU, .cpu = r->cpu);

	assert_int_equal(
		bpf_prog_test_run_opts(bpf_program__fd(r->col.skel->progs.tmacg_flush), &opts), 0);
}

/* Drains the rig CPU's pending charges (the flush), then reads the test cgroup's delta. */
static struct itest_found read_test_cgroup(struct rig *r)
{
	struct itest_found f = { .want = TEST_CGROUP, .layout = r->col.layout };

	run_flush(r);
	assert_int_equal(collector_read_cgroups(&r->col, itest_collect_one, &f), 0);
	return f;
}

/*
 * One switch of the rig's CPU charging cpu_ns of CPU time, and the counts
 * since the baselines of the groups of valid (0: none, read as baselines), to
 * cgid.
 */
static void charge_switch(struct rig *r, __u64 cgid, __u64 cpu_ns, __u64 valid)
{
	struct tmacg_cpu_state cs = { 0 };

	cs.valid = valid;
	cs.run_task = TASK_READS_AS_IDLE; /* the task run_switch gives as prev: no resync */
	cs.run_pending = cpu_ns;
	cs.cur_cgid = cgid;
	set_cpu_state(r, &cs);
	run_switch(r, TASK_READS_AS_IDLE, TASK_READS_AS_IDLE);
}

/*
 * A switch charges every word of the plan's layout, the last group's running
 * time (the layout's last word) included, and reads each event at its own
 * key in the event array (e * nr_cpus + cpu): four events, each its own group.
 */
static void every_word_of_the_plan_is_charged(void **state)
{
	struct rig r;
	struct itest_found f;

	(void)state;
	ITEST_NEED_ROOT();
	rig_open(&r, 4, true, false);
	charge_switch(&r, TEST_CGROUP, 2468, 0xf); /* baselines 0: the whole counts so far */

	f = read_test_cgroup(&r);
	assert_int_equal(f.seen, 1);
	assert_int_equal(itest_runtime(&f), 2468);
	for (int g = 0; g < 4; g++) {
		assert_true(itest_enabled(&f, g) > 0);
		assert_true(itest_running(&f, g) > 0);
	}
	/*
	 * cpu-clock (event 0) counts nanoseconds; the other three count context
	 * switches, migrations and page faults, a few since they were enabled:
	 * each read at its own key, not cpu-clock's.
	 */
	for (int e = 1; e < 4; e++)
		assert_true(itest_counter(&f, e) < itest_counter(&f, 0));
	rig_close(&r);
}

/*
 * Issue 15, defect 3: one failed counter read drops the pass's counts, not
 * its CPU time, which comes from the scheduler.
 */
static void failed_read_still_charges_cpu_time(void **state)
{
	struct tmacg_stats st;
	struct rig r;
	struct itest_found f;
	__u32 key;

	(void)state;
	ITEST_NEED_ROOT();
	rig_open(&r, 2, true, false);
	/* Group 1's event leaves the map on this CPU: reading it fails (-ENOENT). */
	key = 1 * r.col.ncpus + r.cpu;
	assert_int_equal(bpf_map_delete_elem(bpf_map__fd(r.col.skel->maps.events), &key), 0);
	charge_switch(&r, TEST_CGROUP, 12345, 3);

	assert_int_equal(collector_stats(&r.col, &st), 0);
	assert_int_equal(st.read_errors, 1);
	f = read_test_cgroup(&r);
	assert_int_equal(f.seen, 1);
	assert_int_equal(itest_runtime(&f), 12345);
	/* Group 0 read fine, but no count of a failed pass is charged. */
	assert_int_equal(itest_counter(&f, 0), 0);
	assert_int_equal(itest_enabled(&f, 0), 0);
	assert_int_equal(itest_counter(&f, 1), 0);
	rig_close(&r);
}

/*
 * A pinned group the kernel holds off the PMU (its error state when it had no
 * room; here disabled, which reads the same: bpf_perf_event_read_value
 * answers -EBUSY for a pinned event not on the CPU): neither enabled nor
 * running, nothing counted, and not a failed read, so the other groups'
 * counts are charged (levels 4-6 pin the groups they keep on).
 */
static void pinned_group_off_the_pmu_leaves_the_others(void **state)
{
	struct tmacg_stats st;
	struct rig r;
	struct itest_found f;

	(void)state;
	ITEST_NEED_ROOT();
	rig_pinned = 1u << 1;
	rig_open(&r, 2, true, false);
	rig_pinned = 0;
	assert_int_equal(pmu_switch_groups(&r.pmu, 0, 1u << 1), 0);
	charge_switch(&r, TEST_CGROUP, 4321, 3); /* baselines 0: the whole counts so far */

	assert_int_equal(collector_stats(&r.col, &st), 0);
	assert_int_equal(st.read_errors, 0);
	f = read_test_cgroup(&r);
	assert_int_equal(f.seen, 1);
	assert_int_equal(itest_runtime(&f), 4321);
	assert_true(itest_counter(&f, 0) > 0);
	assert_true(itest_enabled(&f, 0) > 0);
	assert_int_equal(itest_counter(&f, 1), 0);
	assert_int_equal(itest_enabled(&f, 1), 0);
	assert_int_equal(itest_running(&f, 1), 0);
	rig_close(&r);
}

/*
 * Issue 15, defect 7: the kernel did not report a switch into idle, and the
 * idle task is found running.  The counts since the last reading (cpu-clock
 * ran on through idle) are idle time: not the cgroup's that ran before.
 */
static void missed_switch_into_idle_charges_idle(void **state)
{
	struct tmacg_cpu_state cs = { 0 };
	struct tmacg_stats st;
	struct rig r;
	struct itest_found f;

	(void)state;
	ITEST_NEED_ROOT();
	rig_open(&r, 1, false, false);
	cs.valid = 1; /* baseline 0: the pending delta is the whole count so far */
	cs.run_task = TASK_SEEN_LAST;
	cs.cur_cgid = TEST_CGROUP;
	set_cpu_state(&r, &cs);
	run_switch(&r, TASK_READS_AS_IDLE, TASK_READS_AS_IDLE);

	assert_int_equal(collector_stats(&r.col, &st), 0);
	assert_int_equal(st.missed_switches, 1);
	assert_int_equal(st.missed_into_idle, 1);
	f = read_test_cgroup(&r);
	assert_int_equal(f.seen, 0);

	/*
	 * The same, with CPU time the cgroup's task ran before the missed switch:
	 * the scheduler's time is still the cgroup's, the counts are not.
	 */
	cs.run_pending = 777;
	set_cpu_state(&r, &cs);
	run_switch(&r, TASK_READS_AS_IDLE, TASK_READS_AS_IDLE);
	assert_int_equal(collector_stats(&r.col, &st), 0);
	assert_int_equal(st.missed_into_idle, 2);
	f = read_test_cgroup(&r);
	assert_int_equal(f.seen, 1);
	assert_int_equal(itest_runtime(&f), 777);
	assert_int_equal(itest_counter(&f, 0), 0);
	cs.run_pending = 0;

	/* The same miss found with a real task running: charged to the cgroup before. */
	set_cpu_state(&r, &cs);
	run_flush(&r);
	assert_int_equal(collector_stats(&r.col, &st), 0);
	assert_int_equal(st.missed_into_idle, 2);
	f = read_test_cgroup(&r);
	assert_int_equal(f.seen, 1);
	assert_true(itest_counter(&f, 0) > 0);
	assert_true(itest_enabled(&f, 0) > 0);
	rig_close(&r);
}

/* What the map holds for want, without a flush: pending charges are not in it. */
static struct itest_found read_map_only(struct rig *r, uint64_t want)
{
	struct itest_found f = { .want = want, .layout = r->col.layout };

	assert_int_equal(collector_read_cgroups(&r->col, itest_collect_one, &f), 0);
	return f;
}

/*
 * A CPU's charges wait in its pending slot for their cgroup (id modulo
 * TMACG_CPU_PENDING) until another cgroup takes the slot or the flush drains it.
 */
static void pending_slot_drains_on_eviction_and_flush(void **state)
{
	const uint64_t same_slot = TEST_CGROUP + TMACG_CPU_PENDING;
	struct rig r;
	struct itest_found f;

	(void)state;
	ITEST_NEED_ROOT();
	rig_open(&r, 1, false, false);
	charge_switch(&r, TEST_CGROUP, 1000, 0);
	charge_switch(&r, TEST_CGROUP, 500, 0); /* same slot, same cgroup: added there */
	assert_int_equal(read_map_only(&r, TEST_CGROUP).seen, 0);

	charge_switch(&r, same_slot, 2000, 0); /* takes the slot: TEST_CGROUP goes to the map */
	f = read_map_only(&r, TEST_CGROUP);
	assert_int_equal(f.seen, 1);
	assert_int_equal(itest_runtime(&f), 1500);
	assert_int_equal(read_map_only(&r, same_slot).seen, 0);

	run_flush(&r); /* drains every slot */
	f = read_map_only(&r, same_slot);
	assert_int_equal(f.seen, 1);
	assert_int_equal(itest_runtime(&f), 2000);
	rig_close(&r);
}

/* The rig CPU's state in the BPF per-CPU map. */
static struct tmacg_cpu_state get_cpu_state(struct rig *r)
{
	int fd = bpf_map__fd(r->col.skel->maps.cpu_data);
	struct tmacg_cpu *all = calloc(r->col.ncpus, sizeof(*all));
	struct tmacg_cpu_state cs;
	__u32 zero = 0;

	assert_non_null(all);
	assert_int_equal(bpf_map_lookup_elem(fd, &zero, all), 0);
	cs = all[r->cpu].state;
	free(all);
	return cs;
}

/* A baseline no real reading gives: a flush that reads an event replaces it. */
#define UNREAD_BASELINE 1ull

/*
 * A flush that finds its CPU in idle reads no counter: its baselines stay for
 * the switch out of idle, which charges everything since to idle; only the
 * pending slots are drained.  Unless the CPU's events left the array (CPU
 * hotplug): then its reads fail and drop the old baselines, so the events put
 * in next do not count against them.  The flush's current is this test's
 * thread, so the CPU is made to believe idle runs: a first flush makes the
 * thread the task it tracks, then its state says that task is idle.
 */
static void idle_flush_reads_no_counter(void **state)
{
	struct tmacg_cpu_state cs;
	struct tmacg_stats st;
	struct rig r;

	(void)state;
	ITEST_NEED_ROOT();
	rig_open(&r, 2, true, false);
	run_flush(&r);
	cs = get_cpu_state(&r);
	cs.cur_idle = 1;
	cs.cur_cgid = TEST_CGROUP;
	cs.valid = 3;
	for (int e = 0; e < 2; e++) {
		cs.counter[e] = UNREAD_BASELINE;
		cs.time[e].enabled = UNREAD_BASELINE;
		cs.time[e].running = UNREAD_BASELINE;
	}
	cs.run_pending = 777; /* the idle task's runtime */
	set_cpu_state(&r, &cs);
	assert_int_equal(collector_stats(&r.col, &st), 0);
	assert_int_equal(st.idle_flushes, 0);

	run_flush(&r);
	assert_int_equal(collector_stats(&r.col, &st), 0);
	assert_int_equal(st.idle_flushes, 1);
	assert_int_equal(st.missed_switches, 0);
	assert_int_equal(st.read_errors, 0);
	cs = get_cpu_state(&r);
	assert_int_equal(cs.valid, 3);
	for (int e = 0; e < 2; e++) {
		assert_int_equal(cs.counter[e], UNREAD_BASELINE);
		assert_int_equal(cs.time[e].enabled, UNREAD_BASELINE);
		assert_int_equal(cs.time[e].running, UNREAD_BASELINE);
	}
	assert_int_equal(cs.run_pending, 0);
	assert_int_equal(read_map_only(&r, TEST_CGROUP).seen, 0);

	/* The CPU's events out of the array: each group's read fails, no baseline stays. */
	collector_drop_cpu_events(&r.col, r.cpu);
	run_flush(&r);
	assert_int_equal(collector_stats(&r.col, &st), 0);
	assert_int_equal(st.idle_flushes, 1);
	assert_int_equal(st.read_errors, 2);
	assert_int_equal(get_cpu_state(&r).valid, 0);
	assert_int_equal(read_map_only(&r, TEST_CGROUP).seen, 0);
	rig_close(&r);
}

/* As struct itest_found, so the itest_counter() etc. read it. */
struct task_found {
	uint32_t tid;
	struct acc_layout layout;
	union acc_room sum;
	int seen;
};

static void task_one(const struct collector_task *t, const struct tmacg_acc *d, void *ctx)
{
	struct task_found *f = ctx;

	if (t->tid != f->tid)
		return;
	f->seen++;
	memcpy(&f->sum, d, acc_bytes(&f->layout));
}

static void put_task(struct rig *r, __u32 tid, __u64 created_ns, __u64 count)
{
	/* The entry's header, then an accumulator of the collector's layout. */
	union {
		struct tmacg_task_acc t;
		__u64 words[sizeof(struct tmacg_task_acc) / 8 + TMACG_ACC_MAX_WORDS];
	} e = { .t = { .cgroup_id = TEST_CGROUP, .created_ns = created_ns } };
	struct tmacg_acc *acc = (struct tmacg_acc *)e.t.acc;

	e.t.tgid = tid;
	strcpy(e.t.comm, "tmacg-test");
	acc->runtime_ns = count;
	*acc_counter(acc, 0) = count;
	*acc_enabled(&r->col.layout, acc, 0) = count;
	*acc_running(&r->col.layout, acc, 0) = count;
	assert_int_equal(
		bpf_map_update_elem(bpf_map__fd(r->col.skel->maps.task_acc), &tid, &e, BPF_ANY), 0);
}

/*
 * Issue 15, defect 5: a tid the LRU evicted and the BPF side created again
 * counts from zero, even when its new counts already exceed the old snapshot.
 */
static void recreated_task_entry_counts_from_zero(void **state)
{
	struct task_found f = { .tid = 999999 };
	struct rig r;

	(void)state;
	ITEST_NEED_ROOT();
	rig_open(&r, 1, false, true);
	f.layout = r.col.layout;
	put_task(&r, f.tid, 100, 1000);
	assert_int_equal(collector_read_tasks(&r.col, task_one, &f), 0);
	assert_int_equal(f.seen, 1);
	assert_int_equal(itest_runtime(&f), 1000);

	put_task(&r, f.tid, 200, 1500); /* evicted, created again, counted past 1000 */
	assert_int_equal(collector_read_tasks(&r.col, task_one, &f), 0);
	assert_int_equal(f.seen, 2);
	assert_int_equal(itest_runtime(&f), 1500);
	assert_int_equal(itest_counter(&f, 0), 1500);
	assert_int_equal(itest_enabled(&f, 0), 1500);

	put_task(&r, f.tid, 200, 1700); /* the same entry: its growth only */
	assert_int_equal(collector_read_tasks(&r.col, task_one, &f), 0);
	assert_int_equal(f.seen, 3);
	assert_int_equal(itest_runtime(&f), 200);
	rig_close(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_word_of_the_plan_is_charged),
		cmocka_unit_test(failed_read_still_charges_cpu_time),
		cmocka_unit_test(pinned_group_off_the_pmu_leaves_the_others),
		cmocka_unit_test(missed_switch_into_idle_charges_idle),
		cmocka_unit_test(recreated_task_entry_counts_from_zero),
		cmocka_unit_test(pending_slot_drains_on_eviction_and_flush),
		cmocka_unit_test(idle_flush_reads_no_counter),
	};
	return cmocka_run_group_tests_name("bpf_charges", tests, itest_group_setup, NULL);
}
