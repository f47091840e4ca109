// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * libFuzzer: any bytes as event names (a user's --model-file spells them),
 * one name per line, encoded for icx and spr and then planned together.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pmu/planner.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct event_target icx = { "icx", 4, false }, spr = { "spr", 4, true };
	static struct plan p;
	static bool ready;
	char err[512], *text, *save = NULL, *tok;
	const char *names[96];
	int n = 0;

	if (!ready) {
		if (events_init("icx", err, sizeof(err)))
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
		struct plan_input in = { .target = &icx, .gp_counters = gp, .events = names,
					 .nevents = n };

		plan_build(&in, &p, err, sizeof(err));
	}
	free(text);
	return 0;
}
