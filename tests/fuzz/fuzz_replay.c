// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* libFuzzer: any bytes as a replay file, run through the ICX model when they are valid. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "model/model.h"
#include "replay/replay_read.h"
#include "replay/replay_run.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct tma_model *m;
	static FILE *null;
	struct replay_data d;
	char err[512];
	FILE *f;

	if (!m) {
		m = model_load_builtin("icx", err, sizeof(err));
		null = fopen("/dev/null", "w");
		if (!m || !null)
			abort();
	}
	if (!size)
		return 0;
	f = fmemopen((void *)data, size, "r");
	if (!f)
		return 0;
	if (!replay_read_stream(f, "fuzz.jsonl", &d, err, sizeof(err))) {
		replay_run_data(&d, m, 6, true, false, true, null, null);
		replay_run_data(&d, m, 3, false, true, false, null, null);
		replay_free(&d);
	}
	fclose(f);
	return 0;
}
