// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "util/run_error.h"

#include <stdarg.h>
#include <stdio.h>

int run_fail(struct run_error *e, enum run_error_kind kind, const char *fmt, ...)
{
	va_list ap;

	e->kind = kind;
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	return -1;
}

int run_error_as(struct run_error *e, enum run_error_kind kind)
{
	e->kind = kind;
	return -1;
}

int run_error_exit_code(const struct run_error *e)
{
	switch (e->kind) {
	case RUN_OK:
		return 0;
	case RUN_USAGE:
	case RUN_UNSUPPORTED:
		return 2;
	case RUN_FAILED:
	default:
		return 1;
	}
}
