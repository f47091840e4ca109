/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * Every file tmacg reads comes through here: model files, CPU descriptions,
 * replay input.  A path is opened without blocking (a FIFO nobody writes
 * would hold open() forever, deaf to SIGTERM), then fstat decides: a regular
 * file is read, capped in size; a FIFO or socket only where a stream is
 * wanted (replay); a device, directory or anything else is refused before a
 * byte is read, so a symlink to /dev/zero ends with a message, not with all
 * of memory.
 */
#ifndef TMACG_FILE_READ_H
#define TMACG_FILE_READ_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Opens path for reading: an fd (blocking again, close-on-exec), or -errno
 * with a message in err naming the file, what it is and what was expected.
 * what names the file's role in that message ("model file").
 */
int file_open_input(const char *path, const char *what, bool allow_stream, char *err,
		    size_t errlen);

/*
 * The whole of a regular file of at most max bytes, NUL-terminated
 * (malloc'ed, the caller frees *text): 0, or -errno with a message in err
 * (not a regular file, larger than max, unreadable, out of memory).
 */
int file_read_all(const char *path, const char *what, size_t max, char **text, size_t *len,
		  char *err, size_t errlen);

/* The first line of root+path (sysfs, procfs), newline dropped: 0, or -errno (-EINVAL: empty). */
int file_first_line(const char *root, const char *path, char *line, size_t len);

#endif
