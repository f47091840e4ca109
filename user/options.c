// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "options.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "model_list.h"
#include "prom/prom_listen.h"
#include "replay/replay_group_key.h"
#include "util/version.h"

/* A model level deeper than any model defines: the ICX and SPR trees stop at 6. */
#define OPTIONS_MAX_LEVEL 6
/* Intervals below this cost more in flushing than they tell. */
#define OPTIONS_MIN_INTERVAL_NS 10000000ULL

int parse_duration(const char *s, uint64_t *ns)
{
	static const struct {
		const char *suffix;
		double ns;
	} units[] = {
		{ "ns", 1 },  { "us", 1e3 }, { "ms", 1e6 },
		{ "s", 1e9 }, { "m", 60e9 }, { "h", 3600e9 },
	};
	char *end;
	double v;

	if (!s || !*s)
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (end == s || errno || !isfinite(v) || v < 0)
		return -EINVAL;
	/* perf stat -I 1000 means milliseconds, sleep 1000 seconds: no guessing. */
	if (!*end)
		return -EDOM;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcmp(end, units[i].suffix))
			continue;
		if (v * units[i].ns > 1e18)
			return -EINVAL;
		*ns = (uint64_t)llround(v * units[i].ns);
		return 0;
	}
	return -EINVAL;
}

static int parse_long(const char *s, long min, long max, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (end == s || *end || errno || v < min || v > max)
		return -EINVAL;
	*out = v;
	return 0;
}

/* The --model line: every model, so a new one shows without an edit here. */
static void options_usage_models(FILE *f)
{
	char **ids = NULL;
	int n = model_list_ids(&ids);

	fputs("  -m, --model ID         ", f);
	for (int i = 0; i < n; i++) {
		fprintf(f, "%s%s", i ? ", " : "", ids[i]);
		free(ids[i]);
	}
	free(ids);
	fputs(" (default: detected from the CPU;\n"
	      "                         tmacg --list-models shows which CPUs run each)\n",
	      f);
}

void options_usage(FILE *f)
{
	fputs("Usage: tmacg [OPTIONS]\n"
	      "Top-down Microarchitecture Analysis (TMA) for every cgroup, from BPF.\n"
	      "\n"
	      "What to measure:\n"
	      "  -c, --cgroup PATH      a cgroup and its descendants (repeatable); PATH is a\n"
	      "                         directory of the cgroup2 mount or a path inside it\n"
	      "                         (default: every child of the root, and the root's own tasks)\n"
	      "  -d, --depth N          also report descendants down to N levels below --cgroup\n"
	      "      --k8s              one line per Kubernetes pod\n"
	      "      --k8s-level pod|container\n"
	      "      --k8s-logs-containers DIR   (default /var/log/containers)\n"
	      "      --k8s-logs-pods DIR         (default /var/log/pods)\n"
	      "      --per-task         also report threads (tid, comm)\n"
	      "      --top N            at most N cgroups (the rest as \"(other)\") and N tasks\n"
	      "      --pmu hardware|software\n"
	      "                         software: the built-in model of cpu-clock, context\n"
	      "                         switches, migrations and page faults (no PMU needed)\n"
	      "\n"
	      "The TMA model:\n",
	      f);
	options_usage_models(f);
	fputs("      --model-file PATH  a model file of your own\n"
	      "      --tma-version V    another TMA version of the model (--list-models\n"
	      "                         lists each model's); --replay: the recorded one\n"
	      "      --explain NODE     a node's description (Intel's words), formula,\n"
	      "                         threshold and parent, for --model or this CPU's\n"
	      "      --retire-latency FILE  measured retire latencies (Intel's JSON format, the\n"
	      "                         format toplev reads) instead of Intel's published defaults\n",
	      f);
	fprintf(f, "  -l, --level N          tree depth to report, 1-%d (default 3)\n",
		OPTIONS_MAX_LEVEL);
	fputs("      --info             also report Info metrics (IPC, CPI, ...)\n"
	      "      --list-models      the built-in models\n"
	      "      --list-metrics     the nodes of --model and the events they read\n"
	      "      --list-events      the perf groups tmacg would open for --model/--level\n"
	      "      --replay FILE...   evaluate recorded counts (JSON lines; - for stdin), the\n"
	      "                         files one after the other\n"
	      "      --group-by KEY[,KEY...]  with --replay: sum the counts of the lines of\n"
	      "                         each group (host, cgroup, model, a resource key such\n"
	      "                         as k8s.namespace.name) and evaluate the sums, over the\n"
	      "                         whole input or over each --interval of the lines' time\n"
	      "\n"
	      "When and how:\n"
	      "  -i, --interval DUR     with its unit (ns, us, ms, s, m, h): 500ms, 2s (default 1s)\n"
	      "  -n, --count N          stop after N intervals\n"
	      "  -D, --duration DUR     stop after DUR\n"
	      "  -f, --format table|json|top|none|html  (default: table on a terminal, top\n"
	      "                         once more than 8 cgroups show; JSON lines otherwise)\n"
	      "                         top: the live view, a row per cgroup redrawn every\n"
	      "                         interval; none: nothing on stdout, with --listen;\n"
	      "                         html: one report at the end (count, duration, SIGINT)\n"
	      "  -o, --output FILE      --format html's report, written whole or not at all\n"
	      "      --listen ADDR:PORT serve Prometheus metrics at http://ADDR:PORT/metrics\n"
	      "                         (127.0.0.1:9464, [::1]:9464, :9464 for every address)\n"
	      "      --prom-counts      with --listen: also every count the model reads, as\n"
	      "                         tmacg_events_total{event=...} (for --prometheus-rules)\n"
	      "      --prometheus-rules print Prometheus recording rules: every node of levels\n"
	      "                         1 to --level per workload, from the counts of its pods\n"
	      "                         on every host (--model, default all; --tma-version)\n"
	      "      --rules-window DUR the rules' increase() range (default 5m)\n"
	      "      --color auto|always|never\n"
	      "      --host NAME        host name in the output (default: this host's)\n"
	      "      --cgroup-root DIR  the cgroup2 mount to use (default: found in mountinfo)\n"
	      "      --btf FILE         the kernel's BTF, for a kernel without\n"
	      "                         /sys/kernel/btf/vmlinux (BTFHub, or its debug package)\n"
	      "      --max-cgroups N    cgroups tracked in BPF for the whole node (default 16384);\n"
	      "                         beyond, counts are dropped (quality.map_full)\n"
	      "      --max-tasks N      task accumulator entries with --per-task (default 16384)\n"
	      "  -v, --verbose          more diagnostics, libbpf's warnings (twice: its debug log)\n"
	      "  -V, --version\n"
	      "  -h, --help\n"
	      "\n"
	      "Needs Linux 5.10 or later, root or CAP_BPF and CAP_PERFMON, and the kernel's\n"
	      "BTF (its own, or --btf FILE).\n"
	      "TMACG_MODEL_DIR=DIR adds the CPU descriptions (.cpu) and models (.tma) in DIR.\n",
	      f);
}

static int bad(FILE *err, const char *fmt, const char *arg)
{
	fputs("tmacg: ", err);
	fprintf(err, fmt, arg);
	fputs("\nTry 'tmacg --help' for more information.\n", err);
	return 2;
}

/* arg as a duration for option name: 0, or 2 after saying what is wrong (e.g.: examples). */
static int duration_arg(FILE *err, const char *name, const char *examples, const char *arg,
			uint64_t *ns)
{
	char what[256];
	int rc = parse_duration(arg, ns);

	if (!rc)
		return 0;
	/* A bare number: perf stat -I 1000 means milliseconds, sleep 1000 seconds. */
	if (rc == -EDOM)
		snprintf(what, sizeof(what),
			 "%s '%%s': a duration needs a unit: ns, us, ms, s, m or h (%s)", name,
			 examples);
	else
		snprintf(what, sizeof(what), "%s '%%s': expected a duration like %s", name,
			 examples);
	return bad(err, what, arg);
}

/* The options that need more than storing a value: each returns 0, or 2 after a message. */
static int opt_cgroup(struct options *o, const char *arg, FILE *err)
{
	char what[64];

	if (o->ncgroups == OPTIONS_MAX_CGROUPS) {
		snprintf(what, sizeof(what), "%d", OPTIONS_MAX_CGROUPS);
		return bad(err, "too many --cgroup options (at most %s)", what);
	}
	o->cgroups[o->ncgroups++] = arg;
	return 0;
}

static int opt_k8s_level(struct options *o, const char *arg, FILE *err)
{
	if (!strcmp(arg, "pod"))
		o->k8s_level = K8S_LEVEL_POD;
	else if (!strcmp(arg, "container"))
		o->k8s_level = K8S_LEVEL_CONTAINER;
	else
		return bad(err, "--k8s-level '%s': expected pod or container", arg);
	o->k8s = true; /* --k8s-level implies --k8s */
	return 0;
}

static int opt_interval(struct options *o, const char *arg, FILE *err)
{
	if (duration_arg(err, "--interval", "500ms or 2s", arg, &o->interval_ns))
		return 2;
	if (o->interval_ns < OPTIONS_MIN_INTERVAL_NS)
		return bad(err, "--interval '%s': the shortest interval is 10ms", arg);
	o->interval_given = true;
	return 0;
}

static int opt_duration(struct options *o, const char *arg, FILE *err)
{
	if (duration_arg(err, "--duration", "10s or 5m", arg, &o->duration_ns))
		return 2;
	if (!o->duration_ns)
		return bad(err, "--duration '%s': expected a duration like 10s or 5m", arg);
	return 0;
}

static int opt_listen(struct options *o, const char *arg, FILE *err)
{
	struct prom_listen_addr addr;
	char why[256];

	if (prom_listen_parse(arg, &addr, why, sizeof(why)))
		return bad(err, "%s", why);
	o->listen = arg;
	return 0;
}

/*
 * How an option's value is stored in struct options: each kind writes one
 * type of field, and the table's macros check that type at compile time.
 */
enum opt_type {
	OT_FLAG,   /* bool set to true, no value */
	OT_COUNT,  /* int incremented, no value (-vv) */
	OT_STRING, /* const char *, the argument itself */
	OT_INT,	   /* int from min to max */
	OT_LONG,   /* long from min to max */
	OT_U32,	   /* uint32_t from min to max */
	OT_CHOICE, /* an int, or an enum (int or unsigned int underneath), from choices */
	OT_CUSTOM, /* parse() does it, from the value */
	OT_EXIT,   /* --help, --version: print() says it, and tmacg exits 0 */
};

struct opt_choice {
	const char *name;
	int value;
};

struct opt_spec {
	const char *name;
	char short_name; /* 0: none */
	enum opt_type type;
	size_t field;  /* where the value goes: offsetof(struct options, ...) */
	long min, max; /* OT_INT, OT_LONG, OT_U32 */
	const char *
		expected; /* OT_INT: what a bad value should be; NULL: "a number from MIN to MAX" */
	const struct opt_choice *choices; /* OT_CHOICE: ends with a NULL name */
	int (*parse)(struct options *o, const char *arg, FILE *err); /* OT_CUSTOM */
	void (*print)(FILE *out);				     /* OT_EXIT */
};

/*
 * The kind that stores field f: _Generic has an association for the types
 * the kind writes only, so an option on a field of another type does not
 * compile (tests/lint/options-typed checks that it does not).
 */
#define OPT_FIELD(f) (((struct options *)0)->f)
#define KIND(f, ...) \
	.type = _Generic(OPT_FIELD(f), __VA_ARGS__), .field = offsetof(struct options, f)
/* The largest value field f holds; a NUMBER whose max is larger does not compile. */
#define FIELD_MAX(f) _Generic(OPT_FIELD(f), int: INT_MAX, long: LONG_MAX, uint32_t: UINT32_MAX)
#define FITS(f, hi) (0 * sizeof(char[(hi) <= FIELD_MAX(f) ? 1 : -1]))
#define FLAG(n, s, f) { .name = n, .short_name = s, KIND(f, bool : OT_FLAG) }
#define COUNT(n, s, f) { .name = n, .short_name = s, KIND(f, int : OT_COUNT) }
#define STRING(n, s, f) { .name = n, .short_name = s, KIND(f, const char * : OT_STRING) }
#define NUMBER(n, s, f, lo, hi, what)                               \
	{ .name = n,                                                \
	  .short_name = s,                                          \
	  KIND(f, int : OT_INT, long : OT_LONG, uint32_t : OT_U32), \
	  .min = lo,                                                \
	  .max = (hi) + FITS(f, hi),                                \
	  .expected = what }
#define CHOICE(n, s, f, c)                                    \
	{ .name = n,                                          \
	  .short_name = s,                                    \
	  KIND(f, int : OT_CHOICE, unsigned int : OT_CHOICE), \
	  .choices = c }
#define CUSTOM(n, s, fn) { .name = n, .short_name = s, .type = OT_CUSTOM, .parse = fn }
#define EXIT(n, s, fn) { .name = n, .short_name = s, .type = OT_EXIT, .print = fn }

static void print_version(FILE *out)
{
	fprintf(out, "tmacg %s\n", TMACG_VERSION);
}

static const struct opt_choice pmu_choices[] = { { "hardware", PMU_HARDWARE },
						 { "software", PMU_SOFTWARE },
						 { NULL, 0 } };
static const struct opt_choice format_choices[] = {
	{ "table", FORMAT_TABLE }, { "json", FORMAT_JSON }, { "top", FORMAT_TOP },
	{ "none", FORMAT_NONE },   { "html", FORMAT_HTML }, { NULL, 0 },
};
static const struct opt_choice color_choices[] = {
	{ "auto", -1 }, { "always", 1 }, { "never", 0 }, { NULL, 0 }
};

/* Every option, in --help's order; getopt's tables are made from it. */
static const struct opt_spec specs[] = {
	CUSTOM("cgroup", 'c', opt_cgroup),
	NUMBER("depth", 'd', depth, 0, OPTIONS_MAX_DEPTH, NULL),
	FLAG("k8s", 0, k8s),
	CUSTOM("k8s-level", 0, opt_k8s_level),
	STRING("k8s-logs-containers", 0, k8s_log_containers),
	STRING("k8s-logs-pods", 0, k8s_log_pods),
	FLAG("per-task", 0, per_task),
	NUMBER("top", 0, top, 1, 1000000, "a positive number"),
	CHOICE("pmu", 0, pmu, pmu_choices),
	STRING("model", 'm', model),
	STRING("model-file", 0, model_file),
	STRING("tma-version", 0, tma_version),
	STRING("explain", 0, explain),
	STRING("retire-latency", 0, retire_latency),
	NUMBER("level", 'l', level, 1, OPTIONS_MAX_LEVEL, NULL),
	FLAG("info", 0, info),
	FLAG("list-models", 0, list_models),
	FLAG("list-metrics", 0, list_metrics),
	FLAG("list-events", 0, list_events),
	STRING("replay", 0, replay),
	STRING("group-by", 0, group_by),
	CUSTOM("interval", 'i', opt_interval),
	NUMBER("count", 'n', count, 1, 1L << 40, "a positive number"),
	CUSTOM("duration", 'D', opt_duration),
	CHOICE("format", 'f', format, format_choices),
	STRING("output", 'o', output),
	CHOICE("color", 0, color_mode, color_choices),
	STRING("host", 0, host),
	STRING("cgroup-root", 0, cgroup_root),
	STRING("btf", 0, btf),
	NUMBER("max-cgroups", 0, max_cgroups, 16, 1L << 24, NULL),
	NUMBER("max-tasks", 0, max_tasks, 16, 1L << 24, NULL),
	CUSTOM("listen", 0, opt_listen),
	FLAG("prom-counts", 0, prom_counts),
	FLAG("prometheus-rules", 0, prometheus_rules),
	STRING("rules-window", 0, rules_window),
	COUNT("verbose", 'v', verbose),
	EXIT("version", 'V', print_version),
	EXIT("help", 'h', options_usage),
};
#define NSPECS (sizeof(specs) / sizeof(specs[0]))
/* getopt_long's value for specs[i] given by its long name. */
#define LONG_VAL 256

static bool takes_value(const struct opt_spec *sp)
{
	return sp->type != OT_FLAG && sp->type != OT_COUNT && sp->type != OT_EXIT;
}

/* "--format 'xml': expected table, json, top or none", from the choices. */
static int bad_choice(FILE *err, const struct opt_spec *sp, const char *arg)
{
	char what[256];
	int n = snprintf(what, sizeof(what), "--%s '%%s': expected ", sp->name);

	for (int i = 0; sp->choices[i].name && n < (int)sizeof(what); i++)
		n += snprintf(what + n, sizeof(what) - n, "%s%s",
			      !i		      ? "" :
			      sp->choices[i + 1].name ? ", " :
							" or ",
			      sp->choices[i].name);
	return bad(err, what, arg);
}

/* Applies one option: 0, 1 (exit 0) or 2 (after a message). */
static int apply(struct options *o, const struct opt_spec *sp, const char *arg, FILE *out,
		 FILE *err)
{
	void *field = (char *)o + sp->field;
	char what[256];
	long v;

	switch (sp->type) {
	case OT_FLAG:
		*(bool *)field = true;
		return 0;
	case OT_COUNT:
		++*(int *)field;
		return 0;
	case OT_STRING:
		*(const char **)field = arg;
		return 0;
	case OT_INT:
	case OT_LONG:
	case OT_U32:
		if (parse_long(arg, sp->min, sp->max, &v)) {
			if (sp->expected)
				snprintf(what, sizeof(what), "--%s '%%s': expected %s", sp->name,
					 sp->expected);
			else
				snprintf(what, sizeof(what),
					 "--%s '%%s': expected a number from %ld to %ld", sp->name,
					 sp->min, sp->max);
			return bad(err, what, arg);
		}
		/* In range: FITS() made sure at compile time that max fits the field. */
		if (sp->type == OT_LONG)
			*(long *)field = v;
		else if (sp->type == OT_U32)
			*(uint32_t *)field = (uint32_t)v;
		else
			*(int *)field = (int)v;
		return 0;
	case OT_CHOICE:
		for (const struct opt_choice *c = sp->choices; c->name; c++) {
			if (!strcmp(arg, c->name)) {
				/* An enum's unsigned int is written as its int (C11 6.5p7). */
				*(int *)field = c->value;
				return 0;
			}
		}
		return bad_choice(err, sp, arg);
	case OT_CUSTOM:
		return sp->parse(o, arg, err);
	case OT_EXIT:
		sp->print(out);
		return 1;
	}
	return 2;
}

/* --group-by's list, checked before any input is read: 0, or 2 after a message. */
static int group_by_check(const char *list, FILE *err)
{
	struct group_keys k;
	char why[512];

	if (group_keys_parse(&k, list, why, sizeof(why)) == -EINVAL)
		return bad(err, "%s", why);
	group_keys_free(&k);
	return 0;
}

/* Rules between options, once all are read: 0, or 2 after a message. */
static int check_combinations(struct options *o, FILE *err)
{
	if (o->pmu == PMU_SOFTWARE) { /* the built-in model of software events */
		if (o->model || o->model_file)
			return bad(err, "%s",
				   "--pmu software is --model software: give one of "
				   "--pmu software, --model and --model-file");
		o->model = "software";
	}
	if (o->model && o->model_file)
		return bad(err, "%s", "--model and --model-file: give one of them");
	if (o->tma_version && o->model_file)
		return bad(err, "%s",
			   "--tma-version picks a version of a built-in model: a --model-file "
			   "is one version already");
	if (o->explain && (o->list_metrics || o->list_events || o->list_models || o->replay))
		return bad(err, "%s",
			   "--explain NODE answers alone: not with --replay or --list-*");
	if (o->explain && o->format != FORMAT_AUTO && o->format != FORMAT_TABLE)
		return bad(err, "%s",
			   "--explain NODE prints text: --list-metrics --model ID --format json "
			   "gives every node's words as JSON");
	if (o->list_metrics && !o->model && !o->model_file)
		return bad(err, "%s", "--list-metrics needs --model ID or --model-file PATH");
	if (o->k8s && o->ncgroups)
		return bad(err, "%s", "--k8s and --cgroup: give one of them");
	if (o->format == FORMAT_NONE && !o->listen)
		return bad(err, "%s", "--format none prints nothing: it needs --listen ADDR:PORT");
	if (o->listen &&
	    (o->replay || o->list_metrics || o->list_events || o->list_models || o->explain))
		return bad(err, "%s",
			   "--listen serves live measurements: not with --replay or "
			   "--list-*");
	if (o->prom_counts && !o->listen)
		return bad(err, "%s",
			   "--prom-counts adds series to /metrics: it needs --listen ADDR:PORT");
	if (o->rules_window && !o->prometheus_rules)
		return bad(err, "%s", "--rules-window is the range of --prometheus-rules' sums");
	if (o->prometheus_rules &&
	    (o->replay || o->listen || o->list_metrics || o->list_events || o->list_models ||
	     o->explain || o->model_file || o->ncgroups || o->k8s || o->format != FORMAT_AUTO))
		return bad(err, "%s",
			   "--prometheus-rules prints the rules alone: only --model, --level, "
			   "--tma-version and --rules-window go with it");
	if (options_check_replay(o, err))
		return 2;
	if (o->group_by && !o->replay)
		return bad(err, "%s",
			   "--group-by sums recorded lines: it needs --replay FILE (a live run "
			   "sums cgroups with --cgroup)");
	if (o->group_by && group_by_check(o->group_by, err))
		return 2;
	if (o->group_by && (o->format == FORMAT_TOP || o->format == FORMAT_HTML))
		return bad(err, "%s",
			   "--group-by writes a line per group: --format json or table, not top "
			   "or html");
	if (o->output && o->format != FORMAT_HTML)
		return bad(err, "%s", "-o FILE writes --format html's report: add --format html");
	if (o->format == FORMAT_HTML && (o->list_metrics || o->list_events || o->list_models))
		return bad(err, "%s", "--format html reports measurements: not with --list-*");
	if (o->depth && !o->ncgroups)
		return bad(err, "%s", "--depth needs --cgroup");
	return 0;
}

int options_parse(struct options *o, int argc, char **argv, FILE *out, FILE *err)
{
	struct option long_options[NSPECS + 1];
	char short_options[2 + 2 * NSPECS] = ":";
	size_t ns = 1;
	int c, rc;

	memset(o, 0, sizeof(*o));
	o->interval_ns = 1000000000ULL;
	o->level = 3;
	o->max_cgroups = 16384;
	o->max_tasks = 16384;
	o->color_mode = -1;
	o->k8s_log_containers = "/var/log/containers";
	o->k8s_log_pods = "/var/log/pods";
	for (size_t i = 0; i < NSPECS; i++) {
		bool arg = takes_value(&specs[i]);

		long_options[i] =
			(struct option){ specs[i].name, arg ? required_argument : no_argument, NULL,
					 LONG_VAL + (int)i };
		if (specs[i].short_name) {
			short_options[ns++] = specs[i].short_name;
			if (arg)
				short_options[ns++] = ':';
		}
	}
	long_options[NSPECS] = (struct option){ 0 };
	short_options[ns] = '\0';
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, short_options, long_options, NULL)) != -1) {
		const struct opt_spec *sp = NULL;

		if (c >= LONG_VAL && c < LONG_VAL + (int)NSPECS)
			sp = &specs[c - LONG_VAL];
		for (size_t i = 0; !sp && c != ':' && c != '?' && i < NSPECS; i++)
			if (specs[i].short_name == c)
				sp = &specs[i];
		if (c == ':')
			return bad(err, "option '%s' needs a value", argv[optind - 1]);
		if (!sp)
			return bad(err, "unknown option '%s'", argv[optind - 1]);
		if (!o->live_given && options_live_only(sp->name))
			o->live_given = sp->name;
		rc = apply(o, sp, optarg, out, err);
		if (rc)
			return rc;
	}
	/* --replay FILE...: the other files are the arguments left (getopt puts them last) */
	if (optind < argc && !o->replay)
		return bad(err, "unexpected argument '%s'", argv[optind]);
	o->replay_more = (const char *const *)argv + optind;
	o->nreplay_more = argc - optind;
	return check_combinations(o, err);
}
