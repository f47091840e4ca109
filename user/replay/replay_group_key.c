// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "replay/replay_group_key.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "replay/replay_read.h"
#include "util/name_escape.h"

int group_keys_parse(struct group_keys *k, const char *list, char *err, size_t errlen)
{
	const char *p = list;

	memset(k, 0, sizeof(*k));
	for (;;) {
		size_t len = strcspn(p, ",");

		if (!len) {
			snprintf(err, errlen,
				 "--group-by '%s': an empty key: give KEY[,KEY...] (host, cgroup, "
				 "model or a resource key such as k8s.namespace.name)",
				 list);
			goto bad;
		}
		if (k->n == GROUP_KEYS_MAX) {
			snprintf(err, errlen, "--group-by '%s': at most %d keys", list,
				 GROUP_KEYS_MAX);
			goto bad;
		}
		if (!(k->names[k->n] = strndup(p, len))) {
			group_keys_free(k);
			return -ENOMEM;
		}
		for (int i = 0; i < k->n; i++)
			if (!strcmp(k->names[i], k->names[k->n])) {
				snprintf(err, errlen, "--group-by '%s': key %s given twice", list,
					 k->names[i]);
				k->n++;
				goto bad;
			}
		k->n++;
		if (!p[len])
			return 0;
		p += len + 1;
	}
bad:
	term_escape_message(err, errlen); /* it quotes the command line */
	group_keys_free(k);
	return -EINVAL;
}

void group_keys_free(struct group_keys *k)
{
	for (int i = 0; i < k->n; i++)
		free(k->names[i]);
	memset(k, 0, sizeof(*k));
}

static const char *resource_value(const struct replay_origin *g, const char *key)
{
	for (int i = 0; i < RES_N; i++)
		if (!strcmp(key, replay_resource_keys[i]))
			return g->resource[i];
	for (int i = 0; i < g->nextra; i++)
		if (!strcmp(key, g->extra[i].key))
			return g->extra[i].value;
	return NULL;
}

const char *group_key_value(struct group_keys *k, int i, const struct replay_record *rec,
			    const char *model)
{
	const struct replay_origin *g = rec->origin;
	const char *key = k->names[i], *v;

	if (!strcmp(key, "cgroup"))
		v = rec->cgroup;
	else if (!strcmp(key, "host"))
		v = g ? g->host : NULL;
	else if (!strcmp(key, "model"))
		v = g && g->model ? g->model : model;
	else
		v = g ? resource_value(g, key) : NULL;
	if (v)
		k->seen[i] = true;
	return v;
}

void group_keys_report(const struct group_keys *k, const char *name, FILE *err)
{
	for (int i = 0; i < k->n; i++) {
		char *shown;

		if (k->seen[i])
			continue;
		shown = name_term_text(k->names[i]);
		fprintf(err,
			"tmacg: warning: %s: no line has --group-by key %s: every line is in the "
			"group where it is null (host, cgroup, model, or a key of \"resource\")\n",
			name, shown ? shown : "?");
		free(shown);
	}
}
