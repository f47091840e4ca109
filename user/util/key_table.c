// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "util/key_table.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int key_table_make(struct key_table *t, int n, size_t name_bytes)
{
	memset(t, 0, sizeof(*t));
	/* Each key is its name and 3 bytes; the pad is zeros, read past a key, never shown. */
	t->text = calloc(name_bytes + 3 * (size_t)n + KEY_TABLE_PAD, 1);
	t->at = calloc((size_t)n + 1, sizeof(*t->at));
	t->len = calloc((size_t)n + 1, sizeof(*t->len));
	if (!t->text || !t->at || !t->len) {
		key_table_free(t);
		return -ENOMEM;
	}
	return 0;
}

void key_table_set(struct key_table *t, int i, const char *name, size_t len)
{
	char *o = t->text + t->used;

	*o++ = '"';
	memcpy(o, name, len);
	o += len;
	*o++ = '"';
	*o = ':';
	t->at[i] = t->used;
	t->len[i] = len + 3;
	t->used += len + 3;
}

void key_table_free(struct key_table *t)
{
	free(t->text);
	free(t->at);
	free(t->len);
	memset(t, 0, sizeof(*t));
}
