// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "collect/collector.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "collect/acc_delta.h"
#include "collect/kernel_support.h"
#include "pmu/pmu.h"
#include "tmacg.skel.h"
#include "util/privileges.h"
#include "util/run_error.h"

/* Entries read per batch syscall: bounds the read buffers (~400 KiB). */
#define COLLECTOR_BATCH 512

/* Allocated with the plan's accumulator behind it (task_snap_bytes()). */
struct task_snap {
	uint64_t created_ns; /* of the BPF entry acc was read from */
	uint64_t seen;	     /* read generation that last saw the tid */
	struct tmacg_acc acc;
};

static size_t task_snap_bytes(const struct collector *c)
{
	return offsetof(struct task_snap, acc) + acc_bytes(&c->layout);
}

static int libbpf_verbose;

static int libbpf_print(enum libbpf_print_level level, const char *fmt, va_list args)
{
	/* Warnings with -v, the rest with -vv: without, tmacg's own message says it all. */
	if (libbpf_verbose < (level == LIBBPF_WARN ? 1 : 2))
		return 0;
	return vfprintf(stderr, fmt, args);
}

static int on_ringbuf(void *ctx, void *data, size_t size)
{
	struct collector *c = ctx;
	const struct tmacg_cgroup_event *ev = data;

	if (size < sizeof(*ev))
		return 0;
	/* Hierarchy 0 is cgroup2's ("0::/path" in /proc/self/cgroup); v1 ids collide. */
	if (ev->hierarchy_id != 0)
		return 0;
	if (c->cfg.on_cgroup)
		c->cfg.on_cgroup(ev, c->cfg.ctx);
	return 0;
}

static void configure(struct collector *c, bool raw_tp)
{
	struct tmacg_bpf *skel = c->skel;
	const struct collector_config *cfg = &c->cfg;

	skel->rodata->nr_cpus = c->ncpus;
	skel->rodata->nr_events = cfg->nevents;
	skel->rodata->nr_groups = cfg->ngroups;
	for (int e = 0; e < cfg->nevents; e++) {
		skel->rodata->event_group[e] = cfg->event_group[e];
		skel->rodata->event_is_leader[e] = cfg->event_is_leader[e];
	}
	skel->rodata->per_task = cfg->per_task;
	bpf_map__set_max_entries(skel->maps.events, cfg->nevents * c->ncpus);
	bpf_map__set_max_entries(skel->maps.cgroup_acc, cfg->max_cgroups);
	/* Values of the plan's size: 10,000 cgroups at level 1 take 56 bytes each, not 3 KiB. */
	bpf_map__set_value_size(skel->maps.cgroup_acc, acc_bytes(&c->layout));
	bpf_map__set_value_size(skel->maps.task_acc,
				TMACG_TASK_ACC_BYTES(cfg->nevents, cfg->ngroups));
	bpf_map__set_max_entries(
		skel->maps.cgroup_events,
		ring_bytes_for(cfg->max_cgroups, sizeof(struct tmacg_cgroup_event)));
	/* Unused without --per-task: keep it tiny. */
	bpf_map__set_max_entries(skel->maps.task_acc, cfg->per_task ? cfg->max_tasks : 1);
	bpf_program__set_autoload(skel->progs.tmacg_switch, !raw_tp);
	bpf_program__set_autoload(skel->progs.tmacg_mkdir, !raw_tp);
	bpf_program__set_autoload(skel->progs.tmacg_rmdir, !raw_tp);
	bpf_program__set_autoload(skel->progs.tmacg_attach, !raw_tp);
	bpf_program__set_autoload(skel->progs.tmacg_attach_raw, raw_tp);
	bpf_program__set_autoload(skel->progs.tmacg_switch_raw, raw_tp);
	bpf_program__set_autoload(skel->progs.tmacg_mkdir_raw, raw_tp);
	bpf_program__set_autoload(skel->progs.tmacg_rmdir_raw, raw_tp);
	bpf_program__set_autoattach(skel->progs.tmacg_flush, false);
	bpf_map__set_max_entries(skel->maps.cpu_hotplug, c->ncpus + 1);
	bpf_map__set_max_entries(skel->maps.cpu_stats, c->ncpus);
	bpf_program__set_autoattach(skel->progs.tmacg_cpuhp, false); /* optional: below */
}

static int open_and_load(struct collector *c, bool raw_tp, const char *btf_path)
{
	LIBBPF_OPTS(bpf_object_open_opts, opts, .btf_custom_path = btf_path);

	c->skel = tmacg_bpf__open_opts(&opts);
	if (!c->skel)
		return -errno;
	configure(c, raw_tp);
	return tmacg_bpf__load(c->skel);
}

/*
 * The kernel has what tmacg needs (kernel_support.h), and the BTF to load with.
 * TMACG_TEST_KERNEL_BTF, for tests only, stands for the kernel's BTF file (a
 * missing one: a kernel without BTF), and libbpf's other places are not searched.
 */
static int check_kernel(const struct collector_config *cfg, struct btf_choice *btf, char *err,
			size_t errlen)
{
	const char *test_btf = getenv("TMACG_TEST_KERNEL_BTF");
	int cpu = sched_getcpu(), ret;

	ret = kernel_btf_choose(cfg->btf, test_btf ? test_btf : KERNEL_BTF_PATH, !test_btf, btf,
				err, errlen);
	if (ret)
		return COLLECTOR_KERNEL_UNSUPPORTED;
	return kernel_features_check(cfg->probes ? cfg->probes : &kernel_probes_live,
				     cpu < 0 ? 0 : cpu, err, errlen);
}

/* A task_acc value: the entry's header and the plan's accumulator. */
static size_t task_acc_bytes(const struct collector *c)
{
	return TMACG_TASK_ACC_BYTES(c->layout.nevents, c->layout.ngroups);
}

/* The kernel maps an array in whole pages: the stats of every possible CPU. */
static size_t stats_map_bytes(const struct collector *c)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	return ((size_t)c->ncpus * sizeof(struct tmacg_stats_slot) + page - 1) / page * page;
}

/* The BPF stats array, mapped read-only: read in place each interval, never copied. */
static int map_stats(struct collector *c)
{
	void *p = mmap(NULL, stats_map_bytes(c), PROT_READ, MAP_SHARED,
		       bpf_map__fd(c->skel->maps.cpu_stats), 0);

	if (p == MAP_FAILED)
		return -errno;
	c->stats = p;
	return 0;
}

int collector_open(struct collector *c, const struct collector_config *cfg, struct run_error *e)
{
	char *err = e->msg;
	size_t errlen = sizeof(e->msg);
	struct btf_choice btf;
	int ret;

	memset(c, 0, sizeof(*c));
	e->kind = RUN_FAILED; /* unless the kernel lacks what tmacg needs */
	c->cfg = *cfg;
	u64map_init(&c->snaps);
	u64map_init(&c->task_snaps);
	c->layout = acc_layout_of(cfg->nevents, cfg->ngroups);
	if (cfg->nevents < 1 || cfg->nevents > TMACG_MAX_EVENTS || cfg->ngroups < 1 ||
	    cfg->ngroups > TMACG_MAX_GROUPS) {
		snprintf(err, errlen,
			 "%d events in %d groups: the BPF program reads 1 to %d events in 1 to %d "
			 "groups per CPU; lower --level",
			 cfg->nevents, cfg->ngroups, TMACG_MAX_EVENTS, TMACG_MAX_GROUPS);
		e->kind = RUN_USAGE; /* a plan larger than the maps: before anything is loaded */
		return -E2BIG;
	}
	libbpf_verbose = cfg->verbose;
	libbpf_set_print(libbpf_print);
	c->ncpus = libbpf_num_possible_cpus();
	if (c->ncpus <= 0) {
		snprintf(err, errlen, "cannot count the possible CPUs: %s", strerror(-c->ncpus));
		return c->ncpus;
	}
	ret = check_kernel(cfg, &btf, err, errlen);
	if (ret == COLLECTOR_KERNEL_UNSUPPORTED)
		e->kind = RUN_UNSUPPORTED;
	if (ret)
		return ret;
	/*
	 * tp_btf needs the kernel's own BTF; raw_tp needs BTF only for CO-RE, which
	 * --btf FILE gives.  TMACG_FORCE_RAW_TP=1 takes raw_tp anyway, so it is tested too.
	 */
	c->raw_tp = !btf.kernel_btf || getenv("TMACG_FORCE_RAW_TP");
	ret = open_and_load(c, c->raw_tp, btf.custom_path);
	if (ret && !c->raw_tp) {
		tmacg_bpf__destroy(c->skel);
		c->raw_tp = true;
		ret = open_and_load(c, true, btf.custom_path);
	}
	if (ret) {
		snprintf(err, errlen, "cannot load the BPF programs: %s%s%s", strerror(-ret),
			 ret == -EPERM || ret == -EACCES ? ": " :
							   " (run with -v for libbpf's messages "
							   "and the verifier's log)",
			 ret == -EPERM || ret == -EACCES ? privileges_denied_hint() : "");
		collector_close(c);
		return ret;
	}
	ret = map_stats(c);
	if (ret) {
		snprintf(err, errlen, "cannot map the BPF stats array: %s", strerror(-ret));
		collector_close(c);
		return ret;
	}
	c->batch_keys = malloc(COLLECTOR_BATCH * sizeof(__u64));
	c->batch_vals = malloc(COLLECTOR_BATCH * task_acc_bytes(c));
	c->delta = acc_new(&c->layout);
	if (!c->batch_keys || !c->batch_vals || !c->delta) {
		snprintf(err, errlen, "out of memory");
		collector_close(c);
		return -ENOMEM;
	}
	e->kind = RUN_OK;
	return 0;
}

int collector_put_cpu_events(struct collector *c, const struct pmu_set *pmu, int cpu, char *err,
			     size_t errlen)
{
	int map_fd = bpf_map__fd(c->skel->maps.events);

	for (int e = 0; e < pmu->nevents; e++) {
		__u32 key = e * c->ncpus + cpu;
		int fd = pmu->fds[e * pmu->ncpus + cpu];

		if (fd < 0)
			continue;
		if (bpf_map_update_elem(map_fd, &key, &fd, BPF_ANY)) {
			int e_no = errno;

			snprintf(err, errlen, "cannot hand event %d of CPU %d to BPF: %s", e, cpu,
				 strerror(e_no));
			return -e_no;
		}
	}
	return 0;
}

void collector_drop_cpu_events(struct collector *c, int cpu)
{
	int map_fd = bpf_map__fd(c->skel->maps.events);

	for (int e = 0; e < c->cfg.nevents; e++) {
		__u32 key = e * c->ncpus + cpu;

		bpf_map_delete_elem(map_fd, &key); /* ENOENT: had none */
	}
}

int collector_attach(struct collector *c, char *err, size_t errlen)
{
	int ret;

	c->rb = ring_buffer__new(bpf_map__fd(c->skel->maps.cgroup_events), on_ringbuf, c, NULL);
	if (!c->rb) {
		ret = -errno;
		snprintf(err, errlen, "cannot open the cgroup event ring buffer: %s",
			 strerror(-ret));
		return ret;
	}
	ret = tmacg_bpf__attach(c->skel);
	if (ret) {
		snprintf(err, errlen, "cannot attach to sched_switch/cgroup tracepoints: %s",
			 strerror(-ret));
		return ret;
	}
	/* Without it, a CPU off and on within an interval is found by its events' time. */
	c->skel->links.tmacg_cpuhp = bpf_program__attach(c->skel->progs.tmacg_cpuhp);
	if (!c->skel->links.tmacg_cpuhp && c->cfg.verbose)
		fprintf(stderr, "tmacg: cannot attach to cpuhp_enter: %s\n", strerror(errno));
	return 0;
}

void collector_set_active(struct collector *c, uint64_t groups)
{
	/* Mapped memory the BPF program reads at each switch: one store, seen there next. */
	__atomic_store_n(&c->skel->data->active_groups, groups, __ATOMIC_RELEASE);
}

void collector_leave_out(struct collector *c, uint64_t groups)
{
	uint64_t active = __atomic_load_n(&c->skel->data->active_groups, __ATOMIC_ACQUIRE);
	int map_fd = bpf_map__fd(c->skel->maps.events);

	/* Out of what a switch reads first: a read of a missing event voids its pass. */
	collector_set_active(c, active & ~groups);
	for (int e = 0; e < c->cfg.nevents; e++) {
		int g = c->cfg.event_group[e];

		if (g < 0 || g >= 64 || !((groups >> g) & 1))
			continue;
		for (int cpu = 0; cpu < c->ncpus; cpu++) {
			__u32 key = e * c->ncpus + cpu;

			bpf_map_delete_elem(map_fd, &key); /* ENOENT: had none */
		}
	}
}

int collector_poll_cgroups(struct collector *c)
{
	int n = ring_buffer__consume(c->rb);

	return n < 0 ? n : 0;
}

int collector_wait_cgroups(struct collector *c, int timeout_ms)
{
	int n = ring_buffer__poll(c->rb, timeout_ms);

	return n < 0 ? n : 0;
}

/*
 * A CPU gone offline keeps what its pending slots hold until it comes back,
 * and only a flush on it would drain them: counted as flush errors (each
 * line's dropped), one per occupied slot, rather than lost unseen.  Rare (a
 * flush that failed): every CPU's cpu_data is read then, and only then.
 */
static uint64_t stranded_slots(struct collector *c, int cpu)
{
	struct tmacg_cpu *all = calloc(c->ncpus, sizeof(*all));
	__u32 zero = 0;
	uint64_t n = 0;

	if (!all || bpf_map_lookup_elem(bpf_map__fd(c->skel->maps.cpu_data), &zero, all)) {
		free(all);
		return 1; /* cannot tell: at least the pass that failed */
	}
	for (int i = 0; i < TMACG_CPU_PENDING; i++)
		n += all[cpu].pending[i].cgroup_id != 0;
	free(all);
	return n;
}

int collector_flush_cpu(struct collector *c, int cpu)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts, .flags = BPF_F_TEST_RUN_ON_CPU, .cpu = cpu);

	if (!bpf_prog_test_run_opts(bpf_program__fd(c->skel->progs.tmacg_flush), &opts))
		return 0;
	if (errno == ENXIO) {
		c->flush_errors += stranded_slots(c, cpu);
		return -ENXIO;
	}
	c->flush_errors++;
	return -errno;
}

/*
 * Calls fn for every entry of a hash map, COLLECTOR_BATCH at a time.  The
 * kernel reads a hash map's batch cursor as a u32 bucket index.
 */
static int for_each_entry(struct collector *c, int fd, size_t ksize, size_t vsize,
			  int (*fn)(struct collector *c, const void *key, const void *val,
				    void *ctx),
			  void *ctx)
{
	__u64 in_batch = 0, out_batch = 0;
	bool first = true, done = false;
	LIBBPF_OPTS(bpf_map_batch_opts, opts);

	while (!done) {
		__u32 count = COLLECTOR_BATCH;
		int err = bpf_map_lookup_batch(fd, first ? NULL : &in_batch, &out_batch,
					       c->batch_keys, c->batch_vals, &count, &opts);

		if (err) {
			if (errno != ENOENT)
				return -errno;
			done = true; /* last batch: count still holds its entries */
		}
		for (__u32 i = 0; i < count; i++) {
			int ret = fn(c, c->batch_keys + i * ksize, c->batch_vals + i * vsize, ctx);

			if (ret)
				return ret;
		}
		in_batch = out_batch;
		first = false;
	}
	return 0;
}

/* The snapshot of key in m, created zeroed the first time. */
static void *snapshot_of(struct u64map *m, uint64_t key, size_t size)
{
	void *snap = u64map_get(m, key);

	if (!snap) {
		snap = calloc(1, size);
		if (snap && u64map_put(m, key, snap)) {
			free(snap);
			snap = NULL;
		}
	}
	return snap;
}

struct cgroup_reader {
	void (*fn)(uint64_t id, const struct tmacg_acc *delta, void *ctx);
	void *ctx;
};

static int read_cgroup(struct collector *c, const void *key, const void *val, void *arg)
{
	const struct cgroup_reader *r = arg;
	__u64 id = *(const __u64 *)key;
	struct tmacg_acc *snap = snapshot_of(&c->snaps, id, acc_bytes(&c->layout));

	if (!snap)
		return -ENOMEM;
	c->negative_deltas += acc_delta(&c->layout, val, snap, c->delta);
	memcpy(snap, val, acc_bytes(&c->layout));
	if (!acc_is_empty(&c->layout, c->delta))
		r->fn(id, c->delta, r->ctx);
	return 0;
}

int collector_read_cgroups(struct collector *c,
			   void (*fn)(uint64_t id, const struct tmacg_acc *delta, void *ctx),
			   void *ctx)
{
	struct cgroup_reader r = { fn, ctx };

	return for_each_entry(c, bpf_map__fd(c->skel->maps.cgroup_acc), sizeof(__u64),
			      acc_bytes(&c->layout), read_cgroup, &r);
}

struct task_reader {
	void (*fn)(const struct collector_task *t, const struct tmacg_acc *delta, void *ctx);
	void *ctx;
};

static int read_task(struct collector *c, const void *key, const void *val, void *arg)
{
	const struct task_reader *r = arg;
	const struct tmacg_task_acc *t = val;
	__u32 tid = *(const __u32 *)key;
	struct collector_task info = { .tid = tid, .tgid = t->tgid, .cgroup_id = t->cgroup_id };
	const struct tmacg_acc *acc = (const struct tmacg_acc *)t->acc;
	struct task_snap *snap;

	if (!tid)
		return 0; /* the idle task is never charged; never a real entry */
	snap = snapshot_of(&c->task_snaps, tid, task_snap_bytes(c));
	if (!snap)
		return -ENOMEM;
	/*
	 * The LRU evicted and re-created this tid: count from zero again.  Told
	 * by the entry's creation time, not by a count going backwards: the new
	 * entry may have passed the old snapshot already.
	 */
	if (t->created_ns != snap->created_ns) {
		acc_clear(&c->layout, &snap->acc);
		snap->created_ns = t->created_ns;
	}
	c->negative_deltas += acc_delta(&c->layout, acc, &snap->acc, c->delta);
	memcpy(&snap->acc, acc, acc_bytes(&c->layout));
	snap->seen = c->task_generation;
	memcpy(info.comm, t->comm, sizeof(info.comm));
	info.comm[sizeof(info.comm) - 1] = '\0';
	if (!acc_is_empty(&c->layout, c->delta))
		r->fn(&info, c->delta, r->ctx);
	return 0;
}

/* Keeps a tid the last read saw; frees the snapshot of one the LRU no longer holds. */
static bool task_seen(uint64_t tid, void *val, void *ctx)
{
	struct task_snap *s = val;

	(void)tid;
	if (s->seen == *(const uint64_t *)ctx)
		return true;
	free(s);
	return false;
}

int collector_read_tasks(struct collector *c,
			 void (*fn)(const struct collector_task *t, const struct tmacg_acc *delta,
				    void *ctx),
			 void *ctx)
{
	struct task_reader r = { fn, ctx };
	int err;

	if (!c->cfg.per_task)
		return 0;
	c->task_generation++;
	err = for_each_entry(c, bpf_map__fd(c->skel->maps.task_acc), sizeof(__u32),
			     task_acc_bytes(c), read_task, &r);
	if (err)
		return err;
	u64map_retain(&c->task_snaps, task_seen, &c->task_generation);
	return 0;
}

void collector_forget_cgroup(struct collector *c, uint64_t id)
{
	__u64 key = id;

	bpf_map_delete_elem(bpf_map__fd(c->skel->maps.cgroup_acc), &key);
	free(u64map_del(&c->snaps, id));
}

int collector_stats(struct collector *c, struct tmacg_stats *out)
{
	memset(out, 0, sizeof(*out));
	for (int cpu = 0; cpu < c->ncpus; cpu++) {
		__u64 *dst = (__u64 *)out;
		const volatile __u64 *src = (const volatile __u64 *)&c->stats[cpu].stats;

		for (size_t i = 0; i < TMACG_STATS_COUNTERS; i++)
			dst[i] += src[i];
	}
	return 0;
}

static void free_values(struct u64map *m)
{
	size_t cur = 0;
	void *val;

	while (u64map_next(m, &cur, NULL, &val))
		free(val);
	u64map_free(m);
}

int collector_hotplug_count(struct collector *c, int cpu, uint64_t *n)
{
	__u32 key = cpu < 0 ? (__u32)c->ncpus : (__u32)cpu;
	__u64 v;

	if (!c->skel || !c->skel->links.tmacg_cpuhp)
		return -ENOENT;
	if (bpf_map_lookup_elem(bpf_map__fd(c->skel->maps.cpu_hotplug), &key, &v))
		return -errno;
	*n = v;
	return 0;
}

void collector_close(struct collector *c)
{
	ring_buffer__free(c->rb);
	if (c->stats)
		munmap((void *)c->stats, stats_map_bytes(c));
	tmacg_bpf__destroy(c->skel);
	free_values(&c->snaps);
	free_values(&c->task_snaps);
	free(c->batch_keys);
	free(c->batch_vals);
	free(c->delta);
	memset(c, 0, sizeof(*c));
}

void collector_map_bytes(struct acc_layout layout, uint32_t max_cgroups, uint32_t max_tasks,
			 bool per_task, int ncpus, struct collector_map_bytes *out)
{
	uint64_t task_entry = HTAB_ENTRY_OVERHEAD + sizeof(__u32) +
			      TMACG_TASK_ACC_BYTES(layout.nevents, layout.ngroups);

	out->cgroup_entry = HTAB_ENTRY_OVERHEAD + sizeof(__u64) + acc_bytes(&layout);
	out->cgroups = (uint64_t)max_cgroups * out->cgroup_entry;
	out->tasks = per_task ? (uint64_t)max_tasks * task_entry : 0;
	out->other = ring_bytes_for(max_cgroups, sizeof(struct tmacg_cgroup_event)) +
		     (uint64_t)(ncpus > 0 ? ncpus : 1) * sizeof(struct tmacg_cpu);
}

/*
 * One user creating cgroups faster than tmacg polls must not make the others
 * nameless: a mkdir event lost to a full ring leaves a short-lived cgroup's
 * time unattributed.  The map holds --max-cgroups entries, so the ring holds
 * as many events.
 */
/* The kernel's header before each ring buffer record (BPF_RINGBUF_HDR_SZ). */
#define RING_RECORD_HEADER 8

uint32_t ring_bytes_for(uint32_t max_cgroups, uint32_t record_size)
{
	uint64_t want = (uint64_t)max_cgroups * ((record_size + RING_RECORD_HEADER + 7) & ~7u);
	uint64_t bytes = RING_MIN_BYTES;

	while (bytes < want && bytes < RING_MAX_BYTES)
		bytes *= 2;
	return (uint32_t)bytes;
}
