// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "promtool.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

static bool installed(void)
{
	if (system("command -v promtool >/dev/null 2>&1")) {
		fprintf(stderr, "  promtool not installed (Debian package prometheus; "
				"deploy/install-deps.sh --test installs it)\n");
		return false;
	}
	return true;
}

bool promtool_accepts(const char *text)
{
	char path[] = "/tmp/tmacg-prom-XXXXXX", cmd[256];
	FILE *f;
	int fd, st;

	if (!installed())
		return false;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
	snprintf(cmd, sizeof(cmd), "promtool check metrics < %s 2>&1", path);
	st = system(cmd);
	unlink(path);
	if (!WIFEXITED(st) || WEXITSTATUS(st))
		fail_msg("promtool check metrics rejected:\n%s", text);
	return true;
}

/* Each sample line of text as a series of promtool's input_series, its one value at 0m. */
static void input_series(FILE *f, const char *text)
{
	fputs("    input_series:\n", f);
	for (const char *line = text; *line;
	     line += strcspn(line, "\n") + (line[strcspn(line, "\n")] != 0)) {
		size_t n = strcspn(line, "\n");
		const char *space = memchr(line, '}', n);

		if (*line == '#' || !n || !space)
			continue;
		space++;
		assert_true(!memchr(line, '\'', n)); /* inside YAML's single quotes */
		fprintf(f, "      - series: '%.*s'\n        values: '%.*s'\n", (int)(space - line),
			line, (int)(n - (size_t)(space - line) - 1), space + 1);
	}
}

bool promtool_query_gives(const char *text, const char *expr, const char *want)
{
	char path[] = "/tmp/tmacg-promql-XXXXXX.yml", cmd[256];
	FILE *f;
	int fd, st;

	if (!installed())
		return false;
	fd = mkstemps(path, 4);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	fputs("tests:\n  - interval: 1m\n", f);
	input_series(f, text);
	fputs("    promql_expr_test:\n      - expr: |\n", f);
	for (const char *l = expr; *l; l += strcspn(l, "\n") + (l[strcspn(l, "\n")] != 0))
		fprintf(f, "          %.*s\n", (int)strcspn(l, "\n"), l);
	fputs("        eval_time: 0m\n        exp_samples:\n", f);
	for (const char *l = want; *l; l += strcspn(l, "\n") + (l[strcspn(l, "\n")] != 0))
		fprintf(f, "          %.*s\n", (int)strcspn(l, "\n"), l);
	if (!*want)
		fputs("          []\n", f);
	assert_int_equal(fclose(f), 0);
	snprintf(cmd, sizeof(cmd), "promtool test rules %s 2>&1", path);
	st = system(cmd);
	if (!WIFEXITED(st) || WEXITSTATUS(st)) {
		fail_msg("promtool: %s does not give\n%s\n(the test: %s, left there)", expr, want,
			 path);
	}
	unlink(path);
	return true;
}
