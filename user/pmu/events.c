// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Model event names -> perf_event_attr.  Topdown and fixed-counter events
 * are raw configs the kernel recognises; the events of the CPU's description
 * are encoded from it (Intel's event list, which also gives their counter
 * constraints); anything else goes through libpfm4's table for that CPU.
 * Then the model's modifiers are applied to the config fields, because the
 * seed's ":u0x80" overrides a umask and libpfm4 has no modifier for that.
 */
#include "pmu/events.h"

#include <errno.h>
#include <perfmon/pfmlib_perf_event.h>
#include <stdlib.h>
#include <string.h>

#include "pmu/cpu_desc.h"

/* docs/tma-rules.md raw encodings; the kernel's slots/topdown-* sysfs events say the same. */
static const struct {
	const char *name;
	uint64_t config;
	bool l2; /* Sapphire Rapids and later only */
} event_topdown[] = {
	{ "PERF_METRICS.RETIRING", 0x8000, false },
	{ "PERF_METRICS.BAD_SPECULATION", 0x8100, false },
	{ "PERF_METRICS.FRONTEND_BOUND", 0x8200, false },
	{ "PERF_METRICS.BACKEND_BOUND", 0x8300, false },
	{ "PERF_METRICS.HEAVY_OPERATIONS", 0x8400, true },
	{ "PERF_METRICS.BRANCH_MISPREDICTS", 0x8500, true },
	{ "PERF_METRICS.FETCH_LATENCY", 0x8600, true },
	{ "PERF_METRICS.MEMORY_BOUND", 0x8700, true },
};

#define EVENT_SLOTS_CONFIG 0x0400

/*
 * The kernel's generic encodings, which it places on fixed counters 0-2
 * (FIXED_EVENT_CONSTRAINT in arch/x86/events/intel/core.c), by counter.
 * Intel's lists give these events event select 0, which on a GP counter
 * counts nothing; libpfm4 would give INST_RETIRED.PREC_DIST (0x0100) for the
 * first.  The kernel may also put fixed counter 0 and 1's events on a GP
 * counter, never REF_TSC's.
 */
static const uint64_t event_fixed_config[] = { 0x00c0, 0x003c, 0x0300 };

/* Without a description naming them: the architectural fixed-counter events. */
static const struct {
	const char *name;
	int fixed;
} event_fixed[] = {
	{ "INST_RETIRED.ANY", 0 },
	{ "CPU_CLK_UNHALTED.THREAD", 1 },
	{ "CPU_CLK_UNHALTED.REF_TSC", 2 },
};

#define EVENT_CFG_ANY_BIT (1ull << 21) /* AnyThread: count both SMT threads (PMU v3-v4) */

/* The events the kernel knows by a config of its own type: no PMU table, no description. */
static const struct {
	const char *name;
	uint32_t type;
	uint64_t config;
} event_kernel[] = {
	/*
	 * The kernel's software events, under names with a dot as the model
	 * language wants.  Counted per CPU, they run on any machine, which is
	 * what lets a model of them exercise the live path without a PMU.
	 * SW.TASK_CLOCK opens per CPU (kernel 6.18 accepts it) and then counts
	 * the CPU context's time, like SW.CPU_CLOCK.  SW.REFUSED is a software
	 * event no kernel has (past PERF_COUNT_SW_MAX: perf_event_open says
	 * ENOENT): a group the kernel refuses, on any machine, for the tests of
	 * that path.
	 */
	{ "SW.CPU_CLOCK", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK },
	{ "SW.TASK_CLOCK", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK },
	{ "SW.CONTEXT_SWITCHES", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "SW.CPU_MIGRATIONS", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "SW.PAGE_FAULTS", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "SW.MINOR_FAULTS", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN },
	{ "SW.MAJOR_FAULTS", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ },
	{ "SW.REFUSED", PERF_TYPE_SOFTWARE, 0xffff },
	/*
	 * perf's generic hardware events, by perf's names: the kernel maps each
	 * to this PMU's own event, or refuses it (-ENOENT) where the PMU has
	 * none, as QEMU's emulated PMUv3 does for all but cycles and
	 * instructions.  They run on any CPU with a PMU, which is what the model
	 * `generic` needs.  The kernel decides which counter (a fixed one where
	 * one fits); the planner counts each as one general-purpose counter.
	 */
	{ "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
	{ "cache-references", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES },
	{ "cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES },
	{ "branch-instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS },
	{ "branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES },
	{ "bus-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BUS_CYCLES },
	{ "stalled-cycles-frontend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND },
	{ "stalled-cycles-backend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_BACKEND },
	{ "ref-cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_REF_CPU_CYCLES },
};

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

struct event_mods {
	int cmask;     /* -1: as encoded */
	int edge, inv; /* -1: as encoded */
	int umask;     /* -1: as encoded */
	bool percore;
	bool sup, user; /* :SUP kernel only, :USER user space only */
	bool has_msr_val;
	uint64_t msr_val;
	bool any; /* any of cmask/edge/inv/umask/msr given */
};

static bool events_ready;
static char events_forced[16];

/*
 * pfm_initialize() with force_pmu forced (NULL: detected), the environment
 * left as it was.  libpfm4 (4.13) takes a forced PMU only from
 * $LIBPFM_FORCE_PMU, read by pfm_initialize(): no call passes one, and naming
 * the PMU in each event ("icx::EVENT") works for a PMU the host lacks only
 * with $LIBPFM_ENCODE_INACTIVE, a variable again.  So the variable exists for
 * this call alone: nothing else (a getenv elsewhere, a child) sees it, and a
 * user's own value is put back.  libpfm4 keeps getenv's pointer, so the text
 * is in a static buffer handed to putenv(), never freed.  Called before any
 * thread starts (measure_open(), the planner): the environment is not
 * thread-safe.
 */
static int pfm_initialize_forced(const char *force_pmu)
{
	static char forced_env[64];
	const char *user = getenv("LIBPFM_FORCE_PMU");
	char *saved = user ? strdup(user) : NULL;
	int ret;

	if (user && !saved)
		return PFM_ERR_NOMEM;
	if (force_pmu) {
		snprintf(forced_env, sizeof(forced_env), "LIBPFM_FORCE_PMU=%s", force_pmu);
		putenv(forced_env);
	} else {
		unsetenv("LIBPFM_FORCE_PMU"); /* detection: a user's value does not force it */
	}
	ret = pfm_initialize();
	if (saved)
		setenv("LIBPFM_FORCE_PMU", saved, 1);
	else
		unsetenv("LIBPFM_FORCE_PMU");
	free(saved);
	return ret;
}

int events_init(const char *force_pmu, char *err, size_t errlen)
{
	const char *want = force_pmu ? force_pmu : "";
	int ret;

	if (events_ready && !strcmp(events_forced, want))
		return 0;
	if (events_ready)
		pfm_terminate();
	events_ready = false;
	ret = pfm_initialize_forced(force_pmu);
	if (ret != PFM_SUCCESS) {
		snprintf(err, errlen, "libpfm4 failed to initialise: %s", pfm_strerror(ret));
		return -EINVAL;
	}
	snprintf(events_forced, sizeof(events_forced), "%s", want);
	events_ready = true;
	return 0;
}

const char *event_kind_name(enum event_kind k)
{
	static const char *const names[] = { "gp", "fixed", "slots", "metric", "pseudo", "sw" };

	return (unsigned)k < sizeof(names) / sizeof(names[0]) ? names[k] : "?";
}

static int event_parse_num(const char *s, int base, uint64_t max, uint64_t *out)
{
	char *end;

	if (!*s)
		return -EINVAL;
	errno = 0;
	*out = strtoull(s, &end, base);
	if (errno || *end || *out > max)
		return -EINVAL;
	return 0;
}

/* One ":mod".  0 or -EINVAL with the reason. */
static int event_parse_mod(const char *name, const char *mod, struct event_mods *m, char *err,
			   size_t errlen)
{
	uint64_t v;

	if (!strcmp(mod, "percore")) {
		m->percore = true;
		return 0;
	}
	/* The seed's privilege filters (Kernel_Utilization, IpFarBranch). */
	if (!strcmp(mod, "SUP") || !strcmp(mod, "USER")) {
		*(mod[0] == 'S' ? &m->sup : &m->user) = true;
		if (m->sup && m->user)
			goto bad_value;
		return 0;
	}
	if (!strncmp(mod, "ocr_msr_val=", 12)) {
		if (event_parse_num(mod + 12, 0, UINT64_MAX, &v))
			goto bad_value;
		m->has_msr_val = true;
		m->msr_val = v;
		m->any = true;
		return 0;
	}
	if (mod[0] == 'c' && !event_parse_num(mod + 1, 10, 255, &v)) {
		m->cmask = (int)v;
	} else if (mod[0] == 'e' && !event_parse_num(mod + 1, 10, 1, &v)) {
		m->edge = (int)v;
	} else if (mod[0] == 'i' && !event_parse_num(mod + 1, 10, 1, &v)) {
		m->inv = (int)v;
	} else if (mod[0] == 'u' && !strncmp(mod + 1, "0x", 2) &&
		   !event_parse_num(mod + 1, 16, 255, &v)) {
		m->umask = (int)v;
	} else if (strchr("ceiu", mod[0]) && mod[0]) {
		goto bad_value;
	} else {
		snprintf(err, errlen,
			 "%s: unknown modifier ':%s': models may use :cN (counter mask), "
			 ":e1 (edge), :i1 (invert), :u0xNN (umask), :percore, "
			 ":ocr_msr_val=0x..., :SUP, :USER",
			 name, mod);
		return -EINVAL;
	}
	m->any = true;
	return 0;
bad_value:
	snprintf(err, errlen,
		 "%s: bad modifier value ':%s' (:cN takes 0-255, :e and :i take 0 or 1, :u a hex "
		 "umask 0x00-0xff, :ocr_msr_val a number; :SUP and :USER exclude each other)",
		 name, mod);
	return -EINVAL;
}

/* Splits "EVENT.UMASK:m1:m2" into base and parsed modifiers. */
static int event_parse(const char *name, char *base, size_t baselen, struct event_mods *m,
		       char *err, size_t errlen)
{
	char buf[EVENT_NAME_MAX], *save = NULL, *tok;
	int ret;

	memset(m, 0, sizeof(*m));
	m->cmask = m->edge = m->inv = m->umask = -1;
	if (strlen(name) >= sizeof(buf)) {
		snprintf(err, errlen, "event name longer than %zu characters: %.40s...",
			 sizeof(buf) - 1, name);
		return -ENAMETOOLONG;
	}
	snprintf(buf, sizeof(buf), "%s", name);
	tok = strtok_r(buf, ":", &save);
	/*
	 * perf's AMD names need no dot (ls_not_halted_cyc): lower case tells them apart;
	 * so do Arm's PMUv3 names (CPU_CYCLES), all upper case.
	 */
	if (!tok ||
	    (!strchr(tok, '.') &&
	     strspn(tok, "abcdefghijklmnopqrstuvwxyz0123456789_") != strlen(tok) &&
	     strspn(tok, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") != strlen(tok)) ||
	    tok[0] == '.' || tok[strlen(tok) - 1] == '.') {
		snprintf(err, errlen,
			 "'%s' is not an event name: models spell events EVENT.UMASK[:modifier...] "
			 "(e.g. INT_MISC.RECOVERY_CYCLES:c1:e1), as perf names AMD's "
			 "(ls_not_halted_cyc) or as Arm names its own (CPU_CYCLES)",
			 name);
		return -EINVAL;
	}
	snprintf(base, baselen, "%s", tok);
	while ((tok = strtok_r(NULL, ":", &save))) {
		ret = event_parse_mod(name, tok, m, err, errlen);
		if (ret)
			return ret;
	}
	return 0;
}

/* "EVENT.UMASK.MORE" -> "pmu::EVENT:UMASK_MORE", libpfm4's spelling. */
static void event_pfm_name(const struct event_target *t, const char *base, char *out, size_t len)
{
	const char *dot = strchr(base, '.');
	size_t used;

	if (!dot) {
		snprintf(out, len, "%s::%s", t->pfm_pmu, base);
		return;
	}
	snprintf(out, len, "%s::%.*s:", t->pfm_pmu, (int)(dot - base), base);
	used = strlen(out);
	for (const char *p = dot + 1; *p && used + 1 < len; p++)
		out[used++] = *p == '.' ? '_' : *p;
	out[used] = '\0';
}

static int event_libpfm(const struct event_target *t, const char *name, const char *base,
			uint64_t *config, uint64_t *config1, char *err, size_t errlen)
{
	struct perf_event_attr attr;
	pfm_perf_encode_arg_t arg;
	char pfm[EVENT_NAME_MAX + 32];
	int ret;

	if (!t->pfm_pmu) {
		snprintf(err, errlen,
			 "%s: CPU description %s does not list it and names no libpfm4 table: add "
			 "the event, as Intel's event list encodes it, to %s",
			 name, t->cpu ? t->cpu->id : "(none)",
			 t->cpu ? t->cpu->path : "the .cpu file");
		return -ENOENT;
	}
	event_pfm_name(t, base, pfm, sizeof(pfm));
	memset(&attr, 0, sizeof(attr));
	memset(&arg, 0, sizeof(arg));
	arg.size = sizeof(arg);
	arg.attr = &attr;
	ret = pfm_get_os_event_encoding(pfm, PFM_PLM0 | PFM_PLM3, PFM_OS_PERF_EVENT, &arg);
	if (ret != PFM_SUCCESS) {
		snprintf(err, errlen,
			 "%s: libpfm4 cannot encode it as %s (%s): check the name against "
			 "Intel's event list for this CPU, or use the --model that matches the CPU",
			 name, pfm, pfm_strerror(ret));
		return ret == PFM_ERR_NOTFOUND || ret == PFM_ERR_ATTR || ret == PFM_ERR_UMASK ?
			       -ENOENT :
			       -EINVAL;
	}
	if (attr.type != PERF_TYPE_RAW) {
		snprintf(err, errlen, "%s: libpfm4 gave perf type %u, not a raw core PMU event",
			 name, attr.type);
		return -EINVAL;
	}
	/*
	 * Event select 0 is the kernel's fixed-counter pseudo encoding: on a GP
	 * counter it counts nothing, so never hand it on.
	 */
	if (!EVENT_CFG_EVENT(attr.config)) {
		snprintf(err, errlen,
			 "%s: libpfm4 encodes it as fixed-counter pseudo-event 0x%llx, which no "
			 "general-purpose counter can count: it needs a raw encoding from Intel's "
			 "event list",
			 name, (unsigned long long)attr.config);
		return -EINVAL;
	}
	*config = attr.config;
	*config1 = attr.config1;
	return 0;
}

static int event_apply_mods(const char *name, const struct event_mods *m, uint64_t *config,
			    uint64_t *config1, char *err, size_t errlen)
{
	uint64_t c = *config;

	if (m->umask >= 0)
		c = (c & ~0xff00ull) | (uint64_t)m->umask << 8;
	if (m->edge >= 0)
		c = (c & ~(1ull << 18)) | (uint64_t)m->edge << 18;
	if (m->inv >= 0)
		c = (c & ~(1ull << 23)) | (uint64_t)m->inv << 23;
	if (m->cmask >= 0)
		c = (c & ~(0xffull << 24)) | (uint64_t)m->cmask << 24;
	if (EVENT_CFG_EDGE(c) && !EVENT_CFG_CMASK(c)) {
		snprintf(err, errlen,
			 "%s: edge detection (:e1) counts transitions of a counter-mask condition: "
			 "add :c1 or higher",
			 name);
		return -EINVAL;
	}
	if (m->has_msr_val) {
		if (!*config1) {
			snprintf(err, errlen,
				 "%s: :ocr_msr_val applies to offcore-response (OCR.*) events only",
				 name);
			return -EINVAL;
		}
		*config1 = m->msr_val;
	}
	*config = c;
	return 0;
}

/* Per-CPU counting: no sampling, no inherit; one set of flags for every member. */
static void event_attr_init(struct perf_event_attr *a, uint32_t type, uint64_t config,
			    uint64_t config1)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = type;
	a->config = config;
	a->config1 = config1;
	a->read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	/*
	 * User and kernel, host only: as perf does by default, time a vCPU
	 * thread spends in guest mode belongs to the guest's own TMA, and
	 * KVM's mediated vPMU needs host events that exclude the guest.
	 */
	a->exclude_guest = 1;
	a->exclude_hv = 1;
}

bool event_is_software(const char *name)
{
	return name && !strncmp(name, "SW.", 3);
}

/* Event name's entry in event_kernel, or -1. */
static int event_kernel_find(const char *name)
{
	for (size_t i = 0; name && i < ARRAY_LEN(event_kernel); i++)
		if (!strcmp(event_kernel[i].name, name))
			return (int)i;
	return -1;
}

bool event_is_generic_hw(const char *name)
{
	int k = event_kernel_find(name);

	return k >= 0 && event_kernel[k].type == PERF_TYPE_HARDWARE;
}

/*
 * A software or generic hardware event (event_kernel); SW.NAME takes no
 * modifiers (the kernel ignores the filters for the clocks).
 */
static int event_encode_kernel(const char *name, struct event_enc *out, char *err, size_t errlen)
{
	int k = event_kernel_find(name);
	bool sw = event_is_software(name);

	if (sw && strchr(name, ':')) {
		snprintf(err, errlen, "%s: software events take no modifiers", name);
		return -EINVAL;
	}
	if (k >= 0) {
		out->kind = sw ? EVENT_SOFTWARE : EVENT_GP;
		out->counter_mask = sw ? 0 : UINT32_MAX;
		event_attr_init(&out->attr, event_kernel[k].type, event_kernel[k].config, 0);
		return 0;
	}
	snprintf(err, errlen,
		 "%s: unknown software event: SW.{CPU_CLOCK, TASK_CLOCK, CONTEXT_SWITCHES, "
		 "CPU_MIGRATIONS, PAGE_FAULTS, MINOR_FAULTS, MAJOR_FAULTS, REFUSED} exist",
		 name);
	return -ENOENT;
}

/*
 * A fixed counter's event, with the kernel's generic encoding (AnyThread kept).
 * Intel's descriptions give these event select 0 (a pseudo encoding); one that
 * gives its own (Arm's CPU_CYCLES, 0x11, which the kernel puts on the cycle
 * counter) is encoded as given.
 */
static int event_encode_fixed(const struct event_target *t, const char *name,
			      const struct event_mods *m, int fixed,
			      const struct cpu_desc_event *de, struct event_enc *out, char *err,
			      size_t errlen)
{
	bool any = de && de->any;

	if (m->any || m->sup || m->user) {
		snprintf(err, errlen,
			 "%s: fixed-counter events take no modifiers here; for a filtered count "
			 "use the _P form (e.g. CPU_CLK_UNHALTED.THREAD_P:SUP)",
			 name);
		return -EINVAL;
	}
	out->kind = EVENT_FIXED;
	out->fixed = fixed;
	if (de && de->event) {
		out->counter_mask = UINT32_MAX; /* spills to an event counter when taken */
		event_attr_init(&out->attr, t->pmu_type, de->event | (uint64_t)de->umask << 8, 0);
		return 0;
	}
	if (fixed >= (int)ARRAY_LEN(event_fixed_config)) {
		snprintf(err, errlen,
			 "%s: fixed counter %d has no generic kernel encoding (only 0-2 and "
			 "TOPDOWN.SLOTS on 3): check its counters= in %s",
			 name, fixed, t->cpu ? t->cpu->path : "the CPU description");
		return -EINVAL;
	}
	/* Fixed counters 0 and 1 spill to any GP counter when taken; REF_TSC cannot. */
	out->counter_mask = fixed == 2 ? 0 : UINT32_MAX;
	event_attr_init(&out->attr, t->pmu_type,
			event_fixed_config[fixed] | (any ? EVENT_CFG_ANY_BIT : 0), 0);
	return 0;
}

/*
 * An event of a fixed counter this PMU lacks: its general-counter twin
 * (INST_RETIRED.ANY_P for INST_RETIRED.ANY, TOPDOWN.SLOTS_P for
 * TOPDOWN.SLOTS), which Intel's lists give for each that has one, counting
 * the same, encoded under the name asked for.  -EOPNOTSUPP where the
 * description has none (Ice Lake's CPU_CLK_UNHALTED.REF_TSC: REF_XCLK counts
 * another clock).
 */
static int event_encode_twin(const struct event_target *t, const char *name, const char *base,
			     int fixed, struct event_enc *out, char *err, size_t errlen)
{
	char twin_base[EVENT_NAME_MAX], twin[EVENT_NAME_MAX];
	const struct cpu_desc_event *de;
	int ret;

	snprintf(twin_base, sizeof(twin_base), "%s_P", base);
	de = cpu_desc_event(t->cpu, twin_base);
	if (!de || de->fixed >= 0) {
		snprintf(err, errlen,
			 "%s: this PMU has no fixed counter %d (a virtual machine's?) and %s "
			 "gives no %s to count it on a general-purpose counter",
			 name, fixed, t->cpu->path, twin_base);
		return -EOPNOTSUPP;
	}
	/* The modifiers after the base name go with it (":percore"). */
	snprintf(twin, sizeof(twin), "%s%s", twin_base, name + strlen(base));
	ret = event_encode(t, twin, out, err, errlen);
	if (!ret)
		snprintf(out->name, sizeof(out->name), "%s", name);
	return ret;
}

int event_encode(const struct event_target *t, const char *name, struct event_enc *out, char *err,
		 size_t errlen)
{
	char base[EVENT_NAME_MAX];
	uint64_t config = 0, config1 = 0;
	const struct cpu_desc_event *de;
	struct event_mods m;
	uint32_t counters;
	int ret, fixed;

	memset(out, 0, sizeof(*out));
	out->fixed = -1;
	if (!name || !*name) {
		snprintf(err, errlen, "empty event name");
		return -EINVAL;
	}
	snprintf(out->name, sizeof(out->name), "%s", name);
	if (!strncmp(name, "msr/", 4)) {
		if (strcmp(name, "msr/tsc/")) {
			snprintf(err, errlen, "%s: the only pseudo-input is msr/tsc/", name);
			return -EINVAL;
		}
		out->kind = EVENT_PSEUDO;
		return 0;
	}
	if (event_is_software(name) || event_is_generic_hw(name))
		return event_encode_kernel(name, out, err, errlen);
	if (!t || (!t->pfm_pmu && !t->cpu)) {
		snprintf(err, errlen, "%s: no PMU to encode it for: give --model", name);
		return -EINVAL;
	}
	ret = event_parse(name, base, sizeof(base), &m, err, errlen);
	if (ret)
		return ret;
	out->flags = m.percore ? EVENT_F_PERCORE : 0;
	out->counter_mask = 0;

	if (!strcmp(base, "TOPDOWN.SLOTS") || !strncmp(base, "PERF_METRICS.", 13)) {
		/* The kernel rejects any filter on these (X86_ALL_EVENT_FLAGS). */
		if (m.any || m.sup || m.user) {
			snprintf(err, errlen,
				 "%s: topdown events take no modifiers (cmask, edge, invert, "
				 "umask, config1, privilege)",
				 name);
			return -EINVAL;
		}
		if (!strcmp(base, "TOPDOWN.SLOTS") && (t->fixed_absent >> 3 & 1) && t->cpu)
			return event_encode_twin(t, name, base, 3, out, err, errlen);
		if (!strcmp(base, "TOPDOWN.SLOTS")) {
			out->kind = EVENT_SLOTS;
			event_attr_init(&out->attr, t->pmu_type, EVENT_SLOTS_CONFIG, 0);
			return 0;
		}
		for (size_t i = 0; i < ARRAY_LEN(event_topdown); i++) {
			if (strcmp(event_topdown[i].name, base))
				continue;
			if (t->perf_metrics_absent) {
				snprintf(err, errlen,
					 "%s: this PMU offers no PERF_METRICS (sysfs lists no "
					 "events/topdown-retiring: a virtual machine, or a kernel "
					 "before 5.9)",
					 name);
				return -EOPNOTSUPP;
			}
			if (event_topdown[i].l2 && !t->topdown_l2) {
				snprintf(err, errlen,
					 "%s: this CPU has level-1 PERF_METRICS only (sysfs "
					 "lists no events/topdown-heavy-ops here, or its "
					 "description says perf_metrics_l2 no): the model must "
					 "use its non-PERF_METRICS formula",
					 name);
				return -EOPNOTSUPP;
			}
			out->kind = EVENT_METRIC;
			event_attr_init(&out->attr, t->pmu_type, event_topdown[i].config, 0);
			return 0;
		}
		snprintf(err, errlen,
			 "%s: unknown topdown event: PERF_METRICS.{RETIRING, BAD_SPECULATION, "
			 "FRONTEND_BOUND, BACKEND_BOUND, HEAVY_OPERATIONS, BRANCH_MISPREDICTS, "
			 "FETCH_LATENCY, MEMORY_BOUND} exist",
			 name);
		return -ENOENT;
	}
	de = t->cpu ? cpu_desc_event(t->cpu, base) : NULL;
	fixed = de ? de->fixed : -1;
	for (size_t i = 0; !de && i < ARRAY_LEN(event_fixed); i++)
		if (!strcmp(event_fixed[i].name, base))
			fixed = event_fixed[i].fixed;
	if (fixed >= 0 && fixed < 32 && (t->fixed_absent >> fixed & 1) && t->cpu)
		return event_encode_twin(t, name, base, fixed, out, err, errlen);
	if (fixed >= 0)
		return event_encode_fixed(t, name, &m, fixed, de, out, err, errlen);
	if (de && t->cpu->pmuv3) {
		/* Arm's PMUv3: the event number is the raw config (config:0-15) */
		config = de->event;
		counters = cpu_desc_event_counters(de, t->smt);
	} else if (de) {
		/* AMD's event select bits 11:8 go to config:32-35 (EventSelect[11:8]). */
		config = (de->event & 0xff) | (uint64_t)(de->event >> 8) << 32 |
			 (uint64_t)de->umask << 8 | (uint64_t)de->edge << 18 |
			 (uint64_t)de->any << 21 | (uint64_t)de->inv << 23 |
			 (uint64_t)de->cmask << 24;
		config1 = de->msr ? de->msr_value : 0;
		counters = cpu_desc_event_counters(de, t->smt);
	} else {
		ret = event_libpfm(t, name, base, &config, &config1, err, errlen);
		if (ret)
			return ret;
		counters = UINT32_MAX; /* no constraint known */
	}
	ret = event_apply_mods(name, &m, &config, &config1, err, errlen);
	if (ret)
		return ret;
	out->kind = EVENT_GP;
	out->counter_mask = counters;
	out->msr = de ? de->msr : 0;
	event_attr_init(&out->attr, t->pmu_type, config, config1);
	/* The planner keeps such events apart: a group shares one set of flags. */
	out->attr.exclude_user = m.sup;
	out->attr.exclude_kernel = m.user;
	return 0;
}
