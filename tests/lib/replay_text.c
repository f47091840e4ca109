// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "replay_text.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "replay/replay_read.h"

int replay_read_text(const char *text, struct replay_data *d, char *err, size_t errlen)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	int rc;

	if (!f)
		return -errno;
	rc = replay_read_stream(f, "in.jsonl", d, err, errlen);
	fclose(f);
	return rc;
}
