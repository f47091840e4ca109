// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* cpu_detect on fixture /proc and /sys trees of machines this one is not. */
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

#include "fake_root.h"

#include "pmu/cpu_desc.h"
#include "pmu/cpu_detect.h"

#define PMU_DIR "/sys/bus/event_source/devices"

static char root[256];
static unsigned int fake_max_leaf, fake_leaf_a_eax, fake_leaf_a_ecx, fake_leaf_a_edx;
static unsigned int fake_leaf1_ecx; /* bit 31: a hypervisor */
/* AMD: the largest extended leaf, 0x80000001 ECX, 0x80000022 EAX and EBX. */
static unsigned int fake_ext_max, fake_ext1_ecx, fake_ext22_eax, fake_ext22_ebx;
static int cpuid_calls;

static int fake_cpuid(unsigned int leaf, unsigned int subleaf, unsigned int regs[4])
{
	(void)subleaf;
	cpuid_calls++;
	memset(regs, 0, 4 * sizeof(regs[0]));
	if (leaf == 0)
		regs[0] = fake_max_leaf;
	else if (leaf == 1)
		regs[2] = fake_leaf1_ecx;
	else if (leaf == 0xA && leaf <= fake_max_leaf) {
		regs[0] = fake_leaf_a_eax;
		regs[2] = fake_leaf_a_ecx;
		regs[3] = fake_leaf_a_edx;
	} else if (leaf == 0x80000000u)
		regs[0] = fake_ext_max;
	else if (leaf == 0x80000001u && leaf <= fake_ext_max)
		regs[2] = fake_ext1_ecx;
	else if (leaf == 0x80000022u && leaf <= fake_ext_max) {
		regs[0] = fake_ext22_eax;
		regs[1] = fake_ext22_ebx;
	}
	return 0;
}

static int setup(void **state)
{
	(void)state;
	snprintf(root, sizeof(root), "/tmp/tmacg-cpu-XXXXXX");
	if (fake_root_make(root))
		return -1;
	fake_max_leaf = 0x1b;
	fake_leaf_a_eax = 0x07300805; /* version 5, 8 GP counters per logical CPU */
	fake_leaf_a_ecx = 0xf;	      /* fixed counters 0-3 */
	fake_leaf_a_edx = 0x604;      /* 4 fixed counters, 48 bits wide */
	fake_leaf1_ecx = 0;
	fake_ext_max = 0x80000008u;
	fake_ext1_ecx = fake_ext22_eax = fake_ext22_ebx = 0;
	cpuid_calls = 0;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	return fake_root_remove(root);
}

static void cpuinfo_stepping(const char *vendor, int family, int model, const char *stepping)
{
	char text[1024];

	/* Two processors, as the kernel writes them; "model name" must not be taken for "model". */
	snprintf(text, sizeof(text),
		 "processor\t: 0\nvendor_id\t: %s\ncpu family\t: %d\nmodel\t\t: %d\n"
		 "model name\t: Some CPU @ 2.00GHz\nstepping\t: %s\n\n"
		 "processor\t: 1\nvendor_id\t: %s\ncpu family\t: %d\nmodel\t\t: %d\n"
		 "stepping\t: 15\n\n",
		 vendor, family, model, stepping, vendor, family, model);
	fake_root_put(root, "/proc/cpuinfo", text);
}

static void cpuinfo(const char *vendor, int family, int model)
{
	cpuinfo_stepping(vendor, family, model, "6");
}

static void pmu(const char *name, int type, bool metrics, bool l2)
{
	char rel[256], val[16];

	snprintf(rel, sizeof(rel), "%s/%s/type", PMU_DIR, name);
	snprintf(val, sizeof(val), "%d\n", type);
	fake_root_put(root, rel, val);
	if (metrics) {
		snprintf(rel, sizeof(rel), "%s/%s/events/topdown-retiring", PMU_DIR, name);
		fake_root_put(root, rel, "event=0x00,umask=0x80\n");
	}
	if (l2) {
		snprintf(rel, sizeof(rel), "%s/%s/events/topdown-heavy-ops", PMU_DIR, name);
		fake_root_put(root, rel, "event=0x00,umask=0x84\n");
	}
}

/* MIDR_EL1 of one CPU, as the kernel shows it in sysfs. */
static void midr(int cpu, unsigned long long value)
{
	char rel[256], val[32];

	snprintf(rel, sizeof(rel), "/sys/devices/system/cpu/cpu%d/regs/identification/midr_el1",
		 cpu);
	snprintf(val, sizeof(val), "0x%016llx\n", value);
	fake_root_put(root, rel, val);
}

/* An Arm core PMU: its type, caps/slots (NULL: no file) and cpus (NULL: no file). */
static void arm_pmu(const char *name, int type, const char *slots, const char *cpus)
{
	char rel[256], val[16];

	snprintf(rel, sizeof(rel), "%s/%s/type", PMU_DIR, name);
	snprintf(val, sizeof(val), "%d\n", type);
	fake_root_put(root, rel, val);
	if (slots) {
		snprintf(rel, sizeof(rel), "%s/%s/caps/slots", PMU_DIR, name);
		fake_root_put(root, rel, slots);
	}
	if (cpus) {
		snprintf(rel, sizeof(rel), "%s/%s/cpus", PMU_DIR, name);
		fake_root_put(root, rel, cpus);
	}
}

static struct cpu_info detect(void)
{
	struct cpu_detect_opts o = { .root = root, .cpuid = fake_cpuid };
	struct cpu_info ci;
	char err[512] = "";

	if (cpu_detect(&o, &ci, err, sizeof(err)))
		fail_msg("cpu_detect: %s", err);
	return ci;
}

static void test_icx(void **state)
{
	struct cpu_info ci;
	char err[512] = "";

	(void)state;
	cpuinfo("GenuineIntel", 6, 0x6A);
	pmu("cpu", 4, true, false);
	fake_root_put(root, "/sys/devices/system/cpu/smt/active", "1\n");
	fake_root_put(root, "/proc/sys/kernel/nmi_watchdog", "0\n");
	ci = detect();
	assert_string_equal(ci.vendor, "GenuineIntel");
	assert_int_equal(ci.family, 6);
	assert_int_equal(ci.model, 0x6A);
	assert_string_equal(ci.model_id, "icx");
	assert_int_equal(ci.stepping, 6);
	assert_string_equal(ci.cpu->id, "icx");
	assert_true(ci.has_pmu);
	assert_string_equal(ci.pmu_name, "cpu");
	assert_int_equal(ci.pmu_type, 4);
	assert_true(ci.topdown_use_fixed);
	assert_false(ci.topdown_l2);
	assert_true(ci.smt);
	assert_int_equal(ci.gp_counters, 8);
	assert_false(ci.nmi_watchdog);
	assert_int_equal(ci.gp_usable, 8);
	assert_true(cpuid_calls > 0);
	assert_int_equal(cpu_require_pmu(&ci, err, sizeof(err)), 0);
	assert_string_equal(cpu_select_model(&ci, NULL, err, sizeof(err)), "icx");
	/* --model wins over detection. */
	assert_string_equal(cpu_select_model(&ci, "spr", err, sizeof(err)), "spr");
}

static void test_icx_other_model_number(void **state)
{
	(void)state;
	cpuinfo("GenuineIntel", 6, 0x6C);
	pmu("cpu", 4, true, false);
	assert_string_equal(detect().model_id, "icx");
}

static void test_spr_and_emr(void **state)
{
	struct cpu_info ci;

	(void)state;
	cpuinfo("GenuineIntel", 6, 0x8F);
	pmu("cpu", 4, true, true);
	ci = detect();
	assert_string_equal(ci.model_id, "spr");
	assert_true(ci.topdown_use_fixed);
	assert_true(ci.topdown_l2);
	assert_string_equal(ci.cpu->id, "spr");
	/* Emerald Rapids: its own description and, at TMA 5.2, its own model. */
	cpuinfo("GenuineIntel", 6, 0xCF);
	ci = detect();
	assert_string_equal(ci.model_id, "emr");
	assert_string_equal(ci.cpu->id, "emr");
	assert_non_null(strstr(ci.cpu->title, "Emerald Rapids"));
}

/* Skylake-SP and Cascade Lake share family 6 model 0x55: the stepping tells them apart. */
static void test_skx_clx_by_stepping(void **state)
{
	static const struct {
		const char *stepping, *cpu;
	} want[] = {
		{ "0", "skx" }, { "4", "skx" }, { "5", "clx" }, { "7", "clx" }, { "11", "clx" }
	};
	struct cpu_info ci;
	char err[1024] = "";

	(void)state;
	pmu("cpu", 4, false, false);
	fake_root_put(root, "/sys/devices/system/cpu/smt/active", "1\n");
	fake_leaf_a_eax = 0x07300404; /* version 4, 4 GP counters per logical CPU (SMT on) */
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		cpuinfo_stepping("GenuineIntel", 6, 0x55, want[i].stepping);
		ci = detect();
		if (!ci.cpu || strcmp(ci.cpu->id, want[i].cpu))
			fail_msg("stepping %s: %s, want %s", want[i].stepping,
				 ci.cpu ? ci.cpu->id : "none", want[i].cpu);
		assert_string_equal(ci.model_id, want[i].cpu);
		assert_false(ci.topdown_use_fixed);
		assert_int_equal(ci.gp_counters, 4); /* CPUID leaf 0xA rules on a PMU */
	}
	/* A hypervisor that hides the stepping: neither is guessed. */
	cpuinfo_stepping("GenuineIntel", 6, 0x55, "unknown");
	ci = detect();
	assert_int_equal(ci.stepping, -1);
	assert_null(ci.cpu);
	assert_null(cpu_select_model(&ci, NULL, err, sizeof(err)));
	assert_non_null(strstr(err, "--model skx"));
	assert_non_null(strstr(err, "--model clx"));
}

static void test_gnr(void **state)
{
	struct cpu_info ci;

	(void)state;
	pmu("cpu", 4, true, true);
	cpuinfo("GenuineIntel", 6, 0xAD);
	ci = detect();
	assert_string_equal(ci.cpu->id, "gnr");
	assert_string_equal(ci.model_id, "gnr");
	cpuinfo("GenuineIntel", 6, 0xAE);
	assert_string_equal(detect().model_id, "gnr");
}

/*
 * Every CPUID every description matches (each stepping of its class) detects
 * as that description: a CPU added to the data is covered here too.
 */
static void test_every_description(void **state)
{
	(void)state;
	pmu("cpu", 4, true, false);
	for (int i = 0; i < cpu_desc_count(); i++) {
		const struct cpu_desc *d = cpu_desc_at(i);

		for (int k = 0; k < d->nmatch; k++) {
			for (int s = 0; s < 16; s++) {
				char st[8];
				struct cpu_info ci;

				if (!((d->match[k].steppings >> s) & 1))
					continue;
				snprintf(st, sizeof(st), "%d", s);
				if (!strcmp(d->match[k].vendor, "ARM"))
					midr(0, (unsigned long long)d->match[k].family << 24 |
							0xfu << 16 | d->match[k].model << 4 |
							(unsigned int)s);
				else
					cpuinfo_stepping(d->match[k].vendor,
							 (int)d->match[k].family,
							 (int)d->match[k].model, st);
				ci = detect();
				if (ci.cpu != d)
					fail_msg("%s-%X-%X stepping %d: %s, want %s",
						 d->match[k].vendor, d->match[k].family,
						 d->match[k].model, s, ci.cpu ? ci.cpu->id : "none",
						 d->id);
				assert_string_equal(ci.model_id, d->model);
				if (!strcmp(d->match[k].vendor, "ARM")) {
					char path[512];

					assert_int_equal(ci.midr_cpu, 0);
					snprintf(path, sizeof(path),
						 "%s/sys/devices/system/cpu/cpu0/regs/"
						 "identification/midr_el1",
						 root);
					assert_int_equal(unlink(path), 0); /* x86 next */
				}
			}
		}
	}
	assert_true(cpu_desc_count() >= 6);
}

static void test_hybrid(void **state)
{
	struct cpu_info ci;
	char err[1024] = "";

	(void)state;
	cpuinfo("GenuineIntel", 6, 0x97); /* Alder Lake: cpu_core + cpu_atom */
	pmu("cpu_core", 4, true, false);
	pmu("cpu_atom", 10, false, false);
	ci = detect();
	assert_true(ci.has_pmu);
	assert_string_equal(ci.pmu_name, "cpu_core");
	assert_int_equal(ci.pmu_type, 4);
	assert_true(ci.topdown_use_fixed);
	assert_null(ci.model_id);
	/* No top-down model for a client part: perf's generic events on its PMU. */
	assert_string_equal(cpu_select_model(&ci, NULL, err, sizeof(err)), "generic");
}

/* Zen 3 (Milan, family 0x19 model 0x01): a PMU but no top-down model, so generic. */
static void test_amd(void **state)
{
	struct cpu_info ci;
	char err[1024] = "", path[512];

	(void)state;
	cpuinfo("AuthenticAMD", 25, 1);
	pmu("cpu", 4, false, false);
	fake_max_leaf = 0x10;
	fake_leaf_a_eax = 0;
	fake_ext_max = 0x80000021u;
	fake_ext1_ecx = 1u << 23; /* PerfCtrExtCore: six counters */
	ci = detect();
	assert_string_equal(ci.vendor, "AuthenticAMD");
	assert_null(ci.model_id);
	assert_true(ci.has_pmu);
	assert_false(ci.topdown_use_fixed);
	assert_int_equal(ci.gp_counters, 6);
	assert_string_equal(cpu_select_model(&ci, NULL, err, sizeof(err)), "generic");
	/* Without the extension: the legacy four. */
	fake_ext1_ecx = 0;
	assert_int_equal(detect().gp_counters, 4);
	/* No PMU either: the supported CPUs of this vendor, AMD's. */
	snprintf(path, sizeof(path), "%s%s/cpu/type", root, PMU_DIR);
	assert_int_equal(unlink(path), 0);
	ci = detect();
	assert_false(ci.has_pmu);
	assert_null(cpu_select_model(&ci, NULL, err, sizeof(err)));
	assert_non_null(strstr(err, "AuthenticAMD"));
	assert_non_null(strstr(err, "--model zen4"));
	assert_null(strstr(err, "Ice Lake"));
	assert_non_null(strstr(err, "Zen 4 (25/0x10-0x1F"));
	assert_non_null(
		strstr(err, "Zen 5 (26/0x0-0x2F, 26/0x40-0x4F, 26/0x60-0x7F, --model zen5)"));
	assert_non_null(
		strstr(err, "Zen 6 (26/0x30-0x3F, 26/0x50-0x5F, 26/0x80-0xFF, --model zen6)"));
}

/*
 * Zen 4 (Genoa, 0x19/0x11) with PerfMonV2 saying six counters, and the NMI
 * watchdog holding one: five usable, which level 1's six events exceed.
 */
static void test_zen4(void **state)
{
	struct cpu_info ci;
	char err[256] = "";

	(void)state;
	cpuinfo("AuthenticAMD", 25, 0x11);
	pmu("cpu", 4, false, false);
	fake_max_leaf = 0x10;
	fake_ext_max = 0x80000026u;
	fake_ext22_eax = 1; /* PerfMonV2 */
	fake_ext22_ebx = 6;
	fake_root_put(root, "/proc/sys/kernel/nmi_watchdog", "1\n");
	ci = detect();
	assert_string_equal(ci.cpu->id, "zen4");
	assert_string_equal(cpu_select_model(&ci, NULL, err, sizeof(err)), "zen4");
	assert_int_equal(ci.gp_counters, 6);
	assert_int_equal(ci.gp_usable, 5);
	assert_int_equal(cpu_require_pmu(&ci, err, sizeof(err)), 0);
	/* A hypervisor that hides the count: the description's six. */
	fake_ext_max = 0x80000000u;
	fake_root_put(root, "/proc/sys/kernel/nmi_watchdog", "0\n");
	ci = detect();
	assert_int_equal(ci.gp_counters, 6);
	assert_int_equal(ci.gp_usable, 6);
}

/*
 * Family 0x1A is no longer Zen 5 throughout: an EPYC Zen 6 (model 0x50, AMD's Venice range
 * 0x50-0x57) runs zen6, with the counters PerfMonV2 gives; Zen 5 parts on either side of the
 * Zen 6 ranges (Turin 0x02, Granite Ridge 0x44, Strix Halo 0x70) still run zen5.
 */
static void test_zen6(void **state)
{
	static const struct {
		int model;
		const char *runs;
	} want[] = { { 0x50, "zen6" },
		     { 0x57, "zen6" },
		     { 0x02, "zen5" },
		     { 0x44, "zen5" },
		     { 0x70, "zen5" } };
	struct cpu_info ci;
	char err[256] = "";

	(void)state;
	pmu("cpu", 4, false, false);
	fake_max_leaf = 0x10;
	fake_ext_max = 0x80000026u;
	fake_ext22_eax = 1; /* PerfMonV2 */
	fake_ext22_ebx = 6;
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		cpuinfo("AuthenticAMD", 26, want[i].model);
		ci = detect();
		if (!ci.cpu || strcmp(ci.cpu->id, want[i].runs))
			fail_msg("AMD 0x1A/0x%X: %s, want %s", want[i].model,
				 ci.cpu ? ci.cpu->id : "none", want[i].runs);
		assert_string_equal(cpu_select_model(&ci, NULL, err, sizeof(err)), want[i].runs);
		assert_int_equal(ci.gp_counters, 6);
		assert_true(ci.has_pmu);
	}
	/* -v names the CPU it found */
	{
		char *text = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&text, &len);

		cpuinfo("AuthenticAMD", 26, 0x50);
		ci = detect();
		assert_non_null(f);
		cpu_info_print(&ci, f);
		fclose(f);
		assert_non_null(strstr(text, "-> zen6 (AMD EPYC, Zen 6), model zen6"));
		free(text);
	}
}

/*
 * This project's own machine: an AMD EPYC Zen 5 VM (family 0x1A model 2) with
 * no PMU.  The message names the CPU first, then says why nothing counts.
 */
static void test_zen5_vm_without_pmu(void **state)
{
	struct cpu_info ci;
	char err[512] = "";

	(void)state;
	cpuinfo("AuthenticAMD", 26, 2);
	fake_root_put(root, "/sys/bus/event_source/devices/software/type", "1\n");
	ci = detect();
	assert_false(ci.has_pmu);
	assert_string_equal(ci.model_id, "zen5");
	assert_int_equal(cpu_require_pmu(&ci, err, sizeof(err)), -ENODEV);
	if (strncmp(err, "AMD EPYC, Zen 5 (zen5), but no hardware PMU on this machine",
		    strlen("AMD EPYC, Zen 5 (zen5), but no hardware PMU on this machine")))
		fail_msg("message does not start with the CPU: %s", err);
	assert_non_null(strstr(err, "no hardware event can be counted"));
	assert_non_null(strstr(err, "--pmu software"));
	/* A CPU no description knows is named by its CPUID. */
	cpuinfo("AuthenticAMD", 23, 0x31);
	ci = detect();
	assert_int_equal(cpu_require_pmu(&ci, err, sizeof(err)), -ENODEV);
	assert_non_null(strstr(err, "AuthenticAMD family 0x17 model 0x31 (no TMA model"));
}

static void test_unknown_intel(void **state)
{
	struct cpu_info ci;
	char err[1024] = "";

	(void)state;
	/* Alder Lake, a client part: no description; no PMU either, so no generic. */
	cpuinfo("GenuineIntel", 6, 0x97);
	ci = detect();
	assert_null(ci.model_id);
	assert_null(ci.cpu);
	assert_false(ci.topdown_use_fixed);
	assert_null(cpu_select_model(&ci, "", err, sizeof(err)));
	assert_non_null(strstr(err, "family 6 model 0x97 stepping 6"));
	/* Intel's descriptions, not the others (the message stays readable) */
	for (int i = 0; i < cpu_desc_count(); i++) {
		const struct cpu_desc *d = cpu_desc_at(i);
		char want[64];

		snprintf(want, sizeof(want), "--model %s)", d->model);
		if (!strcmp(d->match[0].vendor, "GenuineIntel") != (strstr(err, want) != NULL))
			fail_msg("'%s' %s '%s'", err, strstr(err, want) ? "has" : "lacks", want);
	}
	assert_non_null(strstr(err, "TMACG_MODEL_DIR"));
}

static void test_vm_without_pmu(void **state)
{
	struct cpu_info ci;
	char err[512] = "";

	(void)state;
	cpuinfo("GenuineIntel", 6, 0x6A);
	fake_root_put(root, "/sys/bus/event_source/devices/software/type", "1\n");
	ci = detect();
	assert_false(ci.has_pmu);
	assert_false(ci.topdown_use_fixed);
	assert_string_equal(ci.model_id, "icx");
	assert_int_equal(cpu_require_pmu(&ci, err, sizeof(err)), -ENODEV);
	assert_non_null(strstr(err, "no hardware PMU on this machine (virtual machine?)"));
	assert_non_null(strstr(err, "--pmu software"));
	assert_non_null(strstr(err, "--replay FILE"));
}

/*
 * An Arm core no description knows (QEMU's -cpu max: implementer 0x00, the
 * one reserved for software, part 0x051), its PMU under the driver's name:
 * generic, on that PMU's type.
 */
static void test_arm_unknown_core_gets_generic(void **state)
{
	struct cpu_info ci;
	char err[512] = "";

	(void)state;
	fake_root_put(root, "/proc/cpuinfo",
		      "processor\t: 0\nBogoMIPS\t: 125.00\nFeatures\t: fp asimd evtstrm\n"
		      "CPU implementer\t: 0x00\nCPU architecture: 8\nCPU variant\t: 0x0\n"
		      "CPU part\t: 0x051\nCPU revision\t: 0\n\n");
	fake_root_put(root, PMU_DIR "/software/type", "1\n");
	pmu("armv8_pmuv3_1", 9, false, false);
	pmu("armv8_pmuv3_0", 8, false, false);
	ci = detect();
	assert_string_equal(ci.vendor, "ARM");
	assert_int_equal(ci.family, 0);
	assert_int_equal(ci.model, 0x51);
	assert_null(ci.cpu);
	assert_true(ci.has_pmu);
	assert_string_equal(ci.pmu_name, "armv8_pmuv3_0"); /* the first by name */
	assert_int_equal(ci.pmu_type, 8);
	assert_false(ci.topdown_use_fixed);
	assert_int_equal(cpu_require_pmu(&ci, err, sizeof(err)), 0);
	assert_string_equal(cpu_select_model(&ci, "", err, sizeof(err)), "generic");

	/* Arm from /proc/cpuinfo alone is Arm all the same: its watchdog warning and -v */
	fake_root_put(root, "/proc/sys/kernel/nmi_watchdog", "1\n");
	ci = detect();
	assert_int_equal(ci.gp_usable, ci.gp_counters);
	{
		char *text = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&text, &len);

		assert_non_null(f);
		cpu_warn(&ci, f);
		cpu_info_print(&ci, f);
		fclose(f);
		assert_non_null(strstr(text, "holds the cycle counter"));
		assert_null(strstr(text, "instead of"));
		assert_null(strstr(text, "PERF_METRICS"));
		free(text);
	}
}

/* An Arm machine whose PMU is not exposed (a VM without one): no generic, the VM message. */
static void test_arm_without_pmu(void **state)
{
	struct cpu_info ci;
	char err[1024] = "";

	(void)state;
	fake_root_put(root, "/proc/cpuinfo",
		      "processor\t: 0\nCPU implementer\t: 0x41\nCPU part\t: 0xd0c\n"
		      "CPU revision\t: 1\n\n");
	fake_root_put(root, PMU_DIR "/software/type", "1\n");
	fake_root_put(root, PMU_DIR "/arm_spe_0/type", "10\n"); /* not a core PMU */
	ci = detect();
	assert_false(ci.has_pmu);
	assert_int_equal(ci.stepping, 1);
	assert_int_equal(cpu_require_pmu(&ci, err, sizeof(err)), -ENODEV);
	/* the core is still named (/proc/cpuinfo's MIDR fields), as on x86 without a PMU */
	assert_string_equal(cpu_select_model(&ci, "", err, sizeof(err)), "neoverse-n1");
}

static void test_nmi_watchdog(void **state)
{
	struct cpu_info ci;
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	cpuinfo("GenuineIntel", 6, 0x8F);
	pmu("cpu", 4, true, true);
	fake_root_put(root, "/proc/sys/kernel/nmi_watchdog", "1\n");
	ci = detect();
	assert_true(ci.nmi_watchdog);
	assert_int_equal(ci.gp_counters, 8);
	assert_int_equal(ci.gp_usable, 7);
	f = open_memstream(&text, &len);
	cpu_warn(&ci, f);
	fclose(f);
	assert_non_null(strstr(text, "nmi_watchdog"));
	assert_non_null(strstr(text, "7 general-purpose counters instead of 8"));
	free(text);
	/* Off: no warning. */
	fake_root_put(root, "/proc/sys/kernel/nmi_watchdog", "0\n");
	ci = detect();
	text = NULL;
	f = open_memstream(&text, &len);
	cpu_warn(&ci, f);
	fclose(f);
	assert_string_equal(text, "");
	free(text);
}

/*
 * Fixed counters as the kernel reads CPUID 0xA (intel_pmu_init): from version 5 ECX's
 * bitmap; versions 2-4 EDX[4:0], at least 3 on bare metal, as many as the leaf says under
 * a hypervisor; none in version 1.  The GP count comes from EAX[15:8] either way.
 */
static void test_fixed_counters_from_cpuid(void **state)
{
	static const struct {
		unsigned int eax, ecx, edx, leaf1_ecx, mask;
		bool hypervisor;
	} cases[] = {
		{ 0x07300805, 0xf, 0x604, 0, 0xf, false },     /* Ice Lake: fixed 0-3 */
		{ 0x07300805, 0x7, 0x604, 0, 0x7, false },     /* ECX decides, not EDX */
		{ 0x07300405, 0, 0, 1u << 31, 0, true },       /* a VM offering none */
		{ 0x07300402, 0, 0x603, 0, 0x7, false },       /* version 2 */
		{ 0x07300402, 0, 0x601, 0, 0x7, false },       /* bare metal: at least 3 */
		{ 0x07300402, 0, 0x601, 1u << 31, 0x1, true }, /* a VM: what it says */
		{ 0x07300401, 0, 0x603, 1u << 31, 0, true },   /* version 1: no fixed */
	};
	char *text = NULL;
	size_t len = 0;
	struct cpu_info ci;
	FILE *f;

	(void)state;
	cpuinfo("GenuineIntel", 6, 0x6A);
	pmu("cpu", 4, true, false);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		fake_leaf_a_eax = cases[i].eax;
		fake_leaf_a_ecx = cases[i].ecx;
		fake_leaf_a_edx = cases[i].edx;
		fake_leaf1_ecx = cases[i].leaf1_ecx;
		ci = detect();
		assert_true(ci.fixed_known);
		if (ci.fixed_mask != cases[i].mask)
			fail_msg("case %zu: fixed mask 0x%x, want 0x%x", i, ci.fixed_mask,
				 cases[i].mask);
		assert_int_equal(ci.hypervisor, cases[i].hypervisor);
		assert_int_equal(ci.gp_counters, (int)(cases[i].eax >> 8 & 0xff));
	}
	/* -v says it */
	f = open_memstream(&text, &len);
	cpu_info_print(&ci, f);
	fclose(f);
	assert_non_null(strstr(text, "general-purpose counters: 4 (4 usable), fixed counters: "
				     "mask 0x0 (CPUID 0xA), under a hypervisor\n"));
	free(text);
	/* No architectural PMU in the leaf (version 0): nothing said, the description's */
	fake_leaf_a_eax = 0;
	ci = detect();
	assert_false(ci.fixed_known);
	assert_int_equal(ci.gp_counters, 8);
}

static void test_smt(void **state)
{
	(void)state;
	cpuinfo("GenuineIntel", 6, 0x6A);
	pmu("cpu", 4, true, false);
	fake_root_put(root, "/sys/devices/system/cpu/smt/active", "0\n");
	assert_false(detect().smt);
	fake_root_put(root, "/sys/devices/system/cpu/smt/active", "1\n");
	assert_true(detect().smt);
	assert_true(detect().smt_known);
	/* No smt/active (an older kernel, or one that cannot switch SMT): the topology says */
	fake_root_put(root, "/sys/devices/system/cpu/smt/active", "garbage\n");
	assert_false(detect().smt);
	assert_false(detect().smt_known);
	fake_root_put(root, "/sys/devices/system/cpu/cpu0/topology/thread_siblings_list", "0-1\n");
	assert_true(detect().smt);
	assert_true(detect().smt_known);
	fake_root_put(root, "/sys/devices/system/cpu/cpu0/topology/thread_siblings_list", "0,4\n");
	assert_true(detect().smt);
	fake_root_put(root, "/sys/devices/system/cpu/cpu0/topology/thread_siblings_list", "0\n");
	assert_false(detect().smt);
	assert_true(detect().smt_known);
	/* smt/active wins over the topology */
	fake_root_put(root, "/sys/devices/system/cpu/smt/active", "1\n");
	assert_true(detect().smt);
}

static void test_missing_cpuinfo(void **state)
{
	struct cpu_detect_opts o = { .root = root, .cpuid = fake_cpuid };
	struct cpu_info ci;
	char err[512] = "";

	(void)state;
	assert_int_equal(cpu_detect(&o, &ci, err, sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "/proc/cpuinfo"));
	assert_non_null(strstr(err, root));
	fake_root_put(root, "/proc/cpuinfo", "processor\t: 0\nflags\t: fpu\n");
	assert_int_equal(cpu_detect(&o, &ci, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "--model"));
}

static void test_env_root_and_print(void **state)
{
	struct cpu_detect_opts o = { .root = NULL, .cpuid = fake_cpuid };
	struct cpu_info ci;
	char err[512] = "", *text = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	cpuinfo("GenuineIntel", 6, 0x8F);
	pmu("cpu", 4, true, true);
	setenv("TMACG_SYSFS_ROOT", root, 1);
	assert_int_equal(cpu_detect(&o, &ci, err, sizeof(err)), 0);
	unsetenv("TMACG_SYSFS_ROOT");
	assert_string_equal(ci.model_id, "spr");
	f = open_memstream(&text, &len);
	cpu_info_print(&ci, f);
	fclose(f);
	assert_non_null(strstr(text, "GenuineIntel family 6 model 0x8F stepping 6 -> spr ("));
	assert_non_null(strstr(text, "(Sapphire Rapids)), model spr\n"));
	assert_non_null(strstr(text, "level-2 PERF_METRICS yes"));
	free(text);
}

/* The real machine: whatever it is, detection must not fail or crash. */
static void test_this_machine(void **state)
{
	struct cpu_detect_opts o = { .root = "" };
	struct cpu_info ci;
	char err[512] = "";

	(void)state;
	unsetenv("TMACG_SYSFS_ROOT");
	assert_int_equal(cpu_detect(&o, &ci, err, sizeof(err)), 0);
	assert_true(ci.vendor[0] != '\0');
	assert_true(ci.gp_usable >= 0 && ci.gp_usable <= ci.gp_counters);
}

/* Neoverse N2 r0p3 on an ACPI server: MIDR from sysfs, the PMU found by scanning, no CPUID. */
static void test_arm_neoverse_n2_r0p3(void **state)
{
	char err[256];
	struct cpu_info ci;

	(void)state;
	/* /proc/cpuinfo on Arm names no vendor: detection must not need it */
	fake_root_put(root, "/proc/cpuinfo",
		      "processor\t: 0\nBogoMIPS\t: 50.00\nCPU implementer\t: 0x41\n");
	midr(0, 0x410fd493);
	midr(1, 0x410fd493);
	arm_pmu("armv8_pmuv3_0", 8, "0x00000005\n", "0-1\n");
	fake_root_put(root, PMU_DIR "/software/type", "1\n");
	fake_root_put(root, PMU_DIR "/arm_spe_0/type", "9\n"); /* not a core PMU */
	ci = detect();
	assert_string_equal(ci.vendor, "ARM");
	assert_int_equal(ci.family, 0x41);
	assert_int_equal(ci.model, 0xd49);
	assert_int_equal(ci.stepping, 3);
	assert_int_equal(ci.midr, 0x410fd493);
	assert_string_equal(ci.model_id, "neoverse-n2-r0p3");
	assert_true(ci.has_pmu);
	assert_string_equal(ci.pmu_name, "armv8_pmuv3_0");
	assert_int_equal(ci.pmu_type, 8);
	assert_int_equal(ci.pmu_slots, 5);
	assert_int_equal(ci.gp_counters, 6);
	assert_false(ci.topdown_use_fixed);
	assert_int_equal(cpuid_calls, 0); /* x86's instruction: never on Arm */
	/* A watchdog on Arm holds the cycle counter, if any: the six event counters stay */
	fake_root_put(root, "/proc/sys/kernel/nmi_watchdog", "1\n");
	ci = detect();
	assert_true(ci.nmi_watchdog);
	assert_int_equal(ci.gp_usable, 6);
	{
		char *text = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&text, &len);

		assert_non_null(f);
		cpu_warn(&ci, f);
		fclose(f);
		assert_non_null(strstr(text, "holds the cycle counter"));
		free(text);
	}
	assert_int_equal(cpu_require_pmu(&ci, err, sizeof(err)), 0);
}

/* Every N2 but r0p3 takes the r0p0-r0p2 formulas (Arm's mapping); the rest by part number. */
static void test_arm_cores_by_midr(void **state)
{
	static const struct {
		unsigned long long midr;
		const char *model;
	} want[] = {
		{ 0x410fd490, "neoverse-n2" },
		{ 0x410fd491, "neoverse-n2" },
		{ 0x410fd492, "neoverse-n2" },
		{ 0x410fd493, "neoverse-n2-r0p3" },
		{ 0x410fd494, "neoverse-n2" },
		{ 0x413fd0c1, "neoverse-n1" },
		/* QEMU 7.2's -cpu neoverse-n1 (r4p1), as the guest's sysfs gave it */
		{ 0x414fd0c1, "neoverse-n1" },
		{ 0x411fd401, "neoverse-v1" },
		{ 0x410fd4f0, "neoverse-v2" },
		{ 0x410fd4f1, "neoverse-v2" },
	};

	(void)state;
	arm_pmu("armv8_pmuv3_0", 10, NULL, NULL);
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		struct cpu_info ci;

		midr(0, want[i].midr);
		ci = detect();
		if (!ci.model_id || strcmp(ci.model_id, want[i].model))
			fail_msg("MIDR 0x%llx: %s, want %s", want[i].midr,
				 ci.model_id ? ci.model_id : "none", want[i].model);
		/* no caps/slots: the model's documented width */
		assert_int_equal(ci.pmu_slots, 0);
	}
}

/* A fresh fixture tree: one machine's files, nothing of the last one's. */
static void fresh_root(void)
{
	assert_int_equal(fake_root_remove(root), 0);
	snprintf(root, sizeof(root), "/tmp/tmacg-cpu-XXXXXX");
	assert_int_equal(fake_root_make(root), 0);
}

/* /proc/cpuinfo of an Arm kernel: MIDR_EL1's fields for each of two processors. */
static void arm_cpuinfo(unsigned long long midr)
{
	char text[1024];
	int n = 0;

	for (int cpu = 0; cpu < 2; cpu++)
		n += snprintf(
			text + n, sizeof(text) - (size_t)n,
			"processor\t: %d\nBogoMIPS\t: 2000.00\nFeatures\t: fp asimd sve2\n"
			"CPU implementer\t: 0x%02llx\nCPU architecture: 8\n"
			"CPU variant\t: 0x%llx\nCPU part\t: 0x%03llx\nCPU revision\t: %llu\n\n",
			cpu, midr >> 24 & 0xff, midr >> 20 & 0xf, midr >> 4 & 0xfff, midr & 0xf);
	fake_root_put(root, "/proc/cpuinfo", text);
}

/*
 * The cloud's Arm machines, each from its MIDR_EL1 in sysfs and, on a kernel without
 * regs/identification, from /proc/cpuinfo's fields: Graviton5 and Cobalt 200 are Neoverse V3
 * (part 0xD84, any revision; V3AE's 0xD83 too, as Arm's topdown-tool maps it), N3 is 0xD8E,
 * and Cobalt 100 is an N2 whose implementer is Microsoft's (0x6D), taking the N2 formulas of
 * its revision.  A Microsoft part no description names, or an Arm part after V3's, has none.
 */
static void test_arm_cloud_cores(void **state)
{
	static const struct {
		const char *machine;
		unsigned long long midr;
		const char *model; /* NULL: no description (generic, with a PMU) */
		const char *slots; /* caps/slots as the kernel writes it */
	} want[] = {
		{ "AWS Graviton5 (M9g)", 0x410fd841, "neoverse-v3", "0x0000000a\n" },
		{ "Azure Cobalt 200", 0x410fd840, "neoverse-v3", "0x0000000a\n" },
		{ "Neoverse V3AE", 0x410fd830, "neoverse-v3", "0x0000000a\n" },
		{ "Neoverse N3", 0x410fd8e0, "neoverse-n3", "0x00000005\n" },
		{ "Azure Cobalt 100 r0p0", 0x6d0fd490, "neoverse-n2", "0x00000005\n" },
		{ "Azure Cobalt 100 r0p1", 0x6d0fd491, "neoverse-n2", "0x00000005\n" },
		{ "Azure Cobalt 100 r0p3", 0x6d0fd493, "neoverse-n2-r0p3", "0x00000005\n" },
		{ "Microsoft 0x6D, V2's part", 0x6d0fd4f0, NULL, "0x00000008\n" },
		{ "Arm part 0xD85", 0x410fd850, NULL, "0x00000008\n" },
	};
	char err[256] = "";

	(void)state;
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		struct cpu_info ci;

		for (int from_cpuinfo = 0; from_cpuinfo < 2; from_cpuinfo++) {
			const char *got;

			fresh_root();
			if (from_cpuinfo) {
				arm_cpuinfo(want[i].midr);
			} else {
				/* Graviton5's 192 cores: the lowest-numbered CPU's MIDR decides */
				fake_root_put(root, "/proc/cpuinfo",
					      "processor\t: 0\nBogoMIPS\t: 2000.00\n");
				midr(0, want[i].midr);
				midr(191, want[i].midr);
			}
			arm_pmu("armv8_pmuv3_0", 8, want[i].slots, "0-191\n");
			ci = detect();
			got = cpu_select_model(&ci, NULL, err, sizeof(err));
			if (want[i].model ? !ci.cpu || strcmp(got, want[i].model) :
					    ci.cpu || strcmp(got, "generic"))
				fail_msg("%s (MIDR 0x%llx, from %s): %s, want %s", want[i].machine,
					 want[i].midr, from_cpuinfo ? "/proc/cpuinfo" : "sysfs",
					 got, want[i].model ? want[i].model : "generic");
			assert_string_equal(ci.vendor, "ARM");
			assert_int_equal(ci.family, (int)(want[i].midr >> 24));
			assert_int_equal(ci.model, (int)(want[i].midr >> 4 & 0xfff));
			assert_int_equal(ci.stepping, (int)(want[i].midr & 0xf));
			assert_int_equal(ci.midr_cpu, from_cpuinfo ? -1 : 0);
			assert_true(ci.has_pmu);
			assert_int_equal(ci.pmu_type, 8);
			assert_int_equal(ci.pmu_slots,
					 (unsigned int)strtoul(want[i].slots, NULL, 0));
			assert_int_equal(ci.gp_counters, 6);
			assert_int_equal(cpuid_calls, 0);
		}
	}
	/* -v names the core and the clouds that run it */
	{
		char *text = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&text, &len);
		struct cpu_info ci;

		fresh_root();
		midr(0, 0x410fd841);
		arm_pmu("armv8_pmuv3_0", 8, "0x0000000a\n", "0-191\n");
		ci = detect();
		assert_non_null(f);
		cpu_info_print(&ci, f);
		fclose(f);
		assert_non_null(strstr(text,
				       "-> neoverse-v3 (Arm Neoverse V3 (AWS Graviton5, Azure "
				       "Cobalt 200)), model neoverse-v3\n"));
		assert_non_null(strstr(text, "implementer 0x41 part 0xD84 r0p1\n"));
		assert_non_null(strstr(text, "slots 10 (caps/slots)"));
		free(text);
	}
}

/*
 * An Arm core no description knows with a PMU runs generic: QEMU 7.2's -cpu max, whose
 * sysfs this is as Debian's 6.1 arm64 kernel showed it in the guest (MIDR 0x000f0510,
 * armv8_pmuv3 of type 8 on cpu 0, caps/slots 0x00000000).
 */
static void test_arm_unknown_core(void **state)
{
	char err[2048] = "";
	struct cpu_info ci;
	char path[512];

	(void)state;
	midr(0, 0x000f0510);				  /* implementer 0: no Arm Ltd part */
	arm_pmu("armv8_pmuv3", 8, "0x00000000\n", "0\n"); /* a devicetree system's name */
	ci = detect();
	assert_null(ci.cpu);
	assert_true(ci.has_pmu);
	assert_string_equal(ci.pmu_name, "armv8_pmuv3");
	assert_int_equal(ci.pmu_type, 8);
	assert_int_equal(ci.pmu_slots, 0); /* caps/slots 0: the core does not say */
	assert_int_equal(ci.gp_counters, 6);
	assert_string_equal(cpu_select_model(&ci, NULL, err, sizeof(err)), "generic");
	/* and without a PMU: no model, and the message lists the Arm cores only */
	snprintf(path, sizeof(path), "%s%s/armv8_pmuv3/type", root, PMU_DIR);
	assert_int_equal(unlink(path), 0);
	ci = detect();
	assert_false(ci.has_pmu);
	assert_int_equal(ci.gp_counters, 0);
	assert_null(cpu_select_model(&ci, NULL, err, sizeof(err)));
	assert_non_null(strstr(err, "Arm Neoverse V2 (0x41/0xD4F, --model neoverse-v2)"));
	assert_null(strstr(err, "--model icx)"));
	assert_int_equal(cpu_require_pmu(&ci, err, sizeof(err)), -ENODEV);
	assert_non_null(strstr(err, "armv8_pmuv3"));
}

/*
 * The lowest-numbered CPU's MIDR decides, and of several Arm PMUs (big.LITTLE)
 * the one whose cpus hold that CPU; names as kernels give them per core type.
 */
static void test_arm_pmu_scan(void **state)
{
	struct cpu_info ci;

	(void)state;
	midr(10, 0x410fd4f0);
	midr(2, 0x410fd400); /* cpu0 and cpu1 offline: no files */
	fake_root_put(root, "/sys/devices/system/cpu/online", "2-11\n");
	arm_pmu("armv8_cortex_a55", 11, NULL, "0-1,10-11\n");
	arm_pmu("armv9_neoverse_n2", 12, "0x00000008\n", "2-9\n");
	ci = detect();
	assert_int_equal(ci.midr_cpu, 2);
	assert_int_equal(ci.model, 0xd40);
	assert_string_equal(ci.model_id, "neoverse-v1");
	assert_string_equal(ci.pmu_name, "armv9_neoverse_n2");
	assert_int_equal(ci.pmu_type, 12);
	assert_int_equal(ci.pmu_slots, 8);
	/* a PMU whose type is not a number is not one */
	fake_root_put(root, PMU_DIR "/armv9_neoverse_n2/type", "garbage\n");
	ci = detect();
	assert_string_equal(ci.pmu_name, "armv8_cortex_a55");
	assert_int_equal(ci.pmu_type, 11);
	assert_int_equal(ci.pmu_slots, 0);
}

/* A MIDR that is not a number is no MIDR: the next CPU's, else /proc/cpuinfo, which says. */
static void test_arm_bad_midr(void **state)
{
	struct cpu_detect_opts o = { .root = root, .cpuid = fake_cpuid };
	struct cpu_info ci;
	char err[512] = "";

	(void)state;
	fake_root_put(root, "/sys/devices/system/cpu/cpu0/regs/identification/midr_el1",
		      "garbage\n");
	fake_root_put(root, "/sys/devices/system/cpu/cpu1/regs/identification/midr_el1", "-1\n");
	midr(3, 0x410fd4f0);
	ci = detect();
	assert_int_equal(ci.midr_cpu, 3);
	assert_string_equal(ci.model_id, "neoverse-v2");
	fake_root_put(root, "/sys/devices/system/cpu/cpu3/regs/identification/midr_el1", "\n");
	fake_root_put(root, "/proc/cpuinfo", "processor\t: 0\nCPU implementer\t: 0x41\n");
	assert_int_equal(cpu_detect(&o, &ci, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "cannot tell which CPU this is"));
	assert_non_null(strstr(err, "--model"));
}

/* x86 sysfs has cpuN directories without MIDR: /proc/cpuinfo decides there. */
static void test_x86_is_not_arm(void **state)
{
	struct cpu_info ci;

	(void)state;
	cpuinfo("GenuineIntel", 6, 0x6A);
	fake_root_put(root, "/sys/devices/system/cpu/cpu0/topology/core_id", "0\n");
	pmu("cpu", 4, true, false);
	ci = detect();
	assert_string_equal(ci.vendor, "GenuineIntel");
	assert_int_equal(ci.midr_cpu, -1);
	assert_string_equal(ci.model_id, "icx");
}

/* -v on Arm: the MIDR decoded and the slot width with where it came from. */
static void test_arm_print(void **state)
{
	char *text = NULL;
	size_t len = 0;
	struct cpu_info ci;
	FILE *f;

	(void)state;
	midr(0, 0x410fd493);
	arm_pmu("armv8_pmuv3_0", 8, "5\n", NULL);
	ci = detect();
	f = open_memstream(&text, &len);
	assert_non_null(f);
	cpu_info_print(&ci, f);
	fclose(f);
	assert_non_null(strstr(text, "midr_el1: 0x00000000410fd493 (cpu0): implementer 0x41 "
				     "part 0xD49 r0p3\n"));
	assert_non_null(strstr(text, "pmu: armv8_pmuv3_0 type 8, slots 5 (caps/slots)\n"));
	assert_non_null(strstr(text, "-> neoverse-n2-r0p3"));
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_icx, setup, teardown),
		cmocka_unit_test_setup_teardown(test_icx_other_model_number, setup, teardown),
		cmocka_unit_test_setup_teardown(test_spr_and_emr, setup, teardown),
		cmocka_unit_test_setup_teardown(test_skx_clx_by_stepping, setup, teardown),
		cmocka_unit_test_setup_teardown(test_gnr, setup, teardown),
		cmocka_unit_test_setup_teardown(test_every_description, setup, teardown),
		cmocka_unit_test_setup_teardown(test_hybrid, setup, teardown),
		cmocka_unit_test_setup_teardown(test_amd, setup, teardown),
		cmocka_unit_test_setup_teardown(test_zen4, setup, teardown),
		cmocka_unit_test_setup_teardown(test_zen5_vm_without_pmu, setup, teardown),
		cmocka_unit_test_setup_teardown(test_zen6, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unknown_intel, setup, teardown),
		cmocka_unit_test_setup_teardown(test_vm_without_pmu, setup, teardown),
		cmocka_unit_test_setup_teardown(test_arm_unknown_core_gets_generic, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_arm_without_pmu, setup, teardown),
		cmocka_unit_test_setup_teardown(test_nmi_watchdog, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fixed_counters_from_cpuid, setup, teardown),
		cmocka_unit_test_setup_teardown(test_smt, setup, teardown),
		cmocka_unit_test_setup_teardown(test_missing_cpuinfo, setup, teardown),
		cmocka_unit_test_setup_teardown(test_env_root_and_print, setup, teardown),
		cmocka_unit_test_setup_teardown(test_arm_neoverse_n2_r0p3, setup, teardown),
		cmocka_unit_test_setup_teardown(test_arm_cores_by_midr, setup, teardown),
		cmocka_unit_test_setup_teardown(test_arm_cloud_cores, setup, teardown),
		cmocka_unit_test_setup_teardown(test_arm_unknown_core, setup, teardown),
		cmocka_unit_test_setup_teardown(test_arm_pmu_scan, setup, teardown),
		cmocka_unit_test_setup_teardown(test_arm_bad_midr, setup, teardown),
		cmocka_unit_test_setup_teardown(test_x86_is_not_arm, setup, teardown),
		cmocka_unit_test_setup_teardown(test_arm_print, setup, teardown),
		cmocka_unit_test(test_this_machine),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
