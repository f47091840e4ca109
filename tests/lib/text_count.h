/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* How often a text appears in another, for tests that count lines, keys or frames in output. */
#ifndef TMACG_TEXT_COUNT_H
#define TMACG_TEXT_COUNT_H

/* The occurrences of what in text, none overlapping another (what not empty). */
int text_count(const char *text, const char *what);

#endif
