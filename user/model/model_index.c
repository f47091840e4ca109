// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The model's name index: node and Info metric names, and node numbers, found
 * through a hash while the file loads (a file of thousands of nodes must not
 * cost the square of its size) and by the resolver and the listings after.
 */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "model/model_impl.h"

static const char *field(const struct model_entry *e, bool number)
{
	return number ? e->info.number : e->info.name;
}

/* The entry whose name (or number) is s[0..n), -1 if none. */
int model_entry_find_n(const struct tma_model *m, bool number, const char *s, size_t n)
{
	void *v = u64map_get(number ? &m->by_number : &m->by_name, u64map_key(s, n));
	const char *t;

	if (v) {
		t = field(&m->nodes[(intptr_t)v - 1], number);
		if (strlen(t) == n && !memcmp(t, s, n))
			return (int)(intptr_t)v - 1;
	}
	if (!m->key_collision)
		return -1;
	for (int i = 0; i < m->nnodes; i++) {
		t = field(&m->nodes[i], number);
		if (t && strlen(t) == n && !memcmp(t, s, n))
			return i;
	}
	return -1;
}

/* Indexes the last entry added: 0 or -ENOMEM. */
int model_entry_index_last(struct tma_model *m)
{
	const struct model_entry *e = &m->nodes[m->nnodes - 1];
	void *val = (void *)(intptr_t)m->nnodes;

	for (int number = 0; number < 2; number++) {
		struct u64map *map = number ? &m->by_number : &m->by_name;
		const char *s = field(e, number);
		uint64_t k;

		if (!s)
			continue;
		k = u64map_key(s, strlen(s));
		if (u64map_get(map, k))
			m->key_collision = true; /* the first keeps the key */
		else if (u64map_put(map, k, val))
			return -ENOMEM;
	}
	return 0;
}

int model_entry_find(const struct tma_model *m, const char *name)
{
	return model_entry_find_n(m, false, name, strlen(name));
}

/* A name in a formula: G4K_Aliasing also finds the node 4K_Aliasing, as in Intel's Python. */
int model_entry_lookup(const struct tma_model *m, const char *name)
{
	int i = model_entry_find(m, name);

	if (i < 0 && name[0] == 'G' && isdigit((unsigned char)name[1]))
		i = model_entry_find(m, name + 1);
	return i;
}
