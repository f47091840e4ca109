// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "frame_width.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "output/term_width.h"

int frame_check_widths(const char *frame, int width)
{
	int n = 0;

	for (const char *p = frame; *p; n++) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		char *line = strndup(p, len);

		print_message("%3d: %s\n", width, line);
		assert_true(term_width(line) <= width);
		free(line);
		p += len + (nl ? 1 : 0);
	}
	return n;
}
