// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * --prometheus-rules: with --model, that model (at --tma-version) to
 * --level, which it must have; without, every built-in model at each of its
 * TMA versions, each to --level or its depth when it has fewer levels, so
 * that one file serves a fleet of mixed CPUs.  Retire latencies are the CPU
 * descriptions' defaults (docs/prometheus.md "Recording rules").
 */
#include "rules_cmd.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "model/retire_latency.h"
#include "model_list.h"
#include "pmu/cpu_desc.h"
#include "prom/rules_gen.h"

#define RULES_WINDOW_DEFAULT_NS (300ULL * 1000000000ULL)

/* The models and their latency tables, owned here. */
struct loaded {
	struct rules_model *rm;
	int n, cap;
};

static void loaded_free(struct loaded *l)
{
	for (int i = 0; i < l->n; i++) {
		model_free((struct tma_model *)l->rm[i].m);
		free((double *)l->rm[i].latency);
	}
	free(l->rm);
}

/* Adds model id at version (NULL: default); 0, or 2 after a message. */
static int add(struct loaded *l, const char *id, const char *version, int level, bool exact,
	       FILE *err)
{
	char why[512];
	struct tma_model *m = model_load_version(id, version, why, sizeof(why));
	int depth, nl;
	double *lat;

	if (!m) {
		fprintf(err, "tmacg: --prometheus-rules: %s\n", why);
		return 2;
	}
	depth = rules_model_depth(m);
	if (exact && level > depth) {
		fprintf(err,
			"tmacg: --prometheus-rules: model %s (TMA %s) has levels 1 to %d, not %d: "
			"give --level %d or less\n",
			id, model_tma_version(m), depth, level, depth);
		model_free(m);
		return 2;
	}
	nl = model_latency_count(m);
	lat = nl ? calloc(nl, sizeof(double)) : NULL;
	if (l->n == l->cap) {
		int cap = l->cap ? 2 * l->cap : 16;
		struct rules_model *rm = realloc(l->rm, cap * sizeof(*l->rm));

		if (rm) {
			l->rm = rm;
			l->cap = cap;
		}
	}
	if ((nl && !lat) || l->n == l->cap) {
		model_free(m);
		free(lat);
		fputs("tmacg: --prometheus-rules: out of memory\n", err);
		return 1;
	}
	for (int i = 0; i < nl; i++)
		lat[i] = NAN;
	if (nl)
		rl_fill(m, NULL, cpu_desc_latency_defaults(model_id(m)), lat);
	l->rm[l->n++] = (struct rules_model){ .m = m,
					      .level = level < depth ? level : depth,
					      .latency = lat };
	return 0;
}

static int add_all(struct loaded *l, int level, FILE *err)
{
	char **ids = NULL;
	int n = model_list_ids(&ids), rc = n < 0 ? 1 : 0;

	for (int i = 0; i < n; i++) {
		char versions[16][MODEL_VERSION_MAX];
		int nv = rc ? 0 : model_versions(ids[i], versions, 16);

		for (int v = 0; v < nv && !rc; v++)
			rc = add(l, ids[i], versions[v], level, false, err);
		free(ids[i]);
	}
	free(ids);
	return rc;
}

int rules_cmd_run(const struct options *o, FILE *out, FILE *err)
{
	uint64_t window = RULES_WINDOW_DEFAULT_NS;
	struct loaded l = { 0 };
	char command[512];
	int rc;

	if (o->rules_window && (parse_duration(o->rules_window, &window) ||
				window < 1000000000ULL || window % 1000000ULL)) {
		fprintf(err,
			"tmacg: --rules-window '%s': expected a duration of at least 1s in whole "
			"milliseconds, like 5m, 90s or 1h\n",
			o->rules_window);
		return 2;
	}
	if (o->tma_version && !o->model) {
		fputs("tmacg: --prometheus-rules: --tma-version needs --model (without --model, "
		      "every version of every model)\n",
		      err);
		return 2;
	}
	rc = o->model ? add(&l, o->model, o->tma_version, o->level, true, err) :
			add_all(&l, o->level, err);
	snprintf(command, sizeof(command), "tmacg --prometheus-rules%s%s%s%s --level %d%s%s",
		 o->model ? " --model " : "", o->model ? o->model : "",
		 o->tma_version ? " --tma-version " : "", o->tma_version ? o->tma_version : "",
		 o->level, o->rules_window ? " --rules-window " : "",
		 o->rules_window ? o->rules_window : "");
	if (!rc) {
		int wr = rules_write(out, l.rm, l.n, window, command);

		if (wr == -ENOMEM)
			fputs("tmacg: --prometheus-rules: out of memory while making the rules: what "
			      "was written is incomplete; do not load it\n",
			      err);
		else if (wr)
			fputs("tmacg: --prometheus-rules: could not write the rules\n", err);
		rc = wr ? 1 : 0;
	}
	loaded_free(&l);
	return rc;
}
