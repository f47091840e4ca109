/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Open-addressing hash map from a non-zero 64-bit key (cgroup id, tid) to a pointer. */
#ifndef TMACG_U64MAP_H
#define TMACG_U64MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The fields are u64map.c's alone (tests/lint/u64map-private checks it):
 * the layout and the deletion scheme may change, the functions below stay.
 */
struct u64map {
	uint64_t *keys; /* 0: empty slot */
	void **vals;
	size_t cap; /* power of two */
	size_t len;
};

void u64map_init(struct u64map *m);
void u64map_free(struct u64map *m); /* frees the table, not the values */
void *u64map_get(const struct u64map *m, uint64_t key);
int u64map_put(struct u64map *m, uint64_t key, void *val); /* 0 or -ENOMEM */
void *u64map_del(struct u64map *m, uint64_t key);	   /* returns the value removed */

/* The key of the n bytes at s: FNV-1a, never 0 (the empty slot). */
static inline uint64_t u64map_key(const char *s, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 0x100000001b3ULL;
	return h ? h : 1;
}

static inline size_t u64map_len(const struct u64map *m)
{
	return m->len;
}

/*
 * Iteration, in no particular order:
 *	size_t cur = 0;
 *	while (u64map_next(m, &cur, &key, &val)) ...
 * cur starts at 0; key and val may be NULL.  The map must not gain or lose
 * entries during the walk (changing what a value points to is fine): to
 * delete while walking, use u64map_retain().
 */
bool u64map_next(const struct u64map *m, size_t *cur, uint64_t *key, void **val);

/*
 * Calls keep(key, val, ctx) once for every entry and deletes those it returns
 * false for (keep may free val first).  keep must not use the map itself.
 * Returns how many were deleted.
 */
size_t u64map_retain(struct u64map *m, bool (*keep)(uint64_t key, void *val, void *ctx), void *ctx);

#endif
