// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* libFuzzer: any bytes as a model file; a model that loads is also listed and evaluated. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "model/model.h"
#include "model_list.h"

static void eval_with(const struct tma_model *m, struct model_result *r, double *events,
		      double value, unsigned flags)
{
	struct model_input in = { .events = events, .interval_s = 1.0, .flags = flags };

	for (int i = 0; i < model_event_count(m); i++)
		events[i] = value;
	model_eval(m, &in, r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *null;
	char err[512];
	struct tma_model *m = model_load((const char *)data, size, "fuzz.tma", err, sizeof(err));
	struct model_result *r;
	double *events;
	bool *needed;

	if (!null)
		null = fopen("/dev/null", "w");
	if (!m)
		return 0;
	events = calloc(model_event_count(m) + 1, sizeof(*events));
	needed = calloc(model_event_count(m) + 1, sizeof(*needed));
	r = model_result_new(m);
	if (events && needed && r) {
		model_events_needed(m, 6, true, 0, needed);
		model_events_needed(m, 1, false, MODEL_FLAG_TOPDOWN_FIXED | MODEL_FLAG_SMT, needed);
		eval_with(m, r, events, 1.0, 0);
		eval_with(m, r, events, 0.0, MODEL_FLAG_TOPDOWN_FIXED);
		eval_with(m, r, events, NAN, MODEL_FLAG_SMT);
		model_metrics_print(null, m, false);
	}
	model_result_free(r);
	free(needed);
	free(events);
	model_free(m);
	return 0;
}
