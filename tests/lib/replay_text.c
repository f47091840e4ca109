// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "replay_text.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

const char *replay_temp_file(const char *text)
{
	static char path[64];
	int fd;
	FILE *f;

	strcpy(path, "/tmp/tmacg-replay-XXXXXX");
	fd = mkstemp(path);
	f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!f) {
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	fputs(text, f);
	return fclose(f) ? NULL : path;
}
