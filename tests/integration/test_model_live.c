// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The live TMA path on any machine: a model of software events
 * (tests/models/software_test.tma) planned into perf groups, counted per cgroup
 * in BPF, scaled, evaluated and printed.  Its numbers must agree with the
 * kernel's cpu.stat, an idle cgroup's counts must be 0 and its nodes what
 * the formulas give on zeros, flags and the
 * bottleneck must follow the model's thresholds, and replaying the live
 * lines' counts must give the very same metrics (one code path after
 * collection).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "itest.h"
#include "test_models.h"

static char model_path[1024];

static int setup(void **state)
{
	if (test_model_find(model_path, sizeof(model_path), "software_test.tma"))
		return -1;
	return itest_group_setup(state);
}

/* The node tree and thresholds of tests/models/software_test.tma, in model order. */
static const struct {
	const char *name;
	int parent;  /* index here, -1 at level 1 */
	double over; /* threshold: value > over (and parent flagged) */
} tree[] = {
	{ "CPU_Share", -1, 0.5 },      { "Switching", 0, 0.05 },      { "Faulting", 0, 0.05 },
	{ "Minor_Faulting", 2, 0.05 }, { "Major_Faulting", 2, 0.05 }, { "Computing", 0, 0.3 },
	{ "Migrating", 5, 0.05 },      { "Off_CPU", -1, 0.5 },
};
#define NTREE ((int)(sizeof(tree) / sizeof(tree[0])))

/* The value of "KEY VALUE" in the model file's header ("model", "tma_version"). */
static void model_header(const char *key, char *out, size_t len)
{
	FILE *f = fopen(model_path, "r");
	char line[512], k[64], v[256];

	assert_non_null(f);
	out[0] = '\0';
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%63s %255s", k, v) == 2 && !strcmp(k, key)) {
			snprintf(out, len, "%.*s", (int)len - 1, v);
			break;
		}
	fclose(f);
	assert_true(out[0]);
}

/* Every distinct "SW.NAME" the model file reads. */
static int model_sw_events(char names[][64], int max)
{
	FILE *f = fopen(model_path, "r");
	char line[1024];
	int n = 0;

	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		char *hash = strchr(line, '#');

		if (hash)
			*hash = '\0';
		for (char *p = strstr(line, "SW."); p; p = strstr(p + 3, "SW.")) {
			char name[64];
			int len = (int)strspn(p + 3, "ABCDEFGHIJKLMNOPQRSTUVWXYZ_") + 3;
			bool seen = false;

			snprintf(name, sizeof(name), "%.*s", len, p);
			for (int i = 0; i < n; i++)
				seen |= !strcmp(names[i], name);
			if (!seen && n < max)
				snprintf(names[n++], 64, "%s", name);
		}
	}
	fclose(f);
	return n;
}

static json_object *member(json_object *o, const char *key)
{
	json_object *v = NULL;

	return json_object_object_get_ex(o, key, &v) ? v : NULL;
}

static double num_or_nan(json_object *v)
{
	if (!v ||
	    !(json_object_is_type(v, json_type_double) || json_object_is_type(v, json_type_int)))
		return NAN;
	return json_object_get_double(v);
}

static bool is_cgroup(json_object *line, const char *cg)
{
	const char *name = itest_str(line, "cgroup");

	return name && !strcmp(name, cg);
}

/* Whether the cgroup ran (a group ran for it) and every SW.* count was measured (not null). */
static bool measured(json_object *line)
{
	bool any = false;

	if (isnan(itest_num(line, "quality.running_min")))
		return false;

	json_object_object_foreach(member(line, "counts"), key, val) {
		if (strncmp(key, "SW.", 3))
			continue;
		if (isnan(num_or_nan(val)))
			return false;
		any = true;
	}
	return any;
}

/*
 * The flags and bottleneck the thresholds give, worked out here from the
 * line's own metrics: "> t and parent over threshold", null never flagged,
 * the bottleneck the largest flagged child from level 1 down.
 */
static void check_thresholds(json_object *line)
{
	json_object *metrics = member(line, "metrics"), *flagged = member(line, "flagged");
	json_object *bn = member(line, "bottleneck");
	bool flag[NTREE];
	char want_bn[512] = "";
	size_t nflag = 0, used = 0;
	int at = -1;

	for (int i = 0; i < NTREE; i++) {
		double v = num_or_nan(member(metrics, tree[i].name));

		assert_true(json_object_object_get_ex(metrics, tree[i].name, NULL));
		flag[i] = !isnan(v) && v > tree[i].over &&
			  (tree[i].parent < 0 || flag[tree[i].parent]);
		if (flag[i]) {
			json_object *got = json_object_array_get_idx(flagged, nflag++);

			if (!got || strcmp(json_object_get_string(got), tree[i].name))
				fail_msg("%s: flagged %s, want %s at %zu",
					 itest_str(line, "cgroup"),
					 json_object_to_json_string(flagged), tree[i].name,
					 nflag - 1);
		}
	}
	assert_int_equal(json_object_array_length(flagged), nflag);
	for (;;) {
		int best = -1;
		double best_v = 0;

		for (int i = 0; i < NTREE; i++) {
			double v = num_or_nan(member(metrics, tree[i].name));

			if (tree[i].parent == at && flag[i] && (best < 0 || v > best_v)) {
				best = i;
				best_v = v;
			}
		}
		if (best < 0)
			break;
		used += snprintf(want_bn + used, sizeof(want_bn) - used, "%s%s", used ? "." : "",
				 tree[best].name);
		at = best;
	}
	if (!want_bn[0])
		assert_true(json_object_is_type(bn, json_type_null));
	else if (!bn || strcmp(json_object_get_string(bn), want_bn))
		fail_msg("%s: bottleneck %s, want %s", itest_str(line, "cgroup"),
			 bn ? json_object_get_string(bn) : "null", want_bn);
}

/* argv run with stdin from in_path; its stdout (caller frees) and exit status. */
static int run_capture(char *const argv[], const char *in_path, char **out)
{
	int pipefd[2], status;
	size_t len = 0, cap = 4096;
	pid_t pid;
	ssize_t n;

	*out = malloc(cap);
	assert_non_null(*out);
	assert_int_equal(pipe2(pipefd, O_CLOEXEC), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int in = in_path ? open(in_path, O_RDONLY) : open("/dev/null", O_RDONLY);

		dup2(in, 0);
		dup2(pipefd[1], 1);
		execv(argv[0], argv);
		_exit(127);
	}
	close(pipefd[1]);
	while ((n = read(pipefd[0], *out + len, cap - len - 1)) > 0 || (n < 0 && errno == EINTR)) {
		if (n < 0)
			continue;
		len += (size_t)n;
		if (cap - len < 2) {
			cap *= 2;
			*out = realloc(*out, cap);
			assert_non_null(*out);
		}
	}
	(*out)[len] = '\0';
	close(pipefd[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* Each measured live line -> a replay input line with its counts as counters. */
static int write_replay_input(json_object **lines, size_t n, const char *path, size_t *which)
{
	FILE *f = fopen(path, "w");
	int count = 0;

	assert_non_null(f);
	for (size_t i = 0; i < n; i++) {
		json_object *in, *counters;

		if (!measured(lines[i]))
			continue;
		in = json_object_new_object();
		counters = json_object_new_object();
		json_object_object_add(in, "cgroup", json_object_get(member(lines[i], "cgroup")));
		json_object_object_add(in, "interval_s",
				       json_object_get(member(lines[i], "interval_s")));
		json_object_object_foreach(member(lines[i], "counts"), key, val)
			if (!strncmp(key, "SW.", 3))
				json_object_object_add(counters, key, json_object_get(val));
		json_object_object_add(in, "counters", counters);
		fprintf(f, "%s\n", json_object_to_json_string_ext(in, JSON_C_TO_STRING_PLAIN));
		json_object_put(in);
		which[count++] = i;
	}
	fclose(f);
	return count;
}

static void assert_same(json_object *live, json_object *replayed, const char *key)
{
	json_object *a = member(live, key), *b = member(replayed, key);

	if (!json_object_equal(a, b))
		fail_msg("%s %s: live %s, replay %s", itest_str(live, "cgroup"), key,
			 json_object_to_json_string(a), json_object_to_json_string(b));
}

/* Replays the measured lines' counts: metrics, flagged and bottleneck as live. */
static void check_replay(json_object **lines, size_t n)
{
	char in_path[] = "/tmp/tmacg-replay-XXXXXX", *out;
	char *argv[] = { getenv("TMACG"), "--replay", "-", "--model-file", model_path, "--info",
			 "--format",	  "json",     NULL };
	size_t *which = calloc(n + 1, sizeof(*which)), nrep;
	json_object **rep;
	int count;

	assert_non_null(which);
	close(mkstemp(in_path));
	count = write_replay_input(lines, n, in_path, which);
	assert_true(count >= 4);
	assert_int_equal(run_capture(argv, in_path, &out), 0);
	unlink(in_path);
	rep = itest_json_lines(out, &nrep);
	assert_non_null(rep);
	assert_int_equal(nrep, count);
	for (int k = 0; k < count; k++) {
		json_object *live = lines[which[k]];

		assert_string_equal(itest_str(rep[k], "cgroup"), itest_str(live, "cgroup"));
		assert_string_equal(itest_str(rep[k], "model"), itest_str(live, "model"));
		assert_same(live, rep[k], "metrics");
		assert_same(live, rep[k], "flagged");
		assert_same(live, rep[k], "bottleneck");
	}
	printf("  replay: %d live lines, the same metrics, flags and bottleneck\n", count);
	itest_json_free(rep, nrep);
	free(out);
	free(which);
}

/*
 * tmacg's own output is replay input (docs/architecture.md): the recorded
 * lines, replayed with the same model and options, come back byte for byte
 * (time, host, ids, counts, quality, metrics); at --level 1 without --info,
 * each line keeps its level-1 nodes with the same values and drops the rest.
 */
#define NLEVEL1 2 /* software_test.tma's level 1: node 1 CPU_Share, node 2 Off_CPU */

static void check_own_lines_replay(const char *recorded, json_object **lines, size_t n)
{
	char in_path[] = "/tmp/tmacg-replay-XXXXXX", *out;
	char *same[] = { getenv("TMACG"), "--replay", "-", "--model-file", model_path, "--info",
			 "--format",	  "json",     NULL };
	char *level1[] = { getenv("TMACG"), "--replay", "-",	    "--model-file", model_path,
			   "--level",	    "1",	"--format", "json",	    NULL };
	int fd = mkstemp(in_path);
	json_object **rep;
	size_t nrep;

	assert_true(fd >= 0);
	assert_int_equal(write(fd, recorded, strlen(recorded)), (ssize_t)strlen(recorded));
	close(fd);
	assert_int_equal(run_capture(same, in_path, &out), 0);
	if (strcmp(out, recorded))
		fail_msg("replayed lines differ from the recorded ones:\n%s\nvs\n%s", out,
			 recorded);
	free(out);
	assert_int_equal(run_capture(level1, in_path, &out), 0);
	unlink(in_path);
	rep = itest_json_lines(out, &nrep);
	assert_non_null(rep);
	assert_int_equal(nrep, n);
	for (size_t i = 0; i < n; i++) {
		json_object *live = member(lines[i], "metrics"), *got = member(rep[i], "metrics");
		int kept = 0;

		json_object_object_foreach(got, node, value) {
			if (!json_object_equal(value, member(live, node)))
				fail_msg("line %zu: %s replayed at level 1 is %s, live %s", i, node,
					 json_object_to_json_string(value),
					 json_object_to_json_string(member(live, node)));
			kept++;
		}
		assert_int_equal(kept, NLEVEL1);
	}
	printf("  replay of tmacg's own lines: %zu lines byte for byte, and at --level 1\n", n);
	itest_json_free(rep, nrep);
	free(out);
}

/*
 * Sum of cpu-clock seconds in the lines of one cgroup, and of on_cpu_s in
 * *on_cpu; checks each line on the way.
 */
static double cpu_clock_s(json_object **lines, size_t n, const char *cg, int *nmeasured,
			  double *on_cpu)
{
	double sum = 0;

	*nmeasured = 0;
	*on_cpu = 0;
	for (size_t i = 0; i < n; i++) {
		json_object *m;
		double share, clock, interval;

		if (!is_cgroup(lines[i], cg) || !measured(lines[i]))
			continue;
		m = member(lines[i], "metrics");
		share = num_or_nan(member(m, "CPU_Share"));
		clock = num_or_nan(member(member(lines[i], "counts"), "SW.CPU_CLOCK"));
		interval = itest_num(lines[i], "interval_s");
		/* The formula, on the counts the line shows, to the 9 digits a ratio is written with. */
		assert_true(fabs(share - clock / (interval * 1e9)) <=
			    5e-9 * fabs(clock / (interval * 1e9)) + 1e-15);
		/* One always-running software group: nothing scaled. */
		assert_true(itest_num(lines[i], "quality.running_min") == 1.0);
		sum += clock / 1e9;
		*on_cpu += itest_num(lines[i], "counts.on_cpu_s");
		(*nmeasured)++;
	}
	return sum;
}

/*
 * on_cpu_s is the scheduler's runtime, as cpu.stat counts it: 2 % or 20 ms.
 * cpu-clock counts wall time while a task is current: steal and IRQ time,
 * which cpu.stat leaves out, make it exceed cpu.stat by however much the
 * hypervisor took (18 % seen under load), but it never falls much short.
 */
static void assert_cpu_times(double clock, double on_cpu, double want, const char *what)
{
	if (!(fabs(on_cpu - want) <= fmax(0.02 * want, 0.02)))
		fail_msg("%s: on_cpu_s %.4f s, cpu.stat %.4f s", what, on_cpu, want);
	if (!(clock >= want * 0.97 - 0.02))
		fail_msg("%s: cpu-clock %.4f s below cpu.stat %.4f s", what, clock, want);
	printf("  %s: on_cpu_s %.4f s, cpu-clock %.4f s, cpu.stat %.4f s\n", what, on_cpu, clock,
	       want);
}

/*
 * The idle cgroup's lines: nothing ran, so every count is a measured 0 and
 * no group ran (running_min null); the nodes are what the formulas give on
 * zeros: a ratio of zeros is null, nothing on a CPU is 100 % Off_CPU.
 */
static void check_idle(json_object **lines, size_t n, const char *cg)
{
	static const struct {
		const char *name;
		double want; /* NAN: null */
	} idle[] = {
		{ "CPU_Share", 0 },	   { "Switching", NAN },      { "Faulting", NAN },
		{ "Minor_Faulting", NAN }, { "Major_Faulting", NAN }, { "Computing", 0 },
		{ "Migrating", NAN },	   { "Off_CPU", 1 },	      { "Switches_Per_s", 0 },
	};
	int seen = 0;

	for (size_t i = 0; i < n; i++) {
		json_object *metrics;

		if (!is_cgroup(lines[i], cg))
			continue;
		seen++;
		metrics = member(lines[i], "metrics");
		assert_int_equal(json_object_object_length(metrics), NTREE + 1); /* + Info */
		for (size_t k = 0; k < sizeof(idle) / sizeof(idle[0]); k++) {
			double v = num_or_nan(member(metrics, idle[k].name));

			if (isnan(idle[k].want) ? !isnan(v) : v != idle[k].want)
				fail_msg("idle %s: %s is %g, want %g", cg, idle[k].name, v,
					 idle[k].want);
		}
		json_object_object_foreach(member(lines[i], "counts"), ckey, cval) {
			if (num_or_nan(cval) != 0)
				fail_msg("idle %s: count %s is %s, not 0", cg, ckey,
					 json_object_to_json_string(cval));
		}
		assert_true(isnan(itest_num(lines[i], "quality.running_min")));
		assert_string_equal(itest_str(lines[i], "bottleneck"), "Off_CPU");
	}
	assert_true(seen >= 2);
}

/* The bottleneck of the measured line with the largest CPU_Share. */
static const char *busiest_bottleneck(json_object **lines, size_t n, const char *cg)
{
	const char *bn = NULL;
	double best = -1;

	for (size_t i = 0; i < n; i++) {
		double v;

		if (!is_cgroup(lines[i], cg) || !measured(lines[i]))
			continue;
		v = num_or_nan(member(member(lines[i], "metrics"), "CPU_Share"));
		if (v > best) {
			best = v;
			bn = itest_str(lines[i], "bottleneck");
		}
	}
	return bn ? bn : "null";
}

static void live_model_matches_kernel_and_replay(void **state)
{
	static const char *const duty[] = { "0.9", "0.15" };
	char parent[128], mnt_parent[300], child[3][160], cg[3][200];
	char model_id[64], version[64];
	uint64_t before[2], after[2];
	struct itest_tmacg t;
	json_object **lines;
	pid_t burners[2];
	size_t n;

	(void)state;
	ITEST_NEED_ROOT();
	model_header("model", model_id, sizeof(model_id));
	model_header("tma_version", version, sizeof(version));
	assert_int_equal(
		itest_make_parent("model", parent, sizeof(parent), mnt_parent, sizeof(mnt_parent)),
		0);
	for (int i = 0; i < 3; i++) {
		snprintf(child[i], sizeof(child[i]), "%s/c%d", parent, i);
		snprintf(cg[i], sizeof(cg[i]), "/%s", child[i]);
		assert_int_equal(itest_mkcg(child[i]), 0);
	}
	{
		const char *args[] = { "--model-file", model_path, "--info", "--cgroup",
				       mnt_parent,     "--depth",  "1",	     "--interval",
				       "400ms",	       "--format", "json",   NULL };

		assert_int_equal(itest_tmacg_start(&t, args), 0);
		itest_tmacg_drain(&t);
	}
	for (int i = 0; i < 2; i++)
		before[i] = itest_usage_usec(child[i]);
	for (int i = 0; i < 2; i++)
		burners[i] = itest_burn_in(child[i], "3", duty[i], NULL);
	for (int i = 0; i < 2; i++)
		assert_int_equal(itest_wait(burners[i]), 0);
	for (int i = 0; i < 2; i++)
		after[i] = itest_usage_usec(child[i]);
	usleep(500000); /* an interval with nothing running: the burners' cgroups go null */
	lines = itest_stop_json(&t, SIGTERM, &n);
	assert_true(n >= 8);
	for (size_t i = 0; i < n; i++) {
		assert_string_equal(itest_str(lines[i], "model"), model_id);
		assert_string_equal(itest_str(lines[i], "tma_version"), version);
		check_thresholds(lines[i]);
	}
	for (int i = 0; i < 2; i++) {
		int nm;
		double on_cpu;
		double got = cpu_clock_s(lines, n, cg[i], &nm, &on_cpu);
		double want = (after[i] - before[i]) / 1e6;

		assert_true(nm >= 3);
		assert_cpu_times(got, on_cpu, want, cg[i]);
		printf("  %s: busiest interval's bottleneck %s\n", cg[i],
		       busiest_bottleneck(lines, n, cg[i]));
		/* A CPU mostly used or mostly not: the level-1 node that says so leads. */
		if (want / 3 > 0.6)
			assert_string_equal(busiest_bottleneck(lines, n, cg[i]),
					    "CPU_Share.Computing");
		if (want / 3 < 0.3)
			assert_string_equal(busiest_bottleneck(lines, n, cg[i]), "Off_CPU");
	}
	check_idle(lines, n, cg[2]);
	check_replay(lines, n);
	check_own_lines_replay(t.out, lines, n);
	itest_finish(&t, lines, n, parent);
}

/* --list-events shows the software group and every event the model reads, no PMU needed. */
static void list_events_shows_software_group(void **state)
{
	char *argv[] = { getenv("TMACG"), "--list-events", "--model-file", model_path, NULL };
	char names[16][64], *out;
	int n = model_sw_events(names, 16);

	(void)state;
	if (!argv[0])
		skip();
	assert_true(n >= 5);
	assert_int_equal(run_capture(argv, NULL, &out), 0);
	printf("%s", out);
	assert_non_null(strstr(out, "group 0 (software)"));
	assert_non_null(strstr(out, "no hardware counter"));
	assert_null(strstr(out, "planned for")); /* nothing about a CPU it does not need */
	for (int i = 0; i < n; i++) {
		char want[128];

		snprintf(want, sizeof(want), "%-56.63s sw     type=%d ", names[i], 1);
		if (!strstr(out, want))
			fail_msg("--list-events lacks '%s'", want);
	}
	free(out);
}

/* The table output runs the same evaluation: the tree names the model's nodes. */
static void table_output_prints_tree(void **state)
{
	const char *args[] = { "--model-file", model_path, "--count",  "2",
			       "--interval",   "200ms",	   "--format", "table",
			       "--color",      "never",	   NULL };
	struct itest_tmacg t;

	(void)state;
	ITEST_NEED_ROOT();
	assert_int_equal(itest_tmacg_start(&t, args), 0);
	assert_int_equal(itest_tmacg_stop(&t, 0), 0);
	for (int i = 0; i < NTREE; i++)
		if (!strstr(t.out, tree[i].name))
			fail_msg("table output lacks %s:\n%s", tree[i].name, t.out);
	itest_tmacg_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(live_model_matches_kernel_and_replay, itest_cleanup),
		cmocka_unit_test(list_events_shows_software_group),
		cmocka_unit_test_teardown(table_output_prints_tree, itest_cleanup),
	};
	return cmocka_run_group_tests_name("model_live", tests, setup, NULL);
}
