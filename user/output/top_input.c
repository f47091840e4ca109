// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "output/top_input.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The settings to restore at exit, whichever way tmacg ends normally. */
static struct top_input *restore_at_exit;

static void restore(void)
{
	if (restore_at_exit)
		top_input_close(restore_at_exit);
}

void top_input_open(struct top_input *in, int fd)
{
	struct termios raw;
	static bool registered;

	memset(in, 0, sizeof(*in));
	in->fd = fd;
	if (!isatty(fd) || tcgetpgrp(fd) != getpgrp() || tcgetattr(fd, &in->saved))
		return;
	raw = in->saved;
	/* Single keys, not lines, and not echoed over the screen; signals still work. */
	raw.c_lflag &= ~(ICANON | ECHO);
	/* A read returns at once, key or not: no O_NONBLOCK, which stdout's terminal would share. */
	raw.c_cc[VMIN] = 0;
	raw.c_cc[VTIME] = 0;
	if (tcsetattr(fd, TCSANOW, &raw))
		return;
	in->active = true;
	restore_at_exit = in;
	if (!registered)
		registered = !atexit(restore);
}

int top_input_key(struct top_input *in)
{
	unsigned char c;
	ssize_t n;

	if (!in->active)
		return -1;
	do
		n = read(in->fd, &c, 1);
	while (n < 0 && errno == EINTR);
	return n == 1 ? c : -1;
}

void top_input_close(struct top_input *in)
{
	if (!in->active)
		return;
	tcsetattr(in->fd, TCSANOW, &in->saved);
	in->active = false;
	if (restore_at_exit == in)
		restore_at_exit = NULL;
}
