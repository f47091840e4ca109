// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "prom/prom_label.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/name_escape.h"

/* Valid UTF-8: only the three escapes the format defines, the rest in spans. */
static void escape_valid(struct prom_buf *b, const char *s)
{
	for (;;) {
		size_t plain = strcspn(s, "\\\"\n");

		prom_buf_put(b, s, plain);
		if (!s[plain])
			return;
		prom_buf_put(b, s[plain] == '\n' ? "\\n" : s[plain] == '"' ? "\\\"" : "\\\\", 2);
		s += plain + 1;
	}
}

int prom_label(struct prom_buf *b, const char *name, const char *value)
{
	/* The JSON lines' lossless mapping: strict UTF-8, two names stay two. */
	const char *utf8 = name_json_text(value);

	prom_buf_puts(b, name);
	prom_buf_put(b, "=\"", 2);
	if (utf8)
		escape_valid(b, utf8);
	prom_buf_putc(b, '"');
	if (utf8 != value)
		free((char *)utf8);
	return utf8 ? 0 : -ENOMEM;
}
