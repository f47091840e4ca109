// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "util/out_stream.h"

#include <errno.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "util/stop_signal.h"

static struct out_stream *current;

static uint64_t monotonic_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/*
 * After a stop signal: whether the output had its chance.  The stall is
 * counted from the signal or the last byte taken, whichever is later.
 */
static bool out_of_time(const struct out_stream *s)
{
	uint64_t at = stop_signal_at_ns(), now, since;

	if (!at)
		return false;
	now = monotonic_ns();
	since = s->progress_ns > at ? s->progress_ns : at;
	return now - at >= (uint64_t)s->total_ms * 1000000ULL ||
	       now - since >= (uint64_t)s->stall_ms * 1000000ULL;
}

static ssize_t out_write(void *cookie, const char *buf, size_t size)
{
	struct out_stream *s = cookie;
	size_t done = 0;

	if (s->err) { /* a failed output stays failed: the first cause is the one said */
		errno = s->err;
		return -1;
	}
	while (done < size && !s->gave_up) {
		ssize_t n = write(s->fd, buf + done, size - done);

		if (n > 0) {
			done += (size_t)n;
			s->progress_ns = monotonic_ns();
			/* short: a signal cut it; an output that takes a little at a time has 2 s */
			s->gave_up = done < size && out_of_time(s);
		} else if (n < 0 && errno == EINTR) {
			/* a nudge or a stop signal: go on, unless the output had its time */
			s->gave_up = out_of_time(s);
		} else {
			if (!s->err)
				s->err = n < 0 ? errno : EIO;
			errno = s->err;
			return done ? (ssize_t)done : -1;
		}
	}
	/* Given up: taken as written, so the printers end at once; counted instead. */
	s->dropped += size - done;
	return (ssize_t)size;
}

FILE *out_stream_open(struct out_stream *s, int fd, bool closed, int mode, char *buf, size_t size)
{
	cookie_io_functions_t io = { .write = out_write };

	memset(s, 0, sizeof(*s));
	s->fd = fd;
	s->err = closed ? EBADF : 0;
	s->stall_ms = OUT_STOP_STALL_MS;
	s->total_ms = OUT_STOP_TOTAL_MS;
	s->f = fopencookie(s, "w", io);
	if (!s->f)
		return NULL;
	setvbuf(s->f, buf, mode, size);
	current = s;
	return s->f;
}

int out_stream_error(FILE *f)
{
	if (current && f == current->f && current->err)
		return -current->err;
	return errno ? -errno : -EIO;
}

int out_stream_fd(FILE *f)
{
	return current && f == current->f ? current->fd : fileno(f);
}

const struct out_stream *out_stream_current(void)
{
	return current;
}

const char *out_stream_why(int err)
{
	switch (err) {
	case ENOSPC:
		return "the file system is full (ENOSPC): free space on it, or write the output "
		       "elsewhere";
	case EDQUOT:
		return "the disk quota is used up (EDQUOT): free space in it, or write the "
		       "output elsewhere";
	case EFBIG:
		return "the file is larger than this file system or RLIMIT_FSIZE allows "
		       "(EFBIG): write the output elsewhere, or split it (--duration)";
	case EBADF:
		return "the output is not open (EBADF: tmacg was started with its standard "
		       "output closed, as `>&-` does): give it a file or a pipe, or --format "
		       "none with --listen";
	case EPIPE:
		return "the reader of the output went away (EPIPE: the pipe's other end is "
		       "closed)";
	case EIO:
		return "the device behind the output failed (EIO: a disk error, or a terminal "
		       "whose session has ended)";
	default:
		return strerror(err);
	}
}
