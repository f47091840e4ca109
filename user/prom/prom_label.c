// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "prom/prom_label.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/name_escape.h"

/* Valid UTF-8: only the three escapes the format defines, the rest in spans. */
static void escape_valid(FILE *f, const char *s)
{
	for (;;) {
		size_t plain = strcspn(s, "\\\"\n");

		fwrite(s, 1, plain, f);
		if (!s[plain])
			return;
		fputs(s[plain] == '\n' ? "\\n" : s[plain] == '"' ? "\\\"" : "\\\\", f);
		s += plain + 1;
	}
}

int prom_label_value(FILE *f, const char *value)
{
	/* The JSON lines' lossless mapping: strict UTF-8, two names stay two. */
	const char *utf8 = name_json_text(value);

	if (!utf8)
		return -ENOMEM;
	escape_valid(f, utf8);
	if (utf8 != value)
		free((char *)utf8);
	return 0;
}

int prom_label(FILE *f, const char *name, const char *value)
{
	int ret;

	fprintf(f, "%s=\"", name);
	ret = prom_label_value(f, value);
	fputc('"', f);
	return ret;
}
