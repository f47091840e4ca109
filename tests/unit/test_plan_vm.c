// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Cloud virtual machines' PMUs, as they are: detected from a fixture /proc and /sys with
 * a fake CPUID (x86) or a fake perf_event_open that refuses what the PMU cannot hold (Arm),
 * then planned.  An Ice Lake or Sapphire Rapids guest offering 4 general-purpose counters,
 * no fixed counter and no PERF_METRICS gets a plan within 4 counters that opens none of
 * them (the fixed events' general-counter twins instead), the nodes reading what is missing
 * null, and one line on stderr saying what the VM lacks.  A Zen 4 guest offered the legacy
 * four counters plans for four.  A Neoverse guest whose PMU holds 3 event counters gets
 * groups of at most 3 of them (and CPU_CYCLES on the cycle counter).
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "counter_assign.h"
#include "fake_root.h"
#include "test_models.h"

#include "model/model.h"
#include "pmu/cpu_desc.h"
#include "pmu/cpu_detect.h"
#include "pmu/plan_model.h"
#include "pmu/planner.h"

#define PMU_DIR "/sys/bus/event_source/devices"
#define VM_GP 4
#define ARM_VM_GP 3

static char root[256];

/* A KVM guest's CPUID: hypervisor bit, leaf 0xA version 5 with VM_GP counters, no fixed. */
static int vm_cpuid(unsigned int leaf, unsigned int subleaf, unsigned int regs[4])
{
	(void)subleaf;
	memset(regs, 0, 4 * sizeof(regs[0]));
	if (leaf == 0)
		regs[0] = 0x1b;
	else if (leaf == 1)
		regs[2] = 1u << 31;
	else if (leaf == 0xA)
		regs[0] = 0x07300005 | VM_GP << 8; /* ECX 0, EDX 0: no fixed counter */
	return 0;
}

/* Events the fake PMU's groups hold: the cycle counter and ARM_VM_GP event counters. */
static int fake_opens, fake_group_size;
static int fake_fds[64];

static int arm_vm_open(struct perf_event_attr *attr, int group_fd)
{
	int fd;

	assert_int_equal(attr->type, 8);
	assert_int_equal(attr->config, 0x11); /* CPU_CYCLES */
	if (group_fd < 0) {
		assert_true(attr->disabled);
		fake_group_size = 0;
	} else {
		assert_int_equal(group_fd, fake_fds[0]);
	}
	if (fake_group_size == 1 + ARM_VM_GP)
		return -EINVAL; /* validate_group: no counter left for it */
	fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	fake_fds[fake_group_size++] = fd;
	fake_opens++;
	return fd;
}

static int setup(void **state)
{
	(void)state;
	snprintf(root, sizeof(root), "/tmp/tmacg-vm-XXXXXX");
	return fake_root_make(root);
}

static int teardown(void **state)
{
	(void)state;
	return fake_root_remove(root);
}

static struct cpu_info detect(const struct cpu_detect_opts *o)
{
	struct cpu_info ci;
	char err[512] = "";

	if (cpu_detect(o, &ci, err, sizeof(err)))
		fail_msg("cpu_detect: %s", err);
	return ci;
}

/* What cpu_warn prints for ci. */
static char *warnings(const struct cpu_info *ci)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	cpu_warn(ci, f);
	fclose(f);
	return text;
}

static int lines(const char *text)
{
	int n = 0;

	for (; *text; text++)
		n += *text == '\n';
	return n;
}

/* Every group's GP events fit gp counters, its fixed events at most one per fixed counter. */
static void check_groups(const struct plan *p, int gp, int fixed_counters)
{
	for (int g = 0; g < p->ngroups; g++) {
		uint32_t masks[PLAN_MAX_EVENTS], fixed = 0;
		int ngp = 0;

		for (int i = p->first[g]; i < p->first[g + 1]; i++) {
			const struct event_enc *e = &p->ev[i];

			if (e->kind == EVENT_GP) {
				masks[ngp++] = e->counter_mask;
				continue;
			}
			assert_int_equal(e->kind, EVENT_FIXED);
			assert_true(e->fixed < fixed_counters);
			assert_false(fixed >> e->fixed & 1);
			fixed |= 1u << e->fixed;
		}
		if (ngp > gp || !counter_assign(masks, ngp, gp))
			fail_msg("group %d: %d GP events do not fit %d counters", g, ngp, gp);
	}
}

/*
 * The model evaluated on made-up counts, an event not opened read as unmeasured (NAN):
 * every node that reads a missing event itself is null; the nodes of computed (NULL-ended)
 * up to level are not.
 */
static void check_nodes(const struct tma_model *m, const struct plan *p, unsigned int flags,
			int level, const char *const *computed)
{
	int n = model_event_count(m);
	double *values = calloc((size_t)n + 1, sizeof(*values));
	bool *mark = calloc((size_t)n + 1, sizeof(*mark));
	bool *absent = calloc((size_t)n + 1, sizeof(*absent));
	struct model_input in = {
		.events = values, .absent = absent, .interval_s = 1, .flags = flags
	};
	struct model_result *res = model_result_new(m);
	int null_nodes = 0;

	assert_non_null(values);
	assert_non_null(mark);
	assert_non_null(absent);
	assert_non_null(res);
	/* As measure.c reads a plan: what it does not open is absent, msr/tsc/ computed */
	for (int e = 0; e < n; e++) {
		absent[e] = plan_index(p, model_event_name(m, e)) < 0 &&
			    strcmp(model_event_name(m, e), "msr/tsc/");
		values[e] = absent[e] ? NAN : 1e6 + 1e4 * e;
	}
	assert_int_equal(model_eval(m, &in, res), 0);
	for (int k = 0; k < model_node_count(m); k++) {
		bool reads_missing = false;

		memset(mark, 0, ((size_t)n + 1) * sizeof(*mark));
		if (model_node_events_for(m, k, flags, mark) < 0)
			continue;
		for (int e = 0; e < n; e++)
			for (int i = 0; mark[e] && i < p->nmissing; i++)
				reads_missing |= !strcmp(p->missing[i], model_event_name(m, e));
		if (reads_missing && !isnan(res->value[k]))
			fail_msg("%s reads an event not opened but is %g", model_node(m, k)->name,
				 res->value[k]);
		null_nodes += reads_missing;
	}
	assert_true(null_nodes > 0);
	/* Intel's 5.2 trees: every level-1 node reads PERF_METRICS, Bad_Speculation through the others */
	for (int k = 0; k < model_node_count(m); k++)
		if (model_node(m, k)->level == 1 && !model_node(m, k)->is_info &&
		    !isnan(res->value[k]))
			fail_msg("level-1 %s is %g without PERF_METRICS", model_node(m, k)->name,
				 res->value[k]);
	for (int w = 0; computed[w]; w++)
		for (int k = 0; k < model_node_count(m); k++)
			if (!strcmp(model_node(m, k)->name, computed[w]) &&
			    model_node(m, k)->level <= level && isnan(res->value[k]))
				fail_msg("%s is null: it reads nothing missing", computed[w]);
	model_result_free(res);
	free(absent);
	free(mark);
	free(values);
}

/* Whether name is among the plan's missing events. */
static bool is_missing(const struct plan *p, const char *name)
{
	for (int i = 0; i < p->nmissing; i++)
		if (!strcmp(p->missing[i], name))
			return true;
	return false;
}

/*
 * An Intel guest of cpu_model, planned with model_id at levels 1-3; computed (NULL-ended):
 * nodes that read no PERF_METRICS, computed from the counters there are where planned.
 */
static void x86_vm(const char *model_id, int cpu_model, bool has_ref_tsc_twin,
		   const char *const *computed)
{
	struct cpu_detect_opts o = { .root = root, .cpuid = vm_cpuid };
	struct tma_model *m = test_model_builtin(model_id);
	struct plan_request r = { .model = m };
	static struct plan p;
	struct cpu_info ci;
	char text[512], err[512] = "", *warn;

	snprintf(text, sizeof(text),
		 "processor\t: 0\nvendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: %d\n"
		 "stepping\t: 6\nflags\t\t: fpu hypervisor\n\n",
		 cpu_model);
	fake_root_put(root, "/proc/cpuinfo", text);
	/* The guest kernel's core PMU: no events/topdown-* (no PERF_METRICS) */
	fake_root_put(root, PMU_DIR "/cpu/type", "4\n");
	fake_root_put(root, "/sys/devices/system/cpu/smt/active", "0\n");
	fake_root_put(root, "/proc/sys/kernel/nmi_watchdog", "0\n");
	ci = detect(&o);
	assert_string_equal(ci.model_id, model_id);
	assert_true(ci.cpu->perf_metrics);
	assert_int_equal(ci.cpu->fixed_counters, 4);
	assert_int_equal(ci.gp_counters, VM_GP);
	assert_int_equal(ci.gp_usable, VM_GP);
	assert_true(ci.fixed_known);
	assert_int_equal(ci.fixed_mask, 0);
	assert_true(ci.hypervisor);
	assert_false(ci.topdown_use_fixed);

	/* One line says what the VM lacks against its core */
	warn = warnings(&ci);
	assert_int_equal(lines(warn), 1);
	assert_non_null(strstr(warn, "this virtual machine's PMU offers 4 general-purpose "
				     "counters, no fixed counters and no PERF_METRICS, where its "
				     "core"));
	assert_non_null(strstr(warn, "has 8, 4 fixed and PERF_METRICS"));
	assert_non_null(strstr(warn, "quality.missing_events"));
	free(warn);

	r.cpu = &ci;
	for (r.level = 1; r.level <= 3; r.level++) {
		unsigned int flags = plan_model_flags(&r);
		int slots;

		if (plan_for_model(&r, &p, err, sizeof(err)))
			fail_msg("%s level %d: %s", model_id, r.level, err);
		assert_int_equal(p.gp_counters, VM_GP);
		check_groups(&p, VM_GP, 0);
		for (int i = 0; i < p.nevents; i++) {
			/* No PERF_METRICS nor a fixed-counter pseudo-encoding (event select 0) */
			assert_int_equal(p.ev[i].kind, EVENT_GP);
			assert_true((p.ev[i].attr.config & 0xff) != 0);
		}
		/* Level 1 reads PERF_METRICS: not opened, missing, its nodes null */
		assert_true(is_missing(&p, "PERF_METRICS.RETIRING"));
		assert_true(is_missing(&p, "PERF_METRICS.BACKEND_BOUND"));
		/* The slots and the clocks on general-purpose counters, by their twins */
		slots = plan_index(&p, "TOPDOWN.SLOTS");
		assert_true(slots >= 0);
		assert_int_equal(p.ev[slots].attr.config, 0x01a4); /* TOPDOWN.SLOTS_P */
		if (plan_index(&p, "CPU_CLK_UNHALTED.THREAD") >= 0)
			assert_int_equal(
				p.ev[plan_index(&p, "CPU_CLK_UNHALTED.THREAD")].attr.config, 0x3c);
		if (plan_index(&p, "INST_RETIRED.ANY") >= 0)
			assert_int_equal(p.ev[plan_index(&p, "INST_RETIRED.ANY")].attr.config,
					 0xc0);
		/* Reference cycles at the TSC's rate: SPR's REF_TSC_P; Ice Lake has none */
		if (plan_index(&p, "CPU_CLK_UNHALTED.REF_TSC") >= 0 ||
		    is_missing(&p, "CPU_CLK_UNHALTED.REF_TSC"))
			assert_int_equal(is_missing(&p, "CPU_CLK_UNHALTED.REF_TSC"),
					 !has_ref_tsc_twin);
		check_nodes(m, &p, flags, r.level, computed);
	}
	model_free(m);
}

/*
 * Every Intel description's model on the same guest: every level it has plans within the
 * four counters, levels 4-6 in turns, and opens nothing of a fixed counter or PERF_METRICS.
 */
static void test_every_intel_model_on_the_vm(void **state)
{
	(void)state;
	for (int i = 0; i < cpu_desc_count(); i++) {
		const struct cpu_desc *d = cpu_desc_at(i);
		struct cpu_info ci = { .has_pmu = true,
				       .pmu_type = 4,
				       .cpu = d,
				       .gp_counters = VM_GP,
				       .gp_usable = VM_GP,
				       .fixed_known = true,
				       .hypervisor = true };
		struct plan_request r = { .model = test_model_builtin(d->model), .cpu = &ci };
		static struct plan p;
		char err[512] = "";

		if (strcmp(d->match[0].vendor, "GenuineIntel")) {
			model_free((struct tma_model *)r.model);
			continue;
		}
		for (r.level = 1; r.level <= plan_model_depth(r.model) || r.level <= 3; r.level++) {
			if (plan_for_model(&r, &p, err, sizeof(err)))
				fail_msg("%s level %d on the VM: %s", d->id, r.level, err);
			check_groups(&p, VM_GP, 0);
			for (int e = 0; e < p.nevents; e++)
				assert_int_equal(p.ev[e].kind, EVENT_GP);
		}
		model_free((struct tma_model *)r.model);
	}
}

static void test_icx_vm(void **state)
{
	static const char *const computed[] = { "Fetch_Latency", "L1_Bound", NULL };

	(void)state;
	x86_vm("icx", 0x6A, false, computed);
}

static void test_spr_vm(void **state)
{
	/* Sapphire Rapids' level 2 reads PERF_METRICS too */
	static const char *const computed[] = { "Branch_Resteers", "L1_Bound", NULL };

	(void)state;
	x86_vm("spr", 0x8F, true, computed);
}

/*
 * The same guest with the host's PMU passed through (8 counters, fixed 0-3, PERF_METRICS):
 * no line, and the plan is the bare-metal one.
 */
static int full_cpuid(unsigned int leaf, unsigned int subleaf, unsigned int regs[4])
{
	vm_cpuid(leaf, subleaf, regs);
	if (leaf == 0xA) {
		regs[0] = 0x07300805;
		regs[2] = 0xf;
	}
	return 0;
}

static void test_x86_vm_with_full_pmu(void **state)
{
	struct cpu_detect_opts o = { .root = root, .cpuid = full_cpuid };
	struct plan_request r = { .model = test_model_builtin("icx"), .level = 1 };
	static struct plan p;
	struct cpu_info ci;
	char err[512] = "", *warn;

	(void)state;
	fake_root_put(root, "/proc/cpuinfo",
		      "processor\t: 0\nvendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 106\n"
		      "stepping\t: 6\n\n");
	fake_root_put(root, PMU_DIR "/cpu/type", "4\n");
	fake_root_put(root, PMU_DIR "/cpu/events/topdown-retiring", "event=0x00,umask=0x80\n");
	ci = detect(&o);
	assert_int_equal(ci.fixed_mask, 0xf);
	assert_true(ci.topdown_use_fixed);
	warn = warnings(&ci);
	assert_string_equal(warn, "");
	free(warn);
	r.cpu = &ci;
	if (plan_for_model(&r, &p, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(p.nmissing, 0);
	assert_int_equal(p.ev[0].kind, EVENT_SLOTS);
	assert_int_equal(p.ev[plan_index(&p, "PERF_METRICS.RETIRING")].kind, EVENT_METRIC);
	model_free((struct tma_model *)r.model);
}

/* A Zen 4 guest offered the legacy four core counters (no PerfMonV2, no PerfCtrExtCore). */
static int amd_vm_cpuid(unsigned int leaf, unsigned int subleaf, unsigned int regs[4])
{
	(void)subleaf;
	memset(regs, 0, 4 * sizeof(regs[0]));
	if (leaf == 0)
		regs[0] = 0x10;
	else if (leaf == 1)
		regs[2] = 1u << 31;
	else if (leaf == 0x80000000u)
		regs[0] = 0x80000022u;
	return 0;
}

static void test_zen4_vm(void **state)
{
	struct cpu_detect_opts o = { .root = root, .cpuid = amd_vm_cpuid };
	struct plan_request r = { .model = test_model_builtin("zen4") };
	static struct plan p;
	struct cpu_info ci;
	char err[512] = "", *warn;

	(void)state;
	fake_root_put(root, "/proc/cpuinfo",
		      "processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 25\n"
		      "model\t\t: 17\nstepping\t: 1\n\n");
	fake_root_put(root, PMU_DIR "/cpu/type", "4\n");
	ci = detect(&o);
	assert_string_equal(ci.model_id, "zen4");
	assert_int_equal(ci.gp_counters, 4);
	assert_true(ci.hypervisor);
	warn = warnings(&ci);
	assert_int_equal(lines(warn), 1);
	assert_non_null(strstr(warn, "this virtual machine's PMU offers 4 general-purpose "
				     "counters, where its core, "));
	assert_non_null(strstr(warn, ", has 6: "));
	free(warn);
	r.cpu = &ci;
	for (r.level = 1; r.level <= 2; r.level++) {
		if (plan_for_model(&r, &p, err, sizeof(err)))
			fail_msg("zen4 level %d: %s", r.level, err);
		assert_int_equal(p.gp_counters, 4);
		check_groups(&p, 4, 0);
		assert_int_equal(p.nmissing, 0);
	}
	model_free((struct tma_model *)r.model);
}

static void arm_vm(const char *model_id, unsigned long long midr)
{
	struct cpu_detect_opts o = { .root = root, .perf_open = arm_vm_open };
	struct tma_model *m = test_model_builtin(model_id);
	struct plan_request r = { .model = m };
	static struct plan p;
	struct cpu_info ci;
	char path[128], text[64], err[512] = "", *warn;

	snprintf(text, sizeof(text), "0x%016llx\n", midr);
	for (int cpu = 0; cpu < 2; cpu++) {
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%d/regs/identification/midr_el1", cpu);
		fake_root_put(root, path, text);
	}
	fake_root_put(root, "/proc/cpuinfo", "processor\t: 0\nCPU implementer\t: 0x41\n");
	fake_root_put(root, PMU_DIR "/armv8_pmuv3_0/type", "8\n");
	fake_root_put(root, PMU_DIR "/armv8_pmuv3_0/cpus", "0-1\n");
	fake_opens = 0;
	ci = detect(&o);
	assert_string_equal(ci.model_id, model_id);
	assert_int_equal(ci.cpu->gp_counters, 6);
	/* the probe: the cycle counter and 3 event counters held, the fifth refused */
	assert_int_equal(fake_opens, 1 + ARM_VM_GP);
	for (int i = 0; i < fake_opens; i++)
		assert_int_equal(fcntl(fake_fds[i], F_GETFD), -1); /* all closed again */
	assert_int_equal(ci.gp_counters, ARM_VM_GP);
	assert_int_equal(ci.gp_usable, ARM_VM_GP);
	warn = warnings(&ci);
	assert_int_equal(lines(warn), 1);
	assert_non_null(strstr(warn, "this PMU offers 3 event counters, where its core"));
	assert_non_null(strstr(warn, "has 6:"));
	free(warn);

	r.cpu = &ci;
	for (r.level = 1; r.level <= 3; r.level++) {
		if (plan_for_model(&r, &p, err, sizeof(err)))
			fail_msg("%s level %d: %s", model_id, r.level, err);
		assert_int_equal(p.gp_counters, ARM_VM_GP);
		check_groups(&p, ARM_VM_GP, 1);
		assert_int_equal(p.nmissing, 0);
	}
	model_free(m);
}

static void test_neoverse_n1_vm(void **state)
{
	(void)state;
	arm_vm("neoverse-n1", 0x413fd0c1ull);
}

static void test_neoverse_v2_vm(void **state)
{
	(void)state;
	arm_vm("neoverse-v2", 0x410fd4f0ull);
}

/* Under a fixture tree without a fake, nothing is probed: the description's six counters. */
static void test_arm_fixture_not_probed(void **state)
{
	struct cpu_detect_opts o = { .root = root };
	struct cpu_info ci;

	(void)state;
	fake_root_put(root, "/sys/devices/system/cpu/cpu0/regs/identification/midr_el1",
		      "0x00000000413fd0c1\n");
	fake_root_put(root, PMU_DIR "/armv8_pmuv3_0/type", "8\n");
	ci = detect(&o);
	assert_string_equal(ci.model_id, "neoverse-n1");
	assert_int_equal(ci.gp_counters, 6);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_intel_model_on_the_vm),
		cmocka_unit_test_setup_teardown(test_icx_vm, setup, teardown),
		cmocka_unit_test_setup_teardown(test_spr_vm, setup, teardown),
		cmocka_unit_test_setup_teardown(test_x86_vm_with_full_pmu, setup, teardown),
		cmocka_unit_test_setup_teardown(test_zen4_vm, setup, teardown),
		cmocka_unit_test_setup_teardown(test_neoverse_n1_vm, setup, teardown),
		cmocka_unit_test_setup_teardown(test_neoverse_v2_vm, setup, teardown),
		cmocka_unit_test_setup_teardown(test_arm_fixture_not_probed, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
