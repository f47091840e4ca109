// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Listings of the built-in models and of one model's metrics, for users and
 * scripts: a command-line concern, so it sits with main and options, above
 * both model/ and pmu/ (it reads the CPU descriptions too).
 */
#include "model_list.h"

#include <ctype.h>
#include <dirent.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "util/json_writer.h"
#include "util/name_escape.h"
#include "model/embedded.h"
#include "pmu/cpu_desc.h"
#include "pmu/plan_model.h"

static int is_tma_file(const struct dirent *e)
{
	size_t n = strlen(e->d_name);

	/* ID@VERSION.tma is another version of model ID, not a model of its own */
	return e->d_name[0] != '.' && n > 4 && !strcmp(e->d_name + n - 4, ".tma") &&
	       !strchr(e->d_name, '@');
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int model_list_ids(char ***ids)
{
	const char *dir = cpu_desc_dir();
	struct dirent **list = NULL;
	int n = 0, nd = dir ? scandir(dir, &list, is_tma_file, alphasort) : 0, cap;
	char **out;

	cap = (nd > 0 ? nd : 0) + 1;
	for (const struct embedded_file *b = model_builtins; b->id; b++)
		cap++;
	out = calloc((size_t)cap, sizeof(*out));
	for (const struct embedded_file *b = model_builtins; out && b->id; b++)
		if (!strchr(b->id, '@'))
			out[n++] = strdup(b->id);
	for (int i = 0; i < nd; i++) {
		if (out)
			out[n++] = strndup(list[i]->d_name, strlen(list[i]->d_name) - 4);
		free(list[i]);
	}
	free(list);
	for (int i = 0; out && i < n; i++) {
		if (out[i])
			continue;
		for (int k = 0; k < n; k++) /* out of memory: nothing half-listed */
			free(out[k]);
		free(out);
		out = NULL;
	}
	if (!out)
		return -1;
	qsort(out, (size_t)n, sizeof(*out), cmp_str);
	for (int i = 1; i < n; i++) { /* a directory's model replaces the built-in one */
		if (strcmp(out[i], out[i - 1]))
			continue;
		free(out[i]);
		memmove(out + i, out + i + 1, sizeof(*out) * (size_t)(n - i - 1));
		n--;
		i--;
	}
	*ids = out;
	return n;
}

/* "spr: Intel Xeon ... (Sapphire Rapids); emr: ... (Emerald Rapids)": the model's own CPU first. */
static void print_cpus(FILE *f, const char *model)
{
	int shown = 0;

	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < cpu_desc_count(); i++) {
			const struct cpu_desc *d = cpu_desc_at(i);

			if (strcmp(d->model, model) || !strcmp(d->id, model) != (pass == 0))
				continue;
			fprintf(f, "%s%s: ", shown++ ? "; " : "", d->id);
			name_term_put(f, d->title);
		}
	if (!shown)
		fprintf(f, "no CPU description runs it (--model on a compatible CPU)");
}

/* " (also 4.5)": the versions --tma-version selects besides the default. */
static void print_other_versions(FILE *f, const char *id)
{
	char versions[16][MODEL_VERSION_MAX];
	int n = model_versions(id, versions, 16);

	for (int i = 1; i < n; i++)
		fprintf(f, "%s%s%s", i == 1 ? " (also " : ", ", versions[i], i + 1 == n ? ")" : "");
}

int model_list_print(FILE *f, FILE *errf)
{
	char err[1024], **ids = NULL;
	int n, ret = cpu_desc_init(err, sizeof(err));

	if (ret) {
		fprintf(errf, "tmacg: %s\n", err);
		return 1;
	}
	n = model_list_ids(&ids);
	if (n < 0) {
		fprintf(errf, "tmacg: out of memory\n");
		return 1;
	}
	for (int k = 0; k < n; k++) {
		struct tma_model *m = model_load_builtin(ids[k], err, sizeof(err));
		bool generic;

		if (!m) { /* a broken model is a bug: show it rather than hide the model */
			fprintf(f, "%s\t(does not load: %s)\n", ids[k], err);
			ret = 1;
			continue;
		}
		/*
		 * Intel's TMA versions are numbers ("TMA 5.01"); AMD's and Arm's formulas
		 * are versioned by their source's commit (perf-037dd130, ts-6687b72), which
		 * is no TMA version.  A model of software events only has none: any CPU
		 * runs it.
		 */
		const char *v = model_tma_version(m);

		fprintf(f, "%s\t", model_id(m));
		name_term_put(f, model_title(m));
		fprintf(f, "\t%s%s",
			!v			     ? "-" :
			isdigit((unsigned char)v[0]) ? "TMA " :
						       "",
			v ? v : "");
		print_other_versions(f, model_id(m));
		fprintf(f, "\t");
		if (model_needs_no_description(m, &generic))
			fprintf(f, "%s",
				generic ? "any CPU with a PMU (automatic where no model fits)" :
					  "any CPU");
		else
			print_cpus(f, model_id(m));
		fprintf(f, "\n");
		model_free(m);
	}
	/* A description naming a model nobody ships cannot run: say so. */
	for (int i = 0; i < cpu_desc_count(); i++) {
		const struct cpu_desc *d = cpu_desc_at(i);
		bool known = false;

		for (int k = 0; k < n; k++)
			known |= !strcmp(ids[k], d->model);
		if (!known) {
			fprintf(f, "%s\t(CPU %s runs model %s, which does not exist)\n", d->model,
				d->id, d->model);
			ret = 1;
		}
	}
	for (int k = 0; k < n; k++)
		free(ids[k]);
	free(ids);
	return ret;
}

static void print_metric(FILE *f, const struct tma_model *m, int i, bool *needed)
{
	const struct model_node_info *n = model_node(m, i);
	int shown = 0;

	fprintf(f, "%s\t%d\t%s\t", n->name, n->level,
		n->parent >= 0 ? model_node(m, n->parent)->name : "-");
	model_node_events(m, i, needed);
	for (int e = 0; e < model_event_count(m); e++)
		if (needed[e])
			fprintf(f, "%s%s", shown++ ? "," : "", model_event_name(m, e));
	fprintf(f, "%s\n", shown ? "" : "-");
}

static void metric_json(FILE *f, const struct tma_model *m, int i, bool *needed)
{
	const struct model_node_info *n = model_node(m, i);
	struct model_node_text t;
	struct json_writer w;
	const char *text;
	size_t len;

	model_node_description(m, i, &t);
	const struct {
		const char *key, *value; /* the value NULL: null */
	} texts[] = {
		{ "domain", n->domain },      { "description", t.one_line },
		{ "brief", t.brief },	      { "long", t.long_text },
		{ "issues", t.issues },	      { "formula", t.formula },
		{ "threshold", t.threshold },
	};

	json_writer_init(&w);
	jw_begin_object(&w);
	JW_KEY(&w, "model");
	jw_string(&w, model_id(m));
	JW_KEY(&w, "tma_version");
	jw_string(&w, model_tma_version(m));
	JW_KEY(&w, "name");
	jw_string(&w, n->name);
	JW_KEY(&w, "kind");
	jw_string(&w, n->is_count ? "count" : n->is_info ? "info" : "node");
	JW_KEY(&w, "number");
	jw_string(&w, n->number);
	JW_KEY(&w, "level");
	jw_int(&w, n->level);
	JW_KEY(&w, "parent");
	jw_string(&w, n->parent >= 0 ? model_node(m, n->parent)->name : NULL);
	for (size_t k = 0; k < sizeof(texts) / sizeof(texts[0]); k++) {
		jw_key(&w, texts[k].key);
		jw_string(&w, texts[k].value);
	}
	JW_KEY(&w, "events");
	jw_begin_array(&w);
	model_node_events(m, i, needed);
	for (int e = 0; e < model_event_count(m); e++)
		if (needed[e])
			jw_string(&w, model_event_name(m, e));
	jw_end_array(&w);
	jw_end_object(&w);
	text = json_writer_text(&w, &len);
	if (json_writer_failed(&w))
		fprintf(stderr, "tmacg: out of memory\n");
	else
		fprintf(f, "%.*s\n", (int)len, text);
	json_writer_release(&w);
}

/* Each node, tree nodes then Info metrics and counts, a line of text or of JSON each. */
void model_metrics_print(FILE *f, const struct tma_model *m, bool json)
{
	bool *needed = calloc(model_event_count(m) + 1, sizeof(*needed));
	int n = model_node_count(m);

	if (!needed) {
		fprintf(stderr, "tmacg: out of memory\n");
		return;
	}
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < n; i++)
			if ((model_node(m, i)->level == 0) == (pass == 1))
				(json ? metric_json : print_metric)(f, m, i, needed);
	free(needed);
}
