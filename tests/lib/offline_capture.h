/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Runs tmacg's offline modes (listings, replay) in-process and captures one stream. */
#ifndef TMACG_TESTS_OFFLINE_CAPTURE_H
#define TMACG_TESTS_OFFLINE_CAPTURE_H

#include <stddef.h>

/*
 * tmacg ARGV through options_parse and offline_run, under TMACG_SYSFS_ROOT=root (NULL:
 * the real one), with the file descriptor fd (STDOUT_FILENO or STDERR_FILENO) captured
 * into text (NUL-terminated, at most len - 1 bytes).  Returns offline_run's exit code;
 * a cmocka failure when the arguments do not parse.
 */
int offline_capture(int fd, const char *root, int argc, const char **argv, char *text, size_t len);

#endif
