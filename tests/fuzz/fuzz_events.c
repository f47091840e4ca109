// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * libFuzzer: any bytes as event names (a user's --model-file spells them),
 * one name per line, encoded for the icx and spr CPU descriptions (with
 * libpfm4's icx table forced for names they do not list) and then planned.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pmu/cpu_desc.h"
#include "pmu/planner.h"

static struct event_target target(const char *id)
{
	const struct cpu_desc *d = cpu_desc_by_id(id);

	if (!d)
		abort();
	return (struct event_target){ .pfm_pmu = d->libpfm,
				      .pmu_type = 4,
				      .topdown_l2 = d->perf_metrics_l2,
				      .cpu = d,
				      .smt = true };
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct event_target icx, spr;
	static struct plan p;
	static bool ready;
	char err[512], *text, *save = NULL, *tok;
	const char *names[96];
	int n = 0;

	if (!ready) {
		icx = target("icx");
		spr = target("spr");
		if (events_init(icx.pfm_pmu, err, sizeof(err)))
			abort();
		ready = true;
	}
	text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	for (tok = strtok_r(text, "\n", &save); tok && n < 96; tok = strtok_r(NULL, "\n", &save)) {
		struct event_enc e;

		/* Both tables: the spr:: prefix reaches libpfm4's spr table while icx is forced. */
		event_encode(&icx, tok, &e, err, sizeof(err));
		event_encode(&spr, tok, &e, err, sizeof(err));
		names[n++] = tok;
	}
	for (int gp = 0; gp <= 8; gp += 4) {
		struct plan_input in = {
			.target = &icx, .gp_counters = gp, .events = names, .nevents = n
		};

		plan_build(&in, &p, err, sizeof(err));
	}
	free(text);
	return 0;
}
