/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * Names chosen by others (cgroup directories, task comms, pod names, replay
 * input) made safe to print without losing what tells two of them apart.
 *
 * JSON: every line must be strict UTF-8 (RFC 8259 8.1) and two different
 * names must stay different.  Each byte that is not part of a valid UTF-8
 * sequence (stray continuation bytes, overlong forms, surrogates, code points
 * over U+10FFFF, truncated sequences) becomes the private-use character
 * U+EF00 + byte (U+EF80..U+EFFF); so does each byte of a valid U+EF80..U+EFFF
 * in the name, the escape range itself.  Decoding maps U+EF80..U+EFFF back to
 * single bytes and leaves every other character alone: the mapping is
 * lossless, and a name that is valid UTF-8 outside that range (every real one,
 * systemd's "\x2d" included) is passed through byte for byte.
 *
 * Terminal: each byte of a control character (C0, DEL, C1 U+0080..U+009F), of
 * a Unicode format or bidirectional control (which can reorder or hide what
 * follows), and each invalid byte is written as \xHH; a backslash as \\, so
 * no name can print as another one.
 */
#ifndef TMACG_NAME_ESCAPE_H
#define TMACG_NAME_ESCAPE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/*
 * The name as strict UTF-8 (see above).  Returns s itself when it needs no
 * change (the common case, no allocation), else a malloc'd string the caller
 * frees when it differs from s; NULL when out of memory.
 */
const char *name_json_text(const char *s);

/*
 * The reverse of name_json_text: each U+EF80..U+EFFF back to its byte, the
 * rest unchanged (what --replay does to names read from tmacg's own lines).
 * malloc'd, NULL if out of memory.
 */
char *name_json_bytes(const char *s);

/* The name with every non-printable byte as \xHH (see above); malloc'd, NULL if out of memory. */
char *name_term_text(const char *s);
/* name_term_text(s) written to f: text written by others, on a terminal. */
void name_term_put(FILE *f, const char *s);

/*
 * A message quoting a file (a parse error) made safe for stderr in place:
 * the terminal escaping above, backslashes left as they are, truncated to
 * size.  A file's bytes must not retitle or clear the operator's terminal.
 */
void term_escape_message(char *msg, size_t size);

#endif
