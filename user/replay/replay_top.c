// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "replay/replay_top.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "model/model.h"
#include "output/cgroup_record.h"
#include "output/output_top.h"
#include "replay/replay_counts.h"
#include "replay/replay_read.h"
#include "replay/replay_run.h"
#include "replay/replay_source.h"

struct frames {
	const struct tma_model *m;
	int level;
	struct top *t;
	struct top_screen *scr;
	struct top_title title;
	char *first; /* the cgroup that opened the frame being filled (a copy: records go) */
	/* The live line's summary counts, which the view was made with: each line's, in order. */
	const char **names;
	double *values;
	int nnames;
	FILE *out;
};

/*
 * A frame ends where its first cgroup comes again: drawn before that record is
 * added.  A tmacg/1 line's row is the one it had live: its running_min (RUN%),
 * quality.measured (MEAS% and the path's "~") and pod.
 */
static int add_record(void *ctx, const struct replay_record *rec, const struct replay_eval *ev)
{
	struct frames *f = ctx;
	struct replay_line rl;
	int rc;

	/*
	 * Read as it comes, a live pipe's interval is drawn as the next one's
	 * first line arrives: top_draw flushes.
	 */
	if (f->first && !strcmp(f->first, rec->cgroup)) {
		rc = top_draw(f->t, f->out, f->scr, &f->title);
		if (rc)
			return rc;
		free(f->first);
		f->first = NULL;
	}
	if (!f->first) {
		f->first = strdup(rec->cgroup);
		if (!f->first)
			return -ENOMEM;
		f->title.interval_s = rec->interval_s;
	}
	rc = replay_line(&rl, rec, f->m, f->level, false, ev, true);
	if (!rc) {
		struct report_line line = rl.line;

		/* CPU% and the rate columns, as the live view shows them (NAN: not recorded) */
		for (int i = 0; i < f->nnames; i++) {
			f->values[i] = NAN;
			for (int k = 0; k < line.ncounts; k++)
				if (!strcmp(line.count_names[k], f->names[i]))
					f->values[i] = line.count_values[k];
		}
		line.ncounts = f->nnames;
		line.count_names = f->names;
		line.count_values = f->values;
		line.count_derived = NULL; /* the table writes every count alike */
		rc = top_add(f->t, &line, false);
	}
	replay_line_free(&rl);
	return rc;
}

int replay_top_from(struct replay_source *src, const struct tma_model *m, int level, bool color,
		    int width, FILE *out, FILE *err)
{
	struct top_screen scr = { .width = width, .color = color };
	struct frames f = {
		.m = m,
		.level = level,
		.scr = &scr,
		.title = { .host = "replay", .model = model_id(m) },
		.out = out,
		.names = calloc(model_node_count(m) + 3, sizeof(*f.names)),
		.values = calloc(model_node_count(m) + 3, sizeof(*f.values)),
	};
	int rc = 0;

	if (f.names && f.values) {
		f.nnames = replay_summary_names(m, f.names);
		f.t = top_new(m, level, f.nnames, f.names);
	}
	if (!f.t) {
		fprintf(err, "tmacg: out of memory\n");
		rc = -ENOMEM;
	}
	clock_gettime(CLOCK_REALTIME, &f.title.time);
	if (!rc)
		rc = replay_each_from(src, m, level, false, add_record, &f, err);
	if (!rc && f.first)
		rc = top_draw(f.t, out, &scr, &f.title);
	top_free(f.t);
	free(f.first);
	free(f.names);
	free(f.values);
	return replay_exit_code(rc, err);
}
