// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "golden_model.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int golden_model(const char *file, char *buf, size_t len, char **words, int max)
{
	char row[256], *text = NULL, *at, *save = NULL;
	size_t n = 0;
	FILE *f = fopen("tests/golden/README.md", "r");
	int nw = 0;

	assert_non_null(f);
	assert_true(getdelim(&text, &n, '\0', f) > 0);
	fclose(f);
	snprintf(row, sizeof(row), "| `%s` | `", file);
	at = strstr(text, row);
	if (!at)
		fail_msg("tests/golden/README.md has no row for %s: which model is it for?", file);
	at += strlen(row);
	snprintf(buf, len, "--model %.*s", (int)strcspn(at, "`"), at);
	free(text);
	for (char *w = strtok_r(buf, " ", &save); w && nw < max; w = strtok_r(NULL, " ", &save))
		words[nw++] = w;
	return nw;
}
