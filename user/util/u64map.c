// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Linear probing with backward-shift deletion (no tombstones), so a map that
 * sees thousands of cgroups come and go does not slow down over time.
 */
#include "util/u64map.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>

static size_t slot_of(uint64_t key, size_t cap)
{
	key ^= key >> 33; /* murmur3 finaliser: ids are sequential */
	key *= 0xff51afd7ed558ccdULL;
	key ^= key >> 33;
	return key & (cap - 1);
}

void u64map_init(struct u64map *m)
{
	*m = (struct u64map){ 0 };
}

void u64map_free(struct u64map *m)
{
	free(m->keys);
	free(m->vals);
	u64map_init(m);
}

static size_t find(const struct u64map *m, uint64_t key, bool *found)
{
	size_t i = slot_of(key, m->cap);

	while (m->keys[i] && m->keys[i] != key)
		i = (i + 1) & (m->cap - 1);
	*found = m->keys[i] == key;
	return i;
}

void *u64map_get(const struct u64map *m, uint64_t key)
{
	bool found;
	size_t i;

	if (!m->cap || !key)
		return NULL;
	i = find(m, key, &found);
	return found ? m->vals[i] : NULL;
}

static int grow(struct u64map *m)
{
	struct u64map bigger = { .cap = m->cap ? m->cap * 2 : 64 };

	bigger.keys = calloc(bigger.cap, sizeof(*bigger.keys));
	bigger.vals = calloc(bigger.cap, sizeof(*bigger.vals));
	if (!bigger.keys || !bigger.vals) {
		u64map_free(&bigger);
		return -ENOMEM;
	}
	for (size_t i = 0; i < m->cap; i++) {
		bool found;
		size_t j;

		if (!m->keys[i])
			continue;
		j = find(&bigger, m->keys[i], &found);
		bigger.keys[j] = m->keys[i];
		bigger.vals[j] = m->vals[i];
		bigger.len++;
	}
	u64map_free(m);
	*m = bigger;
	return 0;
}

int u64map_put(struct u64map *m, uint64_t key, void *val)
{
	bool found;
	size_t i;

	if (!key)
		return -EINVAL;
	if ((m->len + 1) * 4 > m->cap * 3) { /* keep the load under 3/4 */
		int err = grow(m);

		if (err)
			return err;
	}
	i = find(m, key, &found);
	if (!found) {
		m->keys[i] = key;
		m->len++;
	}
	m->vals[i] = val;
	return 0;
}

/* Empties slot i, then shifts back later entries of its probe run so lookups never stop early. */
static void del_at(struct u64map *m, size_t i)
{
	m->keys[i] = 0;
	m->len--;
	for (size_t j = (i + 1) & (m->cap - 1); m->keys[j]; j = (j + 1) & (m->cap - 1)) {
		size_t home = slot_of(m->keys[j], m->cap);

		if ((j > i && (home <= i || home > j)) || (j < i && home <= i && home > j)) {
			m->keys[i] = m->keys[j];
			m->vals[i] = m->vals[j];
			m->keys[j] = 0;
			i = j;
		}
	}
}

void *u64map_del(struct u64map *m, uint64_t key)
{
	bool found;
	size_t i;
	void *val;

	if (!m->cap || !key)
		return NULL;
	i = find(m, key, &found);
	if (!found)
		return NULL;
	val = m->vals[i];
	del_at(m, i);
	return val;
}

bool u64map_next(const struct u64map *m, size_t *cur, uint64_t *key, void **val)
{
	for (size_t i = *cur; i < m->cap; i++) {
		if (m->keys[i]) {
			if (key)
				*key = m->keys[i];
			if (val)
				*val = m->vals[i];
			*cur = i + 1;
			return true;
		}
	}
	*cur = m->cap;
	return false;
}

size_t u64map_retain(struct u64map *m, bool (*keep)(uint64_t key, void *val, void *ctx), void *ctx)
{
	size_t start = 0, removed = 0;

	if (!m->len)
		return 0;
	/*
	 * Start just after an empty slot (the load stays under 3/4, so there is
	 * one): no probe run then wraps past the walk's start, and the entries a
	 * deletion shifts back into slot i all come from slots not yet walked.
	 * So slot i is looked at again after a deletion, and every entry is
	 * offered to keep exactly once.
	 */
	while (m->keys[start])
		start++;
	for (size_t step = 1; step < m->cap;) {
		size_t i = (start + step) & (m->cap - 1);

		if (m->keys[i] && !keep(m->keys[i], m->vals[i], ctx)) {
			del_at(m, i);
			removed++;
		} else {
			step++;
		}
	}
	return removed;
}
