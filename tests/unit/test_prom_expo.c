// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The Prometheus exposition builder on hand-made lines: label escaping
 * whatever the cgroup name, HELP/TYPE once per family before its samples,
 * counters summed across intervals and dropped with their cgroup, one series
 * per reported cgroup (tasks never), no sample for what was not measured.
 * Expected texts are written out by hand; promtool (when installed) checks
 * the hostile-name output as Prometheus would parse it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "model/model.h"
#include "output/cgroup_record.h"
#include "prom/prom_expo.h"
#include "prom/prom_label.h"
#include "prom/prom_text.h"
#include "promtool.h"
#include "text_count.h"

static const char *const count_names[] = { "on_cpu_s", "cpu_utilization", "context_switches",
					   "page_faults" };

struct fake_line {
	struct report_line line;
	struct resource res;
	double counts[4];
};

static void fake(struct fake_line *f, const char *cgroup, uint64_t id, double on_cpu)
{
	memset(f, 0, sizeof(*f));
	f->res.host = "node-1";
	f->counts[0] = on_cpu;
	f->counts[1] = on_cpu;
	f->counts[2] = 10;
	f->counts[3] = NAN; /* not measured: no series */
	f->line.interval_s = 1;
	f->line.host = "node-1";
	f->line.model = "software";
	f->line.cgroup = cgroup;
	f->line.cgroup_id = id;
	f->line.resource = &f->res;
	f->line.ncounts = 4;
	f->line.count_names = count_names;
	f->line.count_values = f->counts;
	f->line.running_min = 1;
}

static void begin(struct prom_expo *e, uint64_t dropped)
{
	struct report_line head = { .time = { 1700000000, 500000000 },
				    .interval_s = 1,
				    .host = "node-1",
				    .model = "software",
				    .dropped = dropped };

	assert_int_equal(prom_expo_begin(e, &head), 0);
}

/* Every family written is one prom_expo_family() names (the dashboard test relies on it). */
static void families_are_listed(const char *text)
{
	for (const char *t = strstr(text, "# TYPE "); t; t = strstr(t + 1, "\n# TYPE ")) {
		const char *name = t[0] == '\n' ? t + 8 : t + 7;
		size_t len = strcspn(name, " ");
		bool listed = false;

		for (int i = 0; prom_expo_family(i); i++)
			listed |= strlen(prom_expo_family(i)) == len &&
				  !strncmp(prom_expo_family(i), name, len);
		if (!listed)
			fail_msg("family %.*s is not one prom_expo_family() names", (int)len, name);
	}
}

static char *end(struct prom_expo *e)
{
	size_t len = 0;
	char *text = prom_expo_end(e, &len);

	assert_non_null(text);
	assert_int_equal(strlen(text), len);
	families_are_listed(text);
	return text;
}

static char *label_text(const char *value)
{
	struct prom_buf b = { 0 };

	assert_int_equal(prom_label(&b, "cgroup", value), 0);
	prom_buf_putc(&b, '\0');
	assert_false(b.failed);
	return b.p;
}

static void label_values_are_escaped(void **state)
{
	static const struct {
		const char *in, *out;
	} cases[] = {
		{ "/plain", "cgroup=\"/plain\"" },
		{ "/a\\b", "cgroup=\"/a\\\\b\"" },
		{ "/q\"uote", "cgroup=\"/q\\\"uote\"" },
		{ "/line\nfeed", "cgroup=\"/line\\nfeed\"" },
		{ "/tab\tcr\r", "cgroup=\"/tab\tcr\r\"" }, /* legal as they are */
		{ "/ünï", "cgroup=\"/ünï\"" },
		{ "/end\\", "cgroup=\"/end\\\\\"" },
		/* Invalid UTF-8: each bad byte U+EF00 + byte (docs/output.md), the rest kept. */
		{ "/x\xffy", "cgroup=\"/x\xee\xbf\xbfy\"" },
		{ "/cut\xc3", "cgroup=\"/cut\xee\xbf\x83\"" },
		{ "/over\xc0\xaf", "cgroup=\"/over\xee\xbf\x80\xee\xbe\xaf\"" },
		{ "/sur\xed\xa0\x80", "cgroup=\"/sur\xee\xbf\xad\xee\xbe\xa0\xee\xbe\x80\"" },
		/* A valid character of the escape range (U+EFFF) is escaped byte by byte. */
		{ "/e\xee\xbf\xbf", "cgroup=\"/e\xee\xbf\xae\xee\xbe\xbf\xee\xbe\xbf\"" },
		/* The mapping first, then the format's escapes. */
		{ "/q\xff\"\\", "cgroup=\"/q\xee\xbf\xbf\\\"\\\\\"" },
		{ "", "cgroup=\"\"" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *got = label_text(cases[i].in);

		assert_string_equal(got, cases[i].out);
		free(got);
	}
}

/*
 * Names that differ only in their invalid bytes, or in an invalid byte against
 * the valid text another name maps to, keep different label values (U+FFFD
 * for every invalid byte made the first three one series).
 */
static void different_names_keep_different_values(void **state)
{
	static const char *names[] = { "/pod\xff",	   "/pod\xfe",	   "/pod\xef\xbf\xbd",
				       "/pod\xee\xbf\xbf", "/pod\xff\xff", "/pod" };
	enum { N = sizeof(names) / sizeof(names[0]) };
	char *got[N];

	(void)state;
	for (size_t i = 0; i < N; i++)
		got[i] = label_text(names[i]);
	for (size_t i = 0; i < N; i++)
		for (size_t j = i + 1; j < N; j++)
			if (!strcmp(got[i], got[j]))
				fail_msg("names %zu and %zu share the label %s", i, j, got[i]);
	for (size_t i = 0; i < N; i++)
		free(got[i]);
}

static void one_interval_exact_text(void **state)
{
	struct prom_expo *e = prom_expo_new(false);
	struct fake_line a;
	char *text;

	(void)state;
	begin(e, 2);
	fake(&a, "/svc", 7, 0.25);
	assert_int_equal(prom_expo_line(e, &a.line), 0);
	text = end(e);
	assert_string_equal(
		text,
		"# HELP tmacg_build_info tmacg's version and the model it evaluates (value 1)\n"
		"# TYPE tmacg_build_info gauge\n"
		"tmacg_build_info{host=\"node-1\",version=\"0.1.0\",model=\"software\","
		"tma_version=\"\",smt=\"false\",topdown_fixed=\"false\"} 1\n"
		"# HELP tmacg_interval_seconds Length of the last completed interval, the one "
		"served\n"
		"# TYPE tmacg_interval_seconds gauge\n"
		"tmacg_interval_seconds{host=\"node-1\"} 1\n"
		"# HELP tmacg_interval_end_timestamp_seconds End of the last completed interval, "
		"Unix time\n"
		"# TYPE tmacg_interval_end_timestamp_seconds gauge\n"
		"tmacg_interval_end_timestamp_seconds{host=\"node-1\"} 1700000000.5\n"
		"# HELP tmacg_dropped_total Counter deltas lost on this host (failed reads, full "
		"maps, lost cgroup events, unnamed cgroups)\n"
		"# TYPE tmacg_dropped_total counter\n"
		"tmacg_dropped_total{host=\"node-1\"} 2\n"
		"# HELP tmacg_reported_cgroups Cgroups (or pods, containers) with series in this "
		"scrape\n"
		"# TYPE tmacg_reported_cgroups gauge\n"
		"tmacg_reported_cgroups{host=\"node-1\"} 1\n"
		"# HELP tmacg_on_cpu_seconds_total CPU time of the cgroup's tasks from the "
		"scheduler, as cpu.stat usage_usec\n"
		"# TYPE tmacg_on_cpu_seconds_total counter\n"
		"tmacg_on_cpu_seconds_total{host=\"node-1\",cgroup=\"/svc\"} 0.25\n"
		"# HELP tmacg_context_switches_total Context switches of the cgroup's tasks\n"
		"# TYPE tmacg_context_switches_total counter\n"
		"tmacg_context_switches_total{host=\"node-1\",cgroup=\"/svc\"} 10\n"
		"# HELP tmacg_running_ratio_min Smallest running/enabled share of the cgroup's "
		"perf groups in the interval: below 1 the counts are multiplexed estimates\n"
		"# TYPE tmacg_running_ratio_min gauge\n"
		"tmacg_running_ratio_min{host=\"node-1\",cgroup=\"/svc\"} 1\n");
	free(text);
	prom_expo_free(e);
}

/*
 * Before the first interval: the build info, the host's dropped total and no
 * interval gauge, whatever a head's numbers (it has none); then an interval,
 * even one of 0 s, has its gauges.
 */
static void unmeasured_text_has_no_interval(void **state)
{
	struct prom_expo *e = prom_expo_new(false);
	struct report_line head = { .host = "node-1", .model = "software" };
	char *text;

	(void)state;
	assert_int_equal(prom_expo_begin_unmeasured(e, "node-1", "icx", "4.5"), 0);
	text = end(e);
	assert_non_null(strstr(text, "tmacg_build_info{host=\"node-1\",version=\"0.1.0\","
				     "model=\"icx\",tma_version=\"4.5\"} 1\n"));
	assert_null(strstr(text, "tmacg_interval_seconds{"));
	assert_null(strstr(text, "tmacg_interval_end_timestamp_seconds{"));
	assert_non_null(strstr(text, "tmacg_dropped_total{host=\"node-1\"} 0\n"));
	free(text);
	assert_int_equal(prom_expo_begin(e, &head), 0);
	text = end(e);
	assert_non_null(strstr(text, "tmacg_interval_seconds{host=\"node-1\"} 0\n"));
	assert_non_null(strstr(text, "tmacg_interval_end_timestamp_seconds{host=\"node-1\"} 0\n"));
	free(text);
	prom_expo_free(e);
}

/* The sample of name whose labels contain labels; NAN when absent. */
static double value_of(const char *text, const char *name, const char *labels)
{
	char needle[512];
	const char *p;

	snprintf(needle, sizeof(needle), "\n%s{%s", name, labels);
	p = strstr(text, needle);
	if (!p)
		return NAN;
	p = strchr(p + 1, '\n');
	while (p[-1] != ' ')
		p--;
	return strtod(p, NULL);
}

static void counters_sum_across_intervals_and_go_with_the_cgroup(void **state)
{
	struct prom_expo *e = prom_expo_new(false);
	struct fake_line a, b;
	char *text;

	(void)state;
	begin(e, 1);
	fake(&a, "/a", 11, 0.5);
	fake(&b, "/b", 12, 0.125);
	prom_expo_line(e, &a.line);
	prom_expo_line(e, &b.line);
	free(end(e));

	begin(e, 0);
	fake(&a, "/a", 11, 0.25);
	a.counts[0] = NAN; /* not measured this interval: the total stays */
	prom_expo_line(e, &a.line);
	text = end(e);
	assert_true(value_of(text, "tmacg_on_cpu_seconds_total", "host=\"node-1\",cgroup=\"/a\"") ==
		    0.5);
	assert_true(value_of(text, "tmacg_context_switches_total",
			     "host=\"node-1\",cgroup=\"/a\"") == 20);
	assert_true(value_of(text, "tmacg_dropped_total", "host=\"node-1\"") == 1);
	assert_true(value_of(text, "tmacg_reported_cgroups", "host=\"node-1\"") == 1);
	/* /b was not reported: its series are gone, not left at their last value. */
	assert_null(strstr(text, "cgroup=\"/b\""));
	free(text);

	begin(e, 0);
	fake(&a, "/a", 11, 0.25);
	fake(&b, "/b", 12, 0.125);
	prom_expo_line(e, &a.line);
	prom_expo_line(e, &b.line);
	text = end(e);
	assert_true(value_of(text, "tmacg_on_cpu_seconds_total", "host=\"node-1\",cgroup=\"/a\"") ==
		    0.75);
	/* Back after a gap: a new series from this interval's count (Prometheus: a reset). */
	assert_true(value_of(text, "tmacg_on_cpu_seconds_total", "host=\"node-1\",cgroup=\"/b\"") ==
		    0.125);
	free(text);
	prom_expo_free(e);
}

static void one_series_per_cgroup_tasks_and_nulls_left_out(void **state)
{
	struct prom_expo *e = prom_expo_new(false);
	struct report_task task = { .tid = 42, .tgid = 42, .comm = "burn" };
	struct fake_line l;
	char *text, name[32];

	(void)state;
	begin(e, 0);
	for (int i = 0; i < 50; i++) {
		snprintf(name, sizeof(name), "/c%02d", i);
		fake(&l, name, 100 + i, 0.01);
		l.line.running_min = i == 3 ? NAN : 1;
		assert_int_equal(prom_expo_line(e, &l.line), 0);
		l.line.task = &task; /* a task line: ignored */
		assert_int_equal(prom_expo_line(e, &l.line), 0);
	}
	fake(&l, "(other)", 0, 2);
	assert_int_equal(prom_expo_line(e, &l.line), 0);
	text = end(e);
	assert_int_equal(text_count(text, "\ntmacg_on_cpu_seconds_total{"), 51);
	assert_int_equal(text_count(text, "\ntmacg_context_switches_total{"), 51);
	assert_int_equal(text_count(text, "\ntmacg_running_ratio_min{"), 50);
	assert_int_equal(text_count(text, "cgroup=\"/c03\""), 2); /* no running_min */
	assert_int_equal(text_count(text, "\ntmacg_page_faults_total"), 0);
	assert_int_equal(text_count(text, "burn"), 0);
	assert_int_equal(text_count(text, "tid"), 0);
	assert_true(value_of(text, "tmacg_reported_cgroups", "host=\"node-1\"") == 51);
	assert_true(value_of(text, "tmacg_on_cpu_seconds_total",
			     "host=\"node-1\",cgroup=\"(other)\"") == 2);
	/* A family's HELP and TYPE once each, right before its samples, none of a family alone. */
	for (int i = 0; prom_expo_family(i); i++) {
		char help[128], type[128];
		const char *h, *t;

		snprintf(help, sizeof(help), "# HELP %s ", prom_expo_family(i));
		snprintf(type, sizeof(type), "# TYPE %s ", prom_expo_family(i));
		h = strstr(text, help);
		t = strstr(text, type);
		assert_int_equal(text_count(text, help), h ? 1 : 0);
		assert_int_equal(text_count(text, type), t ? 1 : 0);
		if (!t)
			continue;
		assert_true(h && h < t);
		assert_true(!strncmp(strchr(t, '\n') + 1, prom_expo_family(i),
				     strlen(prom_expo_family(i))));
		if (strstr(prom_expo_family(i), "_total"))
			assert_true(!strncmp(t + strlen(type), "counter\n", 8));
		else
			assert_true(!strncmp(t + strlen(type), "gauge\n", 6));
	}
	free(text);
	prom_expo_free(e);
}

/* Each count tmacg names (software and hardware) feeds its counter; rates feed none. */
static void every_counter_family(void **state)
{
	static const char *const names[] = { "on_cpu_s",
					     "cpu_clock_s",
					     "context_switches",
					     "cpu_migrations",
					     "page_faults",
					     "cycles",
					     "instructions",
					     "slots",
					     "cpu_utilization",
					     "page_faults_per_s",
					     "INT_MISC.RECOVERY_CYCLES:c1:e1" };
	static const double values[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 };
	struct prom_expo *e = prom_expo_new(false);
	struct fake_line l;
	char *text;

	(void)state;
	fake(&l, "/svc", 9, 0);
	l.line.ncounts = 11;
	l.line.count_names = names;
	l.line.count_values = values;
	begin(e, 0);
	assert_int_equal(prom_expo_line(e, &l.line), 0);
	text = end(e);
	assert_int_equal(text_count(text, " counter\n"), 9); /* 8 counts and dropped_total */
	assert_true(value_of(text, "tmacg_cpu_clock_seconds_total", "host=\"node-1\"") == 2);
	assert_true(value_of(text, "tmacg_cpu_migrations_total", "host=\"node-1\"") == 4);
	assert_true(value_of(text, "tmacg_slots_total", "host=\"node-1\"") == 8);
	assert_null(strstr(text, "utilization"));
	assert_null(strstr(text, "per_s"));
	assert_null(strstr(text, "RECOVERY"));
	free(text);
	prom_expo_free(e);
}

static void k8s_labels_only_with_k8s(void **state)
{
	struct prom_expo *with = prom_expo_new(true), *without = prom_expo_new(false);
	struct fake_line pod, ctr, anon, host, again;
	char *a, *b;

	(void)state;
	fake(&pod, "/kubepods/podu1", 21, 0.5);
	pod.res.k8s_namespace = "shop";
	pod.res.k8s_pod = "cart-1";
	pod.res.k8s_pod_uid = "u1";
	fake(&ctr, "/kubepods/podu1/c1", 22, 0.5);
	ctr.res = pod.res;
	ctr.res.k8s_container = "cart";
	ctr.res.container_id = "c1";
	/* A container known only by its id, a host cgroup, a pod recreated under its name. */
	fake(&anon, "/kubepods/podu1/c2", 23, 0.5);
	anon.res = pod.res;
	anon.res.container_id = "c2";
	fake(&host, "/system.slice/x.service", 24, 0.5);
	fake(&again, "/kubepods/podu2", 25, 0.5);
	again.res = pod.res;
	begin(with, 0);
	assert_int_equal(prom_expo_line(with, &pod.line), 0);
	assert_int_equal(prom_expo_line(with, &ctr.line), 0);
	assert_int_equal(prom_expo_line(with, &anon.line), 0);
	assert_int_equal(prom_expo_line(with, &host.line), 0);
	assert_int_equal(prom_expo_line(with, &again.line), 0);
	assert_int_equal(prom_expo_line(with, &again.line), -EEXIST); /* twice: not served */
	a = end(with);
	begin(without, 0);
	prom_expo_line(without, &pod.line);
	b = end(without);
	assert_non_null(strstr(a, "\ntmacg_on_cpu_seconds_total{host=\"node-1\",namespace=\"shop\","
				  "pod=\"cart-1\"} 0.5\n"));
	assert_non_null(strstr(a, "\ntmacg_on_cpu_seconds_total{host=\"node-1\",namespace=\"shop\","
				  "pod=\"cart-1\",container=\"cart\"} 0.5\n"));
	assert_non_null(strstr(a, "\ntmacg_on_cpu_seconds_total{host=\"node-1\",namespace=\"shop\","
				  "pod=\"cart-1\",cgroup=\"/kubepods/podu1/c2\"} 0.5\n"));
	assert_non_null(strstr(a, "\ntmacg_on_cpu_seconds_total{host=\"node-1\","
				  "cgroup=\"/system.slice/x.service\"} 0.5\n"));
	assert_non_null(strstr(a, "\ntmacg_on_cpu_seconds_total{host=\"node-1\",namespace=\"shop\","
				  "pod=\"cart-1\",cgroup=\"/kubepods/podu2\"} 0.5\n"));
	assert_int_equal(text_count(a, "\ntmacg_on_cpu_seconds_total{"), 5);
	assert_null(strstr(a, "=\"u1\"")); /* no uid or container id label */
	assert_null(strstr(a, "=\"c1\""));
	assert_non_null(strstr(b, "\ntmacg_on_cpu_seconds_total{host=\"node-1\",cgroup=\"/kubepods/"
				  "podu1\"} 0.5\n"));
	free(a);
	free(b);
	prom_expo_free(with);
	prom_expo_free(without);
}

static const char model_text[] =
	"model t\n"
	"node 1 Frontend\n  formula E.F\n  threshold > 0.2\n"
	"node 1.1 Latency\n  formula E.L\n  threshold > 0.1 and parent over threshold\n"
	"node 1.1.1 Icache\n  formula E.I\n  threshold > 0.05 and parent over threshold\n"
	"node 1.2 Bandwidth\n  formula E.B / E.ZERO\n"
	"node 2 Backend\n  formula E.K\n  threshold > 0.2\n"
	"info IPC\n  formula E.F * 4\n  scope thread\n";

static char *model_text_at(int level, bool info)
{
	char err[512];
	struct tma_model *m = model_load(model_text, strlen(model_text), "t.tma", err, sizeof(err));
	struct model_result *r;
	double events[8] = { 0 };
	struct model_input in = { .events = events, .interval_s = 1, .flags = 0 };
	struct prom_expo *e = prom_expo_new(false);
	struct fake_line l;
	char *text;

	assert_non_null(m);
	r = model_result_new(m);
	events[model_event_index(m, "E.F")] = 0.5;
	events[model_event_index(m, "E.L")] = 0.25;
	events[model_event_index(m, "E.I")] = 0.125;
	events[model_event_index(m, "E.K")] = 0.25;
	assert_int_equal(model_eval(m, &in, r), 0);
	fake(&l, "/svc", 5, 1);
	l.line.tma = m;
	l.line.result = r;
	l.line.level = level;
	l.line.info = info;
	begin(e, 0);
	prom_expo_line(e, &l.line);
	text = end(e);
	prom_expo_free(e);
	model_result_free(r);
	model_free(m);
	return text;
}

static const char other_model_text[] = "model u\n"
				       "node 1 Retiring\n  formula E.R\n"
				       "node 1.1 Heavy_Operations\n  formula E.H\n";

/* One interval of one line of model text (level 3) in e, the cgroup given: its text. */
static char *one_line_interval(struct prom_expo *e, const char *text, const char *cgroup)
{
	char err[512];
	struct tma_model *m = model_load(text, strlen(text), "m.tma", err, sizeof(err));
	double events[8] = { 0.5, 0.25, 0.125, 0.25, 0.25, 0.5 };
	struct model_input in = { .events = events, .interval_s = 1, .flags = 0 };
	struct model_result *r;
	struct fake_line l;
	char *out;

	assert_non_null(m);
	r = model_result_new(m);
	assert_non_null(r);
	assert_int_equal(model_eval(m, &in, r), 0);
	fake(&l, cgroup, 5, 1);
	l.line.tma = m;
	l.line.result = r;
	l.line.level = 3;
	begin(e, 0);
	assert_int_equal(prom_expo_line(e, &l.line), 0);
	out = end(e);
	model_result_free(r);
	model_free(m);
	return out;
}

/*
 * A node sample's text is made from the model once (its labels) and from
 * the line once (family and cgroup labels): a model loaded after the first
 * was freed (often at its address) is given its own nodes, and a short
 * cgroup name after a long one keeps nothing of the long one.
 */
static void node_samples_follow_the_model_and_the_line(void **state)
{
	struct prom_expo *e = prom_expo_new(false);
	char long_name[6000], want[6200];
	char *a, *b;

	(void)state;
	assert_non_null(e);
	memset(long_name, 'x', sizeof(long_name) - 1);
	long_name[0] = '/';
	long_name[sizeof(long_name) - 1] = '\0';
	a = one_line_interval(e, model_text, long_name);
	b = one_line_interval(e, other_model_text, "/svc");
	snprintf(want, sizeof(want),
		 "\ntmacg_tma_ratio{host=\"node-1\",cgroup=\"%s\",tma_node=\"Frontend.Latency\","
		 "level=\"2\"} ",
		 long_name);
	assert_non_null(strstr(a, want));
	assert_non_null(strstr(b, "\ntmacg_tma_ratio{host=\"node-1\",cgroup=\"/svc\","
				  "tma_node=\"Retiring.Heavy_Operations\",level=\"2\"} "));
	assert_int_equal(text_count(b, "\ntmacg_tma_ratio{"), 2);
	assert_null(strstr(b, "Frontend"));
	assert_null(strstr(b, "xxx"));
	free(a);
	free(b);
	prom_expo_free(e);
}

static void tma_nodes_by_path_and_level(void **state)
{
	char *l3 = model_text_at(3, true), *l2 = model_text_at(2, false);
	const char *lab = "host=\"node-1\",cgroup=\"/svc\",";

	(void)state;
	assert_non_null(strstr(l3, "\ntmacg_tma_ratio{host=\"node-1\",cgroup=\"/svc\","
				   "tma_node=\"Frontend\","
				   "level=\"1\"} 0.5\n"));
	assert_non_null(strstr(l3, "tma_node=\"Frontend.Latency\",level=\"2\"} 0.25\n"));
	assert_non_null(strstr(l3, "tma_node=\"Frontend.Latency.Icache\",level=\"3\"} 0.125\n"));
	assert_non_null(strstr(l3, "tma_node=\"Backend\",level=\"1\"} 0.25\n"));
	/* Bandwidth divides by zero: no sample rather than a 0 or NaN. */
	assert_null(strstr(l3, "Bandwidth"));
	assert_non_null(strstr(l3, "\ntmacg_bottleneck_info{host=\"node-1\",cgroup=\"/svc\","
				   "bottleneck=\"Frontend.Latency.Icache\"} 1\n"));
	assert_true(value_of(l3, "tmacg_tma_info_value", lab) == 2);
	assert_non_null(strstr(l3, "metric=\"IPC\"} 2\n"));
	/* --level 2: no level-3 node, the bottleneck cut there, no Info metric without --info. */
	assert_null(strstr(l2, "Icache"));
	assert_non_null(strstr(l2, "bottleneck=\"Frontend.Latency\"} 1\n"));
	assert_null(strstr(l2, "tmacg_tma_info_value"));
	free(l3);
	free(l2);
}

static const char deep_model_text[] = "model d\n"
				      "node 1 Backend\n  formula E.K\n"
				      "node 1.1 Memory\n  formula E.M\n"
				      "node 1.1.1 DRAM\n  formula E.D\n"
				      "node 1.1.1.1 Bandwidth\n  formula E.B\n"
				      "node 1.1.1.2 Latency\n  formula E.L\n"
				      "node 1.1.1.2.1 Far\n  formula E.F\n"
				      "node 1.1.1.2.2 Near\n  formula E.N / E.ZERO\n";

/*
 * The perf groups of deep_model_text's nodes below level 3 (as
 * plan_node_groups gives them: group 0 on at every switch, the others in
 * turns) and their smallest shares (acc_measured): Bandwidth and Far read
 * groups 0 and 2, Latency 0 and 3, Near 0 and 4.
 */
static const uint64_t deep_groups[8] = { 0, 0, 0, 0x5, 0x9, 0x5, 0x11 };
static const uint64_t deep_groups_moved[8] = { 0, 0, 0, 0x3, 0x9, 0x3, 0x11 };
static const double deep_measured[8] = { NAN, NAN, NAN, 0.25, 1.0 / 3, 0.25, 0.5 };

/*
 * Intervals of /svc at level, one a plan of groups, its nodes below level 3
 * taking turns (rotating) or not.
 */
static char *deep_text_plans(int level, bool rotating, const uint64_t *const *plans, int nplans)
{
	char err[512];
	struct tma_model *m =
		model_load(deep_model_text, strlen(deep_model_text), "d.tma", err, sizeof(err));
	double events[8] = { 0 };
	struct model_input in = { .events = events, .interval_s = 1, .flags = 0 };
	struct prom_expo *e = prom_expo_new(false);
	struct model_result *r;
	struct fake_line l;
	char *text = NULL;

	if (!m)
		fail_msg("deep model: %s", err);
	assert_true(model_node_count(m) <= 8);
	r = model_result_new(m);
	for (int i = 0; i < model_event_count(m); i++)
		events[i] = 0.5;
	events[model_event_index(m, "E.ZERO")] = 0;
	assert_int_equal(model_eval(m, &in, r), 0);
	for (int p = 0; p < nplans; p++) {
		fake(&l, "/svc", 5, 1);
		l.line.tma = m;
		l.line.result = r;
		l.line.level = level;
		l.line.measured = rotating ? deep_measured : NULL;
		l.line.measured_groups = rotating ? plans[p] : NULL;
		begin(e, 0);
		assert_int_equal(prom_expo_line(e, &l.line), 0);
		free(text);
		text = end(e);
	}
	prom_expo_free(e);
	model_result_free(r);
	model_free(m);
	return text;
}

static char *deep_text_at(int level, bool rotating)
{
	const uint64_t *plan = deep_groups;

	return deep_text_plans(level, rotating, &plan, 1);
}

/*
 * Rotating (levels 4-6), each set of perf groups the reported nodes whose
 * events take turns read (here those below level 3) has its measured share
 * as tmacg_tma_measured_ratio, labelled tma_groups, as is each such node's
 * tmacg_tma_ratio, so a query joins the two; a set only a node below
 * --level reads has none; the set of a node whose ratio is not computed is
 * written all the same.  Not rotating, neither the family nor the label.
 */
static void measured_share_of_deep_nodes(void **state)
{
	char *l6 = deep_text_at(6, true), *l4 = deep_text_at(4, true),
	     *still = deep_text_at(6, false);
	const char *l6_family = "# TYPE tmacg_tma_measured_ratio gauge\n"
				"tmacg_tma_measured_ratio{host=\"node-1\",cgroup=\"/svc\","
				"tma_groups=\"0+2\"} 0.25\n"
				"tmacg_tma_measured_ratio{host=\"node-1\",cgroup=\"/svc\","
				"tma_groups=\"0+3\"} 0.3333\n"
				"tmacg_tma_measured_ratio{host=\"node-1\",cgroup=\"/svc\","
				"tma_groups=\"0+4\"} 0.5\n";
	const char *at;

	(void)state;
	/* The last family: the text ends with it. */
	at = strstr(l6, l6_family);
	if (!at || strcmp(at, l6_family))
		fail_msg("level 6: not the measured family expected, but:\n%s",
			 strstr(l6, "# TYPE tmacg_tma_measured") ?
				 strstr(l6, "# TYPE tmacg_tma_measured") :
				 l6);
	assert_non_null(
		strstr(l6, "# HELP tmacg_tma_measured_ratio Fraction of the last interval"));
	assert_non_null(strstr(l6, "\ntmacg_tma_ratio{host=\"node-1\",cgroup=\"/svc\","
				   "tma_node=\"Backend.Memory.DRAM.Bandwidth\",level=\"4\","
				   "tma_groups=\"0+2\"} "));
	assert_non_null(strstr(l6, "\ntmacg_tma_ratio{host=\"node-1\",cgroup=\"/svc\","
				   "tma_node=\"Backend.Memory.DRAM.Latency.Far\",level=\"5\","
				   "tma_groups=\"0+2\"} "));
	/* Levels 1-3 here read only groups on at every switch: no label. */
	assert_non_null(strstr(l6, "\ntmacg_tma_ratio{host=\"node-1\",cgroup=\"/svc\","
				   "tma_node=\"Backend.Memory.DRAM\",level=\"3\"} "));
	assert_int_equal(text_count(l6, ",tma_groups=\""), 3 + 3);
	/* Near's ratio divides by zero: not computed, its set's share given all the same. */
	assert_null(strstr(l6, "tma_node=\"Backend.Memory.DRAM.Latency.Near\""));
	assert_int_equal(text_count(l4, "\ntmacg_tma_measured_ratio{"), 2);
	assert_null(strstr(l4, "tma_groups=\"0+4\""));
	assert_null(strstr(l4, "Far"));
	assert_null(strstr(still, "measured"));
	assert_null(strstr(still, "tma_groups"));
	free(l6);
	free(l4);
	free(still);
}

/*
 * docs/prometheus.md's queries, by Prometheus itself on a level-6 text:
 * the ratios of the nodes seen long enough, and each node's measured share
 * (Latency's set 0+3 measured a third, Bandwidth's and Far's 0+2 a quarter;
 * Near, not computed, has no ratio to join).
 */
static void measured_joins_the_ratios_as_documented(void **state)
{
	char *l6 = deep_text_at(6, true);

	(void)state;
	if (!promtool_query_gives(
		    l6,
		    "tmacg_tma_ratio{level=~\"4|5\"} and on (host, namespace, pod, container, "
		    "cgroup, tma_groups)\n  (tmacg_tma_measured_ratio >= 0.3)",
		    "- labels: 'tmacg_tma_ratio{host=\"node-1\",cgroup=\"/svc\","
		    "tma_node=\"Backend.Memory.DRAM.Latency\",level=\"4\",tma_groups=\"0+3\"}'\n"
		    "  value: 0.5\n")) {
		free(l6);
		skip();
	}
	promtool_query_gives(
		l6,
		"tmacg_tma_measured_ratio * on (host, namespace, pod, container, cgroup, "
		"tma_groups)\n  group_right () (0 * tmacg_tma_ratio + 1)",
		"- labels: '{host=\"node-1\",cgroup=\"/svc\",tma_node=\"Backend.Memory.DRAM.Bandwidth\","
		"level=\"4\",tma_groups=\"0+2\"}'\n  value: 0.25\n"
		"- labels: '{host=\"node-1\",cgroup=\"/svc\",tma_node=\"Backend.Memory.DRAM.Latency\","
		"level=\"4\",tma_groups=\"0+3\"}'\n  value: 0.3333\n"
		"- labels: '{host=\"node-1\",cgroup=\"/svc\","
		"tma_node=\"Backend.Memory.DRAM.Latency.Far\",level=\"5\",tma_groups=\"0+2\"}'\n"
		"  value: 0.25\n");
	free(l6);
}

/* A plan whose groups changed (same model): the labels follow it, never the old plan's. */
static void node_labels_follow_the_plan(void **state)
{
	const uint64_t *plans[2] = { deep_groups, deep_groups_moved };
	char *text = deep_text_plans(6, true, plans, 2);

	(void)state;
	assert_null(strstr(text, "tma_groups=\"0+2\""));
	assert_non_null(strstr(text, "tma_node=\"Backend.Memory.DRAM.Bandwidth\",level=\"4\","
				     "tma_groups=\"0+1\"} "));
	assert_non_null(
		strstr(text, "{host=\"node-1\",cgroup=\"/svc\",tma_groups=\"0+1\"} 0.25\n"));
	free(text);
}

/*
 * A model with SLOTS: level 1 and 2 in slots, a level-3 node, an Info metric
 * and a count.  E.S is SLOTS, and every share a count over it.
 */
static const char slots_model_text[] = "model s\n"
				       "helper SLOTS = E.S\n"
				       "node 1 Frontend\n  domain Slots\n  formula E.F / SLOTS\n"
				       "node 1.1 Latency\n  domain Slots\n  formula E.L / SLOTS\n"
				       "node 1.1.1 Icache\n  domain Slots\n  formula E.I / SLOTS\n"
				       "node 2 Backend\n  domain Slots\n  formula E.K / SLOTS\n"
				       "node 3 Odd\n  domain Clocks\n  formula E.K / E.S\n"
				       "count switches\n  formula E.W\n";

struct slots_run {
	struct tma_model *m;
	struct model_result *r;
	struct prom_expo *e;
	double events[8];
};

/* The slots model loaded, its result and an exposition ready for slots_interval(). */
static void slots_run_open(struct slots_run *run)
{
	char err[512];

	run->m = model_load(slots_model_text, strlen(slots_model_text), "s.tma", err, sizeof(err));
	if (!run->m)
		fail_msg("%s", err);
	run->r = model_result_new(run->m);
	run->e = prom_expo_new(false);
}

static void slots_run_close(struct slots_run *run)
{
	prom_expo_free(run->e);
	model_result_free(run->r);
	model_free(run->m);
}

/* One interval of /svc: slots S, the nodes' counts F, L, I, K. */
static char *slots_interval(struct slots_run *run, int level, double s, double f, double l,
			    double i, double k)
{
	struct model_input in = { .events = run->events, .interval_s = 1, .flags = 0 };
	struct fake_line line;

	run->events[model_event_index(run->m, "E.S")] = s;
	run->events[model_event_index(run->m, "E.F")] = f;
	run->events[model_event_index(run->m, "E.L")] = l;
	run->events[model_event_index(run->m, "E.I")] = i;
	run->events[model_event_index(run->m, "E.K")] = k;
	run->events[model_event_index(run->m, "E.W")] = 7;
	assert_int_equal(model_eval(run->m, &in, run->r), 0);
	fake(&line, "/svc", 5, 1);
	line.line.tma = run->m;
	line.line.result = run->r;
	line.line.level = level;
	begin(run->e, 0);
	assert_int_equal(prom_expo_line(run->e, &line.line), 0);
	return end(run->e);
}

/* run's model evaluated on slots s (each other event s / (its index + 2)). */
static void slots_eval(struct slots_run *run, double s)
{
	struct model_input in = { .events = run->events, .interval_s = 1, .flags = 0 };

	for (int i = 0; i < model_event_count(run->m); i++)
		run->events[i] = s / (i + 2);
	run->events[model_event_index(run->m, "E.S")] = s;
	assert_int_equal(model_eval(run->m, &in, run->r), 0);
}

/* cgroup's line of run's result at level 3, into the interval begun. */
static void slots_cgroup_line(struct slots_run *run, const char *cgroup, uint64_t id)
{
	struct fake_line line;

	fake(&line, cgroup, id, 1);
	line.line.tma = run->m;
	line.line.result = run->r;
	line.line.level = 3;
	assert_int_equal(prom_expo_line(run->e, &line.line), 0);
}

/* One interval of /svc on run's model at level 3, begun and written, not ended. */
static void slots_line(struct slots_run *run, double s)
{
	slots_eval(run, s);
	begin(run->e, 0);
	slots_cgroup_line(run, "/svc", 5);
}

/* The rows pieces of t: one per node family with samples, and the families they are. */
static int rows_pieces(const struct prom_text *t, int *families)
{
	int n = 0;

	for (int i = 0; i < t->n; i++) {
		if (t->piece[i].rows_family < 0)
			continue;
		assert_null(t->piece[i].buf);
		families[n++] = t->piece[i].rows_family;
	}
	return n;
}

/*
 * An interval ended in pieces reads as the one string prom_expo_end makes of
 * the same lines; the node families' samples are rows, numbers made into
 * text as they are read (a 23 MiB level-6 text was written whole each
 * interval, out of every cache: issue 27), and once recycled the next
 * interval writes its rows into the same memory.
 */
static void pieces_join_to_the_text_and_come_back(void **state)
{
	char err[512], *whole, *joined;
	struct slots_run a = { 0 }, b = { 0 };
	struct prom_text t;
	const struct prom_rows *rows;
	size_t len, jlen;
	int families[PROM_TEXT_MAX_PIECES];

	(void)state;
	a.m = model_load(slots_model_text, strlen(slots_model_text), "s.tma", err, sizeof(err));
	b.m = model_load(slots_model_text, strlen(slots_model_text), "s.tma", err, sizeof(err));
	assert_non_null(a.m);
	assert_non_null(b.m);
	a.r = model_result_new(a.m);
	b.r = model_result_new(b.m);
	a.e = prom_expo_new(false);
	b.e = prom_expo_new(false);
	slots_line(&a, 1000);
	slots_line(&b, 1000);
	whole = prom_expo_end(a.e, &len);
	assert_non_null(whole);
	assert_int_equal(prom_expo_end_text(b.e, &t), 0);
	joined = prom_text_join(&t, &jlen);
	assert_non_null(joined);
	assert_int_equal(jlen, len);
	assert_int_equal(prom_text_len(&t), len);
	assert_string_equal(joined, whole);
	/* Node slots, then ratios, in the families' order (no rotation: no measured shares). */
	assert_int_equal(rows_pieces(&t, families), 2);
	assert_int_equal(families[0], PROM_ROWS_NODE_SLOTS);
	assert_int_equal(families[1], PROM_ROWS_RATIO);
	assert_true(prom_rows_count(t.rows, PROM_ROWS_RATIO) > 0);
	rows = t.rows;
	prom_expo_recycle(b.e, &t);
	assert_int_equal(t.n, 0);
	assert_null(t.rows);
	slots_line(&b, 2000);
	assert_int_equal(prom_expo_end_text(b.e, &t), 0);
	assert_ptr_equal(t.rows, rows); /* the same rows, written again */
	free(joined);
	joined = prom_text_join(&t, &jlen);
	assert_non_null(joined);
	assert_string_not_equal(joined, whole); /* the new interval's values */
	prom_text_free(&t);
	free(whole);
	free(joined);
	for (struct slots_run *r = &a; r; r = r == &a ? &b : NULL) {
		prom_expo_free(r->e);
		model_result_free(r->r);
		model_free(r->m);
	}
}

/* realloc, wrapped (test_prom_expo.wrap): the largest size asked while realloc_watch is set. */
static bool realloc_watch;
static size_t realloc_most;
void *__real_realloc(void *p, size_t n);
void *__wrap_realloc(void *p, size_t n)
{
	if (realloc_watch && n > realloc_most)
		realloc_most = n;
	return __real_realloc(p, n);
}

/* An interval of n cgroups on run's model at level 3, ended into t. */
static void slots_many(struct slots_run *run, int n, struct prom_text *t)
{
	slots_eval(run, 1000);
	begin(run->e, 0);
	for (int i = 0; i < n; i++) {
		char cg[32];

		snprintf(cg, sizeof(cg), "/svc/c%d", i);
		slots_cgroup_line(run, cg, 100 + (uint64_t)i);
	}
	assert_int_equal(prom_expo_end_text(run->e, t), 0);
}

/*
 * A scrape still sending the last text as the interval ends keeps its rows:
 * the next interval writes rows of its own, and the text being sent reads
 * to the end as it was published, whatever the next interval writes.  The
 * rows are some 16 bytes a sample, not the sample's text (some 120 at
 * level 6): no allocation as large as the text is made.
 */
static void rows_held_by_a_scrape_stay_as_published(void **state)
{
	struct slots_run run = { 0 };
	struct prom_text first, second;
	char *before, *after;
	size_t len, len_after, samples = 0;

	(void)state;
	slots_run_open(&run);
	slots_many(&run, 3000, &first);
	before = prom_text_join(&first, &len);
	assert_non_null(before);
	realloc_most = 0;
	realloc_watch = true;
	slots_many(&run, 3000, &second); /* first is still held */
	realloc_watch = false;
	assert_ptr_not_equal(second.rows, first.rows);
	after = prom_text_join(&first, &len_after);
	assert_non_null(after);
	assert_int_equal(len_after, len);
	assert_string_equal(after, before);
	for (int f = 0; f < PROM_ROWS_FAMILIES; f++)
		samples += prom_rows_count(second.rows, f);
	assert_true(samples >= 3000 * 5);
	if (realloc_most >= len / 2)
		fail_msg("a realloc of %zu bytes for a text of %zu", realloc_most, len);
	free(before);
	free(after);
	prom_text_free(&first);
	prom_text_free(&second);
	slots_run_close(&run);
}

/*
 * Level-1 and level-2 nodes in slots get counters whose rates give the
 * exact share over two intervals of different lengths, where the mean of
 * the two gauges would not; deeper nodes, other domains and counts do not.
 */
static void slot_counters_give_exact_shares(void **state)
{
	struct slots_run run = { 0 };
	const char *lab = "host=\"node-1\",cgroup=\"/svc\"";
	char *one, *two, *lvl1;

	(void)state;
	slots_run_open(&run);
	/* 1000 slots, Frontend 0.5; then 3000 slots, Frontend 0.1: 800 / 4000 = 0.2. */
	one = slots_interval(&run, 3, 1000, 500, 250, 100, 250);
	two = slots_interval(&run, 3, 3000, 300, 150, 60, 1500);
	assert_true(value_of(one, "tmacg_topdown_slots_total", lab) == 1000);
	assert_true(value_of(two, "tmacg_topdown_slots_total", lab) == 4000);
	assert_true(value_of(two, "tmacg_tma_node_slots_total",
			     "host=\"node-1\",cgroup=\"/svc\",tma_node=\"Frontend\",level=\"1\"") ==
		    800);
	assert_true(value_of(two, "tmacg_tma_node_slots_total",
			     "host=\"node-1\",cgroup=\"/svc\",tma_node=\"Frontend.Latency\","
			     "level=\"2\"") == 400);
	assert_true(value_of(two, "tmacg_tma_node_slots_total",
			     "host=\"node-1\",cgroup=\"/svc\",tma_node=\"Backend\",level=\"1\"") ==
		    1750);
	/* The gauge is the last interval's. */
	assert_true(value_of(two, "tmacg_tma_ratio",
			     "host=\"node-1\",cgroup=\"/svc\",tma_node=\"Frontend\",level=\"1\"") ==
		    0.1);
	/* Level 3, another domain, a count: no counter; a count is no ratio either. */
	assert_null(strstr(two, "tmacg_tma_node_slots_total{host=\"node-1\",cgroup=\"/svc\","
				"tma_node=\"Frontend.Latency.Icache\""));
	assert_non_null(strstr(two, "tma_node=\"Frontend.Latency.Icache\",level=\"3\"} 0.02\n"));
	assert_null(strstr(two, "tmacg_tma_node_slots_total{host=\"node-1\",cgroup=\"/svc\","
				"tma_node=\"Odd\""));
	assert_null(strstr(two, "tma_node=\"switches\""));
	assert_null(strstr(two, "level=\"0\""));
	assert_int_equal(text_count(two, "\ntmacg_tma_node_slots_total{"), 3);
	assert_non_null(strstr(two, "# TYPE tmacg_tma_node_slots_total counter\n"));
	assert_non_null(strstr(two, "# TYPE tmacg_topdown_slots_total counter\n"));
	/* A share below 0 adds nothing: a counter never decreases. */
	lvl1 = slots_interval(&run, 1, 1000, -10, 0, 0, 100);
	assert_true(value_of(lvl1, "tmacg_tma_node_slots_total",
			     "host=\"node-1\",cgroup=\"/svc\",tma_node=\"Frontend\",level=\"1\"") ==
		    800);
	assert_true(value_of(lvl1, "tmacg_topdown_slots_total", lab) == 5000);
	/* --level 1: no level-2 counter. */
	assert_null(strstr(lvl1, "Frontend.Latency"));
	(void)promtool_accepts(two); /* rejected: fails here; not installed: said on stderr */
	free(one);
	free(two);
	free(lvl1);
	slots_run_close(&run);
}

/*
 * Ratios to 9 significant digits, the counters exact (docs/output.md
 * "Numbers"): Frontend 100 / 700.5 slots is 0.142755175, the total exact.  A
 * node's slots are whole slots: share x SLOTS is 100.00000000000001 here,
 * written 100; summed to the last bit, rounded only when written, so a
 * node's counter never decreases (1.4 slots: 1, then 2.8: 3).
 */
static void ratios_to_nine_digits_counters_exact(void **state)
{
	const char *frontend = "host=\"node-1\",cgroup=\"/svc\",tma_node=\"Frontend\",level=\"1\"";
	struct slots_run run = { 0 };
	char *text;

	(void)state;
	slots_run_open(&run);
	text = slots_interval(&run, 3, 700.5, 100, 30, 10, 70);
	assert_non_null(strstr(text, "tma_node=\"Frontend\",level=\"1\"} 0.142755175\n"));
	assert_non_null(strstr(text, "tmacg_topdown_slots_total{host=\"node-1\",cgroup=\"/svc\"} "
				     "700.5\n"));
	assert_non_null(strstr(text, frontend));
	assert_non_null(strstr(strstr(text, frontend), "} 100\n"));
	free(text);
	slots_run_close(&run);
	slots_run_open(&run);
	for (int k = 0; k < 2; k++) {
		text = slots_interval(&run, 3, 7, 1.4, 0.2, 0.2, 3);
		assert_true(value_of(text, "tmacg_tma_node_slots_total", frontend) == (k ? 3 : 1));
		free(text);
	}
	slots_run_close(&run);
}

/* A model without SLOTS (srf, cwf, generic, software): gauges only. */
static void no_slot_counters_without_slots(void **state)
{
	char *l3 = model_text_at(3, true);

	(void)state;
	assert_null(strstr(l3, "_slots_total"));
	assert_non_null(strstr(l3, "tma_node=\"Frontend\",level=\"1\"} 0.5\n"));
	free(l3);
}

/* promtool, as Prometheus parses it: hostile names and every family at once. */
static void promtool_accepts_hostile_names(void **state)
{
	static const char *names[] = { "/a\"b",
				       "/back\\slash",
				       "/ctl\x01\x1f\n\t",
				       "/ünï",
				       "/bad\xff\xfe",
				       "/bad\xff\xfd",
				       "/bad\xee\xbf\xbf\xee\xbf\xbe",
				       "/end\\",
				       "(other)" };
	struct prom_expo *e = prom_expo_new(true);
	struct fake_line l;
	char *text;
	bool checked;

	(void)state;
	begin(e, 0);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		fake(&l, names[i], 1 + i, 0.5);
		l.res.k8s_namespace = names[i];
		l.res.k8s_pod = names[i];
		prom_expo_line(e, &l.line);
	}
	text = end(e);
	checked = promtool_accepts(text);
	free(text);
	prom_expo_free(e);
	if (!checked)
		skip();
}

/*
 * --prom-counts: the line's counts that are model events, as tmacg_events_total summed
 * over intervals, named as JSON's counts; a count never measured has no sample, one
 * that is not an event (context_switches, a copy of SW.CONTEXT_SWITCHES) none either.
 * The build info carries the formulas' inputs of a measured interval.
 */
static void prom_counts_events(void **state)
{
	static const char *const names[] = { "on_cpu_s", "context_switches", "SW.CONTEXT_SWITCHES",
					     "SW.PAGE_FAULTS", "SW.CPU_CLOCK" };
	char err[256];
	struct tma_model *m = model_load_builtin("software", err, sizeof(err));
	struct prom_expo *e = prom_expo_new(false), *plain = prom_expo_new(false);
	double values[5] = { 0.5, 5, 5, NAN, 1e9 };
	struct fake_line a;
	struct report_line head = { .time = { 1700000000, 0 },
				    .interval_s = 1,
				    .host = "node-1",
				    .model = "software",
				    .smt = true,
				    .pmu_slots = 8 };
	char *text;

	(void)state;
	assert_non_null(m);
	prom_expo_set_counts(e, true);
	for (int round = 0; round < 2; round++) {
		assert_int_equal(prom_expo_begin(e, &head), 0);
		fake(&a, "/svc", 7, 0.5);
		a.line.tma = m;
		a.line.ncounts = 5;
		a.line.count_names = names;
		a.line.count_values = values;
		assert_int_equal(prom_expo_line(e, &a.line), 0);
		text = end(e);
		assert_non_null(strstr(text, "model=\"software\",tma_version=\"\",smt=\"true\","
					     "topdown_fixed=\"false\",pmu_slots=\"8\"} 1\n"));
		assert_non_null(strstr(text, "# TYPE tmacg_events_total counter\n"));
		assert_non_null(
			strstr(text, round ? "tmacg_events_total{host=\"node-1\",cgroup=\"/svc\","
					     "event=\"SW.CONTEXT_SWITCHES\"} 10\n" :
					     "tmacg_events_total{host=\"node-1\",cgroup=\"/svc\","
					     "event=\"SW.CONTEXT_SWITCHES\"} 5\n"));
		assert_non_null(strstr(text, round ? "event=\"SW.CPU_CLOCK\"} 2000000000\n" :
						     "event=\"SW.CPU_CLOCK\"} 1000000000\n"));
		assert_null(strstr(text, "event=\"context_switches\""));
		assert_null(strstr(text, "event=\"on_cpu_s\""));
		if (!round)
			assert_null(strstr(text, "SW.PAGE_FAULTS"));
		else
			assert_non_null(strstr(text, "event=\"SW.PAGE_FAULTS\"} 3\n"));
		promtool_accepts(text);
		free(text);
		values[3] = 3; /* measured from the second interval on */
	}
	/* without --prom-counts: none */
	assert_int_equal(prom_expo_begin(plain, &head), 0);
	assert_int_equal(prom_expo_line(plain, &a.line), 0);
	text = end(plain);
	assert_null(strstr(text, "tmacg_events_total"));
	free(text);
	prom_expo_free(e);
	prom_expo_free(plain);
	model_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(label_values_are_escaped),
		cmocka_unit_test(one_interval_exact_text),
		cmocka_unit_test(unmeasured_text_has_no_interval),
		cmocka_unit_test(counters_sum_across_intervals_and_go_with_the_cgroup),
		cmocka_unit_test(one_series_per_cgroup_tasks_and_nulls_left_out),
		cmocka_unit_test(every_counter_family),
		cmocka_unit_test(k8s_labels_only_with_k8s),
		cmocka_unit_test(tma_nodes_by_path_and_level),
		cmocka_unit_test(node_samples_follow_the_model_and_the_line),
		cmocka_unit_test(measured_share_of_deep_nodes),
		cmocka_unit_test(node_labels_follow_the_plan),
		cmocka_unit_test(measured_joins_the_ratios_as_documented),
		cmocka_unit_test(slot_counters_give_exact_shares),
		cmocka_unit_test(pieces_join_to_the_text_and_come_back),
		cmocka_unit_test(rows_held_by_a_scrape_stay_as_published),
		cmocka_unit_test(no_slot_counters_without_slots),
		cmocka_unit_test(ratios_to_nine_digits_counters_exact),
		cmocka_unit_test(promtool_accepts_hostile_names),
		cmocka_unit_test(prom_counts_events),
		cmocka_unit_test(different_names_keep_different_values),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
