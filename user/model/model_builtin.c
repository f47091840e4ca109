// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Which file a model id and TMA version name: $TMACG_MODEL_DIR/<id>.tma when
 * there is one, else the model compiled into the binary (embedded.h).  A model
 * may keep older TMA versions beside its default: <id>@<version>.tma
 * (icx@4.5.tma is model icx at TMA 4.5), chosen with --tma-version.
 */
#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/embedded.h"
#include "model/model_impl.h"
#include "util/name_escape.h"

/* "icx" and "icx@4.5" are files of model icx; "icx2" is not. */
static bool file_of_model(const char *file_id, const char *id)
{
	size_t n = strlen(id);

	return !strncmp(file_id, id, n) && (file_id[n] == '\0' || file_id[n] == '@');
}

/* $TMACG_MODEL_DIR/<file_id>.tma, which wins over a built-in of the same name; NULL: none. */
static struct tma_model *load_from_dir(const char *file_id, bool *found, char *err, size_t errlen)
{
	const char *dir = getenv("TMACG_MODEL_DIR");
	struct tma_model *m;
	char path[4096];

	*found = false;
	if (!dir || !*dir)
		return NULL;
	snprintf(path, sizeof(path), "%s/%s.tma", dir, file_id);
	if (access(path, F_OK))
		return NULL;
	*found = true;
	m = model_load_file(path, err, errlen);
	if (m && !file_of_model(file_id, model_id(m))) {
		snprintf(err, errlen, "%s: says 'model %s': it must equal the file name", path,
			 model_id(m));
		model_free(m);
		return NULL;
	}
	return m;
}

/* The file <file_id>: the directory's, else the built-in; NULL with *found false: neither. */
static struct tma_model *load_file_id(const char *file_id, bool *found, char *err, size_t errlen)
{
	struct tma_model *m = load_from_dir(file_id, found, err, errlen);

	if (*found)
		return m;
	for (const struct embedded_file *b = model_builtins; b->id; b++) {
		if (strcmp(b->id, file_id))
			continue;
		*found = true;
		return model_load_named(b->text, b->len, b->path, b->id, err, errlen);
	}
	return NULL;
}

/* An id or version as a message shows it: a replay's line chose it, controls as \xHH. */
static char *shown(const char *s)
{
	char *t = name_term_text(s);

	return t ? t : strdup("?");
}

static void unknown_model(const char *id, char *err, size_t errlen)
{
	char *safe = shown(id);
	size_t n = (size_t)snprintf(err, errlen, "unknown model '%s': built-in models are",
				    safe ? safe : "?");
	bool first = true;

	free(safe);
	for (const struct embedded_file *b = model_builtins; b->id && n < errlen; b++) {
		if (strchr(b->id, '@'))
			continue; /* a version of a model listed already */
		n += snprintf(err + n, errlen - n, "%s %s", first ? "" : ",", b->id);
		first = false;
	}
	if (n < errlen)
		snprintf(err + n, errlen - n,
			 " (tmacg --list-models; or give --model-file PATH, or put ID.tma "
			 "in TMACG_MODEL_DIR)");
}

int model_versions(const char *id, char versions[][MODEL_VERSION_MAX], int max)
{
	const char *dir = getenv("TMACG_MODEL_DIR");
	struct dirent **list = NULL;
	int n = 0, nd = dir && *dir ? scandir(dir, &list, NULL, alphasort) : 0;
	char err[256], names[64][MODEL_VERSION_MAX];
	int nnames = 0;
	struct tma_model *m;

	/* the default first: its version is in its text */
	m = model_load_builtin(id, err, sizeof(err));
	if (!m)
		return -1;
	if (n < max && model_tma_version(m))
		snprintf(versions[n++], MODEL_VERSION_MAX, "%s", model_tma_version(m));
	model_free(m);
	for (const struct embedded_file *b = model_builtins; b->id && nnames < 64; b++)
		if (file_of_model(b->id, id) && strchr(b->id, '@'))
			snprintf(names[nnames++], MODEL_VERSION_MAX, "%s", strchr(b->id, '@') + 1);
	for (int i = 0; i < nd; i++) {
		const char *f = list[i]->d_name;
		size_t len = strlen(f);

		if (nnames < 64 && len > 4 && !strcmp(f + len - 4, ".tma") &&
		    file_of_model(f, id) && f[strlen(id)] == '@')
			snprintf(names[nnames++], MODEL_VERSION_MAX, "%.*s",
				 (int)(len - 4 - strlen(id) - 1), f + strlen(id) + 1);
		free(list[i]);
	}
	free(list);
	for (int i = 0; i < nnames && n < max; i++) {
		bool dup = false;

		for (int k = 0; k < n; k++)
			dup |= !strcmp(versions[k], names[i]);
		if (!dup) /* the same size, NUL-terminated */
			memcpy(versions[n++], names[i], MODEL_VERSION_MAX);
	}
	return n;
}

struct tma_model *model_load_version(const char *id, const char *version, char *err, size_t errlen)
{
	char file_id[256], have[16][MODEL_VERSION_MAX], *safe;
	struct tma_model *m;
	bool found;
	size_t n;
	int nv;

	m = load_file_id(id, &found, err, errlen);
	if (!found)
		unknown_model(id, err, errlen);
	if (!m || !version || (model_tma_version(m) && !strcmp(model_tma_version(m), version)))
		return m;
	model_free(m);
	snprintf(file_id, sizeof(file_id), "%s@%s", id, version);
	m = load_file_id(file_id, &found, err, errlen);
	if (found) {
		if (m && (!model_tma_version(m) || strcmp(model_tma_version(m), version))) {
			snprintf(err, errlen,
				 "%s.tma: says 'tma_version %s': it must equal the file name",
				 file_id, model_tma_version(m) ? model_tma_version(m) : "(none)");
			model_free(m);
			return NULL;
		}
		return m;
	}
	nv = model_versions(id, have, 16);
	safe = shown(version);
	n = (size_t)snprintf(err, errlen, "model %s has no TMA version '%s': it has%s", id,
			     safe ? safe : "?", nv > 0 ? "" : " none (leave out --tma-version)");
	free(safe);
	if (nv <= 0) /* software, generic: no version to pick */
		return NULL;
	for (int i = 0; i < nv && n < errlen; i++)
		n += (size_t)snprintf(err + n, errlen - n, "%s %s%s", i ? "," : "", have[i],
				      i ? "" : " (the default)");
	if (n < errlen)
		snprintf(err + n, errlen - n, " (tmacg --list-models)");
	return NULL;
}

struct tma_model *model_load_builtin(const char *id, char *err, size_t errlen)
{
	return model_load_version(id, NULL, err, errlen);
}
