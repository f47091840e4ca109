/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * Brute force, for the tests of the counter checks: whether n events can each
 * have a general-purpose counter of the gp, one event a counter, among those
 * mask[k] allows (bit c: counter c).
 */
#ifndef TMACG_TEST_COUNTER_ASSIGN_H
#define TMACG_TEST_COUNTER_ASSIGN_H

#include <stdbool.h>
#include <stdint.h>

bool counter_assign(const uint32_t *mask, int n, int gp);

#endif
