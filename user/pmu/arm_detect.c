// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Arm cores and their PMU from sysfs (pmu/arm_detect.h).  Arm has no CPUID
 * instruction user space may run and /proc/cpuinfo names no vendor, so the
 * kernel's copy of MIDR_EL1 says which core this is, and the PMU's sysfs
 * directory says the rest.
 */
#include "pmu/arm_detect.h"

#include "model/model.h"
#include "pmu/pmu.h"
#include "util/file_read.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ARM_CPU_DIR "/sys/devices/system/cpu"
#define ARM_PMU_DIR "/sys/bus/event_source/devices"

/* A whole line as an unsigned number (0x... or decimal).  0 or -EINVAL. */
static int arm_parse_u64(const char *s, unsigned long long *v)
{
	char *end;

	if (!*s || *s == '-')
		return -EINVAL;
	errno = 0;
	*v = strtoull(s, &end, 0);
	return errno || *end ? -EINVAL : 0;
}

/* "cpu12" -> 12; -1 for anything else (cpufreq, cpuidle, online...). */
static int arm_cpu_index(const char *name)
{
	char *end;
	long n;

	if (strncmp(name, "cpu", 3) || name[3] < '0' || name[3] > '9')
		return -1;
	n = strtol(name + 3, &end, 10);
	return *end || n > 1 << 20 ? -1 : (int)n;
}

int arm_detect_midr(const char *root, struct cpu_info *ci)
{
	char dirpath[1024], path[512], line[64];
	unsigned long long midr = 0;
	struct dirent *de;
	int best = -1;
	DIR *d;

	snprintf(dirpath, sizeof(dirpath), "%s" ARM_CPU_DIR, root);
	d = opendir(dirpath);
	if (!d)
		return -ENOENT;
	while ((de = readdir(d))) {
		int n = arm_cpu_index(de->d_name);
		unsigned long long v;

		if (n < 0 || (best >= 0 && n > best))
			continue;
		snprintf(path, sizeof(path), ARM_CPU_DIR "/%s/regs/identification/midr_el1",
			 de->d_name);
		if (file_first_line(root, path, line, sizeof(line)) || arm_parse_u64(line, &v))
			continue;
		best = n;
		midr = v;
	}
	closedir(d);
	if (best < 0)
		return -ENOENT;
	ci->midr = midr;
	ci->midr_cpu = best;
	snprintf(ci->vendor, sizeof(ci->vendor), ARM_VENDOR);
	ci->family = (int)((midr >> 24) & 0xff); /* implementer: 0x41 is Arm */
	ci->model = (int)((midr >> 4) & 0xfff);	 /* part number: 0xD49 is Neoverse N2 */
	ci->stepping = (int)(midr & 0xf);	 /* revision: the 3 of r0p3 */
	return 0;
}

/* CPUs a PMU's cpus file can name here (the largest Arm servers have 192 cores). */
#define ARM_MAX_CPUS 1024

/* Whether a "0-3,8,10-11" list (a PMU's cpus file) holds cpu: pmu.c's parser. */
static bool arm_list_has(const char *list, int cpu)
{
	bool mask[ARM_MAX_CPUS];

	return cpu < ARM_MAX_CPUS && !pmu_parse_cpu_list(list, mask, ARM_MAX_CPUS) && mask[cpu];
}

/* The kernel's Arm core PMUs: armv8_pmuv3[_N] (ACPI, generic DT) or armv8_/armv9_<core>. */
static bool arm_pmu_name(const char *name)
{
	return !strncmp(name, "armv8_", 6) || !strncmp(name, "armv9_", 6);
}

static int arm_cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void arm_detect_pmu(const char *root, struct cpu_info *ci)
{
	char dirpath[1024], path[512], line[256], *names[64];
	unsigned long long type, slots, pick_type = 0;
	int n = 0, pick = -1;
	bool counts_it;
	struct dirent *de;
	DIR *d;

	snprintf(dirpath, sizeof(dirpath), "%s" ARM_PMU_DIR, root);
	d = opendir(dirpath);
	if (!d)
		return;
	while ((de = readdir(d)) && n < (int)(sizeof(names) / sizeof(names[0])))
		if (arm_pmu_name(de->d_name) && strlen(de->d_name) < sizeof(ci->pmu_name) &&
		    (names[n] = strdup(de->d_name)))
			n++;
	closedir(d);
	/* Sorted: the same choice on every run, whatever order readdir gives. */
	qsort(names, (size_t)n, sizeof(names[0]), arm_cmp_names);
	for (int i = 0; i < n; i++) {
		snprintf(path, sizeof(path), ARM_PMU_DIR "/%s/type", names[i]);
		if (file_first_line(root, path, line, sizeof(line)) || arm_parse_u64(line, &type) ||
		    type > 0x7fffffff)
			continue;
		/* big.LITTLE has one PMU per core type: the one counting the MIDR's CPU */
		snprintf(path, sizeof(path), ARM_PMU_DIR "/%s/cpus", names[i]);
		counts_it = ci->midr_cpu >= 0 && !file_first_line(root, path, line, sizeof(line)) &&
			    arm_list_has(line, ci->midr_cpu);
		if (pick < 0 || counts_it) {
			pick = i;
			pick_type = type;
		}
		if (counts_it)
			break;
	}
	if (pick >= 0) {
		ci->has_pmu = true;
		ci->pmu_type = (unsigned int)pick_type;
		snprintf(ci->pmu_name, sizeof(ci->pmu_name), "%s", names[pick]);
		/* PMMIR_EL1.SLOTS; absent before Armv8.4 and 0 where the core does not say */
		snprintf(path, sizeof(path), ARM_PMU_DIR "/%s/caps/slots", names[pick]);
		if (!file_first_line(root, path, line, sizeof(line)) &&
		    !arm_parse_u64(line, &slots) && slots <= MODEL_PMU_SLOTS_MAX)
			ci->pmu_slots = (unsigned int)slots;
	}
	for (int i = 0; i < n; i++)
		free(names[i]);
}
