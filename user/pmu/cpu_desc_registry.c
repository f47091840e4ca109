// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Every CPU description tmacg knows: the built-in ones, then those of
 * $TMACG_MODEL_DIR, which replace a built-in of the same id (a corrected
 * data drop wins over the one compiled in).  Loaded once, on first use.
 */
#include "pmu/cpu_desc.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/embedded.h"
#include "util/file_read.h"

static struct cpu_desc **registry;
static int nregistry;
static bool loaded;
static int load_ret;
static char load_err[1024];

const char *cpu_desc_dir(void)
{
	const char *dir = getenv("TMACG_MODEL_DIR");

	return dir && *dir ? dir : NULL;
}

static int add(struct cpu_desc *d, char *err, size_t errlen)
{
	void *grown;

	for (int i = 0; i < nregistry; i++) {
		if (strcmp(registry[i]->id, d->id))
			continue;
		cpu_desc_free(registry[i]);
		registry[i] = d;
		return 0;
	}
	grown = realloc(registry, sizeof(*registry) * (size_t)(nregistry + 1));
	if (!grown) {
		snprintf(err, errlen, "out of memory loading CPU descriptions");
		cpu_desc_free(d);
		return -ENOMEM;
	}
	registry = grown;
	registry[nregistry++] = d;
	return 0;
}

/* Far above any real description (the largest built-in is under 64 KiB): /dev/zero must end. */
#define CPU_DESC_FILE_MAX (1 << 20)

static int load_file(const char *path, char *err, size_t errlen)
{
	struct cpu_desc *d;
	char *text;
	size_t len;
	int ret =
		file_read_all(path, "CPU description", CPU_DESC_FILE_MAX, &text, &len, err, errlen);

	if (ret)
		return ret;
	d = cpu_desc_parse(text, len, path, err, errlen);
	free(text);
	return d ? add(d, err, errlen) : -EINVAL;
}

static int is_cpu_file(const struct dirent *e)
{
	size_t n = strlen(e->d_name);

	return e->d_name[0] != '.' && n > 4 && !strcmp(e->d_name + n - 4, ".cpu");
}

static int load_dir(const char *dir, char *err, size_t errlen)
{
	struct dirent **list;
	int n = scandir(dir, &list, is_cpu_file, alphasort), ret = 0;

	if (n < 0) {
		int e = errno;

		snprintf(err, errlen,
			 "TMACG_MODEL_DIR=%s: %s: it must name a directory of .cpu "
			 "and .tma files",
			 dir, strerror(e));
		return -e;
	}
	for (int i = 0; i < n; i++) {
		char path[4096];

		if (snprintf(path, sizeof(path), "%s/%s", dir, list[i]->d_name) >=
			    (int)sizeof(path) &&
		    !ret) {
			snprintf(err, errlen, "TMACG_MODEL_DIR: a path longer than %zu bytes",
				 sizeof(path) - 1);
			ret = -ENAMETOOLONG;
		}
		if (!ret)
			ret = load_file(path, err, errlen);
		free(list[i]);
	}
	free(list);
	return ret;
}

/* A key of a that some CPUID also matches through b, or NULL. */
static const struct cpu_desc_match *overlap(const struct cpu_desc *a, const struct cpu_desc *b)
{
	for (int i = 0; i < a->nmatch; i++)
		for (int k = 0; k < b->nmatch; k++) {
			const struct cpu_desc_match *x = &a->match[i], *y = &b->match[k];

			if (!strcmp(x->vendor, y->vendor) && x->family == y->family &&
			    x->model <= y->model_last && y->model <= x->model_last &&
			    (x->steppings & y->steppings))
				return x;
		}
	return NULL;
}

/* Two descriptions for one CPUID would make detection depend on their order: refuse it. */
static int check_overlaps(char *err, size_t errlen)
{
	for (int i = 0; i < nregistry; i++)
		for (int j = i + 1; j < nregistry; j++) {
			const struct cpu_desc_match *x = overlap(registry[i], registry[j]);

			if (!x)
				continue;
			snprintf(err, errlen,
				 "%s and %s both match %s family %u model 0x%X: give the new one "
				 "the old one's id to replace it, or split them by stepping",
				 registry[i]->path, registry[j]->path, x->vendor, x->family,
				 x->model);
			return -EEXIST;
		}
	return 0;
}

static int cmp_id(const void *a, const void *b)
{
	return strcmp((*(struct cpu_desc *const *)a)->id, (*(struct cpu_desc *const *)b)->id);
}

void cpu_desc_reset(void)
{
	for (int i = 0; i < nregistry; i++)
		cpu_desc_free(registry[i]);
	free(registry);
	registry = NULL;
	nregistry = 0;
	loaded = false;
}

int cpu_desc_init(char *err, size_t errlen)
{
	const char *dir = cpu_desc_dir();

	if (!loaded) {
		loaded = true;
		load_ret = 0;
		for (const struct embedded_file *b = cpu_builtins; b->id && !load_ret; b++) {
			struct cpu_desc *d = cpu_desc_parse(b->text, b->len, b->path, load_err,
							    sizeof(load_err));

			load_ret = d ? add(d, load_err, sizeof(load_err)) : -EINVAL;
		}
		if (!load_ret && dir)
			load_ret = load_dir(dir, load_err, sizeof(load_err));
		if (!load_ret)
			load_ret = check_overlaps(load_err, sizeof(load_err));
		if (load_ret) {
			cpu_desc_reset();
			loaded = true; /* none, and the error said at every call */
		} else if (nregistry) {
			qsort(registry, (size_t)nregistry, sizeof(*registry), cmp_id);
		}
	}
	if (load_ret)
		snprintf(err, errlen, "%s", load_err);
	return load_ret;
}

static bool ready(void)
{
	char err[16];

	return !cpu_desc_init(err, sizeof(err));
}

int cpu_desc_count(void)
{
	return ready() ? nregistry : 0;
}

const struct cpu_desc *cpu_desc_at(int i)
{
	return ready() && i >= 0 && i < nregistry ? registry[i] : NULL;
}

const struct cpu_desc *cpu_desc_by_id(const char *id)
{
	for (int i = 0; id && i < cpu_desc_count(); i++)
		if (!strcmp(registry[i]->id, id))
			return registry[i];
	return NULL;
}

const struct cpu_desc *cpu_desc_by_cpuid(const char *vendor, int family, int model, int stepping)
{
	for (int i = 0; i < cpu_desc_count(); i++) {
		const struct cpu_desc *d = registry[i];

		for (int k = 0; k < d->nmatch; k++) {
			const struct cpu_desc_match *m = &d->match[k];

			if (strcmp(m->vendor, vendor) || (int)m->family != family ||
			    model < (int)m->model || model > (int)m->model_last)
				continue;
			/* Unknown stepping: only a key that does not split by stepping fits. */
			if (stepping < 0 || stepping > 15 ? m->steppings == 0xffff :
							    (m->steppings >> stepping) & 1)
				return d;
		}
	}
	return NULL;
}

const struct cpu_desc *cpu_desc_for_model(const char *model)
{
	const struct cpu_desc *first = NULL;

	for (int i = 0; model && i < cpu_desc_count(); i++) {
		const struct cpu_desc *d = registry[i];

		if (strcmp(d->model, model))
			continue;
		if (!strcmp(d->id, model))
			return d;
		if (!first)
			first = d;
	}
	return first;
}

const struct rl_table *cpu_desc_latency_defaults(const char *model)
{
	const struct cpu_desc *d = cpu_desc_for_model(model);

	return d && d->retire_latency.n ? &d->retire_latency : NULL;
}
