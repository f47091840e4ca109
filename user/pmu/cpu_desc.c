// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The `.cpu` parser (docs/cpu-format.md).  Strict on purpose: an unknown
 * directive or key, a repeated fact or a value out of range is an error
 * naming the file and line, so a typo cannot silently drop a constraint.
 */
#include "pmu/cpu_desc.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmu/arm_detect.h"
#include "util/name_escape.h"

#define CPU_DESC_MAX_FIELDS 16
#define CPU_DESC_MAX_GP 32
#define CPU_DESC_MAX_FIXED 16

struct cpu_parser {
	const char *file;
	int line;
	char *err;
	size_t errlen;
	struct cpu_desc *d;
	int *event_line;   /* each event's line, for checks made once all is read */
	unsigned int seen; /* header directives given (bit per cpu_header_names entry) */
};

static const char *const cpu_header_names[] = {
	"cpu",	       "title",		  "model",	    "tma_version",  "libpfm",
	"gp_counters", "gp_counters_smt", "fixed_counters", "perf_metrics", "perf_metrics_l2",
};
#define CPU_NHEADERS (sizeof(cpu_header_names) / sizeof(cpu_header_names[0]))

__attribute__((format(printf, 2, 3))) static int perr(struct cpu_parser *p, const char *fmt, ...)
{
	/* Line 0: a fact of the whole file (a missing line). */
	size_t n = p->line ? (size_t)snprintf(p->err, p->errlen, "%s:%d: ", p->file, p->line) :
			     (size_t)snprintf(p->err, p->errlen, "%s: ", p->file);
	va_list ap;

	if (n < p->errlen) {
		va_start(ap, fmt);
		vsnprintf(p->err + n, p->errlen - n, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

static int parse_uint(const char *s, unsigned long long max, unsigned long long *out)
{
	char *end;

	if (!*s || *s == '-' || *s == '+')
		return -EINVAL;
	errno = 0;
	*out = strtoull(s, &end, 0);
	return errno || *end || *out > max ? -EINVAL : 0;
}

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = (char)tolower((unsigned char)c);
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* "[01234]", "[0-4]", "[56789ABCDEF]" or one hex digit -> stepping bits. */
static int parse_steppings(const char *s, uint16_t *bits)
{
	size_t n = strlen(s);

	*bits = 0;
	if (n == 1 && hex_digit(s[0]) >= 0) {
		*bits = (uint16_t)(1u << hex_digit(s[0]));
		return 0;
	}
	if (n < 3 || s[0] != '[' || s[n - 1] != ']')
		return -EINVAL;
	for (size_t i = 1; i < n - 1; i++) {
		int lo = hex_digit(s[i]), hi = lo;

		if (lo < 0)
			return -EINVAL;
		if (s[i + 1] == '-' && i + 2 < n - 1) {
			hi = hex_digit(s[i + 2]);
			if (hi < lo)
				return -EINVAL;
			i += 2;
		}
		for (int v = lo; v <= hi; v++)
			*bits |= (uint16_t)(1u << v);
	}
	return 0;
}

/* One to max hex digits, the whole string. */
static int parse_hex_digits(const char *s, size_t n, size_t max, unsigned int *out)
{
	unsigned int v = 0;

	if (n < 1 || n > max)
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		if (hex_digit(s[i]) < 0)
			return -EINVAL;
		v = v * 16 + (unsigned int)hex_digit(s[i]);
	}
	*out = v;
	return 0;
}

/*
 * "GenuineIntel-6-55-[01234]": vendor-family-model[-stepping], hex; the
 * model may be a range "[10-1F]" (AMD gives a generation model ranges).
 * Arm's MIDR_EL1 reads as "ARM-41-D49-3": implementer, part number (three
 * digits: 12 bits), revision (arm_detect.c).
 */
static int parse_match(struct cpu_parser *p, const char *key)
{
	struct cpu_desc *d = p->d;
	struct cpu_desc_match m = { .steppings = 0xffff };
	const char *fam, *mod, *end;
	void *grown;

	fam = strchr(key, '-');
	if (!fam || (size_t)(fam - key) >= sizeof(m.vendor) || fam == key)
		goto bad;
	snprintf(m.vendor, sizeof(m.vendor), "%.*s", (int)(fam - key), key);
	fam++;
	mod = strchr(fam, '-');
	if (!mod || parse_hex_digits(fam, (size_t)(mod - fam), 2, &m.family))
		goto bad;
	mod++;
	if (*mod == '[') {
		const char *dash = strchr(mod, '-'), *close = strchr(mod, ']');

		if (!dash || !close || dash > close ||
		    parse_hex_digits(mod + 1, (size_t)(dash - mod - 1), 3, &m.model) ||
		    parse_hex_digits(dash + 1, (size_t)(close - dash - 1), 3, &m.model_last) ||
		    m.model_last < m.model)
			goto bad;
		end = close + 1;
	} else {
		end = mod + strcspn(mod, "-");
		if (parse_hex_digits(mod, (size_t)(end - mod), 3, &m.model))
			goto bad;
		m.model_last = m.model;
	}
	if (*end && (*end != '-' || parse_steppings(end + 1, &m.steppings)))
		goto bad;
	grown = realloc(d->match, sizeof(*d->match) * (size_t)(d->nmatch + 1));
	if (!grown)
		return perr(p, "out of memory");
	d->match = grown;
	d->match[d->nmatch++] = m;
	return 0;
bad:
	return perr(p,
		    "'match %s': want mapfile.csv's key VENDOR-FAMILY-MODEL[-STEPPING] in hex, "
		    "the model one value or a range like [10-1F], the stepping one digit or a "
		    "class like [01234] (e.g. GenuineIntel-6-55-[01234]; Arm's MIDR: ARM-41-D49-3)",
		    key);
}

/* "0-3", "0,1,2,3" -> bits; indices below CPU_DESC_MAX_GP. */
static int parse_counter_list(const char *s, uint32_t *mask)
{
	char buf[128], *save = NULL, *tok;

	*mask = 0;
	if (!*s || strlen(s) >= sizeof(buf))
		return -EINVAL;
	snprintf(buf, sizeof(buf), "%s", s);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *dash = strchr(tok, '-');
		unsigned long long lo, hi;

		if (dash)
			*dash = '\0';
		if (parse_uint(tok, CPU_DESC_MAX_GP - 1, &lo))
			return -EINVAL;
		hi = lo;
		if (dash && (parse_uint(dash + 1, CPU_DESC_MAX_GP - 1, &hi) || hi < lo))
			return -EINVAL;
		for (unsigned long long c = lo; c <= hi; c++)
			*mask |= 1u << c;
	}
	return 0;
}

static int parse_event(struct cpu_parser *p, char **f, int nf)
{
	struct cpu_desc *d = p->d;
	struct cpu_desc_event e = { .fixed = -1 };
	bool have_event = false, have_umask = false, have_counters = false, have_smt_off = false;
	bool have_msr_value = false;
	void *grown;

	if (nf < 2)
		return perr(p, "'event' needs a name and key=value fields");
	for (int i = 2; i < nf; i++) {
		char *eq = strchr(f[i], '=');
		const char *key = f[i], *val;
		unsigned long long v;

		if (!eq)
			return perr(p, "event %s: '%s' is not key=value", f[1], f[i]);
		*eq = '\0';
		val = eq + 1;
#define NUM(k, max, dst, flag)                                                                    \
	if (!strcmp(key, k)) {                                                                    \
		if (parse_uint(val, max, &v))                                                     \
			return perr(p, "event %s: %s=%s: want a number up to %llu", f[1], k, val, \
				    (unsigned long long)(max));                                   \
		dst = v;                                                                          \
		flag;                                                                             \
		continue;                                                                         \
	}
		NUM("event", 0xffff, e.event, have_event = true)
		NUM("umask", 0xff, e.umask, have_umask = true)
		NUM("cmask", 0xff, e.cmask, (void)0)
		NUM("edge", 1, e.edge, (void)0)
		NUM("inv", 1, e.inv, (void)0)
		NUM("any", 1, e.any, (void)0)
		NUM("msr", 0xffffffffu, e.msr, (void)0)
		NUM("msr_value", UINT64_MAX, e.msr_value, have_msr_value = true)
#undef NUM
		if (!strcmp(key, "counters") || !strcmp(key, "counters_smt_off")) {
			bool smt_off = key[8] == '_';
			unsigned long long n;

			if (!smt_off && !strncmp(val, "fixed:", 6)) {
				if (parse_uint(val + 6, CPU_DESC_MAX_FIXED - 1, &n))
					return perr(p,
						    "event %s: counters=%s: fixed:N takes N "
						    "0-%d",
						    f[1], val, CPU_DESC_MAX_FIXED - 1);
				e.fixed = (int)n;
			} else if (parse_counter_list(val, smt_off ? &e.counters_smt_off :
								     &e.counters)) {
				return perr(p,
					    "event %s: %s=%s: want general-purpose counters "
					    "like 0-3 or 0,1,2,3 (0-%d)%s",
					    f[1], key, val, CPU_DESC_MAX_GP - 1,
					    smt_off ? "" : ", or fixed:N");
			}
			*(smt_off ? &have_smt_off : &have_counters) = true;
			continue;
		}
		return perr(p,
			    "event %s: unknown key '%s': events take event, umask, cmask, edge, "
			    "inv, any, msr, msr_value, counters, counters_smt_off",
			    f[1], key);
	}
	if (!have_event || !have_umask || !have_counters)
		return perr(p, "event %s: event=, umask= and counters= are required", f[1]);
	if (e.fixed >= 0 && have_smt_off)
		return perr(p, "event %s: a fixed-counter event takes no counters_smt_off", f[1]);
	if (!have_smt_off)
		e.counters_smt_off = e.counters;
	if (have_msr_value != (e.msr != 0))
		return perr(p, "event %s: msr= and msr_value= go together (offcore response)",
			    f[1]);
	/*
	 * Intel's names have a dot; perf's AMD names may not, and are lower case; Arm's
	 * PMUv3 names (CPU_CYCLES) have none and are upper case.
	 */
	if (strlen(f[1]) >= 128 || strchr(f[1], ':') ||
	    (!strchr(f[1], '.') &&
	     strspn(f[1], "abcdefghijklmnopqrstuvwxyz0123456789_") != strlen(f[1]) &&
	     strspn(f[1], "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") != strlen(f[1])))
		return perr(p,
			    "event %s: want Intel's EventName (EVENT.UMASK, no ':modifier') or "
			    "perf's name of an AMD event (ls_not_halted_cyc) or Arm's (CPU_CYCLES)",
			    f[1]);
	for (int i = 0; i < d->nevents; i++)
		if (!strcmp(d->events[i].name, f[1]))
			return perr(p, "event %s given twice (first on line %d)", f[1],
				    p->event_line[i]);
	grown = realloc(d->events, sizeof(*d->events) * (size_t)(d->nevents + 1));
	if (!grown)
		return perr(p, "out of memory");
	d->events = grown;
	grown = realloc(p->event_line, sizeof(int) * (size_t)(d->nevents + 1));
	if (!grown)
		return perr(p, "out of memory");
	p->event_line = grown;
	e.name = strdup(f[1]);
	if (!e.name)
		return perr(p, "out of memory");
	p->event_line[d->nevents] = p->line;
	d->events[d->nevents++] = e;
	return 0;
}

/* retire_latency EVENT CYCLES: Intel's published default of one event's retire latency. */
static int parse_retire_latency(struct cpu_parser *p, char **f, int nf)
{
	char *end = NULL;
	double cycles;
	int rc;

	if (nf != 3)
		return perr(p, "'retire_latency' takes an event and its cycles "
			       "(retire_latency MEM_INST_RETIRED.LOCK_LOADS 63.76)");
	if (!strchr(f[1], '.') || strchr(f[1], ':'))
		return perr(p, "retire_latency %s: want Intel's EventName (EVENT.UMASK)", f[1]);
	errno = 0;
	cycles = strtod(f[2], &end);
	if (errno || end == f[2] || *end)
		return perr(p, "retire_latency %s %s: want a number of cycles", f[1], f[2]);
	rc = rl_table_add(&p->d->retire_latency, f[1], cycles);
	if (rc == -EINVAL)
		return perr(p, "retire_latency %s %s: a latency is 0 or more cycles", f[1], f[2]);
	if (rc == -EEXIST)
		return perr(p, "retire_latency %s given twice", f[1]);
	return rc ? perr(p, "out of memory") : 0;
}

static int set_string(struct cpu_parser *p, char **dst, const char *val)
{
	*dst = strdup(val);
	return *dst ? 0 : perr(p, "out of memory");
}

/*
 * software_standins SW.A [SW.B...]: names only here (events.c encodes them when
 * the plan is opened, and refuses an unknown one there, naming it).
 */
static int parse_software_standins(struct cpu_parser *p, char **f, int nf)
{
	struct cpu_desc *d = p->d;

	if (d->software_standins)
		return perr(p, "second 'software_standins' line");
	if (nf < 2)
		return perr(p, "'software_standins' takes one or more software events (SW.*)");
	d->software_standins = calloc((size_t)nf - 1, sizeof(*d->software_standins));
	if (!d->software_standins)
		return perr(p, "out of memory");
	for (int k = 1; k < nf; k++) {
		int rc;

		if (strncmp(f[k], "SW.", 3))
			return perr(p, "software_standins: %s is not a software event (SW.*)",
				    f[k]);
		rc = set_string(p, &d->software_standins[d->nsoftware_standins], f[k]);
		if (rc)
			return rc;
		d->nsoftware_standins++;
	}
	return 0;
}

static int parse_yes_no(struct cpu_parser *p, const char *dir, const char *val, bool *out)
{
	if (!strcmp(val, "yes") || !strcmp(val, "no")) {
		*out = val[0] == 'y';
		return 0;
	}
	return perr(p, "'%s %s': want yes or no", dir, val);
}

static int parse_count(struct cpu_parser *p, const char *dir, const char *val, int max, int *out)
{
	unsigned long long v;

	if (parse_uint(val, (unsigned long long)max, &v))
		return perr(p, "'%s %s': want a count 0-%d", dir, val, max);
	*out = (int)v;
	return 0;
}

/* [a-z0-9_][a-z0-9_-]*: '-' inside, as Arm names its cores (neoverse-n2-r0p3). */
static bool valid_id(const char *s)
{
	if (!*s || *s == '-')
		return false;
	for (; *s; s++)
		if (!(islower((unsigned char)*s) || isdigit((unsigned char)*s) || *s == '_' ||
		      *s == '-'))
			return false;
	return true;
}

/* One header directive with one value (title: the rest of the line). */
static int parse_header(struct cpu_parser *p, int k, char **f, int nf, const char *rest)
{
	struct cpu_desc *d = p->d;
	const char *dir = cpu_header_names[k];

	if (p->seen & (1u << k))
		return perr(p, "second '%s' line", dir);
	p->seen |= 1u << k;
	if (k == 1) /* title */
		return *rest ? set_string(p, &d->title, rest) : perr(p, "'title' needs a text");
	if (nf != 2)
		return perr(p, "'%s' takes one value", dir);
	switch (k) {
	case 0:
	case 2:
		if (!valid_id(f[1]))
			return perr(p, "'%s %s': ids are [a-z0-9_][a-z0-9_-]*", dir, f[1]);
		return set_string(p, k == 0 ? &d->id : &d->model, f[1]);
	case 3:
		return set_string(p, &d->tma_version, f[1]);
	case 4:
		if (!strcmp(f[1], "none"))
			return 0;
		if (!valid_id(f[1]))
			return perr(p,
				    "'libpfm %s': want libpfm4's PMU name (as "
				    "LIBPFM_FORCE_PMU takes it) or none",
				    f[1]);
		return set_string(p, &d->libpfm, f[1]);
	case 5:
		return parse_count(p, dir, f[1], CPU_DESC_MAX_GP, &d->gp_counters);
	case 6:
		return parse_count(p, dir, f[1], CPU_DESC_MAX_GP, &d->gp_counters_smt);
	case 7:
		return parse_count(p, dir, f[1], CPU_DESC_MAX_FIXED, &d->fixed_counters);
	case 8:
		return parse_yes_no(p, dir, f[1], &d->perf_metrics);
	default:
		return parse_yes_no(p, dir, f[1], &d->perf_metrics_l2);
	}
}

static int parse_line(struct cpu_parser *p, char *line)
{
	char *f[CPU_DESC_MAX_FIELDS] = { NULL }, *save = NULL, *tok, rest[256];
	int nf = 0;
	size_t dlen;
	const char *after;

	line[strcspn(line, "#")] = '\0';
	dlen = strlen(line);
	while (dlen && isspace((unsigned char)line[dlen - 1]))
		line[--dlen] = '\0';
	line += strspn(line, " \t");
	if (!*line)
		return 0;
	/* title keeps its spaces: the text after the directive. */
	after = line + strcspn(line, " \t");
	after += strspn(after, " \t");
	if (strlen(after) >= sizeof(rest))
		return perr(p, "a line longer than %zu characters", sizeof(rest) + 32);
	snprintf(rest, sizeof(rest), "%s", after);
	for (tok = strtok_r(line, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
		if (nf == CPU_DESC_MAX_FIELDS)
			return perr(p, "more than %d fields", CPU_DESC_MAX_FIELDS);
		f[nf++] = tok;
	}
	if (!nf)
		return 0;
	if (!strcmp(f[0], "event"))
		return parse_event(p, f, nf);
	if (!strcmp(f[0], "group_cycles")) {
		if (nf != 2)
			return perr(p, "'group_cycles' takes one event name");
		if (p->d->group_cycles)
			return perr(p, "second 'group_cycles' line");
		return set_string(p, &p->d->group_cycles, f[1]);
	}
	if (!strcmp(f[0], "software_counters")) {
		if (nf != 2)
			return perr(p, "'software_counters' takes yes or no");
		return parse_yes_no(p, f[0], f[1], &p->d->software_counters);
	}
	if (!strcmp(f[0], "software_standins"))
		return parse_software_standins(p, f, nf);
	if (!strcmp(f[0], "retire_latency"))
		return parse_retire_latency(p, f, nf);
	if (!strcmp(f[0], "match")) {
		if (nf != 2)
			return perr(p, "'match' takes one key (repeat the line for more)");
		return parse_match(p, f[1]);
	}
	for (size_t k = 0; k < CPU_NHEADERS; k++)
		if (!strcmp(f[0], cpu_header_names[k]))
			return parse_header(p, (int)k, f, nf, rest);
	return perr(p,
		    "unknown directive '%s' (docs/cpu-format.md lists them: cpu, title, match, "
		    "model, tma_version, libpfm, gp_counters, gp_counters_smt, fixed_counters, "
		    "perf_metrics, perf_metrics_l2, group_cycles, software_counters, "
		    "software_standins, event, retire_latency)",
		    f[0]);
}

static int cmp_event(const void *a, const void *b)
{
	return strcmp(((const struct cpu_desc_event *)a)->name,
		      ((const struct cpu_desc_event *)b)->name);
}

/* What needs the whole file: required lines, the id against the file name, counter ranges. */
static int check_whole(struct cpu_parser *p, const char *file)
{
	struct cpu_desc *d = p->d;
	const char *base = strrchr(file, '/');
	size_t n;

	p->line = 0;
	for (size_t k = 0; k < CPU_NHEADERS; k++)
		if (!(p->seen & (1u << k)))
			return perr(p, "no '%s' line (docs/cpu-format.md)", cpu_header_names[k]);
	if (!d->nmatch)
		return perr(p, "no 'match' line: which CPUID does this CPU have?");
	base = base ? base + 1 : file;
	n = strlen(d->id);
	if (strncmp(base, d->id, n) || strcmp(base + n, ".cpu"))
		return perr(p, "'cpu %s' must equal the file name (%s.cpu)", d->id, d->id);
	if (d->gp_counters_smt > d->gp_counters)
		return perr(p, "gp_counters_smt %d exceeds gp_counters %d", d->gp_counters_smt,
			    d->gp_counters);
	if (d->perf_metrics_l2 && !d->perf_metrics)
		return perr(p, "perf_metrics_l2 yes needs perf_metrics yes");
	/* Arm and x86 encode event numbers differently: one description is one or the other. */
	d->pmuv3 = !strcmp(d->match[0].vendor, ARM_VENDOR);
	for (int k = 1; k < d->nmatch; k++)
		if (!strcmp(d->match[k].vendor, ARM_VENDOR) != d->pmuv3)
			return perr(p,
				    "match keys of Arm (" ARM_VENDOR "-...) and of %s in one "
				    "description: their events are encoded differently, give each "
				    "its own file",
				    d->pmuv3 ? d->match[k].vendor : d->match[0].vendor);
	for (int i = 0; i < d->nevents; i++) {
		const struct cpu_desc_event *e = &d->events[i];
		uint32_t all = d->gp_counters >= 32 ? UINT32_MAX : (1u << d->gp_counters) - 1;

		p->line = p->event_line[i];
		if (e->fixed >= d->fixed_counters)
			return perr(p, "event %s: fixed counter %d but fixed_counters is %d",
				    e->name, e->fixed, d->fixed_counters);
		if (e->fixed < 0 && ((e->counters | e->counters_smt_off) & ~all))
			return perr(p, "event %s: a counter beyond gp_counters %d", e->name,
				    d->gp_counters);
		if (e->event > 0xfff && !d->pmuv3)
			return perr(p,
				    "event %s: event=0x%x: above 0xfff only for Arm (PMUv3 event "
				    "numbers have 16 bits, x86's event select 12)",
				    e->name, e->event);
	}
	if (d->nevents) /* qsort's base may not be NULL, even for none */
		qsort(d->events, (size_t)d->nevents, sizeof(*d->events), cmp_event);
	if (d->group_cycles) {
		const struct cpu_desc_event *c = cpu_desc_event(d, d->group_cycles);

		if (!c || c->fixed >= 0)
			return perr(p,
				    "group_cycles %s: not a general-purpose event listed in this "
				    "file",
				    d->group_cycles);
	}
	return 0;
}

struct cpu_desc *cpu_desc_parse(const char *text, size_t len, const char *file, char *err,
				size_t errlen)
{
	struct cpu_parser p = { .file = file, .err = err, .errlen = errlen };
	size_t off = 0;
	int ret = 0;

	p.d = calloc(1, sizeof(*p.d));
	if (!p.d || !(p.d->path = strdup(file))) {
		snprintf(err, errlen, "%s: out of memory", file);
		free(p.d);
		return NULL;
	}
	while (off < len && !ret) {
		const char *nl = memchr(text + off, '\n', len - off);
		size_t n = nl ? (size_t)(nl - (text + off)) : len - off;
		char *line = strndup(text + off, n);

		p.line++;
		if (!line) {
			ret = perr(&p, "out of memory");
			break;
		}
		if (memchr(text + off, '\0', n))
			ret = perr(&p, "a NUL byte: not a text file");
		else
			ret = parse_line(&p, line);
		free(line);
		off += n + 1;
	}
	if (!ret)
		ret = check_whole(&p, file);
	free(p.event_line);
	if (ret) {
		term_escape_message(err, errlen); /* it quotes the file */
		cpu_desc_free(p.d);
		return NULL;
	}
	return p.d;
}

void cpu_desc_free(struct cpu_desc *d)
{
	if (!d)
		return;
	for (int i = 0; i < d->nevents; i++)
		free(d->events[i].name);
	free(d->events);
	rl_table_free(&d->retire_latency);
	free(d->match);
	free(d->id);
	free(d->path);
	free(d->title);
	free(d->model);
	free(d->tma_version);
	free(d->libpfm);
	free(d->group_cycles);
	for (int i = 0; i < d->nsoftware_standins; i++)
		free(d->software_standins[i]);
	free(d->software_standins);
	free(d);
}

const struct cpu_desc_event *cpu_desc_event(const struct cpu_desc *d, const char *name)
{
	struct cpu_desc_event key = { .name = (char *)name };

	if (!d || !d->nevents)
		return NULL;
	return bsearch(&key, d->events, (size_t)d->nevents, sizeof(*d->events), cmp_event);
}

uint32_t cpu_desc_event_counters(const struct cpu_desc_event *e, bool smt)
{
	return smt ? e->counters : e->counters_smt_off;
}
