/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * Text for a terminal cell grid: how many columns a string takes and a copy
 * that is safe to print.  cgroup and pod names are chosen by whoever creates
 * them: UTF-8 with wide (CJK) characters and combining marks, or bytes that
 * are not UTF-8 at all, control characters and escape sequences.
 *
 * Widths come from glibc's wcwidth() in the C.UTF-8 locale, set for these
 * calls only (uselocale), so the program's own locale is left alone.
 * Not thread-safe on first use (a one-time locale allocation): call from the
 * thread that prints.
 */
#ifndef TMACG_TERM_WIDTH_H
#define TMACG_TERM_WIDTH_H

#include <stddef.h>

/* Marks the place where term_fit cut a string. */
#define TERM_CUT_MARK "~"

/*
 * Copies s into out (at most outlen bytes with the NUL) as text that is safe
 * to print: a byte that does not start a valid UTF-8 character, a control
 * character (C0, DEL, C1) and a bidirectional-override character become
 * "\xNN" for each of their bytes; printable characters, wide and combining
 * ones included, are kept.  When the result would take more than max_cols
 * columns (or not fit in out) it is cut at a character boundary and ends with
 * TERM_CUT_MARK; an escape is never split.  Returns the columns the copy takes
 * (never more than max_cols; 0 when max_cols < 1).
 */
int term_fit(const char *s, int max_cols, char *out, size_t outlen);

/*
 * The same, but a string too wide keeps its end and starts with
 * TERM_CUT_MARK: a cgroup path's last components are the ones that differ.
 * Zero-width characters at the cut are dropped with what they belonged to.
 */
int term_fit_tail(const char *s, int max_cols, char *out, size_t outlen);

/* The columns s takes once escaped as term_fit does, uncut. */
int term_width(const char *s);

/* Writes n spaces (n <= 0: none) at out, NUL-terminated; returns n or 0. */
int term_pad(char *out, size_t outlen, int n);

#endif /* TMACG_TERM_WIDTH_H */
