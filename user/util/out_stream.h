/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * Standard output's one writer: a stdio stream (so every printer keeps
 * fprintf) whose bytes go out through a write() loop of tmacg's own, which
 * keeps the cause of a failed write (errno: ENOSPC, EBADF, EPIPE, EIO...)
 * for the message, and which, once a stop signal came (util/stop_signal.h),
 * gives the output a deadline: what it has not taken after
 * OUT_STOP_STALL_MS without taking a byte, or OUT_STOP_TOTAL_MS after the
 * signal, is dropped and counted, so a blocked pipe or terminal cannot keep
 * tmacg from ending.
 */
#ifndef TMACG_OUT_STREAM_H
#define TMACG_OUT_STREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define OUT_STOP_STALL_MS 500
#define OUT_STOP_TOTAL_MS 2000

struct out_stream {
	FILE *f;
	int fd;
	int err;		/* errno of the first write that failed; 0: none */
	bool gave_up;		/* the stop deadline passed: everything since dropped */
	uint64_t dropped;	/* bytes not written since */
	uint64_t progress_ns;	/* CLOCK_MONOTONIC when the output last took a byte */
	int stall_ms, total_ms; /* OUT_STOP_*_MS; tests shorten them */
};

/*
 * A stream writing to fd, buffered as setvbuf(mode, buf, size) says (buf
 * NULL: stdio's own), registered as the one writer out_stream_error and
 * out_stream_fd know.  closed: fd was not open when tmacg started (its
 * number held by /dev/null since): every write fails with EBADF.  NULL on
 * no memory.
 */
FILE *out_stream_open(struct out_stream *s, int fd, bool closed, int mode, char *buf, size_t size);

/*
 * Why the last write to f failed, as -errno: the writer's own cause for its
 * stream, else errno as the failing stdio call left it (-EIO when it left
 * none).  For every `if (ferror(f) || fflush(f))` of the printers.
 */
int out_stream_error(FILE *f);

/* The descriptor under f: the writer's fd for its stream, else fileno(f). */
int out_stream_fd(FILE *f);

/* The registered stream (NULL: none): its drops, for the run's last word. */
const struct out_stream *out_stream_current(void);

/*
 * A write error's cause in words, with what to do where something can be
 * done: "the file system is full (ENOSPC): free space ..."; err is errno
 * (positive).  Static text, or strerror's.
 */
const char *out_stream_why(int err);

#endif
