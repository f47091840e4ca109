/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * Why a run could not go on, and whose move it is: the kind decides the
 * exit code (docs/tmacg.8, EXIT STATUS), never the errno value that came
 * with the failure.  The step that fails says which kind it is, since only
 * it knows: a kernel's EINVAL while measuring is the run failing (1), a
 * --cgroup that does not exist is the user's to fix (2).
 */
#ifndef TMACG_RUN_ERROR_H
#define TMACG_RUN_ERROR_H

enum run_error_kind {
	RUN_OK,		 /* nothing went wrong: exit 0 */
	RUN_USAGE,	 /* what was asked cannot be done: an argument, a plan (exit 2) */
	RUN_UNSUPPORTED, /* this host lacks what tmacg needs, for its owner to give (exit 2) */
	RUN_FAILED,	 /* measuring, reading or writing failed while running (exit 1) */
};

/* Room for a message: a kernel's refusal quoted with what to do about it. */
#define RUN_ERROR_MSG_MAX 8192

struct run_error {
	enum run_error_kind kind;
	char msg[RUN_ERROR_MSG_MAX]; /* what failed, why, and what to do: "" with RUN_OK */
};

/* Sets e's kind and message (printf's format); returns -1, for `return run_fail(...)`. */
int run_fail(struct run_error *e, enum run_error_kind kind, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* The message a callee already wrote into e->msg, of kind: returns -1. */
int run_error_as(struct run_error *e, enum run_error_kind kind);

/* The process's exit code for e: 0, 1 or 2. */
int run_error_exit_code(const struct run_error *e);

#endif
