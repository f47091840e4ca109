/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* tmacg --prometheus-rules: the models asked for, their rules on stdout (prom/rules_gen.h). */
#ifndef TMACG_RULES_CMD_H
#define TMACG_RULES_CMD_H

#include <stdio.h>

#include "options.h"

/* The exit code: 0, 2 for a model, version, level or window that cannot be. */
int rules_cmd_run(const struct options *o, FILE *out, FILE *err);

#endif
