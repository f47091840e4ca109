/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * A file written whole or not at all: written to a temporary file beside it
 * (same directory, so the rename cannot cross file systems), renamed over the
 * path only once complete.  Opened before the work starts, so a path that
 * cannot be written is refused before anything is measured.
 */
#ifndef TMACG_ATOMIC_FILE_H
#define TMACG_ATOMIC_FILE_H

#include <stddef.h>
#include <stdio.h>

struct atomic_file {
	FILE *f;	/* write here */
	char *path;	/* the destination */
	char *tmp_path; /* the temporary file, removed unless committed */
};

/* 0, or -errno with "PATH: why" in err. */
int atomic_file_open(struct atomic_file *af, const char *path, char *err, size_t errlen);
/* Flushes, syncs, closes and renames: 0, or -errno with err (the temporary file removed). */
int atomic_file_commit(struct atomic_file *af, char *err, size_t errlen);
/* Closes and removes the temporary file; the destination is left as it was. */
void atomic_file_abort(struct atomic_file *af);

#endif
