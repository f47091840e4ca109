// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Each interval: flush every CPU, read the per-cgroup deltas, learn the
 * cgroups created meanwhile, roll each delta up into the reported cgroups
 * ("targets"), print one line per target, then forget removed cgroups.
 */
#include "monitor.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "collect/acc_delta.h"
#include "cgroups/cgroup_naming.h"
#include "cgroups/cgroup_tree.h"
#include "cgroups/cgroup_v1.h"
#include "collect/collector.h"
#include "cpus/cpu_events.h"
#include "fd_limit.h"
#include "map_room.h"
#include "pmu/group_health.h"
#include "k8s/k8s_monitor.h"
#include "measure.h"
#include "model/model.h"
#include "options.h"
#include "prom/prom.h"
#include "output/report.h"
#include "output/top_input.h"
#include "util/atomic_file.h"
#include "util/privileges.h"
#include "util/run_error.h"
#include "util/out_stream.h"
#include "util/stop_signal.h"

volatile sig_atomic_t monitor_stop;

/* How often the live view looks for keys while it waits: quick to a person, nothing to a CPU. */
#define KEY_POLL_MS 100
/* How soon a CPU back online counts again (cpu_events_due() between waits). */
#define HOTPLUG_POLL_MS 200

/* A cgroup's delta waiting for the cgroup events that name it: pending_bytes() apart. */
struct pending {
	uint64_t id;
	struct tmacg_acc delta; /* the plan's layout */
};

struct monitor {
	const struct options *o;
	struct measure *ms;
	struct cgroup_tree tree;
	struct collector col;
	struct cpu_events cpus; /* every CPU's perf events: hotplug, refusals */
	char *pending;		/* npending struct pending */
	size_t npending, cap_pending;
	struct report *rep;
	struct k8s_monitor *k8s; /* --k8s: chooses and names the reported cgroups */
	uint64_t unattributed;	 /* deltas of cgroups never named: counted as dropped */
	bool may_rescan;	 /* this interval has not scanned the hierarchy yet */
	struct tmacg_stats last_stats;
	uint64_t last_flush_errors, last_unattributed;
	bool warned_map_full, warned_lost, warned_read;
	struct group_health health;  /* perf groups that never counted */
	struct prom *prom;	     /* --listen: the report's sink, serving /metrics */
	struct cgroup_mount mnt;     /* the cgroup2 mount measured */
	struct cgroup_spec *specs;   /* --cgroup, resolved in it */
	char v1_note[1024];	     /* a hybrid host's cgroup v1, said once at start; or "" */
	struct atomic_file html_out; /* -o FILE: opened at the start, written at the end */
	struct top_input input;	     /* the live view's keys, on a terminal */
	bool measuring;		     /* start() done: the intervals ran, their totals said (-v) */
};

static uint64_t now_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static void on_cgroup_event(const struct tmacg_cgroup_event *ev, void *ctx)
{
	struct monitor *m = ctx;

	/* Unnamed: its counts are found unattributed by attribute(), and counted. */
	cgroup_naming_apply(&m->tree, ev, &m->may_rescan);
}

static size_t pending_bytes(const struct monitor *m)
{
	return offsetof(struct pending, delta) + acc_bytes(&m->ms->layout);
}

static struct pending *pending_at(const struct monitor *m, size_t i)
{
	return (struct pending *)(m->pending + i * pending_bytes(m));
}

static void stash_delta(uint64_t id, const struct tmacg_acc *delta, void *ctx)
{
	struct monitor *m = ctx;
	struct pending *p;

	group_health_add(&m->health, &m->ms->layout, delta);
	if (m->npending == m->cap_pending) {
		size_t cap = m->cap_pending ? m->cap_pending * 2 : 256;
		char *grown = realloc(m->pending, cap * pending_bytes(m));

		if (!grown) {
			m->unattributed++;
			return;
		}
		m->pending = grown;
		m->cap_pending = cap;
	}
	p = pending_at(m, m->npending++);
	p->id = id;
	memcpy(&p->delta, delta, acc_bytes(&m->ms->layout));
}

struct charge {
	struct monitor *m;
	const struct tmacg_acc *delta;
};

static void add_to_target(struct cgroup_node *target, void *ctx)
{
	struct charge *c = ctx;
	struct tmacg_acc *sum = cgroup_node_sum(target, &c->m->ms->layout);

	if (sum)
		acc_add(&c->m->ms->layout, sum, c->delta);
}

/* Adds every pending delta to the targets containing its cgroup. */
static void attribute(struct monitor *m)
{
	for (size_t i = 0; i < m->npending; i++) {
		struct charge c = { m, &pending_at(m, i)->delta };
		uint64_t id = pending_at(m, i)->id;

		if (cgroup_tree_for_each_target(&m->tree, id, NULL, NULL) < 0 && m->may_rescan) {
			/* It or an ancestor is unknown (mkdir event lost or before us): look. */
			cgroup_tree_scan(&m->tree);
			m->may_rescan = false;
		}
		/* Unknown, or a broken chain of parents: charged to nobody, so counted. */
		if (cgroup_tree_for_each_target(&m->tree, id, add_to_target, &c) < 0)
			m->unattributed++;
	}
	m->npending = 0;
}

static void on_task(const struct collector_task *t, const struct tmacg_acc *delta, void *ctx)
{
	struct monitor *m = ctx;
	struct cgroup_node *targets[64];
	int n = cgroup_tree_targets_of(&m->tree, t->cgroup_id, targets, 64);

	/* A task is listed under the deepest reported cgroup that holds it. */
	if (n > 0)
		report_add_task(m->rep, targets[0], t->tid, t->tgid, t->comm, delta);
}

static void forget_cgroup(uint64_t id, void *ctx)
{
	struct monitor *m = ctx;

	collector_forget_cgroup(&m->col, id);
}

/* Flushes that failed, and intervals of a CPU's counts lost to hotplug: both "flush errors". */
static uint64_t flush_errors(const struct monitor *m)
{
	return m->col.flush_errors + m->cpus.lost;
}

/* The interval's lost deltas; *map_full: those of them the full cgroup map had no room for. */
static uint64_t dropped_since_last(struct monitor *m, uint64_t *map_full)
{
	struct tmacg_stats st;
	uint64_t dropped;

	*map_full = 0;
	if (collector_stats(&m->col, &st))
		return 0;
	dropped = (st.read_errors - m->last_stats.read_errors) +
		  (st.map_full - m->last_stats.map_full) +
		  (st.task_map_full - m->last_stats.task_map_full) +
		  (st.events_lost - m->last_stats.events_lost) +
		  (flush_errors(m) - m->last_flush_errors) +
		  (m->unattributed - m->last_unattributed);
	if (st.map_full > m->last_stats.map_full && !m->warned_map_full) {
		fprintf(stderr,
			"tmacg: warning: the cgroup map is full (%u entries): counts "
			"dropped; raise --max-cgroups\n",
			m->o->max_cgroups);
		m->warned_map_full = true;
	}
	if (st.events_lost > m->last_stats.events_lost && !m->warned_lost) {
		fprintf(stderr, "tmacg: warning: cgroup creation events lost: some cgroups are "
				"named by a rescan, or counted as dropped\n");
		m->warned_lost = true;
	}
	if (st.read_errors > m->last_stats.read_errors && !m->warned_read) {
		fprintf(stderr, "tmacg: warning: counter reads failed in BPF: those counts are "
				"dropped, CPU time kept (run with -v for the totals)\n");
		m->warned_read = true;
	}
	*map_full = st.map_full - m->last_stats.map_full; /* in each line's quality */
	m->last_stats = st;
	m->last_flush_errors = flush_errors(m);
	m->last_unattributed = m->unattributed;
	return dropped;
}

static void print_totals(struct monitor *m)
{
	struct tmacg_stats st;

	if (collector_stats(&m->col, &st))
		return;
	fprintf(stderr,
		"tmacg: switches %llu, returned early %llu (%.1f%%), idle %llu, flushes %llu, "
		"groups not running %llu, self-migrations %llu, switches not reported by the "
		"kernel %llu (%.3f s of CPU time in them not charged; %llu into idle, their "
		"counts charged to idle)\n"
		"tmacg: dropped: read errors %llu, cgroup map full %llu, task map full %llu, "
		"cgroup events lost %llu, unattributed %llu, flush errors %llu; "
		"negative deltas clamped %llu\n"
		"tmacg: CPU hotplug: CPUs back online %llu (their events reopened), gone offline "
		"%llu\n",
		(unsigned long long)st.switches, (unsigned long long)st.early_returns,
		st.switches ? 100.0 * st.early_returns / st.switches : 0.0,
		(unsigned long long)st.idle, (unsigned long long)st.flushes,
		(unsigned long long)st.groups_not_running, (unsigned long long)st.migrations,
		(unsigned long long)st.missed_switches, st.missed_runtime_ns / 1e9,
		(unsigned long long)st.missed_into_idle, (unsigned long long)st.read_errors,
		(unsigned long long)st.map_full, (unsigned long long)st.task_map_full,
		(unsigned long long)st.events_lost, (unsigned long long)m->unattributed,
		(unsigned long long)flush_errors(m),
		(unsigned long long)(st.negative_deltas + m->col.negative_deltas),
		(unsigned long long)m->cpus.back, (unsigned long long)m->cpus.gone);
}

/*
 * A group refused at start, or later by a CPU coming back: named once, its
 * nodes null with the reason, the rest measured.  0 or -ENOMEM.
 */
static int leave_out_refused(struct monitor *m)
{
	uint64_t refused = cpu_events_take_refused(&m->cpus);
	char *const *why = cpu_events_refusals(&m->cpus);
	uint64_t named;

	if (!refused)
		return 0;
	named = group_health_unopened(&m->health, m->ms->events, m->ms->nevents, refused, why,
				      stderr);
	return named ? measure_groups_unopened(m->ms, named, why) : 0;
}

/* CPU hotplug: the online CPUs' events reopened or closed (cpus/cpu_events.h). */
static void follow_cpus(struct monitor *m)
{
	cpu_events_follow(&m->cpus);
	if (leave_out_refused(m))
		fprintf(stderr, "tmacg: out of memory naming a refused group's nodes\n");
}

/* One interval's collection; the report happens after. */
static int collect(struct monitor *m)
{
	int err;

	m->may_rescan = true;
	follow_cpus(m);
	cpu_events_flush(&m->cpus);
	err = collector_read_cgroups(&m->col, stash_delta, m);
	if (err)
		return err;
	/* Before new cgroups are classified: fresh log names, sandboxes decided again. */
	if (m->k8s)
		k8s_monitor_interval(m->k8s);
	/* After the read: every cgroup charged so far has had its mkdir delivered. */
	collector_poll_cgroups(&m->col);
	attribute(m);
	return collector_read_tasks(&m->col, on_task, m);
}

/*
 * The cgroup2 mount and the --cgroup paths, before anything is loaded: a
 * wrong argument is a usage error, said at once.  0 or -1 with e.
 */
static int resolve_cgroups(struct monitor *m, struct run_error *e)
{
	int ret = cgroup_find_mount("/proc/self/mountinfo", m->o->cgroup_root, &m->mnt);
	struct cgroup_v1 v1;

	if (cgroup_v1_scan("/proc/self/mountinfo", &v1))
		v1.hierarchies = 0; /* cannot tell: say nothing of v1 */

	if (ret && m->o->cgroup_root)
		return run_fail(e, RUN_USAGE,
				"--cgroup-root %s: not a cgroup2 mount point "
				"(see /proc/self/mountinfo)",
				m->o->cgroup_root);
	if (ret) {
		cgroup_v1_no_v2_message(&v1, e->msg, sizeof(e->msg));
		return run_error_as(e, RUN_FAILED);
	}
	/* Said once setup succeeded: an error before it comes first, alone. */
	cgroup_v1_hybrid_note(&v1, m->mnt.dir, m->v1_note, sizeof(m->v1_note));
	if (m->o->ncgroups) {
		m->specs = calloc(m->o->ncgroups, sizeof(*m->specs));
		if (!m->specs)
			return run_fail(e, RUN_FAILED, "out of memory");
	}
	for (int i = 0; i < m->o->ncgroups; i++) {
		struct cgroup_spec *spec = &m->specs[i];

		int ret = cgroup_resolve(&m->mnt, m->o->cgroups[i], spec->path, sizeof(spec->path));

		if (ret == -EXDEV)
			return run_fail(
				e, RUN_USAGE,
				"cgroup '%s' is outside cgroup v2, mounted at %s here "
				"(a path up out of it, or a link to a directory elsewhere): "
				"give a directory below it or a path inside it",
				m->o->cgroups[i], m->mnt.dir);
		if (ret)
			return run_fail(e, RUN_USAGE,
					"cgroup '%s' not found: cgroup v2 is mounted at %s "
					"here; give a directory below it or a path inside it",
					m->o->cgroups[i], m->mnt.dir);
		spec->depth = m->o->depth;
	}
	return 0;
}

/* The cgroup tree: the hierarchy as it is, and under --k8s the naming of pods. */
static int setup_cgroups(struct monitor *m, struct run_error *e)
{
	int ret = cgroup_tree_init(&m->tree, &m->mnt, m->specs, m->o->ncgroups);

	if (!ret && m->o->k8s) {
		struct k8s_monitor_config kc = {
			.containers = m->o->k8s_level == K8S_LEVEL_CONTAINER,
			.log_containers = m->o->k8s_log_containers,
			.log_pods = m->o->k8s_log_pods,
			.host = m->o->host,
			.notes = stderr,
		};

		m->k8s = k8s_monitor_new(&kc, e->msg, sizeof(e->msg));
		if (!m->k8s)
			return run_error_as(e, RUN_FAILED);
		k8s_monitor_install(m->k8s, &m->tree);
		report_set_identify(m->rep, k8s_monitor_identify, m->k8s);
	}
	if (!ret)
		ret = cgroup_tree_scan(&m->tree);
	if (ret)
		return run_fail(e, RUN_FAILED, "cannot read the cgroup hierarchy at %s: %s",
				m->mnt.dir, strerror(-ret));
	return 0;
}

/* The BPF side, loaded for the measure's events in the plan's groups. */
static int open_collector(struct monitor *m, struct run_error *e)
{
	struct collector_config cfg = { 0 };
	int event_group[TMACG_MAX_EVENTS];
	bool event_is_leader[TMACG_MAX_EVENTS];

	for (int i = 0; i < m->ms->nevents; i++) {
		event_group[i] = m->ms->events[i].group;
		event_is_leader[i] = measure_event_is_leader(m->ms, i);
	}
	cfg.nevents = m->ms->nevents;
	cfg.ngroups = m->ms->ngroups;
	cfg.event_group = event_group;
	cfg.event_is_leader = event_is_leader;
	cfg.per_task = m->o->per_task;
	cfg.max_cgroups = m->o->max_cgroups;
	cfg.max_tasks = m->o->max_tasks;
	cfg.verbose = m->o->verbose;
	cfg.btf = m->o->btf;
	cfg.on_cgroup = on_cgroup_event;
	cfg.ctx = m;
	if (collector_open(&m->col, &cfg, e))
		return -1;
	if (m->o->verbose)
		fprintf(stderr,
			"tmacg: BPF programs loaded (%s), %d CPUs, %d events in %d groups\n",
			m->col.raw_tp ? "raw_tp" : "tp_btf", m->col.ncpus, m->ms->nevents,
			m->ms->ngroups);
	return 0;
}

/*
 * The descriptors the plan needs: its events on every online CPU, and
 * tmacg's own.  The soft limit raised for them (for every possible CPU where
 * the hard limit allows, so a CPU coming online finds room too), or, where
 * the hard limit is too low, the run refused before anything is opened.
 */
static int check_descriptors(struct monitor *m, struct run_error *e)
{
	int online = fd_limit_cpus("online"), possible = fd_limit_cpus("possible");
	bool listen = m->o->listen != NULL;

	if (online < 1)
		return 0; /* no sysfs to count them: the opens say it if it matters */
	return fd_limit_raise(
		fd_limit_need(m->ms->nevents, online, listen),
		fd_limit_need(m->ms->nevents, possible > online ? possible : online, listen), e);
}

/* The BPF maps this plan and --max-cgroups take, against the memory this host has. */
static int check_map_room(struct monitor *m, struct run_error *e)
{
	struct collector_map_bytes b;

	collector_map_bytes(m->ms->layout, m->o->max_cgroups, m->o->max_tasks, m->o->per_task,
			    fd_limit_cpus("possible"), &b);
	return map_room_check(&b, map_room_available(), m->o->max_cgroups, m->o->max_tasks, e);
}

/* The perf events on every CPU, handed to the BPF side, then the programs attached. */
static int open_counters(struct monitor *m, struct run_error *e)
{
	int ret;

	/* The kernel's refusals and failures here: the run's. */
	if (cpu_events_open(&m->cpus, &m->col, m->ms->events, m->ms->nevents, e->msg,
			    sizeof(e->msg)) ||
	    collector_attach(&m->col, e->msg, sizeof(e->msg)))
		return run_error_as(e, RUN_FAILED);
	m->health.pmu = cpu_events_pmu(&m->cpus); /* "never counted" asks the kernel's times too */
	/* A group the kernel refused: named once, its nodes null, the rest measured. */
	if (leave_out_refused(m))
		return run_fail(e, RUN_FAILED, "out of memory");
	/* Every group on for good: the kernel multiplexes what the PMU cannot hold at once. */
	ret = cpu_events_start(&m->cpus);
	if (ret)
		return run_fail(e, RUN_FAILED, "cannot enable the perf events: %s", strerror(-ret));
	return 0;
}

int monitor_wait_until(uint64_t deadline, int max_wait_ms, int (*wait)(void *ctx, int ms),
		       void (*keys)(void *ctx), void *ctx)
{
	uint64_t now;

	while (!monitor_stop && (now = now_ns(CLOCK_MONOTONIC)) < deadline) {
		int wait_ms = (int)((deadline - now + 999999) / 1000000), err;

		if (wait_ms > max_wait_ms)
			wait_ms = max_wait_ms;
		err = wait(ctx, wait_ms);
		if (err && err != -EINTR)
			return err;
		if (keys)
			keys(ctx);
	}
	return 0;
}

static int wait_cgroups(void *ctx, int ms)
{
	struct monitor *m = ctx;

	return collector_wait_cgroups(&m->col, ms);
}

/*
 * Between waits: the keys typed since the last look (q stops at the end of
 * this wait), and a CPU that went or came back.
 */
static void between_waits(void *ctx)
{
	struct monitor *m = ctx;
	int key, err = 0; /* top_input_key: -1 at once when the input is not a terminal */
	bool quit = false;

	while (!err && !quit && (key = top_input_key(&m->input)) >= 0)
		err = report_key(m->rep, key, &quit);
	/* q as SIGINT: the interval so far shows, then exit 0; the reader gone: stop too */
	if (quit || err == -EPIPE)
		monitor_stop = 1;
	if (cpu_events_due(&m->cpus))
		follow_cpus(m);
}

/*
 * Waits for deadline, naming new cgroups, taking keys and following CPUs as
 * they come.  0 or -1 with e.
 */
static int wait_interval(struct monitor *m, uint64_t deadline, struct run_error *e)
{
	int max_wait_ms = m->input.active ? KEY_POLL_MS : HOTPLUG_POLL_MS;
	int ret = monitor_wait_until(deadline, max_wait_ms, wait_cgroups, between_waits, m);

	if (ret)
		return run_fail(e, RUN_FAILED, "cannot wait for cgroup events: %s", strerror(-ret));
	return 0;
}

/*
 * One interval: wait for its end, collect, report.  0 to go on, 1 to stop
 * (done, a signal, q, or the reader gone), or -1 with e.
 */
static int run_interval(struct monitor *m, uint64_t deadline, uint64_t *last, struct run_error *e)
{
	uint64_t now, map_full, dropped;
	int ret;

	if (wait_interval(m, deadline, e))
		return -1;
	ret = collect(m);
	if (ret)
		return run_fail(e, RUN_FAILED, "cannot read the BPF maps: %s", strerror(-ret));
	group_health_check(&m->health, m->ms->events, m->ms->nevents, m->ms->ngroups, stderr);
	now = now_ns(CLOCK_MONOTONIC);
	dropped = dropped_since_last(m, &map_full);
	ret = report_interval(m->rep, &m->tree, (now - *last) / 1e9, dropped, map_full);
	*last = now;
	cgroup_tree_age_removed(&m->tree, 2, forget_cgroup, m);
	if (ret == -EPIPE)
		return 1; /* the reader went away: stop quietly */
	if (ret)
		return run_fail(e, RUN_FAILED, "cannot write the output: %s", out_stream_why(-ret));
	return monitor_stop ? 1 : 0;
}

/* The intervals, until --count, --duration, a signal or an error (in e). */
static void run_loop(struct monitor *m, struct run_error *e)
{
	const struct options *o = m->o;
	uint64_t start = now_ns(CLOCK_MONOTONIC), last = start, deadline = start;

	for (long n = 0; !o->count || n < o->count; n++) {
		int ret;

		deadline += o->interval_ns;
		if (o->duration_ns && deadline > start + o->duration_ns)
			deadline = start + o->duration_ns;
		ret = run_interval(m, deadline, &last, e);
		if (ret || (o->duration_ns && last - start >= o->duration_ns))
			break;
	}
}

/* By --format; options_resolve() leaves no FORMAT_AUTO (it would be REPORT_TABLE, 0). */
static const enum report_format report_format_of[] = {
	[FORMAT_TABLE] = REPORT_TABLE, [FORMAT_JSON] = REPORT_JSON, [FORMAT_TOP] = REPORT_TOP,
	[FORMAT_NONE] = REPORT_NONE,   [FORMAT_HTML] = REPORT_HTML,
};

/* The report, and --listen's server as its sink.  0 or -1 with e. */
static int open_report(struct monitor *m, struct run_error *e)
{
	const struct options *o = m->o;
	struct report_config rc = {
		.format = report_format_of[o->format],
		.top_auto = o->top_auto,
		.color = o->color,
		.top = o->top,
		.host = o->host,
		.facts = measure_facts(m->ms),
		.layout = m->ms->layout,
		.evaluate = measure_evaluate_cb,
		.evaluate_ctx = m->ms,
	};

	m->rep = report_new(&rc, stdout);
	if (!m->rep)
		return run_fail(e, RUN_FAILED, "out of memory");
	/* Before the BPF setup: a port in use fails at once. */
	if (o->listen) {
		m->prom = prom_open(o->listen, o->k8s, o->host, m->ms->facts.model,
				    m->ms->facts.tma_version, e->msg, sizeof(e->msg));
		if (!m->prom)
			return run_error_as(e, RUN_FAILED);
		prom_set_counts(m->prom, o->prom_counts);
		report_set_sink(m->rep, prom_sink(m->prom));
	}
	return 0;
}

/* --format html at the end of the run: to -o's file (opened at the start), else stdout. */
static int write_html(struct monitor *m, struct run_error *e)
{
	struct atomic_file *af = &m->html_out;
	struct utsname u;
	int ret = report_write_html(m->rep, uname(&u) ? NULL : u.release, af->f ? af->f : stdout);

	if (ret == -EPIPE && !af->f)
		return 0;
	if (ret)
		return run_fail(e, RUN_FAILED, "cannot write the report: %s", out_stream_why(-ret));
	if (af->f && atomic_file_commit(af, e->msg, sizeof(e->msg)))
		return run_error_as(e, RUN_FAILED);
	return 0;
}

/*
 * Everything before the first interval, in this order: what can be refused
 * without touching the kernel first (the output file, the model, the
 * cgroups, the privileges, the plan and the descriptors it needs), then the
 * report, the cgroup tree, the BPF side, the perf events and their
 * baselines.  0 or -1 with e; whatever was opened is closed by finish().
 */
static int start(struct monitor *m, struct run_error *e)
{
	const struct options *o = m->o;
	struct measure_config mc;
	int ret;

	options_measure_config(o, &mc);
	/* A report that could not be written is refused before anything is measured. */
	if (o->output && atomic_file_open(&m->html_out, o->output, e->msg, sizeof(e->msg)))
		return run_error_as(e, RUN_USAGE);
	/* A model or TMA version that does not exist is a usage error, as offline. */
	if (mc.model && !mc.model_file) {
		struct tma_model *named =
			model_load_version(mc.model, mc.tma_version, e->msg, sizeof(e->msg));

		if (!named)
			return run_error_as(e, RUN_USAGE);
		model_free(named);
	}
	if (resolve_cgroups(m, e))
		return -1;
	/* Then: without them nothing below can work, and the kernel's errors would not say why. */
	if (privileges_check(e->msg, sizeof(e->msg)))
		return run_error_as(e, RUN_FAILED);
	if (measure_open(&m->ms, &mc, e) || check_descriptors(m, e) || check_map_room(m, e) ||
	    open_report(m, e) || setup_cgroups(m, e) || open_collector(m, e) || open_counters(m, e))
		return -1;
	/* Baselines: every CPU's first reading and the accumulators as they are. */
	ret = collect(m);
	if (ret)
		return run_fail(e, RUN_FAILED, "cannot read the BPF maps: %s", strerror(-ret));
	report_reset(m->rep, &m->tree);
	return 0;
}

/*
 * What a blocked output did not take after a stop signal (util/out_stream.h):
 * said once, and the run failed, as anything else lost.
 */
static void output_dropped(struct run_error *e)
{
	const struct out_stream *out = out_stream_current();

	fflush(stdout); /* the last bytes buffered: written, or counted as dropped */
	if (!out || !out->gave_up || e->kind != RUN_OK)
		return;
	run_fail(e, RUN_FAILED,
		 "the output was blocked after the stop signal: the last %llu bytes of it "
		 "(the interval so far) were dropped (an output gets %d ms to take the next "
		 "byte, %d ms in all)",
		 (unsigned long long)out->dropped, out->stall_ms, out->total_ms);
}

/*
 * The one way out, whatever was opened (a zeroed part closes as nothing):
 * the totals under -v, the HTML report of a run that went well, then
 * everything closed, the BPF side first, and e said last.  The exit code.
 */
static int finish(struct monitor *m, struct run_error *e)
{
	top_input_close(&m->input);
	if (m->o->verbose && m->measuring)
		print_totals(m);
	if (m->o->format == FORMAT_HTML && e->kind == RUN_OK && m->rep)
		write_html(m, e);
	atomic_file_abort(&m->html_out); /* nothing left when written, else no half report */
	prom_close(m->prom);		 /* stops serving first: nothing reads the report after */
	collector_close(&m->col);	 /* detaches first: no program left loaded */
	cpu_events_close(&m->cpus);
	cgroup_tree_free(&m->tree);
	report_free(m->rep);
	k8s_monitor_free(m->k8s);
	measure_close(m->ms);
	free(m->pending);
	free(m->specs);
	output_dropped(e);
	if (e->kind != RUN_OK)
		fprintf(stderr, "tmacg: %s\n", e->msg[0] ? e->msg : "failed");
	return run_error_exit_code(e);
}

int monitor_run(const struct options *o)
{
	struct monitor m = { .o = o, .input = { .active = false } };
	struct run_error e = { .kind = RUN_OK };

	if (!start(&m, &e)) {
		m.measuring = true;
		stop_signals_nudge(); /* the BPF programs are loaded: a blocked write may come */
		/* Once, at start: not a line of the output. */
		if (m.v1_note[0])
			fprintf(stderr, "%s\n", m.v1_note);
		if (m.prom)
			prom_announce(m.prom);
		/* The live view's keys, when it is on a terminal someone types at. */
		if (report_has_live_view(m.rep) && isatty(STDOUT_FILENO))
			top_input_open(&m.input, STDIN_FILENO);
		if (o->verbose)
			fprintf(stderr, "tmacg: ready: cgroup2 at %s, %zu cgroups known\n",
				m.tree.mnt.dir, cgroup_tree_len(&m.tree));
		run_loop(&m, &e);
	}
	return finish(&m, &e);
}
