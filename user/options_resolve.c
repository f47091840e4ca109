// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The output settings that depend on where tmacg runs, decided once for every
 * mode (live, replay) so that they cannot differ between them; and what a
 * module's own configuration (struct measure_config) takes of the options.
 */
#include "options.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "measure.h"

/* no-color.org: set and not empty turns colour off, unless asked for by --color always. */
static bool no_color_env(void)
{
	const char *v = getenv("NO_COLOR");

	return v && v[0];
}

static const char *host_name(struct options *o)
{
	const char *env = getenv("TMACG_HOST");

	if (o->host)
		return o->host;
	/* The DaemonSet sets it to spec.nodeName: in a container gethostname() is the pod's. */
	if (env && env[0])
		return env;
	if (gethostname(o->host_buf, sizeof(o->host_buf) - 1) || !o->host_buf[0])
		return "unknown";
	return o->host_buf;
}

void options_resolve(struct options *o, bool stdout_tty)
{
	/* A terminal's table turns into the live view once many cgroups show (report.c). */
	o->top_auto = o->format == FORMAT_AUTO && stdout_tty;
	o->format_given = o->format != FORMAT_AUTO;
	if (o->format == FORMAT_AUTO)
		o->format = stdout_tty ? FORMAT_TABLE : FORMAT_JSON;
	o->color = o->color_mode == 1 || (o->color_mode == -1 && stdout_tty && !no_color_env());
	o->host = host_name(o);
}

void options_measure_config(const struct options *o, struct measure_config *mc)
{
	*mc = (struct measure_config){
		.model = o->model,
		.model_file = o->model_file,
		.tma_version = o->tma_version,
		.retire_latency = o->retire_latency,
		.level = o->level,
		.info = o->info,
		.verbose = o->verbose,
	};
}

/*
 * What a live run reads and a replay has no use for: where and what to
 * measure, for how long, the BPF maps' sizes.  A replay prints what was
 * recorded, so each is refused there rather than silently ignored.
 * --interval is not among them: --group-by sums lines over each DUR
 * (options_check_replay).
 */
static const char *const live_only[] = {
	"cgroup",	 "depth",	"k8s", "k8s-level",   "k8s-logs-containers",
	"k8s-logs-pods", "per-task",	"top", "count",	      "duration",
	"host",		 "cgroup-root", "btf", "max-cgroups", "max-tasks",
};

bool options_live_only(const char *name)
{
	for (size_t i = 0; i < sizeof(live_only) / sizeof(live_only[0]); i++)
		if (!strcmp(name, live_only[i]))
			return true;
	return false;
}

int options_check_replay(const struct options *o, FILE *err)
{
	const char *live = o->live_given;

	if (!o->replay)
		return 0;
	/* a replay has no interval of its own: --group-by sums the lines over each DUR */
	if (!live && o->interval_given && !o->group_by) {
		fprintf(err,
			"tmacg: --interval with --replay sums the lines over each DUR of their "
			"time, which --group-by KEY does: add --group-by, or drop --interval (a "
			"replay prints what was recorded)\nTry 'tmacg --help' for more "
			"information.\n");
		return 2;
	}
	if (!live)
		return 0;
	fprintf(err,
		"tmacg: --%s is for a live run, not --replay: a replay prints what was recorded "
		"(drop --%s)\nTry 'tmacg --help' for more information.\n",
		live, live);
	return 2;
}
