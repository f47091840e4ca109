/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * JSON keys known before the lines that write them (a model's node names, a
 * run's count names), each already quoted with its colon ("name":), one
 * after another in one buffer with KEY_TABLE_PAD bytes that can be read
 * from any key's start: a line copies each key with one copy of a fixed
 * size (jw_run_quoted_key), not by its length through branches on that
 * length (150 of a level-6 line's 491 mispredicted branches in callgrind's
 * model, issue 27).
 */
#ifndef TMACG_KEY_TABLE_H
#define TMACG_KEY_TABLE_H

#include <stddef.h>

#define KEY_TABLE_PAD 64

struct key_table {
	char *text;
	size_t *at;  /* key i is text[at[i] .. at[i] + len[i]) */
	size_t *len; /* 0: no key (a name that needs an escape) */
	size_t used; /* the text's bytes the keys set so far take */
};

/* Room for n keys of names of name_bytes in all; 0 or -ENOMEM (nothing kept). */
int key_table_make(struct key_table *t, int n, size_t name_bytes);
/* Key i (set in order, 0 first) for name[0..len), which needs no escape (jw_plain_length). */
void key_table_set(struct key_table *t, int i, const char *name, size_t len);
void key_table_free(struct key_table *t);

#endif
