// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Listings of the built-in models and of one model's metrics, for users and scripts. */
#include "model/model_list.h"

#include <stdbool.h>
#include <stdlib.h>

#include "model/model.h"
#include "model/model_builtin.h"

void model_list_print(FILE *f)
{
	for (const struct model_builtin *b = model_builtins; b->id; b++) {
		char err[512];
		struct tma_model *m = model_load_builtin(b->id, err, sizeof(err));

		if (!m) { /* a broken built-in is a bug: show it rather than hide the model */
			fprintf(f, "%s\t(does not load: %s)\n", b->id, err);
			continue;
		}
		/* A model without TMA version or CPUs: the software events, any CPU. */
		fprintf(f, "%s\t%s\t%s%s\t", model_id(m), model_title(m),
			model_tma_version(m) ? "TMA " : "-",
			model_tma_version(m) ? model_tma_version(m) : "");
		for (int i = 0; i < model_cpu_count(m); i++)
			fprintf(f, "%s%s", i ? ", " : "", model_cpu(m, i));
		fprintf(f, "%s\n", model_cpu_count(m) ? "" : "any CPU");
		model_free(m);
	}
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

void model_metrics_print(FILE *f, const struct tma_model *m)
{
	bool *needed = calloc(model_event_count(m) + 1, sizeof(*needed));
	int n = model_node_count(m);

	if (!needed) {
		fprintf(stderr, "tmacg: out of memory\n");
		return;
	}
	for (int pass = 0; pass < 2; pass++) /* tree nodes, then Info metrics and counts */
		for (int i = 0; i < n; i++)
			if ((model_node(m, i)->level == 0) == (pass == 1))
				print_metric(f, m, i, needed);
	free(needed);
}
