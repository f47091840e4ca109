// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* cpu_detect on fixture /proc and /sys trees of machines this one is not. */
#include <errno.h>
#include <ftw.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "pmu/cpu_detect.h"

#define PMU_DIR "/sys/bus/event_source/devices"

static char root[256];
static unsigned int fake_max_leaf, fake_leaf_a_eax;
static int cpuid_calls;

static int fake_cpuid(unsigned int leaf, unsigned int subleaf, unsigned int regs[4])
{
	(void)subleaf;
	cpuid_calls++;
	memset(regs, 0, 4 * sizeof(regs[0]));
	if (leaf == 0)
		regs[0] = fake_max_leaf;
	else if (leaf == 0xA && leaf <= fake_max_leaf)
		regs[0] = fake_leaf_a_eax;
	return 0;
}

static void put(const char *rel, const char *text)
{
	char path[512], *slash;
	FILE *f;

	snprintf(path, sizeof(path), "%s%s", root, rel);
	for (slash = strchr(path + strlen(root) + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		mkdir(path, 0755);
		*slash = '/';
	}
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static int setup(void **state)
{
	(void)state;
	snprintf(root, sizeof(root), "/tmp/tmacg-cpu-XXXXXX");
	if (!mkdtemp(root))
		return -1;
	fake_max_leaf = 0x1b;
	fake_leaf_a_eax = 0x07300805;	/* version 5, 8 GP counters per logical CPU */
	cpuid_calls = 0;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	return nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static void cpuinfo(const char *vendor, int family, int model)
{
	char text[1024];

	/* Two processors, as the kernel writes them; "model name" must not be taken for "model". */
	snprintf(text, sizeof(text),
		 "processor\t: 0\nvendor_id\t: %s\ncpu family\t: %d\nmodel\t\t: %d\n"
		 "model name\t: Some CPU @ 2.00GHz\nstepping\t: 6\n\n"
		 "processor\t: 1\nvendor_id\t: %s\ncpu family\t: %d\nmodel\t\t: %d\n\n",
		 vendor, family, model, vendor, family, model);
	put("/proc/cpuinfo", text);
}

static void pmu(const char *name, int type, bool metrics, bool l2)
{
	char rel[256], val[16];

	snprintf(rel, sizeof(rel), "%s/%s/type", PMU_DIR, name);
	snprintf(val, sizeof(val), "%d\n", type);
	put(rel, val);
	if (metrics) {
		snprintf(rel, sizeof(rel), "%s/%s/events/topdown-retiring", PMU_DIR, name);
		put(rel, "event=0x00,umask=0x80\n");
	}
	if (l2) {
		snprintf(rel, sizeof(rel), "%s/%s/events/topdown-heavy-ops", PMU_DIR, name);
		put(rel, "event=0x00,umask=0x84\n");
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
	put("/sys/devices/system/cpu/smt/active", "1\n");
	put("/proc/sys/kernel/nmi_watchdog", "0\n");
	ci = detect();
	assert_string_equal(ci.vendor, "GenuineIntel");
	assert_int_equal(ci.family, 6);
	assert_int_equal(ci.model, 0x6A);
	assert_string_equal(ci.model_id, "icx");
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
	cpuinfo("GenuineIntel", 6, 0xCF);
	assert_string_equal(detect().model_id, "spr");
}

static void test_hybrid(void **state)
{
	struct cpu_info ci;
	char err[512] = "";

	(void)state;
	cpuinfo("GenuineIntel", 6, 0x97);	/* Alder Lake: cpu_core + cpu_atom */
	pmu("cpu_core", 4, true, false);
	pmu("cpu_atom", 10, false, false);
	ci = detect();
	assert_true(ci.has_pmu);
	assert_string_equal(ci.pmu_name, "cpu_core");
	assert_int_equal(ci.pmu_type, 4);
	assert_true(ci.topdown_use_fixed);
	assert_null(ci.model_id);
	assert_null(cpu_select_model(&ci, NULL, err, sizeof(err)));
	assert_non_null(strstr(err, "0x97"));
	assert_non_null(strstr(err, "--model"));
}

static void test_amd(void **state)
{
	struct cpu_info ci;
	char err[512] = "";

	(void)state;
	cpuinfo("AuthenticAMD", 25, 1);
	pmu("cpu", 4, false, false);
	fake_max_leaf = 0x10;
	fake_leaf_a_eax = 0;
	ci = detect();
	assert_string_equal(ci.vendor, "AuthenticAMD");
	assert_null(ci.model_id);
	assert_true(ci.has_pmu);
	assert_false(ci.topdown_use_fixed);
	assert_int_equal(ci.gp_counters, 0);
	assert_null(cpu_select_model(&ci, NULL, err, sizeof(err)));
	assert_non_null(strstr(err, "AuthenticAMD"));
	assert_non_null(strstr(err, "Ice Lake"));
	assert_non_null(strstr(err, "Sapphire"));
}

static void test_unknown_intel(void **state)
{
	struct cpu_info ci;
	char err[512] = "";

	(void)state;
	cpuinfo("GenuineIntel", 6, 0x55);	/* Skylake/Cascade Lake server: no model yet */
	pmu("cpu", 4, false, false);
	ci = detect();
	assert_null(ci.model_id);
	assert_false(ci.topdown_use_fixed);
	assert_null(cpu_select_model(&ci, "", err, sizeof(err)));
	assert_non_null(strstr(err, "family 6 model 0x55"));
	assert_non_null(strstr(err, "--model icx"));
	assert_non_null(strstr(err, "--model spr"));
	assert_null(cpu_model_id("GenuineIntel", 15, 0x6A));
	assert_null(cpu_model_id("AuthenticAMD", 6, 0x6A));
}

static void test_vm_without_pmu(void **state)
{
	struct cpu_info ci;
	char err[512] = "";

	(void)state;
	cpuinfo("GenuineIntel", 6, 0x6A);
	put("/sys/bus/event_source/devices/software/type", "1\n");
	ci = detect();
	assert_false(ci.has_pmu);
	assert_false(ci.topdown_use_fixed);
	assert_string_equal(ci.model_id, "icx");
	assert_int_equal(cpu_require_pmu(&ci, err, sizeof(err)), -ENODEV);
	assert_non_null(strstr(err, "no hardware PMU on this machine (virtual machine?)"));
	assert_non_null(strstr(err, "--pmu software"));
	assert_non_null(strstr(err, "--replay FILE"));
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
	put("/proc/sys/kernel/nmi_watchdog", "1\n");
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
	put("/proc/sys/kernel/nmi_watchdog", "0\n");
	ci = detect();
	text = NULL;
	f = open_memstream(&text, &len);
	cpu_warn(&ci, f);
	fclose(f);
	assert_string_equal(text, "");
	free(text);
}

static void test_smt(void **state)
{
	(void)state;
	cpuinfo("GenuineIntel", 6, 0x6A);
	pmu("cpu", 4, true, false);
	put("/sys/devices/system/cpu/smt/active", "0\n");
	assert_false(detect().smt);
	put("/sys/devices/system/cpu/smt/active", "1\n");
	assert_true(detect().smt);
	put("/sys/devices/system/cpu/smt/active", "garbage\n");
	assert_false(detect().smt);
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
	put("/proc/cpuinfo", "processor\t: 0\nflags\t: fpu\n");
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
	assert_non_null(strstr(text, "GenuineIntel family 6 model 0x8F -> model spr"));
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_icx, setup, teardown),
		cmocka_unit_test_setup_teardown(test_icx_other_model_number, setup, teardown),
		cmocka_unit_test_setup_teardown(test_spr_and_emr, setup, teardown),
		cmocka_unit_test_setup_teardown(test_hybrid, setup, teardown),
		cmocka_unit_test_setup_teardown(test_amd, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unknown_intel, setup, teardown),
		cmocka_unit_test_setup_teardown(test_vm_without_pmu, setup, teardown),
		cmocka_unit_test_setup_teardown(test_nmi_watchdog, setup, teardown),
		cmocka_unit_test_setup_teardown(test_smt, setup, teardown),
		cmocka_unit_test_setup_teardown(test_missing_cpuinfo, setup, teardown),
		cmocka_unit_test_setup_teardown(test_env_root_and_print, setup, teardown),
		cmocka_unit_test(test_this_machine),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
