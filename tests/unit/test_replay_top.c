// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* --replay with --format top: a frame per recorded interval, each one the live view's. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "replay/replay_read.h"
#include "replay/replay_source.h"
#include "replay/replay_top.h"

static const char model_text[] = "model t\n"
				 "node 1 Frontend_Bound\n  formula E.F\n  threshold > 0.2\n"
				 "node 2 Bad_Speculation\n  formula E.S\n  threshold > 0.15\n"
				 "node 3 Backend_Bound\n  formula E.B\n  threshold > 0.2\n"
				 "node 4 Retiring\n  formula E.R\n  threshold > 0.7\n";

/* Two intervals of /x and /y; /y is Frontend bound in the second. */
static const char records[] =
	"{\"cgroup\":\"/x\",\"interval_s\":1,\"counters\":{\"E.F\":0.1,\"E.B\":0.6,\"E.R\":0.3}}\n"
	"{\"cgroup\":\"/y\",\"interval_s\":1,\"counters\":{\"E.R\":1}}\n"
	"{\"cgroup\":\"/x\",\"interval_s\":2,\"counters\":{\"E.B\":0.5,\"E.R\":0.5}}\n"
	"{\"cgroup\":\"/y\",\"interval_s\":2,\"counters\":{\"E.F\":0.9,\"E.R\":0.1}}\n";

/* The frames --replay --format top draws of records (model text, level 3), width columns wide. */
static char *replayed(const char *text, const char *records, int width)
{
	char err[256], *out = NULL;
	size_t len = 0;
	struct tma_model *m = model_load(text, strlen(text), "t.tma", err, sizeof(err));
	FILE *in = fmemopen((void *)records, strlen(records), "r"), *f = open_memstream(&out, &len);
	struct replay_data d;
	struct replay_source src;

	assert_non_null(m);
	assert_int_equal(replay_read_stream(in, "in.jsonl", &d, err, sizeof(err)), 0);
	fclose(in);
	src = replay_source_data(&d);
	assert_int_equal(replay_top_from(&src, m, 3, false, width, f, stderr), 0);
	fclose(f);
	print_message("%s", out);
	replay_free(&d);
	model_free(m);
	return out;
}

static void frames(void **state)
{
	char *out = replayed(model_text, records, 80), *second;

	(void)state;
	/* two frames, an empty line apart, no escapes */
	assert_null(strchr(out, '\033'));
	second = strstr(out, "\n\ntmacg ");
	assert_non_null(second);
	assert_null(strstr(second + 2, "\n\ntmacg "));
	assert_memory_equal(out, "tmacg ", 6);
	assert_non_null(strstr(out, "interval 1.00s  host replay  model t  2 cgroups\n"));
	assert_non_null(strstr(second, "interval 2.00s  host replay  model t  2 cgroups\n"));
	/* no CPU time in a recording: "-", rows by name; each with its interval's path */
	assert_non_null(strstr(out, "\n/x                -     -  10.0   0.0  60.0  30.0 "));
	assert_true(strstr(out, "\n/x ") < strstr(out, "\n/y "));
	assert_true(strstr(out, " Backend_Bound\n") < second);
	assert_non_null(strstr(second, "\n/y                -     -  90.0   0.0   0.0  10.0 "));
	assert_non_null(strstr(second, " Frontend_Bound\n"));
	free(out);
}

/* Backend_Bound's path to level 3, for lines recorded at --level 4-6. */
static const char deep_model[] =
	"model t\n"
	"node 1 Frontend_Bound\n  formula E.F\n  threshold > 0.2\n"
	"node 2 Bad_Speculation\n  formula E.S\n  threshold > 0.15\n"
	"node 3 Backend_Bound\n  formula E.B\n  threshold > 0.2\n"
	"node 3.1 Memory_Bound\n  formula E.M\n  threshold > 0.2 and parent over threshold\n"
	"node 3.1.1 DRAM_Bound\n  formula E.D\n  threshold > 0.1 and parent over threshold\n"
	"node 4 Retiring\n  formula E.R\n  threshold > 0.7\n";

/*
 * tmacg's own lines, groups in turns: /x's DRAM_Bound seen 5 % of the
 * interval, /y's never (null); /y is a pod's.
 */
static const char rotated[] =
	"{\"schema\":\"tmacg/1\",\"time\":\"2026-11-26T10:00:01Z\",\"interval_s\":1,"
	"\"cgroup\":\"/x\",\"counts\":{\"E.F\":0.1,\"E.S\":0,\"E.B\":0.6,\"E.M\":0.4,"
	"\"E.D\":0.3,\"E.R\":0.3},\"quality\":{\"running_min\":0.05,"
	"\"measured\":{\"DRAM_Bound\":0.05}}}\n"
	"{\"schema\":\"tmacg/1\",\"time\":\"2026-11-26T10:00:01Z\",\"interval_s\":1,"
	"\"cgroup\":\"/y\",\"resource\":{\"k8s.namespace.name\":\"prod\","
	"\"k8s.pod.name\":\"web-0\"},\"counts\":{\"E.F\":0.1,\"E.S\":0,\"E.B\":0.6,\"E.M\":0.4,"
	"\"E.D\":null,\"E.R\":0.3},\"quality\":{\"running_min\":0,"
	"\"measured\":{\"DRAM_Bound\":0}}}\n";

/*
 * Replayed, a line recorded with groups in turns draws as it did live: its
 * RUN% (running_min), MEAS% and the path's marks from quality.measured, a
 * pod's row by its name.
 */
static void rotated_lines_keep_measured(void **state)
{
	char *out = replayed(deep_model, rotated, 120);

	(void)state;
	assert_non_null(strstr(out, " MEAS% BOTTLENECK\n"));
	assert_non_null(strstr(out, "\n/x                -   5.0  10.0   0.0  60.0  30.0 "));
	assert_non_null(strstr(out, "   5.0 Backend_Bound.Memory_Bound.~DRAM_Bound\n"));
	assert_non_null(strstr(out, "\nprod/web-0        -   0.0  10.0   0.0  60.0  30.0 "));
	assert_non_null(strstr(out, "   0.0 Backend_Bound.Memory_Bound.?\n"));
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(frames),
		cmocka_unit_test(rotated_lines_keep_measured),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
