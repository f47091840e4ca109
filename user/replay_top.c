// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "replay_top.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "model/model.h"
#include "output_json.h"
#include "output_top.h"
#include "replay_read.h"
#include "replay_run.h"

int replay_top_data(const struct replay_data *d, const struct tma_model *m, int level, bool color,
		    int width, FILE *out, FILE *err)
{
	struct model_result *res = model_result_new(m);
	double *events = calloc(model_event_count(m) + 1, sizeof(*events));
	struct top *t = top_new(m, level, 0, NULL);
	struct top_screen scr = { .width = width, .color = color };
	struct top_title title = { .host = "replay", .model = model_id(m) };
	const char *first = NULL;
	int rc = 0;

	if (!res || !events || !t) {
		fprintf(err, "tmacg: out of memory\n");
		rc = -ENOMEM;
	}
	clock_gettime(CLOCK_REALTIME, &title.time);
	for (int i = 0; !rc && i < d->nrecords; i++) {
		const struct replay_record *rec = &d->records[i];
		struct report_line line = {
			.interval_s = rec->interval_s,
			.cgroup = rec->cgroup,
			.running_min = NAN,
			.tma = m,
			.result = res,
			.level = level,
		};

		if (first && !strcmp(first, rec->cgroup)) {
			rc = top_draw(t, out, &scr, &title);
			first = NULL;
		}
		if (!first) {
			first = rec->cgroup;
			title.interval_s = rec->interval_s;
		}
		if (!rc && (rc = replay_eval(rec, m, events, res, level, false))) {
			fprintf(err, "tmacg: %s:%d: cannot evaluate model %s: %s\n", d->name,
				rec->line, model_id(m), strerror(-rc));
			rc = 1;
		}
		if (!rc)
			rc = top_add(t, &line, false);
	}
	if (!rc && first)
		rc = top_draw(t, out, &scr, &title);
	/* A closed pipe (| head) ends the replay quietly, as it ends live mode. */
	if (rc < 0 && rc != -ENOMEM && rc != -EPIPE)
		fprintf(err, "tmacg: cannot write the output: %s\n", strerror(-rc));
	top_free(t);
	model_result_free(res);
	free(events);
	return rc ? 1 : 0;
}

int replay_top(const char *path, const struct tma_model *m, int level, bool color, FILE *out,
	       FILE *err)
{
	struct top_screen scr;
	struct replay_data d;
	char msg[512];
	int rc;

	if (replay_read(path, &d, msg, sizeof(msg))) {
		fprintf(err, "tmacg: %s\n", msg);
		return 1;
	}
	top_screen_size(fileno(out), &scr);
	rc = replay_top_data(&d, m, level, color, scr.width, out, err);
	replay_free(&d);
	return rc;
}
