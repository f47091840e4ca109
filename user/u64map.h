/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Open-addressing hash map from a non-zero 64-bit key (cgroup id, tid) to a pointer. */
#ifndef TMACG_U64MAP_H
#define TMACG_U64MAP_H

#include <stddef.h>
#include <stdint.h>

struct u64map {
	uint64_t *keys;		/* 0: empty slot */
	void **vals;
	size_t cap;		/* power of two */
	size_t len;
};

void u64map_init(struct u64map *m);
void u64map_free(struct u64map *m);	/* frees the table, not the values */
void *u64map_get(const struct u64map *m, uint64_t key);
int u64map_put(struct u64map *m, uint64_t key, void *val);	/* 0 or -ENOMEM */
void *u64map_del(struct u64map *m, uint64_t key);	/* returns the value removed */

/* Iteration: for (size_t i = 0; i < m->cap; i++) if (m->keys[i]) ... */

#endif
