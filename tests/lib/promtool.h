/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Prometheus's own checker on an exposition text, for the /metrics tests. */
#ifndef TMACG_PROMTOOL_H
#define TMACG_PROMTOOL_H

#include <stdbool.h>

/*
 * `promtool check metrics` on text: fails the test, showing the text, when
 * promtool rejects it; true when it accepts, false (said on stderr) when
 * promtool is not installed, so that the caller can skip.
 */
bool promtool_accepts(const char *text);

#endif
