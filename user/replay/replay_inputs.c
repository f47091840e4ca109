// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "replay/replay_inputs.h"

#include <stdlib.h>
#include <string.h>

#include "replay/replay_source.h"

int replay_inputs_open(struct replay_inputs *in, const char *first, const char *const *more,
		       int nmore, char *err, size_t errlen)
{
	*in = (struct replay_inputs){ .files = calloc((size_t)nmore + 1, sizeof(FILE *)),
				      .readers = calloc((size_t)nmore + 1,
							sizeof(struct replay_reader)) };
	if (!in->files || !in->readers) {
		snprintf(err, errlen, "out of memory");
		replay_inputs_close(in);
		return -1;
	}
	for (int i = 0; i <= nmore; i++) {
		const char *name;

		in->files[i] = replay_open(i ? more[i - 1] : first, &name, err, errlen);
		if (!in->files[i]) {
			replay_inputs_close(in);
			return -1;
		}
		replay_reader_init(&in->readers[i], in->files[i], name, REPLAY_MAX_LINE);
		in->n++;
	}
	if (nmore)
		snprintf(in->label, sizeof(in->label), "%s and %d more", in->readers[0].name,
			 nmore);
	else
		snprintf(in->label, sizeof(in->label), "%s", in->readers[0].name);
	return 0;
}

void replay_inputs_source(struct replay_inputs *in, struct replay_source *src, FILE *err)
{
	replay_source_reader(src, &in->readers[0], err);
	if (in->n > 1)
		replay_source_chain(src, in->readers + 1, in->n - 1, in->label);
}

void replay_inputs_close(struct replay_inputs *in)
{
	for (int i = 0; i < in->n; i++) {
		replay_reader_free(&in->readers[i]);
		replay_close(in->files[i]);
	}
	free(in->files);
	free(in->readers);
	memset(in, 0, sizeof(*in));
}
