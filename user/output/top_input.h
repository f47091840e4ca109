/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * Keys for the live view, read from the terminal without waiting for Enter
 * and without echo.  Ctrl-C still interrupts (ISIG stays on); the terminal's
 * settings come back at top_input_close() and at exit.
 */
#ifndef TMACG_TOP_INPUT_H
#define TMACG_TOP_INPUT_H

#include <stdbool.h>
#include <termios.h>

struct top_input {
	int fd;
	bool active; /* fd is this process's foreground terminal, set to single keys */
	struct termios saved;
};

/*
 * Reads keys from fd when it is a terminal whose foreground this process is
 * (`tmacg &` must not stop on SIGTTOU); otherwise inactive: no key, ever.
 */
void top_input_open(struct top_input *in, int fd);
/* The next key typed, or -1 when none is waiting (never blocks). */
int top_input_key(struct top_input *in);
void top_input_close(struct top_input *in);

#endif /* TMACG_TOP_INPUT_H */
