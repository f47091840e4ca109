// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Event encoding without a PMU: libpfm4 is forced to each CPU description's
 * table.  Expected configs come from Intel's published event lists, the
 * repository's copy in tools/perfmon/ (EventCode, UMask, CounterMask,
 * EdgeDetect, Invert, AnyThread, MSRValue, Counter, CounterHTOff), read here
 * with json-c, and the kernel's raw topdown/fixed encodings (docs/tma-rules.md,
 * arch/x86/events/intel/core.c), never from this code or the .cpu files.
 */
#include <errno.h>
#include <json-c/json.h>
#include <perfmon/pfmlib.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <cmocka.h>

#include "cpu_target.h"
#include "test_models.h"

#include "model/model.h"
#include "pmu/cpu_desc.h"
#include "pmu/events.h"

#define PMU_TYPE 8 /* not PERF_TYPE_RAW: the encoder must take the type from the target */

static struct event_target icx, spr;

static int setup(void **state)
{
	(void)state;
	unsetenv("TMACG_MODEL_DIR");
	icx = cpu_target("icx", PMU_TYPE);
	spr = cpu_target("spr", PMU_TYPE);
	return 0;
}

static void force(const char *pmu)
{
	char err[256];

	assert_int_equal(events_init(pmu, err, sizeof(err)), 0);
}

static struct event_enc enc_ok(const struct event_target *t, const char *name)
{
	struct event_enc e;
	char err[512] = "";
	int ret = event_encode(t, name, &e, err, sizeof(err));

	if (ret)
		fail_msg("%s: %d %s", name, ret, err);
	return e;
}

static void assert_fields(const struct event_enc *e, unsigned int event, unsigned int umask,
			  unsigned int cmask, unsigned int edge, unsigned int inv)
{
	uint64_t c = e->attr.config;

	if ((c & 0xff) != event || ((c >> 8) & 0xff) != umask || ((c >> 24) & 0xff) != cmask ||
	    ((c >> 18) & 1) != edge || ((c >> 23) & 1) != inv)
		fail_msg("%s: config 0x%llx, want event 0x%x umask 0x%x cmask %u edge %u inv %u",
			 e->name, (unsigned long long)c, event, umask, cmask, edge, inv);
}

/* Counting events only: the collector reads them from BPF on their own CPU. */
static void assert_counting(const struct event_enc *e)
{
	assert_int_equal(e->attr.size, sizeof(e->attr));
	assert_int_equal(e->attr.type, PMU_TYPE);
	assert_int_equal(e->attr.sample_period, 0);
	assert_int_equal(e->attr.freq, 0);
	assert_int_equal(e->attr.inherit, 0);
	assert_int_equal(e->attr.exclude_user, 0);
	assert_int_equal(e->attr.exclude_kernel, 0);
	assert_int_equal(e->attr.exclude_guest, 1);
	assert_int_equal(e->attr.exclude_hv, 1);
	assert_int_equal(e->attr.read_format,
			 PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING);
}

/* Counter keys of every line of a golden file, each once. */
static int golden_keys(const char *file, char ***keys)
{
	char path[1024], line[65536];
	int n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "tests/golden/%s", file);
	f = fopen(path, "r");
	if (!f)
		fail_msg("cannot open %s: run the test from the repository root", path);
	*keys = NULL;
	while (fgets(line, sizeof(line), f)) {
		json_object *o = json_tokener_parse(line), *counters;

		if (!o || !json_object_object_get_ex(o, "counters", &counters))
			fail_msg("%s: a line without counters", path);
		json_object_object_foreach(counters, key, val) {
			bool seen = false;

			(void)val;
			for (int i = 0; i < n; i++)
				seen |= !strcmp((*keys)[i], key);
			if (seen)
				continue;
			*keys = realloc(*keys, sizeof(**keys) * (size_t)(n + 1));
			(*keys)[n++] = strdup(key);
		}
		json_object_put(o);
	}
	fclose(f);
	assert_true(n > 50);
	return n;
}

static void free_keys(char **keys, int n)
{
	for (int i = 0; i < n; i++)
		free(keys[i]);
	free(keys);
}

static bool is_l2_metric(const char *name)
{
	static const char *const l2[] = { "PERF_METRICS.HEAVY_OPERATIONS",
					  "PERF_METRICS.BRANCH_MISPREDICTS",
					  "PERF_METRICS.FETCH_LATENCY",
					  "PERF_METRICS.MEMORY_BOUND" };

	for (size_t i = 0; i < sizeof(l2) / sizeof(l2[0]); i++)
		if (!strcmp(l2[i], name))
			return true;
	return false;
}

static void check_all_golden(const struct event_target *t, const char *file)
{
	char **keys, err[512];
	int n = golden_keys(file, &keys), encoded = 0;

	for (int i = 0; i < n; i++) {
		struct event_enc e;
		int ret = event_encode(t, keys[i], &e, err, sizeof(err));

		if (!t->topdown_l2 && is_l2_metric(keys[i])) {
			/* Ice Lake has level-1 PERF_METRICS only: the kernel rejects 0x8400+. */
			assert_int_equal(ret, -EOPNOTSUPP);
			assert_non_null(strstr(err, "topdown-heavy-ops"));
			continue;
		}
		if (ret)
			fail_msg("%s: %s", keys[i], err);
		if (e.kind != EVENT_PSEUDO)
			assert_counting(&e);
		else
			assert_string_equal(keys[i], "msr/tsc/");
		encoded++;
	}
	assert_true(encoded > 50);
	free_keys(keys, n);
}

static void test_icx_golden_events(void **state)
{
	(void)state;
	force("icx");
	check_all_golden(&icx, "icx-tma4.5.jsonl");
}

static void test_spr_golden_events(void **state)
{
	(void)state;
	force("spr");
	check_all_golden(&spr, "spr-tma5.01.jsonl");
}

/* Every event the shipped models read, Info metrics included, encodes. */
static void check_model_events(const struct event_target *t, const char *id)
{
	char err[512];
	struct tma_model *m = model_load_builtin(id, err, sizeof(err));
	int n;

	if (!m)
		fail_msg("model %s: %s", id, err);
	n = model_event_count(m);
	assert_true(n >= 3); /* Arm's N1 reads 3 events, AMD's models 12, Intel's more than 50 */
	for (int i = 0; i < n; i++) {
		const char *name = model_event_name(m, i);
		struct event_enc e;

		if (event_encode(t, name, &e, err, sizeof(err)))
			fail_msg("model %s: %s", id, err);
		if (e.kind != EVENT_PSEUDO)
			assert_int_equal(e.attr.type, PMU_TYPE);
	}
	model_free(m);
}

/* Each description with its model, libpfm4 forced to its table (none for some). */
static void test_model_events(void **state)
{
	char err[256];

	(void)state;
	for (int i = 0; i < cpu_desc_count(); i++) {
		const struct cpu_desc *d = cpu_desc_at(i);
		struct event_target t = cpu_target(d->id, PMU_TYPE);

		if (d->libpfm)
			force(d->libpfm);
		else
			assert_int_equal(events_init(NULL, err, sizeof(err)), 0);
		check_model_events(&t, d->model);
	}
}

static const char *perfmon_dir(void)
{
	const char *s = getenv("TMACG_PERFMON_DIR");

	return s && *s ? s : "tools/perfmon";
}

/* mapfile.csv's key "GenuineIntel-6-55-[01234]" against one match of a description. */
static bool key_matches(const char *key, const struct cpu_desc_match *m)
{
	char vendor[32];
	unsigned int family, model;
	uint16_t bits = 0xffff;
	int used = 0;

	if (sscanf(key, "%31[^-]-%x-%x%n", vendor, &family, &model, &used) != 3)
		return false;
	if (key[used] == '-') {
		bits = 0;
		for (const char *p = key + used + 1; *p; p++) {
			unsigned int v;

			if (*p != '[' && *p != ']' && sscanf((char[]){ *p, 0 }, "%x", &v) == 1)
				bits |= (uint16_t)(1u << v);
		}
	}
	return !strcmp(vendor, m->vendor) && family == m->family && model == m->model &&
	       bits == m->steppings;
}

/*
 * Intel's core event list for a description, by its CPUID in mapfile.csv;
 * when that list is not shipped (Emerald Rapids), the list of the CPU whose
 * model it runs, as its header says.
 */
static json_object *intel_events(const struct cpu_desc *d)
{
	char path[1024], line[1024], file[256] = "";
	json_object *root, *events;
	FILE *f;

	snprintf(path, sizeof(path), "%s/mapfile.csv", perfmon_dir());
	f = fopen(path, "r");
	if (!f)
		fail_msg("cannot open %s (run from the repository root or set TMACG_PERFMON_DIR)",
			 path);
	while (!file[0] && fgets(line, sizeof(line), f)) {
		char *key = strtok(line, ","), *ver = strtok(NULL, ","), *json = strtok(NULL, ","),
		     *type = strtok(NULL, ",");

		(void)ver;
		if (!key || !json || !type || strcmp(type, "core"))
			continue;
		for (int k = 0; k < d->nmatch; k++)
			if (key_matches(key, &d->match[k]))
				snprintf(file, sizeof(file), "%s", strrchr(json, '/') + 1);
	}
	fclose(f);
	if (!file[0])
		fail_msg("%s: no core event list in mapfile.csv for its CPUID", d->id);
	snprintf(path, sizeof(path), "%s/%s", perfmon_dir(), file);
	if (access(path, R_OK)) /* the TMA 5.2 drop's files (Emerald Rapids' core events) */
		snprintf(path, sizeof(path), "%s/tma5.2/%s", perfmon_dir(), file);
	if (access(path, R_OK) && strcmp(d->id, d->model) && cpu_desc_by_id(d->model))
		return intel_events(cpu_desc_by_id(d->model));
	root = json_object_from_file(path);
	if (!root || !json_object_object_get_ex(root, "Events", &events))
		fail_msg("%s: not Intel's event list", path);
	return root;
}

static const char *field(json_object *e, const char *key)
{
	json_object *v;

	return json_object_object_get_ex(e, key, &v) ? json_object_get_string(v) : "0";
}

static unsigned long long num(json_object *e, const char *key)
{
	return strtoull(field(e, key), NULL, 0); /* "0xB7, 0xBB": the first */
}

/* "0,1,2,3" -> 0xf; "" or absent -> 0. */
static uint32_t counter_bits(const char *s)
{
	uint32_t m = 0;

	for (const char *p = s; *p; p++)
		if (*p >= '0' && *p <= '9' && (p == s || p[-1] == ',' || p[-1] == ' '))
			m |= 1u << strtoul(p, NULL, 10);
	return m;
}

/*
 * Every hardware event each model reads, encoded for each description that
 * runs it, against Intel's list for that CPU: config fields, offcore MSR
 * value, and the counters it may use with SMT on (Counter) and off
 * (CounterHTOff).  Fixed-counter events get the kernel's generic encoding.
 */
static void test_every_encoding_against_intel(void **state)
{
	static const uint64_t fixed_config[] = { 0x00c0, 0x003c, 0x0300, 0x0400 };
	int checked = 0;

	(void)state;
	for (int i = 0; i < cpu_desc_count(); i++) {
		const struct cpu_desc *d = cpu_desc_at(i);
		json_object *root, *list;

		/* AMD's are checked against MORE-CPUS.md's table and libpfm4 (test_amd_events). */
		if (strcmp(d->match[0].vendor, "GenuineIntel"))
			continue;
		root = intel_events(d);
		struct event_target on = cpu_target(d->id, PMU_TYPE), off = on;
		char err[512];
		struct tma_model *m = model_load_builtin(d->model, err, sizeof(err));

		if (!m)
			fail_msg("%s: %s", d->id, err);
		off.smt = false;
		if (d->libpfm)
			force(d->libpfm);
		json_object_object_get_ex(root, "Events", &list);
		for (int k = 0; k < model_event_count(m); k++) {
			char base[128];
			json_object *e = NULL;
			struct event_enc got, got_off;
			uint64_t want, want1 = 0;
			const char *counter;

			snprintf(base, sizeof(base), "%s", model_event_name(m, k));
			base[strcspn(base, ":")] = '\0';
			if (!strncmp(base, "PERF_METRICS.", 13) || !strcmp(base, "msr/tsc/") ||
			    !strncmp(base, "SW.", 3))
				continue;
			for (size_t j = 0; j < json_object_array_length(list) && !e; j++) {
				json_object *x = json_object_array_get_idx(list, j);

				if (!strcmp(field(x, "EventName"), base))
					e = x;
			}
			if (!e)
				fail_msg("%s: model %s reads %s, not in Intel's list", d->id,
					 d->model, base);
			if (event_encode(&on, base, &got, err, sizeof(err)) ||
			    event_encode(&off, base, &got_off, err, sizeof(err)))
				fail_msg("%s: %s", d->id, err);
			counter = field(e, "Counter");
			if (!strncasecmp(counter, "Fixed counter ", 14)) {
				unsigned long n = strtoul(counter + 14, NULL, 10);

				assert_true(n < 4);
				want = fixed_config[n] | num(e, "AnyThread") << 21;
				assert_int_equal(got.kind, n == 3 ? EVENT_SLOTS : EVENT_FIXED);
			} else {
				json_object *h;
				/* CounterHTOff: SKX/CLX's counters with SMT off; absent later. */
				uint32_t smt_off = counter_bits(
					json_object_object_get_ex(e, "CounterHTOff", &h) ?
						json_object_get_string(h) :
						counter);

				want = num(e, "EventCode") | num(e, "UMask") << 8 |
				       num(e, "EdgeDetect") << 18 | num(e, "AnyThread") << 21 |
				       num(e, "Invert") << 23 | num(e, "CounterMask") << 24;
				want1 = num(e, "MSRIndex") ? num(e, "MSRValue") : 0;
				assert_int_equal(got.kind, EVENT_GP);
				if (got.counter_mask != counter_bits(counter) ||
				    got_off.counter_mask != smt_off)
					fail_msg("%s %s: counters 0x%x/0x%x, Intel: %s / %s", d->id,
						 base, got.counter_mask, got_off.counter_mask,
						 counter, field(e, "CounterHTOff"));
			}
			if (got.attr.config != want || got.attr.config1 != want1)
				fail_msg("%s %s: config 0x%llx config1 0x%llx, Intel: 0x%llx "
					 "0x%llx",
					 d->id, base, (unsigned long long)got.attr.config,
					 (unsigned long long)got.attr.config1,
					 (unsigned long long)want, (unsigned long long)want1);
			checked++;
		}
		model_free(m);
		json_object_put(root);
	}
	assert_true(checked > 500);
}

/* :SUP and :USER (the seed's Kernel_Utilization, IpFarBranch) filter by privilege. */
static void test_privilege_filters(void **state)
{
	struct event_enc e;

	(void)state;
	force("icx");
	e = enc_ok(&icx, "CPU_CLK_UNHALTED.THREAD_P:SUP");
	assert_fields(&e, 0x3c, 0x00, 0, 0, 0);
	assert_int_equal(e.attr.exclude_user, 1);
	assert_int_equal(e.attr.exclude_kernel, 0);
	e = enc_ok(&icx, "BR_INST_RETIRED.FAR_BRANCH:USER");
	assert_fields(&e, 0xc4, 0x40, 0, 0, 0); /* icelakex_core.json: 0xC4/0x40 */
	assert_int_equal(e.attr.exclude_user, 0);
	assert_int_equal(e.attr.exclude_kernel, 1);
	e = enc_ok(&icx, "BR_MISP_RETIRED.RET"); /* 0xC5/0x08; libpfm4 4.13 lacks it */
	assert_fields(&e, 0xc5, 0x08, 0, 0, 0);
	force("spr");
	/* sapphirerapids: BACLEARS moved to 0x60; the rest from Intel's list too. */
	assert_fields((e = enc_ok(&spr, "BACLEARS.ANY"), &e), 0x60, 0x01, 0, 0, 0);
	assert_fields((e = enc_ok(&spr, "L2_RQSTS.MISS"), &e), 0x24, 0x3f, 0, 0, 0);
	assert_fields((e = enc_ok(&spr, "L2_RQSTS.REFERENCES"), &e), 0x24, 0xff, 0, 0, 0);
	assert_fields((e = enc_ok(&spr, "SW_PREFETCH_ACCESS.ANY"), &e), 0x40, 0x0f, 0, 0, 0);
	assert_fields((e = enc_ok(&spr, "OFFCORE_REQUESTS.L3_MISS_DEMAND_DATA_RD"), &e), 0x21, 0x10,
		      0, 0, 0);
	assert_fields((e = enc_ok(&spr, "OFFCORE_REQUESTS_OUTSTANDING.DEMAND_DATA_RD:c1"), &e),
		      0x20, 0x01, 1, 0, 0);
}

static void test_icx_intel_encodings(void **state)
{
	struct event_enc e;

	(void)state;
	force("icx");
	/* icelakex_core.json: INT_MISC.RECOVERY_CYCLES 0x0D/0x01; :c1:e1 from the model. */
	e = enc_ok(&icx, "INT_MISC.RECOVERY_CYCLES:c1:e1");
	assert_fields(&e, 0x0d, 0x01, 1, 1, 0);
	assert_int_equal(e.kind, EVENT_GP);
	e = enc_ok(&icx, "INT_MISC.UOP_DROPPING");
	assert_fields(&e, 0x0d, 0x10, 0, 0, 0);
	e = enc_ok(&icx, "INT_MISC.CLEAR_RESTEER_CYCLES");
	assert_fields(&e, 0x0d, 0x80, 0, 0, 0);
	e = enc_ok(&icx, "ICACHE_16B.IFDATA_STALL");
	assert_fields(&e, 0x80, 0x04, 0, 0, 0);
	e = enc_ok(&icx, "ICACHE_64B.IFTAG_STALL");
	assert_fields(&e, 0x83, 0x04, 0, 0, 0);
	e = enc_ok(&icx, "TOPDOWN.BACKEND_BOUND_SLOTS");
	assert_fields(&e, 0xa4, 0x02, 0, 0, 0);
	e = enc_ok(&icx, "UOPS_ISSUED.ANY");
	assert_fields(&e, 0x0e, 0x01, 0, 0, 0);
	e = enc_ok(&icx, "RESOURCE_STALLS.SCOREBOARD");
	assert_fields(&e, 0xa2, 0x02, 0, 0, 0);
	e = enc_ok(&icx, "DSB2MITE_SWITCHES.PENALTY_CYCLES");
	assert_fields(&e, 0xab, 0x02, 0, 0, 0);
	e = enc_ok(&icx, "ILD_STALL.LCP");
	assert_fields(&e, 0x87, 0x01, 0, 0, 0);
	e = enc_ok(&icx, "IDQ_UOPS_NOT_DELIVERED.CORE");
	assert_fields(&e, 0x9c, 0x01, 0, 0, 0);
	/* The model's dotted umask; Intel: CounterMask 5 (ICX pipeline width). */
	e = enc_ok(&icx, "IDQ_UOPS_NOT_DELIVERED.CYCLES_0_UOPS_DELIV.CORE");
	assert_fields(&e, 0x9c, 0x01, 5, 0, 0);
	/* EXE_ACTIVITY is 0xA6; :u0x80 replaces 3_PORTS_UTIL's umask 0x08. */
	e = enc_ok(&icx, "EXE_ACTIVITY.3_PORTS_UTIL:u0x80");
	assert_fields(&e, 0xa6, 0x80, 0, 0, 0);
	e = enc_ok(&icx, "FP_ARITH_INST_RETIRED.128B_PACKED_DOUBLE:u0xfc");
	assert_fields(&e, 0xc7, 0xfc, 0, 0, 0);
	/* DTLB_LOAD_MISSES.STLB_HIT 0x08/0x20 with the model's :c1. */
	e = enc_ok(&icx, "DTLB_LOAD_MISSES.STLB_HIT:c1");
	assert_fields(&e, 0x08, 0x20, 1, 0, 0);
	/* OCR.DEMAND_RFO.L3_HIT.SNOOP_HITM: 0xB7/0x01, MSRValue 0x10003C0002 -> config1. */
	e = enc_ok(&icx, "OCR.DEMAND_RFO.L3_HIT.SNOOP_HITM");
	assert_fields(&e, 0xb7, 0x01, 0, 0, 0);
	assert_int_equal(e.attr.config1, 0x10003C0002ull);
	assert_counting(&e);
}

static void test_spr_intel_encodings(void **state)
{
	struct event_enc e;

	(void)state;
	force("spr");
	/* sapphirerapids_core.json: OCR is 0x2A/0x01; the model overrides the MSR value. */
	e = enc_ok(&spr, "OCR.DEMAND_RFO.L3_MISS:ocr_msr_val=0x103b800002");
	assert_fields(&e, 0x2a, 0x01, 0, 0, 0);
	assert_int_equal(e.attr.config1, 0x103b800002ull);
	e = enc_ok(&spr, "OCR.DEMAND_RFO.L3_HIT.SNOOP_HITM");
	assert_int_equal(e.attr.config1, 0x10003C0002ull);
	/* Events libpfm4 4.13 lacks or names differently. */
	e = enc_ok(&spr, "IDQ_BUBBLES.CORE");
	assert_fields(&e, 0x9c, 0x01, 0, 0, 0);
	e = enc_ok(&spr, "IDQ_BUBBLES.CYCLES_0_UOPS_DELIV.CORE");
	assert_fields(&e, 0x9c, 0x01, 6, 0, 0);
	e = enc_ok(&spr, "EXE_ACTIVITY.2_3_PORTS_UTIL");
	assert_fields(&e, 0xa6, 0x0c, 0, 0, 0);
	e = enc_ok(&spr, "EXE_ACTIVITY.EXE_BOUND_0_PORTS");
	assert_fields(&e, 0xa6, 0x80, 0, 0, 0);
	e = enc_ok(&spr, "RS.EMPTY_RESOURCE");
	assert_fields(&e, 0xa5, 0x01, 0, 0, 0);
	e = enc_ok(&spr, "OFFCORE_REQUESTS_OUTSTANDING.CYCLES_WITH_DEMAND_CODE_RD");
	assert_fields(&e, 0x20, 0x02, 1, 0, 0);
	/* Intel: 0xC2 umask 0x04 with MSR_PEBS_FRONTEND (0x3F7) = 0x8; libpfm4 4.13 gave 0x08. */
	e = enc_ok(&spr, "UOPS_RETIRED.MS:c1:e1");
	assert_fields(&e, 0xc2, 0x04, 1, 1, 0);
	assert_int_equal(e.attr.config1, 0x8);
	assert_int_equal(e.msr, 0x3f7);
	e = enc_ok(&spr, "INT_MISC.UOP_DROPPING");
	assert_fields(&e, 0xad, 0x10, 0, 0, 0);
	e = enc_ok(&spr, "TOPDOWN.MEMORY_BOUND_SLOTS");
	assert_fields(&e, 0xa4, 0x10, 0, 0, 0);
	e = enc_ok(&spr, "TOPDOWN.BR_MISPREDICT_SLOTS");
	assert_fields(&e, 0xa4, 0x08, 0, 0, 0);
	assert_int_equal(e.counter_mask, 0x1); /* the kernel keeps 0x08a4 on counter 0 */
	e = enc_ok(&spr, "TOPDOWN.BACKEND_BOUND_SLOTS");
	assert_fields(&e, 0xa4, 0x02, 0, 0, 0);
}

static void test_topdown_and_fixed(void **state)
{
	static const struct {
		const char *name;
		uint64_t config;
		enum event_kind kind;
	} want[] = {
		{ "TOPDOWN.SLOTS", 0x0400, EVENT_SLOTS },
		{ "PERF_METRICS.RETIRING", 0x8000, EVENT_METRIC },
		{ "PERF_METRICS.BAD_SPECULATION", 0x8100, EVENT_METRIC },
		{ "PERF_METRICS.FRONTEND_BOUND", 0x8200, EVENT_METRIC },
		{ "PERF_METRICS.BACKEND_BOUND", 0x8300, EVENT_METRIC },
		{ "PERF_METRICS.HEAVY_OPERATIONS", 0x8400, EVENT_METRIC },
		{ "PERF_METRICS.BRANCH_MISPREDICTS", 0x8500, EVENT_METRIC },
		{ "PERF_METRICS.FETCH_LATENCY", 0x8600, EVENT_METRIC },
		{ "PERF_METRICS.MEMORY_BOUND", 0x8700, EVENT_METRIC },
		/* The kernel's fixed-counter encodings (FIXED_EVENT_CONSTRAINT). */
		{ "INST_RETIRED.ANY", 0x00c0, EVENT_FIXED },
		{ "CPU_CLK_UNHALTED.THREAD", 0x003c, EVENT_FIXED },
		{ "CPU_CLK_UNHALTED.REF_TSC", 0x0300, EVENT_FIXED },
	};

	(void)state;
	force("spr");
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		struct event_enc e = enc_ok(&spr, want[i].name);

		assert_int_equal(e.attr.config, want[i].config);
		assert_int_equal(e.attr.config1, 0);
		assert_int_equal(e.kind, want[i].kind);
		assert_counting(&e);
	}
}

static void test_percore_and_pseudo(void **state)
{
	struct event_enc e;

	(void)state;
	force("icx");
	e = enc_ok(&icx, "CPU_CLK_UNHALTED.DISTRIBUTED:percore");
	assert_true(e.flags & EVENT_F_PERCORE);
	assert_fields(&e, 0xec, 0x02, 0, 0, 0);
	e = enc_ok(&icx, "CPU_CLK_UNHALTED.DISTRIBUTED");
	assert_false(e.flags & EVENT_F_PERCORE);
	e = enc_ok(&icx, "msr/tsc/");
	assert_int_equal(e.kind, EVENT_PSEUDO);
	assert_int_equal(e.attr.type, 0);
}

/* Intel's Counter fields: ICX events 0x60-0x8b and most 0xa3 on counters 0-3. */
static void test_counter_masks(void **state)
{
	(void)state;
	force("icx");
	assert_int_equal(enc_ok(&icx, "ICACHE_16B.IFDATA_STALL").counter_mask, 0xf);
	assert_int_equal(enc_ok(&icx, "CYCLE_ACTIVITY.STALLS_L3_MISS").counter_mask, 0xf);
	assert_int_equal(enc_ok(&icx, "CYCLE_ACTIVITY.STALLS_TOTAL").counter_mask, 0xff);
	assert_int_equal(enc_ok(&icx, "UOPS_ISSUED.ANY").counter_mask, 0xff);
	assert_int_equal(enc_ok(&icx, "MEM_LOAD_RETIRED.L3_HIT").counter_mask, 0xf);
	force("spr");
	assert_int_equal(enc_ok(&spr, "INT_MISC.UOP_DROPPING").counter_mask, 0xff);
	assert_int_equal(enc_ok(&spr, "MEMORY_ACTIVITY.STALLS_L3_MISS").counter_mask, 0xf);
	assert_int_equal(enc_ok(&spr, "CPU_CLK_UNHALTED.DISTRIBUTED").counter_mask, 0xff);
	/* An event no description lists (libpfm4's encoding): no constraint known. */
	assert_int_equal(enc_ok(&icx, "IDQ.MS_CYCLES_ANY").counter_mask, 0xffffffffu);
}

static void expect_error(const struct event_target *t, const char *name, int want_ret,
			 const char *want_text)
{
	struct event_enc e;
	char err[512] = "";
	int ret = event_encode(t, name, &e, err, sizeof(err));

	if (ret != want_ret)
		fail_msg("%s: got %d (%s), want %d", name, ret, err, want_ret);
	if (!strstr(err, want_text))
		fail_msg("%s: message '%s' lacks '%s'", name, err, want_text);
}

/*
 * A PMU without fixed counters or PERF_METRICS (a cloud VM's): a fixed-counter event is
 * its general-purpose twin under its own name, one without a twin and PERF_METRICS are
 * refused with -EOPNOTSUPP (the plan leaves them out as missing).
 */
static void test_vm_without_fixed_counters(void **state)
{
	struct event_target vm_icx = icx, vm_spr = spr;
	struct event_enc e;

	(void)state;
	vm_icx.fixed_absent = vm_spr.fixed_absent = 0xf;
	vm_icx.perf_metrics_absent = true;
	force("icx");
	e = enc_ok(&vm_icx, "INST_RETIRED.ANY");
	assert_string_equal(e.name, "INST_RETIRED.ANY");
	assert_int_equal(e.kind, EVENT_GP);
	assert_int_equal(e.attr.config, 0xc0);
	assert_int_equal(e.counter_mask, 0xff);
	e = enc_ok(&vm_icx, "TOPDOWN.SLOTS");
	assert_int_equal(e.kind, EVENT_GP);
	assert_int_equal(e.attr.config, 0x01a4);
	assert_int_equal(enc_ok(&vm_icx, "CPU_CLK_UNHALTED.THREAD").attr.config, 0x3c);
	/* Ice Lake's reference clock on a GP counter is another clock (REF_XCLK): none */
	expect_error(&vm_icx, "CPU_CLK_UNHALTED.REF_TSC", -EOPNOTSUPP,
		     "no fixed counter 2 (a virtual machine's?)");
	expect_error(&vm_icx, "CPU_CLK_UNHALTED.REF_TSC", -EOPNOTSUPP,
		     "CPU_CLK_UNHALTED.REF_TSC_P");
	expect_error(&vm_icx, "PERF_METRICS.RETIRING", -EOPNOTSUPP, "offers no PERF_METRICS");
	/* Only the absent counters: fixed 0 there, its event on it */
	vm_icx.fixed_absent = 0xe;
	assert_int_equal(enc_ok(&vm_icx, "INST_RETIRED.ANY").kind, EVENT_FIXED);
	force("spr");
	e = enc_ok(&vm_spr, "CPU_CLK_UNHALTED.REF_TSC");
	assert_int_equal(e.kind, EVENT_GP);
	assert_int_equal(e.attr.config, 0x013c); /* REF_TSC_P */
	/* PERF_METRICS left as they were: the target says nothing of them */
	assert_int_equal(enc_ok(&vm_spr, "PERF_METRICS.RETIRING").kind, EVENT_METRIC);
}

/*
 * AMD's encodings as ../shared/design/MORE-CPUS.md's table gives them (raw
 * config = event[7:0] | umask<<8 | cmask<<24 | event[11:8]<<32), transcribed
 * by hand, and libpfm4's name for each where its Zen 4 table has the event.
 */
static const struct amd_want {
	const char *name;
	uint64_t config;
	const char *pfm; /* libpfm4's amd64_fam19h_zen4 name; NULL: compare with the table only */
} zen4_want[] = {
	{ "ls_not_halted_cyc", 0x76, "CYCLES_NOT_IN_HALT" },
	{ "de_no_dispatch_per_slot.no_ops_from_frontend", 0x1000001A0,
	  "DISPATCH_STALLS_1:FE_NO_OPS" },
	{ "de_no_dispatch_per_slot.no_ops_from_frontend:c6", 0x1060001A0,
	  "DISPATCH_STALLS_1:FE_NO_OPS:c=6" },
	{ "de_no_dispatch_per_slot.backend_stalls", 0x100001EA0, "DISPATCH_STALLS_1:BE_STALLS" },
	{ "de_no_dispatch_per_slot.smt_contention", 0x1000060A0,
	  "DISPATCH_STALLS_1:SMT_CONTENTION" },
	{ "de_src_op_disp.all", 0x7AA, "OPS_SOURCE_DISPATCHED_FROM_DECODER:DECODER:OPCACHE:LOOP_BUFFER" },
	{ "ex_ret_ops", 0xC1, "RETIRED_OPS" },
	{ "ex_ret_brn_misp", 0xC3, "RETIRED_BRANCH_INSTRUCTIONS_MISPREDICTED" },
	{ "resyncs_or_nc_redirects", 0x96, "RESYNCS" },
	{ "ex_no_retire.not_complete", 0x2D6, "CYCLES_NO_RETIRE:NOT_COMPLETE_LOAD_AND_ALU" },
	{ "ex_no_retire.load_not_complete", 0xA2D6, "CYCLES_NO_RETIRE:NOT_COMPLETE_MISSING_LOAD" },
	{ "ex_ret_ucode_ops", 0x1000000C2, "RETIRED_UCODE_OPS" },
	{ NULL, 0, NULL },
}, zen5_want[] = {
	{ "ls_not_halted_cyc", 0x76, NULL },
	{ "de_no_dispatch_per_slot.no_ops_from_frontend", 0x1000001A0, NULL },
	{ "de_no_dispatch_per_slot.no_ops_from_frontend:c8", 0x1080001A0, NULL },
	{ "de_no_dispatch_per_slot.backend_stalls", 0x100001EA0, NULL },
	{ "de_no_dispatch_per_slot.smt_contention", 0x1000060A0, NULL },
	{ "de_src_op_disp.all", 0x7AA, NULL },
	{ "ex_ret_ops", 0xC1, NULL },
	{ "ex_ret_brn_misp", 0xC3, NULL },
	{ "bp_redirects.resync", 0x19F, NULL },
	{ "ex_no_retire.not_complete", 0x2D6, NULL },
	{ "ex_no_retire.load_not_complete", 0xA2D6, NULL },
	{ "ex_ret_ucode_ops", 0x1000000C2, NULL },
	{ NULL, 0, NULL },
};

/*
 * libpfm4's raw PERF_CTL value for pmu::name, cut to the fields a config
 * carries (event select 7:0 and 35:32, umask, edge, invert, counter mask;
 * not the privilege and enable bits), or -1 when it does not know the PMU
 * or the event.
 */
static int64_t pfm_config(const char *pmu, const char *name)
{
	const uint64_t fields = 0xF00000000ull | 0xFF000000ull | 1ull << 23 | 1ull << 18 | 0xFFFF;
	pfm_pmu_encode_arg_t arg;
	char full[256];
	int64_t config;

	memset(&arg, 0, sizeof(arg));
	snprintf(full, sizeof(full), "%s::%s", pmu, name);
	if (pfm_get_os_event_encoding(full, PFM_PLM0 | PFM_PLM3, PFM_OS_NONE, &arg) ||
	    arg.count < 1)
		return -1;
	config = (int64_t)(arg.codes[0] & fields);
	free(arg.codes);
	return config;
}

/*
 * Every event each AMD model reads (no more, no fewer than the table) encodes to
 * the table's config on the core PMU type, for any counter; and to libpfm4's
 * where it knows the event.  libpfm4 4.13 has a Zen 4 table and no Zen 5 one.
 */
static void check_amd(const char *id, const struct amd_want *want)
{
	char err[512];
	struct event_target t = cpu_target(id, PMU_TYPE);
	struct tma_model *m = model_load_builtin(id, err, sizeof(err));
	int nwant = 0, pfm_checked = 0;

	if (!m)
		fail_msg("%s: %s", id, err);
	if (t.pfm_pmu)
		force(t.pfm_pmu);
	for (; want[nwant].name; nwant++) {
		struct event_enc e = enc_ok(&t, want[nwant].name);

		assert_int_equal(e.kind, EVENT_GP);
		assert_int_equal(e.attr.type, PMU_TYPE);
		if (e.attr.config != want[nwant].config)
			fail_msg("%s %s: config 0x%llx, MORE-CPUS.md says 0x%llx", id,
				 want[nwant].name, (unsigned long long)e.attr.config,
				 (unsigned long long)want[nwant].config);
		assert_int_equal(e.counter_mask, 0x3f); /* any of the six PMCs */
		if (want[nwant].pfm && t.pfm_pmu) {
			int64_t pfm = pfm_config(t.pfm_pmu, want[nwant].pfm);

			if (pfm < 0)
				fail_msg("libpfm4 %s lacks %s", t.pfm_pmu, want[nwant].pfm);
			if ((uint64_t)pfm != e.attr.config)
				fail_msg("%s %s: config 0x%llx, libpfm4's %s 0x%llx", id,
					 want[nwant].name, (unsigned long long)e.attr.config,
					 want[nwant].pfm, (unsigned long long)pfm);
			pfm_checked++;
		}
	}
	assert_int_equal(model_event_count(m), nwant);
	for (int k = 0; k < model_event_count(m); k++) {
		bool found = false;

		for (int i = 0; i < nwant; i++)
			found |= !strcmp(want[i].name, model_event_name(m, k));
		if (!found)
			fail_msg("%s reads %s, which the table does not give", id,
				 model_event_name(m, k));
	}
	print_message("%s: %d encodings agree with MORE-CPUS.md, %d with libpfm4\n", id, nwant,
		      pfm_checked);
	model_free(m);
}

static void test_amd_events(void **state)
{
	(void)state;
	check_amd("zen4", zen4_want);
	check_amd("zen5", zen5_want);
	{
		/* Zen 6 (MORE-CPUS.md): Zen 5's encodings, the resync event renamed */
		struct amd_want zen6_want[sizeof(zen5_want) / sizeof(zen5_want[0])];

		for (size_t i = 0; i < sizeof(zen5_want) / sizeof(zen5_want[0]); i++) {
			zen6_want[i] = zen5_want[i];
			if (zen6_want[i].name && !strcmp(zen6_want[i].name, "bp_redirects.resync"))
				zen6_want[i].name = "bp_fe_redir.resync";
		}
		check_amd("zen6", zen6_want);
	}
	/* The day libpfm4 learns Zen 5, its table must agree too. */
	if (pfm_config("amd64_fam1ah_zen5", "RETIRED_OPS") >= 0)
		fail_msg("libpfm4 now has a Zen 5 table: give zen5.cpu 'libpfm amd64_fam1ah_zen5' "
			 "and zen5_want its names");
}

/*
 * Neoverse V3 and N3 (MORE-CPUS.md): the raw config is Arm's PMUv3 event number, 16 bits
 * (0x8162, not AMD's split of bits 11:8 to config:32-35), on any of the six event counters;
 * CPU_CYCLES on the cycle counter.
 */
static void test_arm_pmuv3_events(void **state)
{
	static const struct {
		const char *name;
		uint64_t config;
	} want[] = {
		{ "CPU_CYCLES", 0x11 },
		{ "STALL_FRONTEND", 0x23 },
		{ "STALL_BACKEND", 0x24 },
		{ "OP_RETIRED", 0x3A },
		{ "OP_SPEC", 0x3B },
		{ "STALL_SLOT_BACKEND", 0x3D },
		{ "STALL_SLOT_FRONTEND", 0x3E },
		{ "STALL_SLOT", 0x3F },
		{ "STALL_BACKEND_MEM", 0x4005 },
		{ "STALL_FRONTEND_MEMBOUND", 0x8158 },
		{ "STALL_FRONTEND_L1I", 0x8159 },
		{ "STALL_FRONTEND_MEM", 0x815B },
		{ "STALL_FRONTEND_TLB", 0x815C },
		{ "STALL_FRONTEND_CPUBOUND", 0x8160 },
		{ "STALL_FRONTEND_FLOW", 0x8161 },
		{ "STALL_FRONTEND_FLUSH", 0x8162 },
		{ "STALL_BACKEND_MEMBOUND", 0x8164 },
		{ "STALL_BACKEND_L1D", 0x8165 },
		{ "STALL_BACKEND_TLB", 0x8167 },
		{ "STALL_BACKEND_ST", 0x8168 },
		{ "STALL_BACKEND_CPUBOUND", 0x816A },
		{ "STALL_BACKEND_BUSY", 0x816B },
		{ "STALL_BACKEND_RENAME", 0x816D },
	};
	static const char *const ids[] = { "neoverse-v3", "neoverse-n3" };

	(void)state;
	for (size_t c = 0; c < 2; c++) {
		struct event_target t = cpu_target(ids[c], PMU_TYPE);
		char err[512];
		struct tma_model *m = model_load_builtin(ids[c], err, sizeof(err));

		if (!m)
			fail_msg("%s: %s", ids[c], err);
		assert_int_equal(model_event_count(m), (int)(sizeof(want) / sizeof(want[0])));
		for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
			struct event_enc e = enc_ok(&t, want[i].name);

			assert_true(model_event_index(m, want[i].name) >= 0);
			assert_int_equal(e.attr.type, PMU_TYPE);
			if (e.attr.config != want[i].config)
				fail_msg("%s %s: config 0x%llx, MORE-CPUS.md says 0x%llx", ids[c],
					 want[i].name, (unsigned long long)e.attr.config,
					 (unsigned long long)want[i].config);
			assert_int_equal(e.kind, i ? EVENT_GP : EVENT_FIXED);
			if (i)
				assert_int_equal(e.counter_mask, 0x3f);
		}
		model_free(m);
	}
}

/*
 * perf's generic hardware events: PERF_TYPE_HARDWARE with the kernel's
 * configs (linux/perf_event.h), no CPU description or libpfm4 table needed.
 */
static void test_generic_hardware_events(void **state)
{
	static const struct {
		const char *name;
		uint64_t config;
	} want[] = {
		{ "cycles", 0 },
		{ "instructions", 1 },
		{ "cache-references", 2 },
		{ "cache-misses", 3 },
		{ "branch-instructions", 4 },
		{ "branch-misses", 5 },
		{ "bus-cycles", 6 },
		{ "stalled-cycles-frontend", 7 },
		{ "stalled-cycles-backend", 8 },
		{ "ref-cycles", 9 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		struct event_enc e = enc_ok(NULL, want[i].name);

		assert_true(event_is_generic_hw(want[i].name));
		assert_int_equal(e.kind, EVENT_GP);
		assert_int_equal(e.attr.type, PERF_TYPE_HARDWARE);
		assert_int_equal(e.attr.config, want[i].config);
		assert_true(e.attr.exclude_guest);
		/* On a description's PMU too: the kernel maps them, not the description. */
		e = enc_ok(&icx, want[i].name);
		assert_int_equal(e.attr.type, PERF_TYPE_HARDWARE);
	}
	assert_false(event_is_generic_hw("cpu-cycles-typo"));
	assert_false(event_is_generic_hw("SW.CPU_CLOCK"));
}

static void test_errors(void **state)
{
	(void)state;
	force("icx");
	expect_error(&icx, "NO_SUCH_EVENT.ANY", -ENOENT, "libpfm4 cannot encode");
	expect_error(&icx, "NO_SUCH_EVENT.ANY", -ENOENT, "NO_SUCH_EVENT.ANY");
	expect_error(&icx, "UOPS_ISSUED.NO_SUCH_UMASK", -ENOENT, "icx::UOPS_ISSUED:NO_SUCH_UMASK");
	expect_error(&icx, "UOPS_ISSUED.ANY:x1", -EINVAL, "unknown modifier ':x1'");
	expect_error(&icx, "UOPS_ISSUED.ANY:c256", -EINVAL, "bad modifier value ':c256'");
	expect_error(&icx, "UOPS_ISSUED.ANY:e2", -EINVAL, "bad modifier value");
	expect_error(&icx, "UOPS_ISSUED.ANY:u0x100", -EINVAL, "bad modifier value");
	expect_error(&icx, "UOPS_ISSUED.ANY:e1", -EINVAL, "add :c1");
	expect_error(&icx, "UOPS_ISSUED.ANY:ocr_msr_val=0x1", -EINVAL, "offcore-response");
	expect_error(&icx, "PERF_METRICS.RETIRING:c1", -EINVAL, "no modifiers");
	expect_error(&icx, "TOPDOWN.SLOTS:u0x1", -EINVAL, "no modifiers");
	expect_error(&icx, "PERF_METRICS.NOPE", -ENOENT, "unknown topdown event");
	expect_error(&icx, "PERF_METRICS.MEMORY_BOUND", -EOPNOTSUPP, "level-1 PERF_METRICS only");
	expect_error(&icx, "INST_RETIRED.ANY:c1", -EINVAL, "fixed-counter");
	expect_error(&icx, "INST_RETIRED.ANY:SUP", -EINVAL, "_P form");
	expect_error(&icx, "PERF_METRICS.RETIRING:SUP", -EINVAL, "no modifiers");
	expect_error(&icx, "UOPS_ISSUED.ANY:SUP:USER", -EINVAL, "exclude each other");
	expect_error(&icx, "UOPS_ISSUED.ANY:sup", -EINVAL, "unknown modifier");
	/* libpfm4 4.13 gives event select 0 for these: refused, never counted as zero. */
	expect_error(&icx, "CPU_CLK_UNHALTED.REF_TSC:c1", -EINVAL, "fixed-counter");
	expect_error(&icx, "INST_RETIRED.PREC_DIST", -EINVAL, "pseudo-event 0x100");
	expect_error(&icx, "Cycles", -EINVAL, "EVENT.UMASK");
	expect_error(&icx, "no_such_amd_event", -ENOENT, "icx::no_such_amd_event");
	expect_error(&icx, "UOPS_ISSUED.", -EINVAL, "not an event name");
	expect_error(&icx, "", -EINVAL, "empty");
	expect_error(&icx, "msr/aperf/", -EINVAL, "msr/tsc/");
	expect_error(NULL, "UOPS_ISSUED.ANY", -EINVAL, "--model");
}

/*
 * Software events: the kernel's PERF_TYPE_SOFTWARE configs (linux/perf_event.h),
 * encoded with no PMU table at all (no target, or one without a libpfm4 name).
 */
static void test_software_events(void **state)
{
	static const struct {
		const char *name;
		uint64_t config;
	} sw[] = {
		{ "SW.CPU_CLOCK", PERF_COUNT_SW_CPU_CLOCK },
		{ "SW.TASK_CLOCK", PERF_COUNT_SW_TASK_CLOCK },
		{ "SW.CONTEXT_SWITCHES", PERF_COUNT_SW_CONTEXT_SWITCHES },
		{ "SW.CPU_MIGRATIONS", PERF_COUNT_SW_CPU_MIGRATIONS },
		{ "SW.PAGE_FAULTS", PERF_COUNT_SW_PAGE_FAULTS },
		{ "SW.MINOR_FAULTS", PERF_COUNT_SW_PAGE_FAULTS_MIN },
		{ "SW.MAJOR_FAULTS", PERF_COUNT_SW_PAGE_FAULTS_MAJ },
	};
	static const struct event_target none = { .pfm_pmu = NULL };
	const struct event_target *targets[] = { NULL, &none, &icx };

	(void)state;
	force("icx");
	for (size_t t = 0; t < sizeof(targets) / sizeof(targets[0]); t++) {
		for (size_t i = 0; i < sizeof(sw) / sizeof(sw[0]); i++) {
			struct event_enc e;
			char err[512] = "";

			if (event_encode(targets[t], sw[i].name, &e, err, sizeof(err)))
				fail_msg("%s: %s", sw[i].name, err);
			assert_string_equal(e.name, sw[i].name);
			assert_int_equal(e.kind, EVENT_SOFTWARE);
			assert_int_equal(e.attr.type, PERF_TYPE_SOFTWARE);
			assert_int_equal(e.attr.config, sw[i].config);
			assert_int_equal(e.attr.config1, 0);
			assert_int_equal(e.counter_mask, 0); /* no hardware counter */
			assert_int_equal(e.flags, 0);
			assert_int_equal(e.attr.size, sizeof(e.attr));
			assert_int_equal(e.attr.sample_period, 0);
			assert_int_equal(e.attr.inherit, 0);
			assert_int_equal(e.attr.exclude_user, 0);
			assert_int_equal(e.attr.exclude_kernel, 0);
			assert_int_equal(e.attr.read_format,
					 PERF_FORMAT_TOTAL_TIME_ENABLED |
						 PERF_FORMAT_TOTAL_TIME_RUNNING);
			assert_true(event_is_software(sw[i].name));
		}
	}
	assert_false(event_is_software("UOPS_ISSUED.ANY"));
	assert_false(event_is_software("SWX.CPU_CLOCK"));
	assert_false(event_is_software("msr/tsc/"));
	assert_false(event_is_software(NULL));
	assert_string_equal(event_kind_name(EVENT_SOFTWARE), "sw");
	expect_error(NULL, "SW.NOPE", -ENOENT, "unknown software event");
	expect_error(&icx, "SW.NOPE", -ENOENT, "SW.{CPU_CLOCK");
	expect_error(NULL, "SW.CPU_CLOCK:c1", -EINVAL, "software events take no modifiers");
	expect_error(NULL, "SW.PAGE_FAULTS:USER", -EINVAL, "no modifiers");
	expect_error(NULL, "sw.cpu_clock", -EINVAL, "--model");
}

/* The test model of software events: every event it reads encodes without a PMU. */
static void test_software_model_events(void **state)
{
	char path[1024], err[512];
	struct tma_model *m;
	int n;

	(void)state;
	test_model_path(path, sizeof(path), "software_test.tma");
	m = model_load_file(path, err, sizeof(err));
	if (!m)
		fail_msg("%s (run from the repository root or set TMACG_TEST_MODELS)", err);
	n = model_event_count(m);
	assert_true(n >= 5);
	for (int i = 0; i < n; i++) {
		struct event_enc e;

		if (event_encode(NULL, model_event_name(m, i), &e, err, sizeof(err)))
			fail_msg("%s", err);
		assert_int_equal(e.kind, EVENT_SOFTWARE);
	}
	model_free(m);
}

static void test_long_name(void **state)
{
	char name[400];

	(void)state;
	force("icx");
	memset(name, 'A', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	name[10] = '.';
	expect_error(&icx, name, -ENAMETOOLONG, "longer than");
}

/* Re-initialising libpfm4 for another forced PMU must switch tables. */
static void test_switch_pmu(void **state)
{
	struct event_enc e;
	char err[512];

	(void)state;
	force("spr");
	e = enc_ok(&spr, "UOPS_ISSUED.ANY");
	assert_fields(&e, 0xae, 0x01, 0, 0, 0); /* Golden Cove moved it to 0xAE */
	force("icx");
	e = enc_ok(&icx, "UOPS_ISSUED.ANY");
	assert_fields(&e, 0x0e, 0x01, 0, 0, 0);
	/*
	 * The forced PMU reaches libpfm4 alone: the environment is as it was
	 * after events_init() (nothing left for a child or another getenv), a
	 * user's own LIBPFM_FORCE_PMU included, and the encoding is still icx's.
	 */
	force("spr");
	assert_int_equal(events_init("icx", err, sizeof(err)), 0);
	assert_null(getenv("LIBPFM_FORCE_PMU"));
	e = enc_ok(&icx, "UOPS_ISSUED.ANY");
	assert_fields(&e, 0x0e, 0x01, 0, 0, 0);
	setenv("LIBPFM_FORCE_PMU", "someone-elses", 1);
	assert_int_equal(events_init("spr", err, sizeof(err)), 0);
	assert_string_equal(getenv("LIBPFM_FORCE_PMU"), "someone-elses");
	e = enc_ok(&spr, "UOPS_ISSUED.ANY");
	assert_fields(&e, 0xae, 0x01, 0, 0, 0);
	/* Back to detection: the user's variable does not force it, and stays. */
	assert_int_equal(events_init(NULL, err, sizeof(err)), 0);
	assert_string_equal(getenv("LIBPFM_FORCE_PMU"), "someone-elses");
	unsetenv("LIBPFM_FORCE_PMU");
	assert_string_equal(event_kind_name(EVENT_GP), "gp");
	assert_string_equal(event_kind_name(EVENT_METRIC), "metric");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_icx_golden_events),
		cmocka_unit_test(test_spr_golden_events),
		cmocka_unit_test(test_model_events),
		cmocka_unit_test(test_every_encoding_against_intel),
		cmocka_unit_test(test_privilege_filters),
		cmocka_unit_test(test_icx_intel_encodings),
		cmocka_unit_test(test_spr_intel_encodings),
		cmocka_unit_test(test_topdown_and_fixed),
		cmocka_unit_test(test_percore_and_pseudo),
		cmocka_unit_test(test_counter_masks),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_amd_events),
		cmocka_unit_test(test_arm_pmuv3_events),
		cmocka_unit_test(test_generic_hardware_events),
		cmocka_unit_test(test_long_name),
		cmocka_unit_test(test_switch_pmu),
		cmocka_unit_test(test_software_events),
		cmocka_unit_test(test_software_model_events),
		cmocka_unit_test(test_vm_without_fixed_counters),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
