// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "text_count.h"

#include <string.h>

int text_count(const char *text, const char *what)
{
	int n = 0;

	for (const char *at = text; (at = strstr(at, what)); at += strlen(what))
		n++;
	return n;
}
