// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "util/file_read.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/name_escape.h"

static void too_large(const char *path, const char *what, size_t max, char *err, size_t errlen)
{
	if (max >= (1 << 20) && !(max & ((1 << 20) - 1)))
		snprintf(err, errlen, "%s: larger than %zu MiB, the limit of a %s: is it a %s?",
			 path, max >> 20, what, what);
	else
		snprintf(err, errlen, "%s: larger than %zu bytes, the limit of a %s: is it a %s?",
			 path, max, what, what);
}

static const char *kind_of(mode_t mode)
{
	switch (mode & S_IFMT) {
	case S_IFCHR:
		return "a character device";
	case S_IFBLK:
		return "a block device";
	case S_IFDIR:
		return "a directory";
	case S_IFIFO:
		return "a FIFO (named pipe)";
	case S_IFSOCK:
		return "a socket";
	default:
		return "not a regular file";
	}
}

static int open_input(const char *path, const char *what, bool allow_stream, char *err,
		      size_t errlen)
{
	/* O_NONBLOCK: opening a FIFO with no writer returns at once instead of waiting for one. */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK), e;
	struct stat st;

	if (fd < 0) {
		e = errno;
		snprintf(err, errlen, "%s: cannot open the %s: %s", path, what, strerror(e));
		return -e;
	}
	if (fstat(fd, &st)) {
		e = errno;
		snprintf(err, errlen, "%s: cannot stat the %s: %s", path, what, strerror(e));
		close(fd);
		return -e;
	}
	if (S_ISREG(st.st_mode) ||
	    (allow_stream && (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode)))) {
		/* Reads block again: a stream's reader waits for its writer (signals still end it). */
		if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) == 0)
			return fd;
		e = errno;
		snprintf(err, errlen, "%s: cannot read the %s: %s", path, what, strerror(e));
		close(fd);
		return -e;
	}
	snprintf(err, errlen, "%s: %s, not a regular file: the %s must be a regular file%s", path,
		 kind_of(st.st_mode), what, allow_stream ? " or a pipe" : "");
	close(fd);
	return -EINVAL;
}

static int read_all(const char *path, const char *what, size_t max, char **text, size_t *len,
		    char *err, size_t errlen)
{
	int fd = open_input(path, what, false, err, errlen), e = 0;
	size_t have = 0, cap;
	struct stat st;
	char *buf;

	*text = NULL;
	*len = 0;
	if (fd < 0)
		return fd;
	if (fstat(fd, &st) || (size_t)st.st_size > max) {
		too_large(path, what, max, err, errlen);
		close(fd);
		return -EFBIG;
	}
	/* The size said, plus one byte to see a file that grew past the cap since. */
	cap = (size_t)st.st_size + 1;
	buf = malloc(cap + 1);
	while (buf && !e) {
		ssize_t n = read(fd, buf + have, cap - have);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			e = errno;
		else if (n == 0)
			break;
		else if ((have += (size_t)n) > max)
			e = EFBIG;
		else if (have == cap) {
			/* It grew since fstat: room for more, never past max + 1 bytes. */
			char *nb;

			cap = cap * 2 > max + 1 ? max + 1 : cap * 2;
			nb = realloc(buf, cap + 1);
			if (!nb)
				e = ENOMEM;
			else
				buf = nb;
		}
	}
	close(fd);
	if (!buf)
		e = ENOMEM;
	if (e) {
		if (e == EFBIG)
			too_large(path, what, max, err, errlen);
		else if (e == ENOMEM)
			snprintf(err, errlen, "%s: out of memory", path);
		else
			snprintf(err, errlen, "%s: cannot read the %s: %s", path, what,
				 strerror(e));
		free(buf);
		return -e;
	}
	buf[have] = '\0';
	*text = buf;
	*len = have;
	return 0;
}

/* The path may be a directory entry's name, chosen by whoever wrote the directory. */
int file_open_input(const char *path, const char *what, bool allow_stream, char *err, size_t errlen)
{
	int fd = open_input(path, what, allow_stream, err, errlen);

	if (fd < 0)
		term_escape_message(err, errlen);
	return fd;
}

int file_read_all(const char *path, const char *what, size_t max, char **text, size_t *len,
		  char *err, size_t errlen)
{
	int ret = read_all(path, what, max, text, len, err, errlen);

	if (ret)
		term_escape_message(err, errlen);
	return ret;
}

int file_first_line(const char *root, const char *path, char *line, size_t len)
{
	char full[1024];
	FILE *f;

	snprintf(full, sizeof(full), "%s%s", root, path);
	f = fopen(full, "re");
	if (!f)
		return -errno;
	if (!fgets(line, (int)len, f)) {
		fclose(f);
		return -EINVAL;
	}
	fclose(f);
	line[strcspn(line, "\n")] = '\0';
	return 0;
}
