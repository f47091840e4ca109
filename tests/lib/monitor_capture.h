/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Runs tmacg's live loop (monitor_run) in-process and captures what it says on stderr. */
#ifndef TMACG_TESTS_MONITOR_CAPTURE_H
#define TMACG_TESTS_MONITOR_CAPTURE_H

#include <stddef.h>

/*
 * tmacg ARGS (what follows "tmacg", NULL-terminated, at most 15) through
 * options_parse and monitor_run, its stderr captured into err (NUL-terminated,
 * at most len - 1 bytes; stdout is the test's).  Returns monitor_run's exit
 * code; a cmocka failure when the arguments do not parse.
 */
int monitor_capture(const char *const *args, char *err, size_t len);

#endif
