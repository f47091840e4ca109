// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * A live recording replayed as it is written: tmacg --pmu software --format
 * json into a FIFO, tmacg --replay FIFO --format top reading it.  The replay
 * must draw frames while the live run goes on (an interval as the next one
 * begins to arrive), not wait for the end of its input; every wait has a
 * deadline, and both processes are killed at the end whatever happened.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "itest.h"
#include "text_count.h"

/* Starts argv with stdin from in and stdout to out (-1: unchanged), stderr to /dev/null. */
static pid_t start(char *const argv[], int in, int out)
{
	pid_t pid = fork();

	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		if (in >= 0)
			dup2(in, STDIN_FILENO);
		if (out >= 0)
			dup2(out, STDOUT_FILENO);
		if (null >= 0)
			dup2(null, STDERR_FILENO);
		execv(argv[0], argv);
		_exit(127);
	}
	return pid;
}

/* Kills pid (when it still runs) and reaps it within 5 s. */
static void end(pid_t pid)
{
	for (int i = 0; pid > 0 && i < 50; i++) {
		if (waitpid(pid, NULL, WNOHANG) == pid)
			return;
		kill(pid, i < 20 ? SIGINT : SIGKILL);
		usleep(100000);
	}
}

static void top_follows_a_live_recording(void **state)
{
	char fifo[] = "/tmp/tmacg-replay-fifo-XXXXXX", path[64], text[1 << 16] = "";
	char *live[] = { getenv("TMACG"), "--pmu", "software", "--format", "json", "-i",
			 "200ms",	  "-c",	   "/",	       NULL };
	char *replay[] = { getenv("TMACG"), "--replay", path, "--format", "top", NULL };
	struct timespec t0, now;
	size_t n = 0;
	pid_t writer, reader;
	int out[2], wfd;

	(void)state;
	ITEST_NEED_ROOT();
	assert_non_null(mkdtemp(fifo));
	snprintf(path, sizeof(path), "%s/rec", fifo);
	assert_int_equal(mkfifo(path, 0600), 0);
	assert_int_equal(pipe(out), 0);
	reader = start(replay, -1, out[1]);
	close(out[1]);
	wfd = open(path, O_WRONLY); /* blocks until the replay opens it */
	assert_true(wfd >= 0);
	writer = start(live, -1, wfd);
	close(wfd);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	/* Two frames within 10 s, the live run still going. */
	while (text_count(text, "model software") < 2) {
		struct pollfd p = { .fd = out[0], .events = POLLIN };
		ssize_t got;

		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec - t0.tv_sec > 10 || poll(&p, 1, 1000) < 0)
			break;
		if (!(p.revents & (POLLIN | POLLHUP)))
			continue;
		got = read(out[0], text + n, sizeof(text) - n - 1);
		if (got <= 0)
			break;
		n += (size_t)got;
		text[n] = '\0';
	}
	/* the live run had not ended: the frames came as its lines did */
	assert_int_equal(waitpid(writer, NULL, WNOHANG), 0);
	end(writer);
	end(reader);
	close(out[0]);
	unlink(path);
	rmdir(fifo);
	if (text_count(text, "model software") < 2)
		fail_msg("no two frames while the recording went on: \"%s\"", text);
	assert_non_null(strstr(text, "host replay"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(top_follows_a_live_recording),
	};

	return cmocka_run_group_tests(tests, itest_group_setup, NULL);
}
