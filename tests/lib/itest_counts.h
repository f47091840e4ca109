/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* Sums over tmacg's JSON lines (itest_json_lines) of one cgroup. */
#ifndef TMACG_ITEST_COUNTS_H
#define TMACG_ITEST_COUNTS_H

#include <json-c/json.h>
#include <stddef.h>

/*
 * Sum of counts.KEY over the lines of cgroup ("/parent/child") that are not
 * task lines; a null count adds 0.  *seen: how many lines there were.
 */
double itest_count_of(json_object **lines, size_t n, const char *cgroup, const char *key,
		      int *seen);
/* The same for counts.on_cpu_s, the CPU time tmacg charged to the cgroup. */
double itest_on_cpu_of(json_object **lines, size_t n, const char *cgroup, int *seen);

#endif
