// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * libFuzzer: any bytes as a replay input, read both ways: whole (all or
 * nothing, then replayed as JSON and as a table), and streamed as --replay
 * reads it, a line at a time with bad lines skipped, through every format
 * (JSON, table, top, HTML) and the check that lines name one model, and
 * summed by --group-by (over the whole input, or over each second of the
 * lines' time, each line with the model it names).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "model/model.h"
#include "replay/replay_group.h"
#include "replay/replay_html.h"
#include "replay/replay_read.h"
#include "replay/replay_run.h"
#include "replay/replay_source.h"
#include "replay/replay_top.h"

enum { AS_JSON, AS_TABLE, AS_TOP, AS_HTML, AS_GROUPS, NFORMATS };

/* data streamed through format (one_model: no --model, lines must agree) into null. */
static void streamed(const uint8_t *data, size_t size, const struct tma_model *m, int format,
		     bool one_model, FILE *null)
{
	FILE *f = fmemopen((void *)data, size, "r");
	struct replay_reader r;
	struct replay_source src;

	if (!f)
		return;
	replay_reader_init(&r, f, "fuzz.jsonl", 4096);
	replay_source_reader(&src, &r, null);
	src.one_model = one_model;
	if (format == AS_GROUPS) {
		struct replay_group_config c = { .group_by =
							 "host,k8s.deployment.name,cgroup,model",
						 .interval_ns = one_model ? 1000000000ULL : 0,
						 .m = m,
						 .level = 6,
						 .info = true,
						 .json = true,
						 .out = null,
						 .err = null };

		replay_group_run(&src, &c);
	} else if (format == AS_TOP)
		replay_top_from(&src, m, 3, false, 80, null, null);
	else if (format == AS_HTML)
		replay_html_from(&src, m, 2, null, null);
	else
		replay_run_from(&src, m, 6, format == AS_JSON, false, format == AS_JSON, null,
				null);
	replay_source_end(&src);
	replay_reader_free(&r);
	fclose(f);
}

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
	/* the first byte picks the streamed format: each input through one, all over the corpus */
	streamed(data, size, m, data[0] % NFORMATS, data[0] & 0x10, null);
	return 0;
}
