// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "options.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model_list.h"
#include "prom/prom_listen.h"
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
	      "      --retire-latency FILE  measured retire latencies (Intel's JSON format, the\n"
	      "                         format toplev reads) instead of Intel's defaults (TMA 5.1)\n"
	      "  -l, --level N          tree depth to report, 1-6 (default 3)\n"
	      "      --info             also report Info metrics (IPC, CPI, ...)\n"
	      "      --list-models      the built-in models\n"
	      "      --list-metrics     the nodes of --model and the events they read\n"
	      "      --list-events      the perf groups tmacg would open for --model/--level\n"
	      "      --replay FILE      evaluate recorded counts (JSON lines; - for stdin)\n"
	      "\n"
	      "When and how:\n"
	      "  -i, --interval DUR     with its unit (ns, us, ms, s, m, h): 500ms, 2s (default 1s)\n"
	      "  -n, --count N          stop after N intervals\n"
	      "  -D, --duration DUR     stop after DUR\n"
	      "  -f, --format table|json|top|none  (default: table on a terminal, top once\n"
	      "                         more than 8 cgroups show; JSON lines otherwise)\n"
	      "                         top: the live view, a row per cgroup redrawn every\n"
	      "                         interval; none: nothing on stdout, with --listen\n"
	      "      --listen ADDR:PORT serve Prometheus metrics at http://ADDR:PORT/metrics\n"
	      "                         (127.0.0.1:9464, [::1]:9464, :9464 for every address)\n"
	      "      --color auto|always|never\n"
	      "      --host NAME        host name in the output (default: this host's)\n"
	      "      --cgroup-root DIR  the cgroup2 mount to use (default: found in mountinfo)\n"
	      "      --max-cgroups N    cgroups tracked in BPF for the whole node (default 16384);\n"
	      "                         beyond, counts are dropped (quality.map_full)\n"
	      "      --max-tasks N      task accumulator entries with --per-task (default 16384)\n"
	      "  -v, --verbose          more diagnostics, libbpf's warnings (twice: its debug log)\n"
	      "  -V, --version\n"
	      "  -h, --help\n"
	      "\n"
	      "Needs root, or CAP_BPF and CAP_PERFMON, and a kernel with BTF.\n"
	      "TMACG_MODEL_DIR=DIR adds the CPU descriptions (.cpu) and models (.tma) in DIR.\n",
	      f);
}

enum {
	OPT_K8S = 256,
	OPT_K8S_LEVEL,
	OPT_K8S_LOGS_CONTAINERS,
	OPT_K8S_LOGS_PODS,
	OPT_PER_TASK,
	OPT_TOP,
	OPT_PMU,
	OPT_MODEL_FILE,
	OPT_RETIRE_LATENCY,
	OPT_INFO,
	OPT_LIST_MODELS,
	OPT_LIST_METRICS,
	OPT_LIST_EVENTS,
	OPT_REPLAY,
	OPT_COLOR,
	OPT_HOST,
	OPT_CGROUP_ROOT,
	OPT_MAX_CGROUPS,
	OPT_MAX_TASKS,
	OPT_LISTEN,
};

static const struct option long_options[] = {
	{ "cgroup", required_argument, NULL, 'c' },
	{ "depth", required_argument, NULL, 'd' },
	{ "k8s", no_argument, NULL, OPT_K8S },
	{ "k8s-level", required_argument, NULL, OPT_K8S_LEVEL },
	{ "k8s-logs-containers", required_argument, NULL, OPT_K8S_LOGS_CONTAINERS },
	{ "k8s-logs-pods", required_argument, NULL, OPT_K8S_LOGS_PODS },
	{ "per-task", no_argument, NULL, OPT_PER_TASK },
	{ "top", required_argument, NULL, OPT_TOP },
	{ "pmu", required_argument, NULL, OPT_PMU },
	{ "model", required_argument, NULL, 'm' },
	{ "model-file", required_argument, NULL, OPT_MODEL_FILE },
	{ "retire-latency", required_argument, NULL, OPT_RETIRE_LATENCY },
	{ "level", required_argument, NULL, 'l' },
	{ "info", no_argument, NULL, OPT_INFO },
	{ "list-models", no_argument, NULL, OPT_LIST_MODELS },
	{ "list-metrics", no_argument, NULL, OPT_LIST_METRICS },
	{ "list-events", no_argument, NULL, OPT_LIST_EVENTS },
	{ "replay", required_argument, NULL, OPT_REPLAY },
	{ "interval", required_argument, NULL, 'i' },
	{ "count", required_argument, NULL, 'n' },
	{ "duration", required_argument, NULL, 'D' },
	{ "format", required_argument, NULL, 'f' },
	{ "color", required_argument, NULL, OPT_COLOR },
	{ "host", required_argument, NULL, OPT_HOST },
	{ "cgroup-root", required_argument, NULL, OPT_CGROUP_ROOT },
	{ "max-cgroups", required_argument, NULL, OPT_MAX_CGROUPS },
	{ "max-tasks", required_argument, NULL, OPT_MAX_TASKS },
	{ "listen", required_argument, NULL, OPT_LISTEN },
	{ "verbose", no_argument, NULL, 'v' },
	{ "version", no_argument, NULL, 'V' },
	{ "help", no_argument, NULL, 'h' },
	{ 0 },
};

static int bad(FILE *err, const char *fmt, const char *arg)
{
	fputs("tmacg: ", err);
	fprintf(err, fmt, arg);
	fputs("\nTry 'tmacg --help' for more information.\n", err);
	return 2;
}

/* optarg as a duration for option name: 0, or 2 after saying what is wrong (e.g.: examples). */
static int duration_arg(FILE *err, const char *name, const char *examples, uint64_t *ns)
{
	char what[256];
	int rc = parse_duration(optarg, ns);

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
	return bad(err, what, optarg);
}

int options_parse(struct options *o, int argc, char **argv, FILE *out, FILE *err)
{
	long v;
	int c;

	memset(o, 0, sizeof(*o));
	o->interval_ns = 1000000000ULL;
	o->level = 3;
	o->max_cgroups = 16384;
	o->max_tasks = 16384;
	o->color_mode = -1;
	o->k8s_log_containers = "/var/log/containers";
	o->k8s_log_pods = "/var/log/pods";
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":c:d:m:l:i:n:D:f:vVh", long_options, NULL)) != -1) {
		switch (c) {
		case 'c':
			if (o->ncgroups == OPTIONS_MAX_CGROUPS)
				return bad(err, "too many --cgroup options (at most %s)", "64");
			o->cgroups[o->ncgroups++] = optarg;
			break;
		case 'd':
			if (parse_long(optarg, 0, 64, &v))
				return bad(err, "--depth '%s': expected a number from 0 to 64",
					   optarg);
			o->depth = (int)v;
			break;
		case OPT_K8S:
			o->k8s = true;
			break;
		case OPT_K8S_LEVEL:
			if (!strcmp(optarg, "pod"))
				o->k8s_level = K8S_LEVEL_POD;
			else if (!strcmp(optarg, "container"))
				o->k8s_level = K8S_LEVEL_CONTAINER;
			else
				return bad(err, "--k8s-level '%s': expected pod or container",
					   optarg);
			o->k8s = true;
			break;
		case OPT_K8S_LOGS_CONTAINERS:
			o->k8s_log_containers = optarg;
			break;
		case OPT_K8S_LOGS_PODS:
			o->k8s_log_pods = optarg;
			break;
		case OPT_PER_TASK:
			o->per_task = true;
			break;
		case OPT_TOP:
			if (parse_long(optarg, 1, 1000000, &v))
				return bad(err, "--top '%s': expected a positive number", optarg);
			o->top = (int)v;
			break;
		case OPT_PMU:
			if (!strcmp(optarg, "software"))
				o->pmu = PMU_SOFTWARE;
			else if (!strcmp(optarg, "hardware"))
				o->pmu = PMU_HARDWARE;
			else
				return bad(err, "--pmu '%s': expected hardware or software",
					   optarg);
			break;
		case 'm':
			o->model = optarg;
			break;
		case OPT_MODEL_FILE:
			o->model_file = optarg;
			break;
		case OPT_RETIRE_LATENCY:
			o->retire_latency = optarg;
			break;
		case 'l':
			if (parse_long(optarg, 1, OPTIONS_MAX_LEVEL, &v))
				return bad(err, "--level '%s': expected a number from 1 to 6",
					   optarg);
			o->level = (int)v;
			break;
		case OPT_INFO:
			o->info = true;
			break;
		case OPT_LIST_MODELS:
			o->list_models = true;
			break;
		case OPT_LIST_METRICS:
			o->list_metrics = true;
			break;
		case OPT_LIST_EVENTS:
			o->list_events = true;
			break;
		case OPT_REPLAY:
			o->replay = optarg;
			break;
		case 'i':
			if (duration_arg(err, "--interval", "500ms or 2s", &o->interval_ns))
				return 2;
			if (o->interval_ns < OPTIONS_MIN_INTERVAL_NS)
				return bad(err, "--interval '%s': the shortest interval is 10ms",
					   optarg);
			break;
		case 'n':
			if (parse_long(optarg, 1, 1L << 40, &v))
				return bad(err, "--count '%s': expected a positive number", optarg);
			o->count = v;
			break;
		case 'D':
			if (duration_arg(err, "--duration", "10s or 5m", &o->duration_ns))
				return 2;
			if (!o->duration_ns)
				return bad(err,
					   "--duration '%s': expected a duration like 10s or 5m",
					   optarg);
			break;
		case 'f':
			if (!strcmp(optarg, "table"))
				o->format = FORMAT_TABLE;
			else if (!strcmp(optarg, "json"))
				o->format = FORMAT_JSON;
			else if (!strcmp(optarg, "top"))
				o->format = FORMAT_TOP;
			else if (!strcmp(optarg, "none"))
				o->format = FORMAT_NONE;
			else
				return bad(err, "--format '%s': expected table, json, top or none",
					   optarg);
			break;
		case OPT_COLOR:
			if (!strcmp(optarg, "auto"))
				o->color_mode = -1;
			else if (!strcmp(optarg, "always"))
				o->color_mode = 1;
			else if (!strcmp(optarg, "never"))
				o->color_mode = 0;
			else
				return bad(err, "--color '%s': expected auto, always or never",
					   optarg);
			break;
		case OPT_HOST:
			o->host = optarg;
			break;
		case OPT_CGROUP_ROOT:
			o->cgroup_root = optarg;
			break;
		case OPT_MAX_CGROUPS:
			if (parse_long(optarg, 16, 1L << 24, &v))
				return bad(err, "--max-cgroups '%s': expected 16 to 16777216",
					   optarg);
			o->max_cgroups = (uint32_t)v;
			break;
		case OPT_MAX_TASKS:
			if (parse_long(optarg, 16, 1L << 24, &v))
				return bad(err, "--max-tasks '%s': expected 16 to 16777216",
					   optarg);
			o->max_tasks = (uint32_t)v;
			break;
		case OPT_LISTEN: {
			struct prom_listen_addr addr;
			char why[256];

			if (prom_listen_parse(optarg, &addr, why, sizeof(why)))
				return bad(err, "%s", why);
			o->listen = optarg;
			break;
		}
		case 'v':
			o->verbose++;
			break;
		case 'V':
			fprintf(out, "tmacg %s\n", TMACG_VERSION);
			return 1;
		case 'h':
			options_usage(out);
			return 1;
		case ':':
			return bad(err, "option '%s' needs a value", argv[optind - 1]);
		default:
			return bad(err, "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc)
		return bad(err, "unexpected argument '%s'", argv[optind]);
	if (o->pmu == PMU_SOFTWARE) { /* the built-in model of software events */
		if (o->model || o->model_file)
			return bad(err, "%s",
				   "--pmu software is --model software: give one of "
				   "--pmu software, --model and --model-file");
		o->model = "software";
	}
	if (o->model && o->model_file)
		return bad(err, "%s", "--model and --model-file: give one of them");
	if (o->list_metrics && !o->model && !o->model_file)
		return bad(err, "%s", "--list-metrics needs --model ID or --model-file PATH");
	if (o->k8s && o->ncgroups)
		return bad(err, "%s", "--k8s and --cgroup: give one of them");
	if (o->format == FORMAT_NONE && !o->listen)
		return bad(err, "%s", "--format none prints nothing: it needs --listen ADDR:PORT");
	if (o->listen && (o->replay || o->list_metrics || o->list_events || o->list_models))
		return bad(err, "%s",
			   "--listen serves live measurements: not with --replay or "
			   "--list-*");
	if (o->depth && !o->ncgroups)
		return bad(err, "%s", "--depth needs --cgroup");
	return 0;
}
