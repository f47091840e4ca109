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
#include "collect/cpu_follow.h"
#include "pmu/group_health.h"
#include "k8s/k8s_monitor.h"
#include "measure.h"
#include "model/model.h"
#include "options.h"
#include "pmu/pmu.h"
#include "prom/prom.h"
#include "output/report.h"
#include "output/top_input.h"
#include "rotate.h"
#include "util/atomic_file.h"
#include "util/privileges.h"

volatile sig_atomic_t monitor_stop;

/* How often the live view looks for keys while it waits: quick to a person, nothing to a CPU. */
#define KEY_POLL_MS 100
/* How soon a CPU back online counts again (cpu_follow_due() between waits). */
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
	struct pmu_set pmu;
	char *pending; /* npending struct pending */
	size_t npending, cap_pending;
	struct report *rep;
	struct k8s_monitor *k8s; /* --k8s: chooses and names the reported cgroups */
	uint64_t unattributed;	 /* deltas of cgroups never named: counted as dropped */
	bool may_rescan;	 /* this interval has not scanned the hierarchy yet */
	struct tmacg_stats last_stats;
	uint64_t last_flush_errors, last_unattributed;
	bool warned_map_full, warned_lost, warned_read;
	struct group_health health; /* perf groups that never counted */
	struct prom *prom;	    /* --listen: the report's sink, serving /metrics */
	struct cgroup_mount mnt;    /* the cgroup2 mount measured */
	struct cgroup_spec *specs;  /* --cgroup, resolved in it */
	struct rotate rot;	    /* levels 4-6: the groups in turns */
	char v1_note[1024];	    /* a hybrid host's cgroup v1, said once at start; or "" */
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
		  (m->col.flush_errors - m->last_flush_errors) +
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
	m->last_flush_errors = m->col.flush_errors;
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
		(unsigned long long)m->col.flush_errors,
		(unsigned long long)(st.negative_deltas + m->col.negative_deltas),
		(unsigned long long)m->col.cpus_back, (unsigned long long)m->col.cpus_gone);
}

/*
 * A group refused at start, or later by a CPU coming back: named once, its
 * nodes null with the reason, the rest measured.
 */
static int leave_out_unopened(struct monitor *m)
{
	uint64_t named = group_health_unopened(&m->health, &m->pmu, stderr);

	return named ? measure_groups_unopened(m->ms, named, m->pmu.unopened_why) : 0;
}

/* CPU hotplug: the online CPUs' events reopened or closed (collect/cpu_follow.h). */
static void follow_cpus(struct monitor *m)
{
	uint64_t unopened = m->pmu.unopened;
	int reopened = cpu_follow(&m->col, &m->pmu, PMU_ONLINE_PATH);

	/*
	 * A group refused by a CPU back (closed everywhere): left out as one
	 * refused at start, not tried again at every interval.  The slices are
	 * made again without it, which holds them too.
	 */
	if (m->pmu.unopened != unopened) {
		if (leave_out_unopened(m))
			fprintf(stderr, "tmacg: out of memory naming a refused group's nodes\n");
		rotate_refresh(&m->rot);
	} else if (reopened > 0) {
		/* A CPU back gets every group enabled: rotating, only the slice's stay on. */
		rotate_hold(&m->rot);
	}
}

/* One interval's collection; the report happens after. */
static int collect(struct monitor *m)
{
	int err;

	m->may_rescan = true;
	follow_cpus(m);
	collector_flush(&m->col);
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
 * wrong argument is a usage error (exit 2), said at once.  0, -EINVAL (a bad
 * --cgroup or --cgroup-root), -ENOENT (no cgroup2 here) or -ENOMEM.
 */
static int resolve_cgroups(struct monitor *m, char *err, size_t errlen)
{
	int ret = cgroup_find_mount("/proc/self/mountinfo", m->o->cgroup_root, &m->mnt);
	struct cgroup_v1 v1;

	if (cgroup_v1_scan("/proc/self/mountinfo", &v1))
		v1.hierarchies = 0; /* cannot tell: say nothing of v1 */

	if (ret) {
		if (m->o->cgroup_root) {
			snprintf(err, errlen,
				 "--cgroup-root %s: not a cgroup2 mount point "
				 "(see /proc/self/mountinfo)",
				 m->o->cgroup_root);
			return -EINVAL;
		}
		cgroup_v1_no_v2_message(&v1, err, errlen);
		return -ENOENT;
	}
	/* Said once setup succeeded: an error before it comes first, alone. */
	cgroup_v1_hybrid_note(&v1, m->mnt.dir, m->v1_note, sizeof(m->v1_note));
	if (m->o->ncgroups) {
		m->specs = calloc(m->o->ncgroups, sizeof(*m->specs));
		if (!m->specs)
			return -ENOMEM;
	}
	for (int i = 0; i < m->o->ncgroups; i++) {
		struct cgroup_spec *spec = &m->specs[i];

		if (cgroup_resolve(&m->mnt, m->o->cgroups[i], spec->path, sizeof(spec->path))) {
			snprintf(err, errlen,
				 "cgroup '%s' not found: cgroup v2 is mounted at %s "
				 "here; give a directory below it or a path inside it",
				 m->o->cgroups[i], m->mnt.dir);
			return -EINVAL;
		}
		spec->depth = m->o->depth;
	}
	return 0;
}

/* The cgroup tree: the hierarchy as it is, and under --k8s the naming of pods. */
static int setup_cgroups(struct monitor *m, char *err, size_t errlen)
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

		m->k8s = k8s_monitor_new(&kc, err, errlen);
		if (!m->k8s)
			return -EINVAL;
		k8s_monitor_install(m->k8s, &m->tree);
		report_set_identify(m->rep, k8s_monitor_identify, m->k8s);
	}
	if (!ret)
		ret = cgroup_tree_scan(&m->tree);
	if (ret)
		snprintf(err, errlen, "cannot read the cgroup hierarchy at %s: %s", m->mnt.dir,
			 strerror(-ret));
	return ret;
}

/* The BPF side, loaded for the measure's events in the plan's groups. */
static int open_collector(struct monitor *m, char *err, size_t errlen)
{
	struct collector_config cfg = { 0 };
	int event_group[TMACG_MAX_EVENTS];
	bool event_is_leader[TMACG_MAX_EVENTS];
	int ret;

	for (int e = 0; e < m->ms->nevents; e++) {
		event_group[e] = m->ms->events[e].group;
		event_is_leader[e] = measure_event_is_leader(m->ms, e);
	}
	cfg.nevents = m->ms->nevents;
	cfg.ngroups = m->ms->ngroups;
	cfg.event_group = event_group;
	cfg.event_is_leader = event_is_leader;
	cfg.per_task = m->o->per_task;
	cfg.rotate = m->ms->nslices > 1;
	cfg.max_cgroups = m->o->max_cgroups;
	cfg.max_tasks = m->o->max_tasks;
	cfg.verbose = m->o->verbose;
	cfg.btf = m->o->btf;
	cfg.on_cgroup = on_cgroup_event;
	cfg.ctx = m;
	ret = collector_open(&m->col, &cfg, err, errlen);
	if (!ret && m->o->verbose)
		fprintf(stderr,
			"tmacg: BPF programs loaded (%s), %d CPUs, %d events in %d groups\n",
			m->col.raw_tp ? "raw_tp" : "tp_btf", m->col.ncpus, m->ms->nevents,
			m->ms->ngroups);
	return ret;
}

/* The perf events on every CPU, handed to the BPF side, then the programs attached. */
static int open_counters(struct monitor *m, char *err, size_t errlen)
{
	int ret = pmu_open(&m->pmu, m->ms->events, m->ms->nevents, m->col.ncpus, err, errlen);

	if (!ret)
		ret = collector_set_events(&m->col, &m->pmu, err, errlen);
	if (!ret)
		ret = collector_attach(&m->col, err, errlen);
	if (ret)
		return ret;
	m->health.pmu = &m->pmu; /* "never counted" asks the kernel's times too */
	/* A group the kernel refused: named once, its nodes null, the rest measured. */
	ret = leave_out_unopened(m);
	if (ret)
		return ret;
	/* Levels 4-6: the first slice's groups only, the others in their turns. */
	ret = rotate_start(&m->rot, &m->col, &m->pmu, m->ms->nslices, m->ms->slice_groups);
	if (ret)
		snprintf(err, errlen, "cannot enable the perf events: %s", strerror(-ret));
	return ret;
}

static int setup(struct monitor *m, char *err, size_t errlen)
{
	int ret = setup_cgroups(m, err, errlen);

	if (!ret)
		ret = open_collector(m, err, errlen);
	if (!ret)
		ret = open_counters(m, err, errlen);
	if (ret)
		return ret;
	/* Baselines: every CPU's first reading and the accumulators as they are. */
	ret = collect(m);
	report_reset(m->rep, &m->tree);
	return ret;
}

static void teardown(struct monitor *m)
{
	prom_close(m->prom);	  /* stops serving first: nothing reads the report after */
	collector_close(&m->col); /* detaches first: no program left loaded */
	pmu_close(&m->pmu);
	cgroup_tree_free(&m->tree);
	report_free(m->rep);
	k8s_monitor_free(m->k8s);
	free(m->pending);
	free(m->specs);
}

/* Keys typed since the last look; q stops at the end of this wait.  0 or -EPIPE/-EIO. */
static int take_keys(struct monitor *m, struct top_input *keys)
{
	int key, err = 0; /* top_input_key: -1 at once when the input is not a terminal */
	bool quit = false;

	while (!err && !quit && (key = top_input_key(keys)) >= 0)
		err = report_key(m->rep, key, &quit);
	if (quit)
		monitor_stop = 1; /* as SIGINT: the interval so far shows, then exit 0 */
	return err;
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

/* The live loop's wait: cgroup events, the live view's keys and CPU hotplug. */
struct loop_wait {
	struct monitor *m;
	struct top_input *input; /* the live view's keys */
};

static int wait_cgroups(void *ctx, int ms);
static void between_waits(void *ctx);

/*
 * Waits for deadline; rotating, steps through the interval's slices on the
 * way (slice k from start + k/nslices of the interval), so every interval
 * sees each slice once.
 */
static int wait_interval(struct loop_wait *lw, uint64_t start, uint64_t deadline, int max_wait_ms)
{
	struct monitor *m = lw->m;
	int ret = 0;

	for (int k = 1; k < m->rot.nslices && !ret && !monitor_stop; k++) {
		uint64_t at = rotate_slice_start(start, m->o->interval_ns, k, m->rot.nslices);

		if (at >= deadline)
			break;
		ret = monitor_wait_until(at, max_wait_ms, wait_cgroups, between_waits, lw);
		if (!ret && !monitor_stop)
			ret = rotate_to(&m->rot, k);
	}
	if (!ret)
		ret = monitor_wait_until(deadline, max_wait_ms, wait_cgroups, between_waits, lw);
	return ret;
}

static int wait_cgroups(void *ctx, int ms)
{
	struct loop_wait *w = ctx;

	return collector_wait_cgroups(&w->m->col, ms);
}

/* Between waits: the live view's keys, and a CPU that went or came back. */
static void between_waits(void *ctx)
{
	struct loop_wait *w = ctx;

	if (take_keys(w->m, w->input) == -EPIPE)
		monitor_stop = 1;
	if (cpu_follow_due(&w->m->col, PMU_ONLINE_PATH))
		follow_cpus(w->m);
}

static enum report_format report_format_of(const struct options *o)
{
	switch (o->format) {
	case FORMAT_JSON:
		return REPORT_JSON;
	case FORMAT_TOP:
		return REPORT_TOP;
	case FORMAT_NONE:
		return REPORT_NONE;
	case FORMAT_HTML:
		return REPORT_HTML;
	default: /* options_resolve() leaves no FORMAT_AUTO */
		return REPORT_TABLE;
	}
}

/* The report, and --listen's server as its sink.  0, or -errno with err. */
static int open_report(struct monitor *m, char *err, size_t errlen)
{
	const struct options *o = m->o;
	struct report_config rc = {
		.format = report_format_of(o),
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
		return -ENOMEM;
	/* Before the BPF setup: a port in use fails at once. */
	if (o->listen) {
		m->prom = prom_open(o->listen, o->k8s, o->host, m->ms->facts.model,
				    m->ms->facts.tma_version, err, errlen);
		if (!m->prom)
			return -EINVAL;
		report_set_sink(m->rep, prom_sink(m->prom));
	}
	return 0;
}

/* --format html at the end of the run: to -o's file (opened at the start), else stdout. */
static int write_html(struct monitor *m, struct atomic_file *af)
{
	struct utsname u;
	char err[1024];
	int ret = report_write_html(m->rep, uname(&u) ? NULL : u.release, af->f ? af->f : stdout);

	if (ret == -EPIPE && !af->f)
		return 0;
	if (ret) {
		fprintf(stderr, "tmacg: cannot write the report: %s\n", strerror(-ret));
		atomic_file_abort(af);
		return 1;
	}
	if (af->f && atomic_file_commit(af, err, sizeof(err))) {
		fprintf(stderr, "tmacg: %s\n", err);
		return 1;
	}
	return 0;
}

int monitor_run(const struct options *o)
{
	struct atomic_file html_out = { 0 };
	struct monitor m = { .o = o };
	struct measure_config mc;
	struct top_input keys = { .active = false };
	struct loop_wait lw = { &m, &keys };
	uint64_t start, deadline, last;
	char err[8192] = "";
	int ret, code = 0;

	options_measure_config(o, &mc);
	/* A report that could not be written is refused before anything is measured. */
	if (o->output && atomic_file_open(&html_out, o->output, err, sizeof(err))) {
		fprintf(stderr, "tmacg: %s\n", err);
		return 2;
	}
	/* A model or TMA version that does not exist is a usage error, as offline (exit 2). */
	if (mc.model && !mc.model_file) {
		struct tma_model *named =
			model_load_version(mc.model, mc.tma_version, err, sizeof(err));

		if (!named) {
			fprintf(stderr, "tmacg: %s\n", err);
			atomic_file_abort(&html_out);
			return 2;
		}
		model_free(named);
	}
	ret = resolve_cgroups(&m, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "tmacg: %s\n", err[0] ? err : strerror(-ret));
		free(m.specs);
		atomic_file_abort(&html_out);
		return ret == -EINVAL ? 2 : 1;
	}
	/* Then: without them nothing below can work, and the kernel's errors would not say why. */
	ret = privileges_check(err, sizeof(err));
	if (!ret)
		ret = measure_open(&m.ms, &mc, err, sizeof(err));
	if (ret) {
		free(m.specs);
		fprintf(stderr, "tmacg: %s\n", err);
		atomic_file_abort(&html_out);
		/* A --level the model lacks, an event no counter can take: usage errors. */
		return ret == -EDOM || ret == -ENOSPC ? 2 : 1;
	}
	ret = open_report(&m, err, sizeof(err));
	if (!ret)
		ret = setup(&m, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "tmacg: %s\n", err[0] ? err : strerror(-ret));
		teardown(&m);
		measure_close(m.ms);
		atomic_file_abort(&html_out);
		return ret == COLLECTOR_KERNEL_UNSUPPORTED ? 2 : 1;
	}
	if (m.v1_note[0])
		fprintf(stderr, "%s\n", m.v1_note); /* once, at start: not a line of the output */
	if (m.prom)
		prom_announce(m.prom);
	/* The live view's keys, when it is on a terminal someone types at. */
	if (report_has_live_view(m.rep) && isatty(STDOUT_FILENO))
		top_input_open(&keys, STDIN_FILENO);
	if (o->verbose)
		fprintf(stderr, "tmacg: ready: cgroup2 at %s, %zu cgroups known\n", m.tree.mnt.dir,
			cgroup_tree_len(&m.tree));
	start = last = now_ns(CLOCK_MONOTONIC);
	deadline = start;
	for (long n = 0; !o->count || n < o->count; n++) {
		uint64_t now, map_full, dropped, begun = deadline;

		deadline += o->interval_ns;
		if (o->duration_ns && deadline > start + o->duration_ns)
			deadline = start + o->duration_ns;
		/* Wait for the interval's end, naming new cgroups and taking keys as they come. */
		ret = wait_interval(&lw, begun, deadline,
				    keys.active ? KEY_POLL_MS : HOTPLUG_POLL_MS);
		if (ret) {
			fprintf(stderr, "tmacg: cannot wait for cgroup events: %s\n",
				strerror(-ret));
			code = 1;
			break;
		}
		ret = collect(&m);
		/* The next interval starts with the first slice. */
		if (!ret && m.rot.nslices > 1)
			ret = rotate_to(&m.rot, 0);
		if (ret) {
			fprintf(stderr, "tmacg: cannot read the BPF maps: %s\n", strerror(-ret));
			code = 1;
			break;
		}
		group_health_check(&m.health, m.ms->events, m.ms->nevents, m.ms->ngroups, stderr);
		now = now_ns(CLOCK_MONOTONIC);
		dropped = dropped_since_last(&m, &map_full);
		ret = report_interval(m.rep, &m.tree, (now - last) / 1e9, dropped, map_full);
		last = now;
		cgroup_tree_age_removed(&m.tree, 2, forget_cgroup, &m);
		if (ret == -EPIPE)
			break; /* the reader went away: stop quietly */
		if (ret) {
			fprintf(stderr, "tmacg: cannot write the output: %s\n", strerror(-ret));
			code = 1;
			break;
		}
		if (monitor_stop || (o->duration_ns && now - start >= o->duration_ns))
			break;
	}
	top_input_close(&keys);
	if (o->verbose)
		print_totals(&m);
	if (o->format == FORMAT_HTML && !code)
		code = write_html(&m, &html_out);
	atomic_file_abort(&html_out); /* nothing left when written, else no half report */
	teardown(&m);
	measure_close(m.ms);
	return code;
}
