// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Standard output's writer (util/out_stream.h): each failed write keeps its
 * own cause (a full disk, a descriptor that was never open, a reader gone, a
 * terminal whose session ended) and its words name it; after a stop signal
 * an output that takes the bytes gets them, one that takes nothing is given
 * up on within its stall time, the rest counted as dropped.  The stop
 * signal's tests come last: its nudges go on until the process ends.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "util/out_stream.h"
#include "util/stop_signal.h"

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Writes a line to fd through the writer, flushed: the -errno out_stream_error gives, or 0. */
static int write_line(int fd, bool closed)
{
	struct out_stream s;
	FILE *f = out_stream_open(&s, fd, closed, _IOFBF, NULL, 0);
	int err = 0;

	assert_non_null(f);
	fputs("{\"a\":1}\n", f);
	if (fflush(f) || ferror(f))
		err = out_stream_error(f);
	assert_int_equal(out_stream_fd(f), fd);
	/* the cause stays: a second try says the same, not what errno holds now */
	errno = EINVAL;
	if (err) {
		fputs("more\n", f);
		assert_int_not_equal(fflush(f), 0);
		assert_int_equal(out_stream_error(f), err);
	}
	fclose(f);
	return err;
}

static void full_disk_is_enospc(void **state)
{
	int fd = open("/dev/full", O_WRONLY);

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(write_line(fd, false), -ENOSPC);
	close(fd);
	assert_non_null(strstr(out_stream_why(ENOSPC), "file system is full"));
}

static void never_open_is_ebadf(void **state)
{
	int fd = open("/dev/null", O_WRONLY);

	(void)state;
	assert_int_equal(write_line(fd, true), -EBADF);
	close(fd);
	assert_non_null(strstr(out_stream_why(EBADF), "not open"));
	assert_non_null(strstr(out_stream_why(EBADF), ">&-"));
}

static void reader_gone_is_epipe(void **state)
{
	int p[2];

	(void)state;
	signal(SIGPIPE, SIG_IGN);
	assert_int_equal(pipe(p), 0);
	close(p[0]);
	assert_int_equal(write_line(p[1], false), -EPIPE);
	close(p[1]);
	assert_non_null(strstr(out_stream_why(EPIPE), "reader of the output went away"));
}

/* A terminal whose other side closed (an ssh session gone): the kernel says EIO. */
static void hung_up_terminal_is_eio(void **state)
{
	int master = posix_openpt(O_RDWR | O_NOCTTY), slave;

	(void)state;
	if (master < 0)
		skip(); /* no /dev/ptmx here (a container without devpts) */
	assert_int_equal(grantpt(master), 0);
	assert_int_equal(unlockpt(master), 0);
	slave = open(ptsname(master), O_WRONLY | O_NOCTTY);
	assert_true(slave >= 0);
	close(master);
	assert_int_equal(write_line(slave, false), -EIO);
	close(slave);
	assert_non_null(strstr(out_stream_why(EIO), "terminal whose session has ended"));
}

static void other_causes_in_the_c_librarys_words(void **state)
{
	(void)state;
	assert_string_equal(out_stream_why(ENOMEM), strerror(ENOMEM));
}

/* A pipe of one page that nobody reads yet, filled: the next write blocks. */
static void full_pipe(int p[2])
{
	char page[4096];

	memset(page, 'x', sizeof(page));
	assert_int_equal(pipe2(p, O_NONBLOCK), 0);
	assert_true(fcntl(p[1], F_SETPIPE_SZ, 4096) >= 4096);
	while (write(p[1], page, sizeof(page)) > 0)
		;
	assert_int_equal(errno, EAGAIN);
	assert_int_equal(fcntl(p[1], F_SETFL, 0), 0); /* blocking again, as stdout is */
	assert_int_equal(fcntl(p[0], F_SETFL, 0), 0);
}

struct drain {
	int fd;
	int after_ms;
	size_t got;
};

static void *drain_later(void *arg)
{
	struct drain *d = arg;
	char buf[65536];
	ssize_t n;

	usleep(d->after_ms * 1000); /* a nudge may cut it short: it is late all the same */
	while ((n = read(d->fd, buf, sizeof(buf))) > 0 || (n < 0 && errno == EINTR))
		d->got += n > 0 ? (size_t)n : 0;
	return NULL;
}

struct trickle {
	int fd;
	volatile bool stop;
	size_t got;
};

/*
 * A reader that takes a page every 30 ms: slow (1 MiB in 8 s), never
 * stalled, so each nudge cuts a write that made progress (a short write).
 */
static void *read_slowly(void *arg)
{
	struct trickle *t = arg;
	char buf[4096];
	ssize_t n;

	while (!t->stop) {
		n = read(t->fd, buf, sizeof(buf));
		t->got += n > 0 ? (size_t)n : 0;
		usleep(30000);
	}
	return NULL;
}

static volatile sig_atomic_t stopped;

/*
 * After the signal: an output blocked at the time that then takes
 * everything gets everything; one that takes nothing is given up on
 * within its stall time, and what it did not take is counted.
 */
static void stop_signal_gives_the_output_a_deadline(void **state)
{
	static char interval[1024 * 1024];
	struct out_stream s;
	struct drain d;
	pthread_t t;
	int p[2];
	double t0;
	FILE *f;

	(void)state;
	memset(interval, 'y', sizeof(interval));
	assert_int_equal(stop_signals_catch(&stopped), 0);
	stop_signals_nudge();
	assert_int_equal(stop_signal_at_ns(), 0);
	assert_int_equal(raise(SIGTERM), 0);
	assert_true(stopped);
	assert_true(stop_signal_at_ns() > 0);

	/* Taken: a reader that comes 100 ms after the signal, within the stall time. */
	full_pipe(p);
	d = (struct drain){ .fd = p[0], .after_ms = 100 };
	assert_int_equal(pthread_create(&t, NULL, drain_later, &d), 0);
	f = out_stream_open(&s, p[1], false, _IOFBF, NULL, 0);
	assert_int_equal(fwrite(interval, 1, sizeof(interval), f), sizeof(interval));
	assert_int_equal(fflush(f), 0);
	fclose(f);
	close(p[1]);
	assert_int_equal(pthread_join(t, NULL), 0);
	close(p[0]);
	assert_false(s.gave_up);
	assert_int_equal(s.dropped, 0);
	assert_int_equal(d.got, 4096 + sizeof(interval)); /* the page that filled it, and all */

	/* Slow: it takes bytes all along, yet 2 s after the signal the rest is dropped. */
	full_pipe(p);
	struct trickle tr = { .fd = p[0] };
	assert_int_equal(pthread_create(&t, NULL, read_slowly, &tr), 0);
	f = out_stream_open(&s, p[1], false, _IOFBF, NULL, 0);
	t0 = now_s();
	assert_int_equal(fwrite(interval, 1, sizeof(interval), f), sizeof(interval));
	assert_int_equal(fflush(f), 0);
	assert_true(now_s() - t0 < 5.0);
	tr.stop = true;
	assert_int_equal(pthread_join(t, NULL), 0);
	assert_true(s.gave_up);
	assert_true(tr.got > 4096); /* it did take some: the stall alone never ended it */
	assert_true(s.dropped > 0 && s.dropped < sizeof(interval));
	fclose(f);
	close(p[0]);
	close(p[1]);

	/* Not taken: given up after the stall time, not before, and not hanging. */
	full_pipe(p);
	f = out_stream_open(&s, p[1], false, _IOFBF, NULL, 0);
	t0 = now_s();
	assert_int_equal(fwrite(interval, 1, sizeof(interval), f), sizeof(interval));
	assert_int_equal(fflush(f), 0); /* given up: taken as written, so printers end */
	assert_true(now_s() - t0 < 5.0);
	assert_true(s.gave_up);
	assert_int_equal(s.dropped, sizeof(interval));
	/* and what comes after goes nowhere at once */
	t0 = now_s();
	fputs("the next line\n", f);
	assert_int_equal(fflush(f), 0);
	assert_true(now_s() - t0 < 1.0);
	assert_int_equal(s.dropped, sizeof(interval) + strlen("the next line\n"));
	fclose(f);
	close(p[0]);
	close(p[1]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(full_disk_is_enospc),
		cmocka_unit_test(never_open_is_ebadf),
		cmocka_unit_test(reader_gone_is_epipe),
		cmocka_unit_test(hung_up_terminal_is_eio),
		cmocka_unit_test(other_causes_in_the_c_librarys_words),
		cmocka_unit_test(stop_signal_gives_the_output_a_deadline),
	};
	return cmocka_run_group_tests_name("out_stream", tests, NULL, NULL);
}
