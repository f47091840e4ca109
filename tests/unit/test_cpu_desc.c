// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * CPU descriptions: the parser's checks (FILE:LINE messages), the built-in
 * set (each runs a model that exists and lists every event it reads), and
 * the point of the format: a CPU added as one description plus one model in
 * TMACG_MODEL_DIR (tests/fixtures/cpu-zzz) is detected, listed and planned
 * with no C edit.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "offline_capture.h"

#include "fake_root.h"
#include "model_dir.h"

#include "model/model.h"
#include "model_list.h"
#include "offline.h"
#include "options.h"
#include "pmu/cpu_desc.h"
#include "pmu/cpu_detect.h"
#include "pmu/events.h"
#include "pmu/plan_model.h"

static const char header[] =
	"cpu t\ntitle Test CPU\nmatch GenuineIntel-6-55-[0-4]\nmodel t\ntma_version 1\n"
	"libpfm none\ngp_counters 8\ngp_counters_smt 4\nfixed_counters 3\nperf_metrics no\n"
	"perf_metrics_l2 no\n";

static struct cpu_desc *parse(const char *text, const char *file, char *err, size_t errlen)
{
	return cpu_desc_parse(text, strlen(text), file, err, errlen);
}

static void test_parse_ok(void **state)
{
	char text[2048], err[512] = "";
	struct cpu_desc *d;
	const struct cpu_desc_event *e;

	(void)state;
	snprintf(text, sizeof(text),
		 "# comment\n\n%s"
		 "match GenuineIntel-6-6A    # a second key, no stepping\n"
		 "event Z.B event=0xa3 umask=0x04 cmask=4 edge=1 inv=1 counters=0-3 "
		 "counters_smt_off=0,1,2,3,4,5,6,7\n"
		 "event A.A event=0x00 umask=0x02 any=1 counters=fixed:1\n"
		 "event O.R event=0xb7 umask=0x01 msr=0x1a6 msr_value=0x10003C0002 counters=0,2\n",
		 header);
	d = parse(text, "dir/t.cpu", err, sizeof(err));
	if (!d)
		fail_msg("%s", err);
	assert_string_equal(d->id, "t");
	assert_string_equal(d->title, "Test CPU");
	assert_string_equal(d->model, "t");
	assert_string_equal(d->tma_version, "1");
	assert_null(d->libpfm);
	assert_int_equal(d->gp_counters, 8);
	assert_int_equal(d->gp_counters_smt, 4);
	assert_int_equal(d->fixed_counters, 3);
	assert_false(d->perf_metrics);
	assert_int_equal(d->nmatch, 2);
	assert_string_equal(d->match[0].vendor, "GenuineIntel");
	assert_int_equal(d->match[0].family, 6);
	assert_int_equal(d->match[0].model, 0x55);
	assert_int_equal(d->match[0].steppings, 0x1f);
	assert_int_equal(d->match[1].model, 0x6a);
	assert_int_equal(d->match[1].steppings, 0xffff);
	/* Sorted by name, found by name. */
	assert_string_equal(d->events[0].name, "A.A");
	e = cpu_desc_event(d, "Z.B");
	assert_non_null(e);
	assert_int_equal(e->event, 0xa3);
	assert_int_equal(e->umask, 0x04);
	assert_int_equal(e->cmask, 4);
	assert_true(e->edge && e->inv && !e->any);
	assert_int_equal(e->fixed, -1);
	assert_int_equal(cpu_desc_event_counters(e, true), 0xf);
	assert_int_equal(cpu_desc_event_counters(e, false), 0xff);
	e = cpu_desc_event(d, "A.A");
	assert_int_equal(e->fixed, 1);
	assert_true(e->any);
	e = cpu_desc_event(d, "O.R");
	assert_int_equal(e->msr, 0x1a6);
	assert_int_equal(e->msr_value, 0x10003C0002ull);
	/* Without counters_smt_off the SMT-on list holds for both. */
	assert_int_equal(cpu_desc_event_counters(e, false), 0x5);
	assert_null(cpu_desc_event(d, "NO.PE"));
	cpu_desc_free(d);
}

static void expect_parse_error(const char *extra, const char *want)
{
	char text[2048], err[512] = "";
	struct cpu_desc *d;

	snprintf(text, sizeof(text), "%s%s", header, extra);
	d = parse(text, "t.cpu", err, sizeof(err));
	if (d)
		fail_msg("'%s' parsed; want an error with '%s'", extra, want);
	if (!strstr(err, want))
		fail_msg("'%s': message '%s' lacks '%s'", extra, err, want);
}

/* Line 12 is the first after the header. */
/* retire_latency lines: Intel's published defaults of EVENT:retire_latency (TMA 5.1). */
static void test_retire_latency_lines(void **state)
{
	char text[2048], err[512] = "";
	struct cpu_desc *d;
	const struct rl_table *gnr;

	(void)state;
	snprintf(text, sizeof(text), "%sretire_latency A.B 63.76\nretire_latency C.D 0\n", header);
	d = parse(text, "t.cpu", err, sizeof(err));
	if (!d)
		fail_msg("%s", err);
	assert_int_equal(d->retire_latency.n, 2);
	assert_float_equal(*rl_table_find(&d->retire_latency, "A.B"), 63.76, 0);
	assert_float_equal(*rl_table_find(&d->retire_latency, "C.D"), 0, 0);
	cpu_desc_free(d);
	expect_parse_error("retire_latency A.B\n", "t.cpu:12: 'retire_latency' takes an event");
	expect_parse_error("retire_latency A.B x\n", "want a number of cycles");
	expect_parse_error("retire_latency A.B -1\n", "a latency is 0 or more cycles");
	expect_parse_error("retire_latency A.B nan\n", "a latency is 0 or more cycles");
	expect_parse_error("retire_latency A.B:c1 3\n", "want Intel's EventName");
	expect_parse_error("retire_latency A.B 1\nretire_latency A.B 2\n",
			   "t.cpu:13: retire_latency A.B given twice");
	/* the built-in gnr carries Intel's MEANs (graniterapids_retire_latency.json) */
	unsetenv("TMACG_MODEL_DIR");
	cpu_desc_reset();
	gnr = cpu_desc_latency_defaults("gnr");
	assert_non_null(gnr);
	assert_int_equal(gnr->n, 26);
	assert_float_equal(*rl_table_find(gnr, "MEM_INST_RETIRED.LOCK_LOADS"), 63.76, 0);
	assert_float_equal(*rl_table_find(gnr, "MEM_LOAD_L3_MISS_RETIRED.REMOTE_DRAM"), 430.22, 0);
	assert_null(rl_table_find(gnr, "MEM_INST_RETIRED.STLB_MISS_LOADS")); /* none published */
	assert_null(cpu_desc_latency_defaults("spr"));
}

static void test_parse_errors(void **state)
{
	char err[512] = "";

	(void)state;
	expect_parse_error("frobnicate 1\n", "t.cpu:12: unknown directive 'frobnicate'");
	expect_parse_error("gp_counters 4\n", "t.cpu:12: second 'gp_counters' line");
	expect_parse_error("event X.Y event=0x3c umask=0 counters=0-3 cmsk=1\n",
			   "t.cpu:12: event X.Y: unknown key 'cmsk'");
	expect_parse_error("event X.Y event=0x3c counters=0-3\n", "event=, umask= and counters=");
	expect_parse_error("event X.Y event=0x1000 umask=0 counters=0-3\n", "event=0x1000");
	expect_parse_error("event X.Y event=0x3c umask=0 edge=2 counters=0-3\n", "edge=2");
	expect_parse_error("event X.Y event=0x3c umask=0 counters=0-9\n",
			   "t.cpu:12: event X.Y: a counter beyond gp_counters 8");
	expect_parse_error("event X.Y event=0x3c umask=0 counters=3-1\n", "counters=3-1");
	expect_parse_error("event X.Y event=0x3c umask=0 counters=fixed:3\n",
			   "fixed counter 3 but fixed_counters is 3");
	expect_parse_error("event X.Y event=0 umask=2 counters=fixed:1 counters_smt_off=0-7\n",
			   "no counters_smt_off");
	expect_parse_error("event X.Y event=0xb7 umask=1 msr=0x1a6 counters=0-3\n",
			   "msr= and msr_value= go together");
	expect_parse_error("event X.Y:c1 event=0x3c umask=0 counters=0-3\n", "no ':modifier'");
	expect_parse_error("event X.Y event=0x3c umask=0 counters=0\n"
			   "event X.Y event=0x3c umask=0 counters=0\n",
			   "t.cpu:13: event X.Y given twice (first on line 12)");
	expect_parse_error("event X.Y event=0x3c umask=0 counters=0 junk\n", "not key=value");
	expect_parse_error("match GenuineIntel-6-55-[0-Z]\n", "t.cpu:12: 'match");
	expect_parse_error("match GenuineIntel-6\n", "VENDOR-FAMILY-MODEL");
	expect_parse_error("match GenuineIntel-0x6-55\n", "VENDOR-FAMILY-MODEL");
	/* Nothing may follow the key's last part: junk is a typo, not a wider match. */
	expect_parse_error("match GenuineIntel-6-6A-[0-4]-junk\n", "want mapfile.csv's key");
	expect_parse_error("match GenuineIntel-6-6A-[0-4]junk\n", "want mapfile.csv's key");
	expect_parse_error("match GenuineIntel-6-6A-[0-4]]\n", "want mapfile.csv's key");
	expect_parse_error("match GenuineIntel-6-6A-[0-]\n", "want mapfile.csv's key");
	expect_parse_error("match GenuineIntel-6-6A-[0-4-]\n", "want mapfile.csv's key");
	expect_parse_error("match GenuineIntel-6-6A-4-junk\n", "want mapfile.csv's key");
	expect_parse_error("match GenuineIntel-6-6A-\n", "want mapfile.csv's key");
	expect_parse_error("match AuthenticAMD-19-[10-1F]junk\n", "want mapfile.csv's key");
	expect_parse_error("match GenuineIntel-6-6A-[]\n", "want mapfile.csv's key");
	expect_parse_error("software_standins\n", "t.cpu:12: 'software_standins' takes one");
	expect_parse_error("software_standins SW.CPU_CLOCK cycles\n",
			   "t.cpu:12: software_standins: cycles is not a software event");
	expect_parse_error("software_standins SW.CPU_CLOCK\nsoftware_standins SW.CPU_CLOCK\n",
			   "t.cpu:13: second 'software_standins' line");
	/* Whole-file checks. */
	assert_null(parse(header, "other.cpu", err, sizeof(err)));
	assert_non_null(strstr(err, "'cpu t' must equal the file name (t.cpu)"));
	assert_null(parse("cpu t\n", "t.cpu", err, sizeof(err)));
	assert_non_null(strstr(err, "t.cpu: no 'title' line"));
	{
		char text[2048];

		snprintf(text, sizeof(text), "%s", header);
		*strstr(text, "gp_counters_smt 4") = '#'; /* drop the line */
		assert_null(parse(text, "t.cpu", err, sizeof(err)));
		assert_non_null(strstr(err, "no 'gp_counters_smt' line"));
		snprintf(text, sizeof(text), "%s", header);
		memcpy(strstr(text, "match"), "#atch", 5);
		assert_null(parse(text, "t.cpu", err, sizeof(err)));
		assert_non_null(strstr(err, "no 'match' line"));
		snprintf(text, sizeof(text), "%s", header);
		memcpy(strstr(text, "perf_metrics_l2 no"), "perf_metrics_l2 ye", 18);
		assert_null(parse(text, "t.cpu", err, sizeof(err)));
		assert_non_null(strstr(err, "want yes or no"));
	}
}

/* Every event a model reads, by base name, when it needs a PMU counter description. */
static bool needs_description(const char *name)
{
	return strncmp(name, "PERF_METRICS.", 13) && strcmp(name, "msr/tsc/") &&
	       strncmp(name, "SW.", 3);
}

/*
 * Each built-in description runs a model that exists, of the same TMA
 * version, and lists every hardware event that model reads.
 */
static void test_builtins_cover_their_models(void **state)
{
	char err[512] = "";

	(void)state;
	unsetenv("TMACG_MODEL_DIR");
	cpu_desc_reset();
	assert_int_equal(cpu_desc_init(err, sizeof(err)), 0);
	assert_true(cpu_desc_count() >= 3);
	for (int i = 0; i < cpu_desc_count(); i++) {
		const struct cpu_desc *d = cpu_desc_at(i);
		struct tma_model *m = model_load_builtin(d->model, err, sizeof(err));

		if (!m)
			fail_msg("%s runs model %s: %s", d->id, d->model, err);
		assert_string_equal(d->tma_version, model_tma_version(m));
		assert_ptr_equal(cpu_desc_by_id(d->id), d);
		for (int k = 0; k < model_event_count(m); k++) {
			char base[128];

			snprintf(base, sizeof(base), "%s", model_event_name(m, k));
			base[strcspn(base, ":")] = '\0';
			if (needs_description(base) && !cpu_desc_event(d, base))
				fail_msg("%s (model %s) reads %s, which %s does not describe",
					 d->id, d->model, base, d->path);
		}
		model_free(m);
	}
}

/* The CPUIDs of the issue: SKX stepping 4 vs CLX stepping 7, EMR its own model (TMA 5.2). */
static void test_cpuid_lookup(void **state)
{
	static const struct {
		int model, stepping;
		const char *cpu, *runs;
	} want[] = {
		{ 0x55, 0, "skx", "skx" }, { 0x55, 4, "skx", "skx" },  { 0x55, 5, "clx", "clx" },
		{ 0x55, 7, "clx", "clx" }, { 0x55, 11, "clx", "clx" }, { 0x6A, 6, "icx", "icx" },
		{ 0x6C, 1, "icx", "icx" }, { 0x8F, 8, "spr", "spr" },  { 0xCF, 2, "emr", "emr" },
		{ 0xAD, 1, "gnr", "gnr" }, { 0xAE, 1, "gnr", "gnr" },  { 0xAF, 3, "srf", "srf" },
		{ 0xDD, 0, "cwf", "cwf" }, { 0xDD, 0, "cwf", "cwf" },
	};

	(void)state;
	unsetenv("TMACG_MODEL_DIR");
	cpu_desc_reset();
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const struct cpu_desc *d =
			cpu_desc_by_cpuid("GenuineIntel", 6, want[i].model, want[i].stepping);

		if (!d || strcmp(d->id, want[i].cpu) || strcmp(d->model, want[i].runs))
			fail_msg("6/0x%X stepping %d: got %s, want %s running %s", want[i].model,
				 want[i].stepping, d ? d->id : "none", want[i].cpu, want[i].runs);
	}
	/* SKX and CLX share a model number: without a stepping neither may be guessed. */
	assert_null(cpu_desc_by_cpuid("GenuineIntel", 6, 0x55, -1));
	assert_non_null(cpu_desc_by_cpuid("GenuineIntel", 6, 0x6A, -1));
	assert_null(cpu_desc_by_cpuid("AuthenticAMD", 6, 0x6A, 6));
	assert_null(cpu_desc_by_cpuid("GenuineIntel", 15, 0x6A, 6));
	assert_string_equal(cpu_desc_for_model("spr")->id, "spr");
	assert_null(cpu_desc_for_model("software"));
}

/*
 * MORE-CPUS.md: family 0x19 is Zen 4 except models 0x00-0x0F, 0x20-0x2F, 0x40-0x5F (Zen 3,
 * no model: generic); family 0x1A is Zen 5 in models 0x00-0x2F, 0x40-0x4F, 0x60-0x7F and
 * Zen 6 in every other (perf's mapfile; AMD's Venice is 0x50-0x57).  Every edge of every range.
 */
static void test_amd_cpuid_lookup(void **state)
{
	static const struct {
		int family, model;
		const char *cpu; /* NULL: no description (Zen 3 and older run generic) */
	} want[] = {
		{ 0x19, 0x00, NULL },	{ 0x19, 0x01, NULL },	{ 0x19, 0x0F, NULL },
		{ 0x19, 0x10, "zen4" }, { 0x19, 0x11, "zen4" }, { 0x19, 0x1F, "zen4" },
		{ 0x19, 0x20, NULL },	{ 0x19, 0x2F, NULL },	{ 0x19, 0x30, "zen4" },
		{ 0x19, 0x3F, "zen4" }, { 0x19, 0x40, NULL },	{ 0x19, 0x5F, NULL },
		{ 0x19, 0x60, "zen4" }, { 0x19, 0xA0, "zen4" }, { 0x19, 0xFF, "zen4" },
		{ 0x1A, 0x00, "zen5" }, { 0x1A, 0x02, "zen5" }, { 0x1A, 0x11, "zen5" },
		{ 0x1A, 0x2F, "zen5" }, { 0x1A, 0x30, "zen6" }, { 0x1A, 0x3F, "zen6" },
		{ 0x1A, 0x40, "zen5" }, { 0x1A, 0x4F, "zen5" }, { 0x1A, 0x50, "zen6" },
		{ 0x1A, 0x57, "zen6" }, { 0x1A, 0x5F, "zen6" }, { 0x1A, 0x60, "zen5" },
		{ 0x1A, 0x7F, "zen5" }, { 0x1A, 0x80, "zen6" }, { 0x1A, 0xFF, "zen6" },
		{ 0x17, 0x31, NULL },	{ 0x18, 0x00, NULL },
	};

	(void)state;
	unsetenv("TMACG_MODEL_DIR");
	cpu_desc_reset();
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		const struct cpu_desc *d =
			cpu_desc_by_cpuid("AuthenticAMD", want[i].family, want[i].model, -1);

		if (want[i].cpu ?
			    !d || strcmp(d->id, want[i].cpu) || strcmp(d->model, want[i].cpu) :
			    d != NULL)
			fail_msg("AMD 0x%X/0x%X: got %s, want %s", want[i].family, want[i].model,
				 d ? d->id : "none", want[i].cpu ? want[i].cpu : "none");
	}
	/* The AMD descriptions name no Intel CPU: vendor is part of the key. */
	assert_null(cpu_desc_by_cpuid("GenuineIntel", 0x19, 0x11, 1));
	assert_string_equal(cpu_desc_by_id("zen4")->group_cycles, "ls_not_halted_cyc");
	assert_int_equal(cpu_desc_by_id("zen5")->fixed_counters, 0);
	assert_int_equal(cpu_desc_by_id("zen6")->fixed_counters, 0);
	assert_string_equal(cpu_desc_by_id("zen6")->group_cycles, "ls_not_halted_cyc");
}

/* Model ranges in match keys, and overlapping ranges refused. */
static void test_match_ranges(void **state)
{
	char err[512] = "";
	struct cpu_desc *d;

	(void)state;
	expect_parse_error("match AuthenticAMD-19-[20-1F]\n", "match AuthenticAMD-19-[20-1F]");
	/* Models up to three digits (Arm's 12-bit part number), families up to two. */
	expect_parse_error("match AuthenticAMD-19-[10-1FFF]\n", "want mapfile.csv's key");
	expect_parse_error("match ARM-141-D49\n", "want mapfile.csv's key");
	expect_parse_error("match AuthenticAMD-19-[10\n", "want mapfile.csv's key");
	d = parse("# x\ncpu t\ntitle T\nmatch AuthenticAMD-19-[10-1F]-[0-3]\nmodel t\n"
		  "tma_version 1\nlibpfm none\ngp_counters 6\ngp_counters_smt 6\n"
		  "fixed_counters 0\nperf_metrics no\nperf_metrics_l2 no\n",
		  "t.cpu", err, sizeof(err));
	if (!d)
		fail_msg("%s", err);
	assert_int_equal(d->match[0].model, 0x10);
	assert_int_equal(d->match[0].model_last, 0x1F);
	assert_int_equal(d->match[0].steppings, 0xF);
	cpu_desc_free(d);
}

/*
 * Arm's event numbers have 16 bits (0x8162) and are the raw config: only a description whose
 * keys are MIDR_EL1's (ARM-...) takes one above x86's 12-bit select, and one description is
 * Arm's or not, never both.
 */
static void test_pmuv3_event_numbers(void **state)
{
	static const char arm[] =
		"cpu t\ntitle T\nmatch ARM-41-D84\nmodel t\ntma_version 1\nlibpfm none\n"
		"gp_counters 6\ngp_counters_smt 6\nfixed_counters 1\nperf_metrics no\n"
		"perf_metrics_l2 no\nevent STALL_FRONTEND_FLUSH event=0x8162 umask=0x00 counters=0-5\n";
	char text[1024], err[512] = "";
	struct cpu_desc *d;

	(void)state;
	d = parse(arm, "t.cpu", err, sizeof(err));
	if (!d)
		fail_msg("%s", err);
	assert_true(d->pmuv3);
	assert_int_equal(cpu_desc_event(d, "STALL_FRONTEND_FLUSH")->event, 0x8162);
	cpu_desc_free(d);
	expect_parse_error("event A.B event=0x8162 umask=0x00 counters=0-3\n",
			   "t.cpu:12: event A.B: event=0x8162: above 0xfff only for Arm");
	expect_parse_error("event A.B event=0x10000 umask=0x00 counters=0-3\n",
			   "event=0x10000: want a number up to 65535");
	/* an Arm key beside an Intel one: refused, whichever comes first */
	expect_parse_error("match ARM-41-D84\n", "match keys of Arm (ARM-...) and of GenuineIntel");
	snprintf(text, sizeof(text), "%smatch GenuineIntel-6-55\n", arm);
	assert_null(parse(text, "t.cpu", err, sizeof(err)));
	assert_non_null(strstr(err, "match keys of Arm (ARM-...) and of GenuineIntel"));
	/* the shipped descriptions: the Neoverse ones are Arm's, no other */
	unsetenv("TMACG_MODEL_DIR");
	cpu_desc_reset();
	assert_int_equal(cpu_desc_init(err, sizeof(err)), 0);
	assert_true(cpu_desc_count() > 10);
	for (int i = 0; i < cpu_desc_count(); i++)
		assert_int_equal(cpu_desc_at(i)->pmuv3,
				 !strncmp(cpu_desc_at(i)->id, "neoverse-", 9));
}

static char *capture_list(void)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len), *e = fopen("/dev/null", "w");

	assert_int_equal(model_list_print(f, e), 0);
	fclose(f);
	fclose(e);
	return out;
}

/* --list-models: every model with the CPUs that run it, its TMA version and the older ones. */
static void test_list_models(void **state)
{
	char *out, line[512];

	(void)state;
	unsetenv("TMACG_MODEL_DIR");
	cpu_desc_reset();
	out = capture_list();
	for (int i = 0; i < cpu_desc_count(); i++) {
		const struct cpu_desc *d = cpu_desc_at(i);
		const char *at = out, *want;

		/* The model's line starts "MODEL\t": the first, or after a newline. */
		snprintf(line, sizeof(line), "%s\t", d->model);
		while (at && strncmp(at, line, strlen(line)))
			at = strchr(at, '\n') ? strchr(at, '\n') + 1 : NULL;
		if (!at)
			fail_msg("model %s missing from:\n%s", d->model, out);
		snprintf(line, sizeof(line), "%s: %s", d->id, d->title);
		want = strstr(at, line);
		if (!want || strchr(at, '\n') < want)
			fail_msg("'%s' not on model %s's line:\n%s", line, d->model, out);
	}
	assert_non_null(strstr(out, "TMA 5.2 (also 5.01)\tspr: "));
	assert_non_null(strstr(out, "TMA 5.2 (also 4.5)\ticx: "));
	assert_non_null(strstr(out, "TMA 5.2 (also 5.1)\tgnr: "));
	assert_null(strstr(out, "\nicx@")); /* a version is no model of its own */
	/* the E-core Xeon (MORE-CPUS.md): its own model */
	assert_non_null(
		strstr(out, "srf\tIntel Xeon 6 with E-cores (Sierra Forest)\tTMA 3.6\tsrf: "));
	assert_non_null(strstr(out, "cwf\tIntel Xeon 6+ with E-cores (Clearwater Forest)\tTMA "
				    "3.6\tcwf: "));
	assert_non_null(strstr(out, "\nemr\tIntel Xeon Scalable 5th gen (Emerald Rapids)\tTMA "
				    "5.2\temr: Intel Xeon Scalable 5th gen (Emerald Rapids)\n"));
	/* Arm's Neoverse cores (MORE-CPUS.md), each its own model */
	assert_non_null(strstr(out, "\tneoverse-n1: Arm Neoverse N1\n"));
	assert_non_null(
		strstr(out, "\tneoverse-n2: Arm Neoverse N2 r0p0-r0p2 (Azure Cobalt 100)\n"));
	assert_non_null(strstr(out, "\tneoverse-n2-r0p3: Arm Neoverse N2 r0p3 (Azure Cobalt 100 at "
				    "r0p3)\n"));
	assert_non_null(strstr(out, "\tneoverse-v1: Arm Neoverse V1\n"));
	assert_non_null(strstr(out, "\tneoverse-v2: Arm Neoverse V2\n"));
	/* the cloud's newer cores: Arm's four levels, and AMD's Zen 6 */
	assert_non_null(strstr(out, "\nneoverse-v3\tArm Neoverse V3 top-down levels 1-4 (AWS "
				    "Graviton5, Azure Cobalt 200)\tts-6687b72\tneoverse-v3: Arm "
				    "Neoverse V3 (AWS Graviton5, Azure Cobalt 200)\n"));
	assert_non_null(strstr(out, "\nneoverse-n3\tArm Neoverse N3 top-down levels 1-4\t"
				    "ts-6687b72\tneoverse-n3: Arm Neoverse N3\n"));
	assert_non_null(strstr(out, "\nzen6\tAMD Zen 6 pipeline utilization (EPYC Venice)\t"
				    "perf-d4eb7b2d\tzen6: AMD EPYC, Zen 6\n"));
	/* AMD's and Arm's formulas carry their source's commit, which is no TMA version */
	assert_non_null(strstr(out, "\tperf-037dd130\tzen4: "));
	assert_non_null(strstr(out, "\tts-6687b72\tneoverse-n1: "));
	assert_null(strstr(out, "TMA perf-"));
	assert_null(strstr(out, "TMA ts-"));
	free(out);
}

/*
 * --list-models prints a model's and a CPU description's title, text a file of
 * TMACG_MODEL_DIR chose: a terminal control in it is shown as \xHH, never sent.
 */
static void test_list_models_escapes_titles(void **state)
{
	char dir[] = "/tmp/tmacg-titles-XXXXXX", *out;
	static const char *const files[][2] = {
		{ "t.tma", "model t\ntitle Model \033]0;owned\007 T\ntma_version 1\n"
			   "node 1 A\n  formula E.A\n" },
		{ "t.cpu", "cpu t\ntitle CPU \033[2J T\nmatch GenuineIntel-6-F1-[0-4]\nmodel t\n"
			   "tma_version 1\nlibpfm none\ngp_counters 6\ngp_counters_smt 6\n"
			   "fixed_counters 0\nperf_metrics no\nperf_metrics_l2 no\n" },
	};

	(void)state;
	assert_int_equal(model_dir_make(dir, files, 2), 0);
	setenv("TMACG_MODEL_DIR", dir, 1);
	cpu_desc_reset();
	out = capture_list();
	unsetenv("TMACG_MODEL_DIR");
	cpu_desc_reset();
	model_dir_remove(dir, files, 2);
	if (strchr(out, '\033'))
		fail_msg("a terminal control in --list-models:\n%s", out);
	assert_non_null(strstr(out, "\nt\tModel \\x1b]0;owned\\x07 T\tTMA 1\tt: CPU \\x1b[2J T\n"));
	free(out);
}

/* tmacg --help's --model line lists every model. */
static void test_help_lists_models(void **state)
{
	char *out = NULL, **ids = NULL, *line;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	int n;

	(void)state;
	unsetenv("TMACG_MODEL_DIR");
	options_usage(f);
	fclose(f);
	line = strstr(out, "--model ID");
	assert_non_null(line);
	*strchr(line, '(') = '\0';
	n = model_list_ids(&ids);
	assert_true(n >= 5);
	for (int i = 0; i < n; i++) {
		if (!strstr(line, ids[i]))
			fail_msg("--help's --model line '%s' lacks %s", line, ids[i]);
		free(ids[i]);
	}
	free(ids);
	free(out);
}

static char root[256];

static int fake_cpuid(unsigned int leaf, unsigned int subleaf, unsigned int regs[4])
{
	(void)subleaf;
	memset(regs, 0, 4 * sizeof(regs[0]));
	regs[0] = leaf == 0 ? 0x1b : leaf == 0xA ? 0x07300305 : 0; /* 3 GP counters */
	if (leaf == 0xA) {
		regs[2] = 0x7;	 /* version 5: fixed counters 0-2 */
		regs[3] = 0x603; /* 3 fixed counters, 48 bits wide */
	}
	return 0;
}

static const char *fixtures(void)
{
	const char *dir = getenv("TMACG_TEST_FIXTURES");

	return dir && *dir ? dir : "tests/fixtures";
}

static void set_model_dir(const char *sub)
{
	char dir[1024];

	snprintf(dir, sizeof(dir), "%s/%s", fixtures(), sub);
	if (access(dir, R_OK))
		fail_msg("%s missing (run from the repository root or set TMACG_TEST_FIXTURES)",
			 dir);
	setenv("TMACG_MODEL_DIR", dir, 1);
	cpu_desc_reset();
}

static struct cpu_info detect_zzz(int stepping)
{
	struct cpu_detect_opts o = { .root = root, .cpuid = fake_cpuid };
	struct cpu_info ci;
	char text[512], err[512] = "";

	snprintf(text, sizeof(text),
		 "processor\t: 0\nvendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 240\n"
		 "model name\t: Made-up CPU\nstepping\t: %d\n\n",
		 stepping);
	fake_root_put(root, "/proc/cpuinfo", text);
	if (cpu_detect(&o, &ci, err, sizeof(err)))
		fail_msg("cpu_detect: %s", err);
	return ci;
}

/*
 * Adding a CPU is data: tests/fixtures/cpu-zzz holds zzz.cpu, yyy.cpu (a
 * stepping split, like SKX/CLX) and zzz.tma, with events libpfm4 has never
 * heard of.  Detected from a fixture /proc and /sys, listed, planned.
 */
static void test_new_cpu_is_data(void **state)
{
	struct cpu_info ci;
	struct plan_request r = { .level = 3 };
	static struct plan p;
	char err[1024] = "", *out;
	struct tma_model *m;

	(void)state;
	snprintf(root, sizeof(root), "/tmp/tmacg-desc-XXXXXX");
	assert_int_equal(fake_root_make(root), 0);
	fake_root_put(root, "/sys/bus/event_source/devices/cpu/type", "4\n");
	fake_root_put(root, "/sys/devices/system/cpu/smt/active", "1\n");
	fake_root_put(root, "/proc/sys/kernel/nmi_watchdog", "0\n");
	set_model_dir("cpu-zzz");

	ci = detect_zzz(3);
	assert_non_null(ci.cpu);
	assert_string_equal(ci.cpu->id, "zzz");
	assert_string_equal(ci.model_id, "zzz");
	assert_int_equal(ci.stepping, 3);
	ci = detect_zzz(9);
	assert_string_equal(ci.cpu->id, "yyy");
	assert_string_equal(cpu_select_model(&ci, NULL, err, sizeof(err)), "zzz");

	out = capture_list();
	assert_non_null(strstr(out, "\nzzz\tTest model ZZZ\tTMA 0.1\tzzz: Test CPU ZZZ (made up); "
				    "yyy: Test CPU YYY (made up, zzz stepping 5 and up)\n"));
	assert_non_null(strstr(out, "\nspr\t")); /* the built-ins stay */
	free(out);

	m = model_load_builtin("zzz", err, sizeof(err));
	if (!m)
		fail_msg("%s", err);
	r.model = m;
	r.cpu = &ci; /* a host with a PMU: CPUID leaf 0xA's 3 counters, SMT on */
	if (plan_for_model(&r, &p, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(p.gp_counters, 3);
	assert_int_equal(p.ev[plan_index(&p, "CPU_CLK_UNHALTED.THREAD_ANY")].attr.config,
			 0x20003c); /* AnyThread on the kernel's fixed-counter-1 encoding */
	assert_int_equal(p.ev[plan_index(&p, "ZZZ_STALLS.BACKEND:c1:e1")].attr.config, 0x10404a3);
	assert_int_equal(p.ev[plan_index(&p, "ZZZ_STALLS.BACKEND:c1:e1")].counter_mask, 0x1);
	assert_int_equal(p.ev[plan_index(&p, "ZZZ_OCR.DRAM")].attr.config1, 0x184000001ull);
	/* SMT off: counters_smt_off, the plain clock. */
	ci.smt = false;
	if (plan_for_model(&r, &p, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(plan_index(&p, "CPU_CLK_UNHALTED.THREAD_ANY"), -1);
	assert_int_equal(p.ev[plan_index(&p, "ZZZ_STALLS.BACKEND:c1:e1")].counter_mask, 0x3);
	/* libpfm none: an event the description does not list is refused, naming the file. */
	{
		struct event_target t = { .pmu_type = 4, .cpu = ci.cpu, .smt = true };
		struct event_enc e;

		assert_int_equal(event_encode(&t, "ZZZ_NOT.LISTED", &e, err, sizeof(err)), -ENOENT);
		assert_non_null(strstr(err, "ZZZ_NOT.LISTED: CPU description yyy does not "
					    "list it"));
		assert_non_null(strstr(err, "cpu-zzz/yyy.cpu"));
	}
	/* Away from a host: the description's SMT counters. */
	r.cpu = NULL;
	if (plan_for_model(&r, &p, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(p.gp_counters, 3);
	model_free(m);

	/* tmacg --list-events on that host (no PMU in the fixture): detected and planned. */
	{
		const char *argv[] = { "tmacg", "--list-events", "--level", "3", NULL };
		char text[8192];

		fake_root_put(root, "/sys/devices/system/cpu/smt/active", "1\n");
		unlink(strcat(strcpy(text, root), "/sys/bus/event_source/devices/cpu/type"));
		assert_int_equal(offline_capture(STDOUT_FILENO, root, 4, argv, text, sizeof(text)),
				 0);
		/* The fixture's cpuinfo is stepping 9 by now: yyy, which runs zzz. */
		assert_non_null(strstr(text, "# this CPU: yyy (Test CPU YYY (made up, zzz "
					     "stepping 5 and up)), planning model zzz\n"));
		assert_non_null(strstr(text, "# planned for zzz's CPU with SMT on"));
		assert_non_null(strstr(text, "3 general-purpose counters per group"));
		assert_non_null(strstr(text, "ZZZ_OCR.DRAM"));
	}

	unsetenv("TMACG_MODEL_DIR");
	cpu_desc_reset();
	ci = detect_zzz(3);
	assert_null(ci.cpu);
	assert_null(cpu_select_model(&ci, NULL, err, sizeof(err)));
	assert_non_null(strstr(err, "TMACG_MODEL_DIR"));
	assert_non_null(strstr(err, "Emerald Rapids"));
	assert_int_equal(fake_root_remove(root), 0);
}

/* A broken data drop is refused by file and line, never half-loaded. */
static void test_model_dir_errors(void **state)
{
	char dir[] = "/tmp/tmacg-desc-dir-XXXXXX", path[512], err[512] = "";
	struct tma_model *m;
	FILE *f;

	(void)state;
	setenv("TMACG_MODEL_DIR", "/nonexistent/tmacg", 1);
	cpu_desc_reset();
	assert_int_not_equal(cpu_desc_init(err, sizeof(err)), 0);
	assert_non_null(strstr(err, "TMACG_MODEL_DIR=/nonexistent/tmacg"));
	assert_int_equal(cpu_desc_count(), 0);

	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/bad.cpu", dir);
	f = fopen(path, "w");
	fputs("cpu bad\ntitle Bad\ngp_counters eight\n", f);
	fclose(f);
	setenv("TMACG_MODEL_DIR", dir, 1);
	cpu_desc_reset();
	assert_int_not_equal(cpu_desc_init(err, sizeof(err)), 0);
	assert_non_null(strstr(err, "bad.cpu:3: 'gp_counters eight'"));
	remove(path);

	/* A second description of a built-in CPU under another id: refused, both named. */
	snprintf(path, sizeof(path), "%s/icx2.cpu", dir);
	f = fopen(path, "w");
	fputs("cpu icx2\ntitle Another Ice Lake\nmatch GenuineIntel-6-6C-[3]\nmodel icx\n"
	      "tma_version 4.5\nlibpfm icx\ngp_counters 8\ngp_counters_smt 8\n"
	      "fixed_counters 4\nperf_metrics yes\nperf_metrics_l2 no\n",
	      f);
	fclose(f);
	cpu_desc_reset();
	assert_int_equal(cpu_desc_init(err, sizeof(err)), -EEXIST);
	assert_non_null(strstr(err, "icx.cpu and "));
	assert_non_null(strstr(err, "icx2.cpu both match GenuineIntel family 6 model 0x6C"));
	/* Under the built-in's id it replaces it. */
	{
		char to[512];

		snprintf(to, sizeof(to), "%s/icx.cpu", dir);
		f = fopen(path, "r+");
		fputs("cpu icx ", f); /* "cpu icx2" -> "cpu icx " */
		fclose(f);
		assert_int_equal(rename(path, to), 0);
		cpu_desc_reset();
		if (cpu_desc_init(err, sizeof(err)))
			fail_msg("%s", err);
		assert_string_equal(cpu_desc_by_id("icx")->title, "Another Ice Lake");
		assert_null(cpu_desc_by_cpuid("GenuineIntel", 6, 0x6A, 1));
		assert_ptr_equal(cpu_desc_by_cpuid("GenuineIntel", 6, 0x6C, 3),
				 cpu_desc_by_id("icx"));
		remove(to);
	}

	/* A model still carrying the old 'cpu' line points to the description. */
	snprintf(path, sizeof(path), "%s/old.tma", dir);
	f = fopen(path, "w");
	fputs("model old\ncpu GenuineIntel 6 0x6A\nnode 1 A\n  formula 1\n", f);
	fclose(f);
	cpu_desc_reset();
	m = model_load_builtin("old", err, sizeof(err));
	assert_null(m);
	assert_non_null(strstr(err, "old.tma:2"));
	assert_non_null(strstr(err, "'model old' in its .cpu file"));
	remove(path);
	rmdir(dir);
	unsetenv("TMACG_MODEL_DIR");
	cpu_desc_reset();
}

/*
 * On this project's own machine (a Zen 5 VM, no PMU), --list-events --model
 * zen4 --level 2 names the CPU and shows the plan for six counters, then for
 * five with the NMI watchdog holding one: every group with its own cycles.
 */
static void test_list_events_amd(void **state)
{
	const char *argv[] = { "tmacg", "--list-events", "--model", "zen4", "--level", "2", NULL };
	char text[16384];
	const char *wd;

	(void)state;
	unsetenv("TMACG_MODEL_DIR");
	cpu_desc_reset();
	snprintf(root, sizeof(root), "/tmp/tmacg-desc-XXXXXX");
	assert_int_equal(fake_root_make(root), 0);
	fake_root_put(root, "/proc/cpuinfo",
		      "processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 26\n"
		      "model\t\t: 2\nmodel name\t: AMD EPYC\nstepping\t: 1\n");
	assert_int_equal(offline_capture(STDOUT_FILENO, root, 6, argv, text, sizeof(text)), 0);
	assert_non_null(strstr(text, "# this CPU: zen5 (AMD EPYC, Zen 5), planning model zen4\n"));
	assert_non_null(strstr(text, "14 events in 3 groups, 6 general-purpose counters per group\n"
				     "group 0 (its own cycles)\n"));
	wd = strstr(text, "# with kernel.nmi_watchdog=1 (the watchdog holds one counter):\n");
	assert_non_null(wd);
	assert_non_null(
		strstr(wd, "14 events in 3 groups, 5 general-purpose counters per group\n"));
	assert_null(strstr(wd, "group 3"));
	assert_int_equal(fake_root_remove(root), 0);
}

/*
 * On a Neoverse N2 r0p3 (a fixture: MIDR, armv8_pmuv3_0 of type 8), --list-events
 * plans level 1 in one group: six events on the six event counters and CPU_CYCLES
 * (0x11) on the cycle counter, of the PMU's own type.  Every Neoverse model fits the same.
 */
static void test_list_events_neoverse(void **state)
{
	static const char *const models[] = { "neoverse-n1", "neoverse-n2", "neoverse-n2-r0p3",
					      "neoverse-v1", "neoverse-v2" };
	const char *argv[] = { "tmacg", "--list-events", NULL, NULL, NULL };
	char text[16384];

	(void)state;
	unsetenv("TMACG_MODEL_DIR");
	cpu_desc_reset();
	snprintf(root, sizeof(root), "/tmp/tmacg-desc-XXXXXX");
	assert_int_equal(fake_root_make(root), 0);
	fake_root_put(root, "/proc/cpuinfo", "processor\t: 0\nCPU implementer\t: 0x41\n");
	fake_root_put(root, "/sys/devices/system/cpu/cpu0/regs/identification/midr_el1",
		      "0x00000000410fd493\n");
	fake_root_put(root, "/sys/bus/event_source/devices/armv8_pmuv3_0/type", "8\n");
	fake_root_put(root, "/sys/bus/event_source/devices/armv8_pmuv3_0/caps/slots", "5\n");
	assert_int_equal(offline_capture(STDOUT_FILENO, root, 2, argv, text, sizeof(text)), 0);
	assert_non_null(strstr(text, "# this CPU: neoverse-n2-r0p3 (Arm Neoverse N2 r0p3 (Azure "
				     "Cobalt 100 at r0p3)), planning model neoverse-n2-r0p3\n"));
	assert_non_null(
		strstr(text, "7 events in 1 groups, 6 general-purpose counters per group\n"));
	assert_non_null(strstr(text, "CPU_CYCLES"));
	assert_non_null(strstr(text, "fixed  type=8 config=0x11 "));
	assert_non_null(strstr(text, "STALL_SLOT_FRONTEND"));
	assert_non_null(strstr(text, "gp     type=8 config=0x3e "));
	assert_null(strstr(text, "group 1"));
	argv[2] = "--model";
	for (size_t i = 0; i < sizeof(models) / sizeof(models[0]); i++) {
		argv[3] = models[i];
		assert_int_equal(offline_capture(STDOUT_FILENO, root, 4, argv, text, sizeof(text)),
				 0);
		if (!strstr(text, " events in 1 groups, 6 general-purpose counters per group\n") ||
		    strstr(text, "group 1"))
			fail_msg("%s does not fit one group:\n%s", models[i], text);
	}
	assert_int_equal(fake_root_remove(root), 0);
}

/*
 * The issue's reproduction: TMACG_SYSFS_ROOT holding a cloud machine's MIDR and its PMU, and
 * --list-events plans the core's own model (once "no TMA model for this CPU"): level 1 in one
 * group (six event counters and the cycle counter), Arm's 16-bit event numbers as raw
 * configs; level 4's groups in turns, each slice within the six counters; a level the model
 * lacks refused.
 */
static void test_list_events_cloud_arm(void **state)
{
	static const struct {
		const char *midr, *cpu_line;
	} machines[] = {
		{ "0x00000000410fd841\n",
		  "# this CPU: neoverse-v3 (Arm Neoverse V3 (AWS Graviton5, "
		  "Azure Cobalt 200)), planning model neoverse-v3\n" },
		{ "0x00000000410fd8e0\n",
		  "# this CPU: neoverse-n3 (Arm Neoverse N3), planning model neoverse-n3\n" },
		{ "0x000000006d0fd490\n",
		  "# this CPU: neoverse-n2 (Arm Neoverse N2 r0p0-r0p2 (Azure "
		  "Cobalt 100)), planning model neoverse-n2\n" },
	};
	const char *argv[] = { "tmacg", "--list-events", "--level", "1", NULL };
	static char text[65536];

	(void)state;
	unsetenv("TMACG_MODEL_DIR");
	cpu_desc_reset();
	for (size_t i = 0; i < sizeof(machines) / sizeof(machines[0]); i++) {
		bool deep = i < 2;

		snprintf(root, sizeof(root), "/tmp/tmacg-desc-XXXXXX");
		assert_int_equal(fake_root_make(root), 0);
		fake_root_put(root, "/proc/cpuinfo", "processor\t: 0\nBogoMIPS\t: 2000.00\n");
		fake_root_put(root, "/sys/devices/system/cpu/cpu0/regs/identification/midr_el1",
			      machines[i].midr);
		fake_root_put(root, "/sys/bus/event_source/devices/armv8_pmuv3_0/type", "8\n");
		argv[3] = "1";
		assert_int_equal(offline_capture(STDOUT_FILENO, root, 4, argv, text, sizeof(text)),
				 0);
		if (!strstr(text, machines[i].cpu_line))
			fail_msg("%s", text);
		assert_non_null(strstr(
			text, "7 events in 1 groups, 6 general-purpose counters per group\n"));
		assert_non_null(strstr(text, "fixed  type=8 config=0x11 "));
		if (deep)
			assert_non_null(strstr(text, "gp     type=8 config=0x8162 "));
		argv[3] = "4";
		if (deep) {
			assert_int_equal(
				offline_capture(STDOUT_FILENO, root, 4, argv, text, sizeof(text)),
				0);
			assert_non_null(strstr(text, "23 events in "));
			assert_non_null(strstr(text, "groups multiplexed by the kernel"));
			assert_non_null(strstr(text, "gp     type=8 config=0x816d "));
		}
		argv[3] = "5";
		assert_int_not_equal(
			offline_capture(STDOUT_FILENO, root, 4, argv, text, sizeof(text)), 0);
		assert_int_equal(fake_root_remove(root), 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_ok),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_builtins_cover_their_models),
		cmocka_unit_test(test_cpuid_lookup),
		cmocka_unit_test(test_amd_cpuid_lookup),
		cmocka_unit_test(test_match_ranges),
		cmocka_unit_test(test_pmuv3_event_numbers),
		cmocka_unit_test(test_list_events_amd),
		cmocka_unit_test(test_list_events_neoverse),
		cmocka_unit_test(test_list_events_cloud_arm),
		cmocka_unit_test(test_list_models),
		cmocka_unit_test(test_retire_latency_lines),
		cmocka_unit_test(test_list_models_escapes_titles),
		cmocka_unit_test(test_help_lists_models),
		cmocka_unit_test(test_new_cpu_is_data),
		cmocka_unit_test(test_model_dir_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
