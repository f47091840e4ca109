// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Every path is read under a prefix so the tests can run this on fixture
 * trees of machines they are not (each described CPU, hybrid, AMD, a VM).
 * Which CPU is which comes from the CPU descriptions (pmu/cpu_desc.h).
 */
#include "pmu/cpu_detect.h"

#include "pmu/arm_detect.h"
#include "pmu/counter_probe.h"
#include "pmu/cpu_desc.h"
#include "util/file_read.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CPU_PMU_DIR "/sys/bus/event_source/devices"

static const char *cpu_root(const struct cpu_detect_opts *o)
{
	const char *env;

	if (o && o->root)
		return o->root;
	env = getenv("TMACG_SYSFS_ROOT");
	return env ? env : "";
}

/* Whether the core PMU pmu lists event in sysfs. */
static bool cpu_pmu_has(const char *root, const char *pmu, const char *event)
{
	char buf[512];

	snprintf(buf, sizeof(buf), "%s" CPU_PMU_DIR "/%s/events/%s", root, pmu, event);
	return access(buf, F_OK) == 0;
}

/* The first line of a small file as an integer; -errno when absent or not a number. */
static int cpu_read_int(const char *root, const char *path, long *val)
{
	char line[64], *end;
	int rc = file_first_line(root, path, line, sizeof(line));

	if (rc)
		return rc;
	errno = 0;
	*val = strtol(line, &end, 0);
	if (errno || end == line)
		return -EINVAL;
	return 0;
}

/*
 * SMT as the kernel has it: smt/active (where the kernel can switch SMT),
 * else whether CPU 0 shares its core (its thread siblings, "0-1" or "0,4");
 * neither readable (garbage in smt/active counts as unreadable): not known.
 */
static void cpu_detect_smt(const char *root, struct cpu_info *ci)
{
	char line[256];
	long val;

	ci->smt_known = true;
	if (!cpu_read_int(root, "/sys/devices/system/cpu/smt/active", &val)) {
		ci->smt = val == 1;
		return;
	}
	ci->smt_known =
		!file_first_line(root, "/sys/devices/system/cpu/cpu0/topology/thread_siblings_list",
				 line, sizeof(line));
	ci->smt = ci->smt_known && strpbrk(line, ",-");
}

/* "key\t: value" lines; the first processor's values are taken. */
static int cpu_parse_cpuinfo(const char *root, struct cpu_info *ci, char *err, size_t errlen)
{
	char path[512], line[512];
	bool have_vendor = false, have_family = false, have_model = false, have_stepping = false;
	FILE *f;

	snprintf(path, sizeof(path), "%s/proc/cpuinfo", root);
	f = fopen(path, "re");
	if (!f) {
		int e = -errno;

		snprintf(err, errlen, "cannot read %s: %s: is /proc mounted?", path, strerror(-e));
		return e;
	}
	ci->stepping = -1;
	while (fgets(line, sizeof(line), f) &&
	       !(have_vendor && have_family && have_model && have_stepping)) {
		char *colon = strchr(line, ':');
		char *key_end, *val;

		if (!colon)
			continue;
		key_end = colon;
		while (key_end > line && (key_end[-1] == ' ' || key_end[-1] == '\t'))
			key_end--;
		*key_end = '\0';
		val = colon + 1;
		val += strspn(val, " \t");
		val[strcspn(val, "\n")] = '\0';
		if (!have_vendor && !strcmp(line, "vendor_id")) {
			snprintf(ci->vendor, sizeof(ci->vendor), "%s", val);
			have_vendor = true;
		} else if (!have_family && !strcmp(line, "cpu family")) {
			ci->family = (int)strtol(val, NULL, 10);
			have_family = true;
		} else if (!have_model && !strcmp(line, "model")) {
			ci->model = (int)strtol(val, NULL, 10);
			have_model = true;
		} else if (!have_vendor && !strcmp(line, "CPU implementer")) {
			/*
			 * Arm's /proc/cpuinfo: MIDR_EL1's fields.  The implementer
			 * stands for the family, the part number for the model.
			 */
			snprintf(ci->vendor, sizeof(ci->vendor), ARM_VENDOR);
			ci->family = (int)strtol(val, NULL, 0);
			have_vendor = have_family = true;
		} else if (!have_model && !strcmp(line, "CPU part")) {
			ci->model = (int)strtol(val, NULL, 0);
			have_model = true;
		} else if (!have_stepping && !strcmp(line, "CPU revision")) {
			/* MIDR_EL1's revision, as arm_detect_midr reads it (N2 r0p3) */
			ci->stepping = (int)strtol(val, NULL, 0) & 0xf;
			have_stepping = true;
		} else if (!have_stepping && !strcmp(line, "stepping")) {
			char *end;
			long v = strtol(val, &end, 10);

			/* "unknown" on some hypervisors: detection then ignores steppings. */
			ci->stepping = end != val && !*end && v >= 0 && v <= 15 ? (int)v : -1;
			have_stepping = true;
		}
	}
	fclose(f);
	if (!have_vendor || !have_family || !have_model) {
		snprintf(err, errlen,
			 "%s lacks vendor_id, cpu family or model: cannot tell which CPU this is; "
			 "name the model with --model",
			 path);
		return -EINVAL;
	}
	return 0;
}

static int cpu_native_cpuid(unsigned int leaf, unsigned int subleaf, unsigned int regs[4])
{
#if defined(__x86_64__) || defined(__i386__)
	if (!__get_cpuid_count(leaf, subleaf, &regs[0], &regs[1], &regs[2], &regs[3]))
		return -ENOTSUP;
	return 0;
#else
	(void)leaf, (void)subleaf, (void)regs;
	return -ENOTSUP; /* no CPUID off x86 */
#endif
}

static int cpu_call_cpuid(const struct cpu_detect_opts *o, unsigned int leaf, unsigned int regs[4])
{
	return (o && o->cpuid) ? o->cpuid(leaf, 0, regs) : cpu_native_cpuid(leaf, 0, regs);
}

/*
 * AMD's core counters per thread (AMD64 APM vol. 2, 13.2): CPUID
 * 0x80000022 EBX[3:0] where PerfMonV2 (EAX bit 0) says; else 6 with
 * PerfCtrExtCore (0x80000001 ECX bit 23), else the legacy 4.  AMD has no
 * leaf 0xA, and on AMD the NMI watchdog takes one of these.
 */
static int cpu_amd_counters(const struct cpu_detect_opts *o)
{
	unsigned int regs[4] = { 0 }, max;

	if (cpu_call_cpuid(o, 0x80000000u, regs))
		return 0;
	max = regs[0];
	if (max >= 0x80000022u && !cpu_call_cpuid(o, 0x80000022u, regs) && (regs[0] & 1) &&
	    (regs[1] & 0xf))
		return (int)(regs[1] & 0xf);
	if (max >= 0x80000001u && !cpu_call_cpuid(o, 0x80000001u, regs))
		return (regs[2] >> 23) & 1 ? 6 : 4;
	return 0;
}

/* CPUID.1:ECX[31], which hypervisors set (and the kernel reads as X86_FEATURE_HYPERVISOR). */
static bool cpu_under_hypervisor(const struct cpu_detect_opts *o)
{
	unsigned int regs[4] = { 0 };

	return !cpu_call_cpuid(o, 0, regs) && regs[0] >= 1 && !cpu_call_cpuid(o, 1, regs) &&
	       ((regs[2] >> 31) & 1);
}

/*
 * Intel's architectural PMU, CPUID leaf 0xA as the kernel reads it
 * (intel_pmu_init): EAX[7:0] the version, EAX[15:8] the general-purpose
 * counters; from version 2 EDX[4:0] fixed counters (on bare metal the kernel
 * assumes at least 3, under a hypervisor it believes the leaf), from version
 * 5 ECX's bitmap of them instead.  A virtual machine's leaf is what its
 * hypervisor offers, which is what the kernel then schedules on.
 */
static void cpu_intel_counters(const struct cpu_detect_opts *o, struct cpu_info *ci)
{
	unsigned int regs[4] = { 0 }, version, nfixed;

	if (cpu_call_cpuid(o, 0, regs) || regs[0] < 0xA || cpu_call_cpuid(o, 0xA, regs))
		return;
	version = regs[0] & 0xff;
	ci->gp_counters = (int)((regs[0] >> 8) & 0xff);
	if (!version)
		return; /* no architectural PMU: the description's, where a PMU exists */
	ci->fixed_known = true;
	if (version >= 5) {
		ci->fixed_mask = regs[2];
		return;
	}
	nfixed = version >= 2 ? regs[3] & 0x1f : 0;
	if (version >= 2 && !ci->hypervisor && nfixed < 3)
		nfixed = 3;
	ci->fixed_mask = (uint32_t)((1ull << nfixed) - 1);
}

/*
 * Arm: the event counters one group of the core PMU holds (counter_probe.h).
 * The group is of CPU_CYCLES, which the kernel puts on the cycle counter
 * first (every PMUv3 has one) and on event counters after it: the counters
 * are one less than the events it held.  0: not probed (a fixture tree, no
 * permission), the description says.
 */
static int cpu_arm_counters(const struct cpu_detect_opts *o, const char *root,
			    const struct cpu_info *ci)
{
	counter_probe_open_fn open_event = o && o->perf_open ? o->perf_open :
					   *root	     ? NULL :
							       counter_probe_syscall;
	int n;

	if (!open_event || !ci->has_pmu)
		return 0;
	n = counter_probe_group(open_event, ci->pmu_type, ARM_CPU_CYCLES, COUNTER_PROBE_MAX);
	return n > 1 ? n - 1 : 0;
}

/* Looks for the core PMU: "cpu", or "cpu_core" (the big cores) on hybrid parts. */
static void cpu_find_pmu(const char *root, struct cpu_info *ci)
{
	static const char *const names[] = { "cpu", "cpu_core" };
	char path[256];
	long type;

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s/type", CPU_PMU_DIR, names[i]);
		if (cpu_read_int(root, path, &type) || type < 0)
			continue;
		ci->has_pmu = true;
		ci->pmu_type = (unsigned int)type;
		snprintf(ci->pmu_name, sizeof(ci->pmu_name), "%s", names[i]);
		ci->topdown_use_fixed = cpu_pmu_has(root, names[i], "topdown-retiring");
		ci->topdown_l2 = cpu_pmu_has(root, names[i], "topdown-heavy-ops");
		return;
	}
}

/* Arm, whether its core came from MIDR_EL1 in sysfs or from /proc/cpuinfo's fields. */
static bool cpu_is_arm(const struct cpu_info *ci)
{
	return !strcmp(ci->vendor, ARM_VENDOR);
}

int cpu_detect(const struct cpu_detect_opts *o, struct cpu_info *ci, char *err, size_t errlen)
{
	const char *root = cpu_root(o);
	bool arm;
	long val;
	int ret;

	memset(ci, 0, sizeof(*ci));
	ci->midr_cpu = -1;
	/* Arm: MIDR_EL1 from sysfs, as /proc/cpuinfo there names no vendor */
	arm = !arm_detect_midr(root, ci);
	ret = arm ? 0 : cpu_parse_cpuinfo(root, ci, err, errlen);
	if (ret)
		return ret;
	/* An Arm kernel without MIDR in sysfs: /proc/cpuinfo's implementer and part */
	arm = cpu_is_arm(ci);
	ret = cpu_desc_init(err, errlen);
	if (ret)
		return ret;
	ci->cpu = cpu_desc_by_cpuid(ci->vendor, ci->family, ci->model, ci->stepping);
	ci->model_id = ci->cpu ? ci->cpu->model : NULL;
	if (arm)
		arm_detect_pmu(root, ci);
	else
		cpu_find_pmu(root, ci);
	cpu_detect_smt(root, ci);
	ci->nmi_watchdog = !cpu_read_int(root, "/proc/sys/kernel/nmi_watchdog", &val) && val == 1;

	if (arm) {
		/* no count in sysfs: the kernel's answer, the description's, else every Neoverse's */
		ci->gp_counters = cpu_arm_counters(o, root, ci);
		if (!ci->gp_counters && ci->has_pmu && !ci->cpu)
			ci->gp_counters = ARM_DEFAULT_COUNTERS;
	} else if (!strcmp(ci->vendor, "AuthenticAMD")) {
		ci->hypervisor = cpu_under_hypervisor(o);
		ci->gp_counters = cpu_amd_counters(o);
	} else {
		ci->hypervisor = cpu_under_hypervisor(o);
		cpu_intel_counters(o, ci);
	}
	/* A PMU the CPUID does not describe (a hypervisor's masking): its description says. */
	if (!ci->gp_counters && ci->has_pmu && ci->cpu)
		ci->gp_counters = ci->smt ? ci->cpu->gp_counters_smt : ci->cpu->gp_counters;
	/*
	 * On Arm a perf-based hard-lockup detector counts CPU_CYCLES, which the kernel
	 * puts on the cycle counter: the event counters stay free (cpu_warn says the rest).
	 */
	ci->gp_usable = ci->gp_counters - (ci->nmi_watchdog && ci->gp_counters > 0 && !arm);
	return 0;
}

/* "AMD EPYC, Zen 5 (zen5)", or the CPUID when no description knows it. */
static void cpu_name(const struct cpu_info *ci, char *buf, size_t len)
{
	if (ci->cpu)
		snprintf(buf, len, "%s (%s)", ci->cpu->title, ci->cpu->id);
	else
		snprintf(buf, len, "%s family 0x%X model 0x%X (no TMA model: generic would run)",
			 ci->vendor[0] ? ci->vendor : "unknown vendor", (unsigned int)ci->family,
			 (unsigned int)ci->model);
}

int cpu_require_pmu(const struct cpu_info *ci, char *err, size_t errlen)
{
	char name[256];

	if (ci->has_pmu)
		return 0;
	cpu_name(ci, name, sizeof(name));
	snprintf(err, errlen,
		 "%s, but no hardware PMU on this machine (virtual machine?): " CPU_PMU_DIR
		 " has no core PMU (cpu, cpu_core, armv8_pmuv3...), so no hardware event can be "
		 "counted; "
		 "use --pmu software to see the pipeline, or --replay FILE",
		 name);
	return -ENODEV;
}

/* Whether some description serves this vendor. */
static bool cpu_vendor_known(const char *vendor)
{
	for (int i = 0; i < cpu_desc_count(); i++)
		for (int k = 0; k < cpu_desc_at(i)->nmatch; k++)
			if (!strcmp(cpu_desc_at(i)->match[k].vendor, vendor))
				return true;
	return false;
}

/* Whether some description would match this CPUID if the stepping were known. */
static bool cpu_stepping_decides(const struct cpu_info *ci)
{
	for (int s = 0; ci->stepping < 0 && s < 16; s++)
		if (cpu_desc_by_cpuid(ci->vendor, ci->family, ci->model, s))
			return true;
	return false;
}

const char *cpu_select_model(const struct cpu_info *ci, const char *override, char *err,
			     size_t errlen)
{
	size_t n;

	if (override && *override)
		return override;
	if (ci->model_id)
		return ci->model_id;
	/*
	 * A PMU without a top-down model still counts perf's generic events: IPC
	 * and misses.  Not where a hidden stepping is all that keeps a model from
	 * matching (SKX or CLX): the user should pick it.
	 */
	if (ci->has_pmu && !cpu_stepping_decides(ci))
		return "generic";
	n = (size_t)snprintf(err, errlen,
			     "no TMA model for this CPU (%s family %d model 0x%X stepping %d): "
			     "supported are",
			     ci->vendor[0] ? ci->vendor : "unknown vendor", ci->family,
			     (unsigned int)ci->model, ci->stepping);
	/* This vendor's CPUs only (all where it has none): the message stays readable. */
	for (int i = 0, listed = 0; i < cpu_desc_count() && n < errlen; i++) {
		const struct cpu_desc *d = cpu_desc_at(i);

		if (cpu_vendor_known(ci->vendor) && strcmp(d->match[0].vendor, ci->vendor))
			continue;
		n += (size_t)snprintf(err + n, errlen - n, "%s %s (", listed++ ? ";" : "",
				      d->title);
		for (int k = 0; k < d->nmatch && n < errlen; k++) {
			const struct cpu_desc_match *m = &d->match[k];

			/* Arm's: implementer/part, both hex as MIDR_EL1 holds them */
			n += (size_t)snprintf(err + n, errlen - n,
					      strcmp(m->vendor, ARM_VENDOR) ? "%s%u/0x%X" :
									      "%s0x%X/0x%X",
					      k ? ", " : "", m->family, m->model);
			if (m->model_last != m->model && n < errlen)
				n += (size_t)snprintf(err + n, errlen - n, "-0x%X", m->model_last);
		}
		if (n < errlen)
			n += (size_t)snprintf(err + n, errlen - n, ", --model %s)", d->model);
	}
	if (n < errlen)
		snprintf(err + n, errlen - n,
			 "; if this CPU matches one of them, force it with --model ID, or add "
			 "its description (docs/cpu-format.md) with TMACG_MODEL_DIR");
	return NULL;
}

/* Fixed counters of the description's core the PMU offers (all where CPUID does not say). */
static int cpu_fixed_offered(const struct cpu_info *ci)
{
	int core = ci->cpu->fixed_counters, n = 0;

	for (int i = 0; i < core && i < 32; i++)
		n += !ci->fixed_known || ((ci->fixed_mask >> i) & 1);
	return n;
}

/* "a", "a and b", "a, b and c" into buf. */
static void cpu_join(char *buf, size_t len, char items[][48], int n)
{
	size_t at = 0;

	buf[0] = '\0';
	for (int i = 0; i < n && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s%s",
				       !i	  ? "" :
				       i == n - 1 ? " and " :
						    ", ",
				       items[i]);
}

/*
 * A PMU offering less than the core it runs on (a virtual machine's), in one
 * line: what it offers against what the core has, and that the plan follows
 * the former.  Nothing where it offers all, or where no description says.
 */
static void cpu_warn_offered(const struct cpu_info *ci, FILE *f)
{
	const struct cpu_desc *d = ci->cpu;
	char offers_items[3][48], core_items[3][48], offers[160], core[160];
	int gp_core, fixed, n = 0;
	bool with_fixed;

	if (!d || !ci->has_pmu)
		return;
	gp_core = ci->smt ? d->gp_counters_smt : d->gp_counters;
	fixed = cpu_fixed_offered(ci);
	if (!(ci->gp_counters > 0 && ci->gp_counters < gp_core) && fixed == d->fixed_counters &&
	    !(d->perf_metrics && !ci->topdown_use_fixed))
		return;
	/* Arm's one fixed counter, the cycle counter, is always there */
	with_fixed = d->fixed_counters > 0 && !cpu_is_arm(ci);
	snprintf(offers_items[n], sizeof(offers_items[n]), "%d %s counters", ci->gp_counters,
		 cpu_is_arm(ci) ? "event" : "general-purpose");
	snprintf(core_items[n++], sizeof(core_items[0]), "%d", gp_core);
	if (with_fixed) {
		if (fixed)
			snprintf(offers_items[n], sizeof(offers_items[n]), "%d fixed counter%s",
				 fixed, fixed == 1 ? "" : "s");
		else
			snprintf(offers_items[n], sizeof(offers_items[n]), "no fixed counters");
		snprintf(core_items[n++], sizeof(core_items[0]), "%d fixed", d->fixed_counters);
	}
	if (d->perf_metrics) {
		snprintf(offers_items[n], sizeof(offers_items[n]), "%sPERF_METRICS",
			 ci->topdown_use_fixed ? "" : "no ");
		snprintf(core_items[n++], sizeof(core_items[0]), "PERF_METRICS");
	}
	cpu_join(offers, sizeof(offers), offers_items, n);
	cpu_join(core, sizeof(core), core_items, n);
	fprintf(f,
		"tmacg: %s offers %s, where its core, %s, has %s: tmacg plans for what it offers, "
		"and the nodes that need the rest are null (quality.missing_events)\n",
		ci->hypervisor ? "this virtual machine's PMU" : "this PMU", offers, d->title, core);
}

void cpu_warn(const struct cpu_info *ci, FILE *f)
{
	cpu_warn_offered(ci, f);
	if (ci->nmi_watchdog && ci->has_pmu && cpu_is_arm(ci))
		fprintf(f, "tmacg: warning: kernel.nmi_watchdog=1: where the hard-lockup detector "
			   "is perf-based (arm64 with pseudo-NMI) it holds the cycle counter, and "
			   "a group of six events and CPU_CYCLES then cannot be scheduled "
			   "(sysctl kernel.nmi_watchdog=0 frees it)\n");
	else if (ci->nmi_watchdog && ci->has_pmu)
		fprintf(f,
			"tmacg: warning: kernel.nmi_watchdog=1 holds a hardware counter: "
			"planning with %d general-purpose counters instead of %d "
			"(sysctl kernel.nmi_watchdog=0 frees it)\n",
			ci->gp_usable, ci->gp_counters);
}

void cpu_info_print(const struct cpu_info *ci, FILE *f)
{
	fprintf(f, "cpu: %s family %d model 0x%X stepping %d -> %s (%s), model %s\n", ci->vendor,
		ci->family, (unsigned int)ci->model, ci->stepping, ci->cpu ? ci->cpu->id : "(none)",
		ci->cpu ? ci->cpu->title : "no description",
		ci->model_id ? ci->model_id : "(none)");
	if (ci->midr_cpu >= 0)
		fprintf(f, "midr_el1: 0x%016llx (cpu%d): implementer 0x%02X part 0x%03X r%dp%d\n",
			ci->midr, ci->midr_cpu, (unsigned int)ci->family, (unsigned int)ci->model,
			(int)((ci->midr >> 20) & 0xf), ci->stepping);
	if (ci->has_pmu && cpu_is_arm(ci))
		fprintf(f, "pmu: %s type %u, slots %u%s\n", ci->pmu_name, ci->pmu_type,
			ci->pmu_slots,
			ci->pmu_slots ? " (caps/slots)" :
					" (caps/slots absent or 0: the model's documented width)");
	else if (ci->has_pmu)
		fprintf(f, "pmu: %s type %u, PERF_METRICS %s, level-2 PERF_METRICS %s\n",
			ci->pmu_name, ci->pmu_type, ci->topdown_use_fixed ? "yes" : "no",
			ci->topdown_l2 ? "yes" : "no");
	else
		fprintf(f, "pmu: none (no hardware PMU)\n");
	fprintf(f, "smt: %s, general-purpose counters: %d (%d usable%s)",
		!ci->smt_known ? "not known (taken as off)" :
		ci->smt	       ? "on" :
				 "off",
		ci->gp_counters, ci->gp_usable, ci->nmi_watchdog ? ", NMI watchdog holds one" : "");
	if (ci->fixed_known)
		fprintf(f, ", fixed counters: mask 0x%x (CPUID 0xA)", ci->fixed_mask);
	fprintf(f, "%s\n", ci->hypervisor ? ", under a hypervisor" : "");
}
