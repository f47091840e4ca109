// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Loads tmacg's BPF programs (through the collector, as tmacg does) or the
 * floor program, on NEVENTS software events per CPU in one group, runs a
 * command, and reports the sched_switch program's time meanwhile.  Run time
 * statistics are turned on with BPF_ENABLE_STATS, whose effect ends with
 * this process: kernel.bpf_stats_enabled is never touched, so nothing is
 * left on and another user's setting is not undone.  NEVENTS beyond the
 * four software kinds repeats them: a stand-in for a hardware model's event
 * count on a machine without a PMU.
 *
 *   bpftime tmacg|floor PLAN per-task|shared COMMAND...
 * prints one line: ns_per_run=N runs=N switches=N early_returns=N
 *
 * PLAN is NEVENTS (one group), or a real plan's shape (tmacg --list-events):
 *   SIZES[/on=G+G...]
 * SIZES the events of each group ("19,8,8"), cpu-clock leading each.  on=
 * enables only those groups, as kernel multiplexing leaves one set of groups
 * of a full PMU on at a time (levels 4-6: the pinned groups and one set; the
 * others' leaders are read, seen not running and their members skipped).
 * The floor ignores the groups: it reads every event, so give it the count a
 * switch reads.
 */
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pmu_drive.h"
#include "collect/collector.h"
#include "floor.skel.h"
#include "pmu/pmu.h"
#include "util/run_error.h"
#include "tmacg.skel.h"

struct plan {
	int nevents;
	int ngroups;
	int group[TMACG_MAX_EVENTS];
	bool leader[TMACG_MAX_EVENTS];
	uint64_t on; /* the groups enabled */
};

struct run {
	struct pmu_set pmu;
	struct collector col;
	struct floor_bpf *floor;
	int prog_fd;
};

/* "G+G+...": a set of groups below ngroups; false when it is not one. */
static bool parse_groups(const char *s, int ngroups, uint64_t *set)
{
	char *end;

	*set = 0;
	do {
		long g = strtol(s, &end, 10);

		if (end == s || g < 0 || g >= ngroups || g >= 64)
			return false;
		*set |= 1ull << g;
		s = end + (*end == '+');
	} while (*end == '+');
	return !*end;
}

/* NEVENTS or SIZES[/on=GROUPS]: false when it is neither. */
static bool parse_plan(const char *arg, struct plan *p)
{
	const char *s = arg, *opt;
	char *end;

	memset(p, 0, sizeof(*p));
	p->on = ~0ull;
	do {
		long n = strtol(s, &end, 10);

		if (end == s || n < 1 || n > TMACG_MAX_EVENTS - p->nevents ||
		    p->ngroups >= TMACG_MAX_GROUPS)
			return false;
		for (int i = 0; i < n; i++) {
			p->group[p->nevents + i] = p->ngroups;
			p->leader[p->nevents + i] = i == 0;
		}
		p->nevents += n;
		p->ngroups++;
		s = end + (*end == ',');
	} while (*end == ',');
	if (!*end)
		return true;
	opt = end + 1;
	if (*end != '/')
		return false;
	return !strncmp(opt, "on=", 3) && parse_groups(opt + 3, p->ngroups, &p->on);
}

static int make_events(struct pmu_event *ev, const struct plan *p)
{
	struct pmu_event kinds[4];
	int nk = pmu_software_events(kinds, 4);

	if (nk < 1)
		return -EINVAL;
	for (int e = 0, k = 0; e < p->nevents; e++, k++) {
		k = p->leader[e] ? 0 : k % nk; /* cpu-clock leads, as in --pmu software */
		ev[e] = kinds[k];
		ev[e].group = p->group[e];
	}
	return 0;
}

static int load_floor(struct run *r, int ncpus, int nevents, char *err, size_t len)
{
	int fd, ret;

	r->floor = floor_bpf__open();
	if (!r->floor) {
		snprintf(err, len, "cannot open the floor program");
		return -errno;
	}
	r->floor->rodata->nr_cpus = ncpus;
	r->floor->rodata->nr_events = nevents;
	bpf_map__set_max_entries(r->floor->maps.events, nevents * ncpus);
	ret = floor_bpf__load(r->floor);
	if (ret) {
		snprintf(err, len, "cannot load the floor program: %s", strerror(-ret));
		return ret;
	}
	fd = bpf_map__fd(r->floor->maps.events);
	for (int e = 0; e < nevents; e++)
		for (int cpu = 0; cpu < r->pmu.ncpus; cpu++) {
			__u32 key = e * ncpus + cpu;
			int efd = r->pmu.fds[e * r->pmu.ncpus + cpu];

			if (efd >= 0 && bpf_map_update_elem(fd, &key, &efd, BPF_ANY)) {
				snprintf(err, len, "cannot hand an event to the floor program");
				return -errno;
			}
		}
	ret = floor_bpf__attach(r->floor);
	if (ret)
		snprintf(err, len, "cannot attach the floor program: %s", strerror(-ret));
	r->prog_fd = bpf_program__fd(r->floor->progs.floor_switch);
	return ret;
}

static int load_tmacg(struct run *r, const struct plan *p, bool per_task, char *err, size_t len)
{
	struct collector_config cfg = {
		.nevents = p->nevents,
		.ngroups = p->ngroups,
		.event_group = p->group,
		.event_is_leader = p->leader,
		.per_task = per_task,
		.max_cgroups = 16384,
		.max_tasks = 16384,
	};
	struct run_error e;
	int ret = collector_open(&r->col, &cfg, &e);

	if (ret)
		snprintf(err, len, "%s", e.msg);
	if (!ret)
		ret = collector_set_events(&r->col, &r->pmu, err, len);
	if (!ret)
		ret = collector_attach(&r->col, err, len);
	if (!ret)
		r->prog_fd = bpf_program__fd(r->col.raw_tp ? r->col.skel->progs.tmacg_switch_raw :
							     r->col.skel->progs.tmacg_switch);
	return ret;
}

static int prog_stats(int fd, __u64 *ns, __u64 *cnt)
{
	struct bpf_prog_info info;
	__u32 len = sizeof(info);

	memset(&info, 0, sizeof(info));
	if (bpf_obj_get_info_by_fd(fd, &info, &len))
		return -errno;
	*ns = info.run_time_ns;
	*cnt = info.run_cnt;
	return 0;
}

/* Runs argv to its end; 0 when it exited 0. */
static int run_command(char **argv)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return -errno;
	if (pid == 0) {
		execvp(argv[0], argv);
		fprintf(stderr, "bpftime: cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	if (waitpid(pid, &status, 0) != pid)
		return -errno;
	return WIFEXITED(status) && !WEXITSTATUS(status) ? 0 : -ECHILD;
}

int main(int argc, char **argv)
{
	struct pmu_event ev[TMACG_MAX_EVENTS];
	struct plan plan;
	struct run r = { 0 };
	struct tmacg_stats st = { 0 };
	__u64 ns0, cnt0, ns1, cnt1;
	char err[RUN_ERROR_MSG_MAX] = "";
	int ncpus, ret, stats_fd;
	bool floor;

	if (argc < 5 || (strcmp(argv[1], "tmacg") && strcmp(argv[1], "floor")) ||
	    (strcmp(argv[3], "per-task") && strcmp(argv[3], "shared"))) {
		fprintf(stderr, "usage: bpftime tmacg|floor PLAN per-task|shared COMMAND...\n");
		return 2;
	}
	floor = !strcmp(argv[1], "floor");
	ncpus = libbpf_num_possible_cpus();
	if (!parse_plan(argv[2], &plan) || ncpus < 1) {
		fprintf(stderr,
			"bpftime: PLAN '%s' is not NEVENTS or SIZES[/on=G+G] "
			"(1-%d events in all, at most %d groups, groups numbered from 0)\n",
			argv[2], TMACG_MAX_EVENTS, TMACG_MAX_GROUPS);
		return 2;
	}
	stats_fd = bpf_enable_stats(BPF_STATS_RUN_TIME);
	if (stats_fd < 0) {
		fprintf(stderr, "bpftime: cannot turn on BPF run time statistics: %s (root?)\n",
			strerror(errno));
		return 1;
	}
	ret = make_events(ev, &plan);
	if (!ret)
		ret = pmu_open(&r.pmu, ev, plan.nevents, ncpus, err, sizeof(err));
	if (!ret)
		ret = floor ? load_floor(&r, ncpus, plan.nevents, err, sizeof(err)) :
			      load_tmacg(&r, &plan, !strcmp(argv[3], "per-task"), err, sizeof(err));
	if (!ret)
		ret = pmu_enable(&r.pmu);
	/* Groups off: their leaders disabled, as multiplexing leaves them. */
	if (!ret && ~plan.on)
		ret = pmu_switch_groups(&r.pmu, 0, ~plan.on);
	if (!ret)
		ret = prog_stats(r.prog_fd, &ns0, &cnt0);
	if (ret) {
		fprintf(stderr, "bpftime: %s\n", err[0] ? err : strerror(-ret));
		goto out;
	}
	if (!floor)
		collector_stats(&r.col, &st);
	ret = run_command(argv + 4);
	if (ret) {
		fprintf(stderr, "bpftime: %s failed\n", argv[4]);
		goto out;
	}
	ret = prog_stats(r.prog_fd, &ns1, &cnt1);
	if (!ret) {
		struct tmacg_stats end = { 0 };

		if (!floor)
			collector_stats(&r.col, &end);
		printf("ns_per_run=%.1f runs=%llu switches=%llu early_returns=%llu\n",
		       cnt1 > cnt0 ? (double)(ns1 - ns0) / (cnt1 - cnt0) : 0.0,
		       (unsigned long long)(cnt1 - cnt0),
		       (unsigned long long)(end.switches - st.switches),
		       (unsigned long long)(end.early_returns - st.early_returns));
	}
out:
	if (r.floor)
		floor_bpf__destroy(r.floor);
	if (r.col.skel)
		collector_close(&r.col);
	pmu_close(&r.pmu);
	close(stats_fd);
	return ret ? 1 : 0;
}
