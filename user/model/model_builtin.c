// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Which file a model id names: $TMACG_MODEL_DIR/<id>.tma when there is one,
 * else the model compiled into the binary (embedded.h).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/embedded.h"
#include "model/model_impl.h"

/* $TMACG_MODEL_DIR/<id>.tma, which wins over a built-in of the same id; NULL: none there. */
static struct tma_model *load_from_dir(const char *id, bool *found, char *err, size_t errlen)
{
	const char *dir = getenv("TMACG_MODEL_DIR");
	struct tma_model *m;
	char path[4096];

	*found = false;
	if (!dir || !*dir)
		return NULL;
	snprintf(path, sizeof(path), "%s/%s.tma", dir, id);
	if (access(path, F_OK))
		return NULL;
	*found = true;
	m = model_load_file(path, err, errlen);
	if (m && strcmp(model_id(m), id)) {
		snprintf(err, errlen, "%s: says 'model %s': it must equal the file name", path,
			 model_id(m));
		model_free(m);
		return NULL;
	}
	return m;
}

struct tma_model *model_load_builtin(const char *id, char *err, size_t errlen)
{
	bool found;
	struct tma_model *m = load_from_dir(id, &found, err, errlen);

	if (found)
		return m;
	for (const struct embedded_file *b = model_builtins; b->id; b++)
		if (!strcmp(b->id, id))
			return model_load_named(b->text, b->len, b->path, b->id, err, errlen);
	{
		size_t n = (size_t)snprintf(err, errlen, "unknown model '%s': built-in models are",
					    id);

		for (const struct embedded_file *b = model_builtins; b->id && n < errlen; b++)
			n += snprintf(err + n, errlen - n, "%s %s", b == model_builtins ? "" : ",",
				      b->id);
		if (n < errlen)
			snprintf(err + n, errlen - n,
				 " (tmacg --list-models; or give --model-file PATH, or put ID.tma "
				 "in TMACG_MODEL_DIR)");
	}
	return NULL;
}
