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

/*
 * Prometheus's own PromQL on text's samples (`promtool test rules`, each
 * sample a series of one value): fails the test unless expr gives exactly
 * the samples of want, YAML list items of promtool's exp_samples
 * ("- labels: '{...}'\n  value: 0.25\n" each, "" for none); true when it
 * does, false (said on stderr) when promtool is not installed.
 */
bool promtool_query_gives(const char *text, const char *expr, const char *want);

#endif
