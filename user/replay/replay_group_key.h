/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * --group-by KEY[,KEY...]: the keys, and a record's value of each.  host,
 * cgroup and model are the line's own keys; any other KEY is one of its
 * "resource" keys (k8s.namespace.name, or one a pipeline's enrichment adds:
 * k8s.deployment.name).
 */
#ifndef TMACG_REPLAY_GROUP_KEY_H
#define TMACG_REPLAY_GROUP_KEY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct replay_record;

#define GROUP_KEYS_MAX 16

struct group_keys {
	int n;
	char *names[GROUP_KEYS_MAX];
	bool seen[GROUP_KEYS_MAX]; /* some line had key i */
};

/* list parsed into k: 0, -ENOMEM, or -EINVAL with why in err (an empty key, one twice, too many). */
int group_keys_parse(struct group_keys *k, const char *list, char *err, size_t errlen);
void group_keys_free(struct group_keys *k);

/*
 * rec's value of key i (NULL: it lacks the key), noted as seen when it has
 * it; model: the model evaluating rec, the value of "model" for a line that
 * names none.
 */
const char *group_key_value(struct group_keys *k, int i, const struct replay_record *rec,
			    const char *model);

/* After the input: each key no line had, named once on err (name: the input's). */
void group_keys_report(const struct group_keys *k, const char *name, FILE *err);

#endif /* TMACG_REPLAY_GROUP_KEY_H */
