// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "util/stop_signal.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define NSIGNALS 3
static const int stop_signals[NSIGNALS] = { SIGINT, SIGTERM, SIGHUP };

static volatile sig_atomic_t *stop_flag;
static volatile sig_atomic_t stopped;
static _Atomic uint64_t first_at_ns; /* lock-free where tmacg runs: safe in a handler */
static timer_t nudge;
static bool have_nudge;
static volatile sig_atomic_t nudging; /* stop_signals_nudge() called */
static const char *_Atomic unlink_path;

/* At once, then every STOP_NUDGE_MS until the process is gone.  Async-signal-safe. */
static void start_nudging(void)
{
	struct itimerspec every = {
		.it_value = { 0, 1 },
		.it_interval = { 0, STOP_NUDGE_MS * 1000000L },
	};

	if (have_nudge)
		timer_settime(nudge, 0, &every, NULL);
}

static void on_stop(int sig)
{
	int saved = errno;

	(void)sig;
	if (!stopped) {
		struct timespec ts;

		clock_gettime(CLOCK_MONOTONIC, &ts); /* async-signal-safe, as timer_settime */
		atomic_store(&first_at_ns, (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec);
		stopped = 1;
		if (nudging)
			start_nudging();
	}
	*stop_flag = 1;
	errno = saved;
}

/* Nothing to do: arriving is the point, it ends the syscall the thread is blocked in. */
static void on_nudge(int sig)
{
	(void)sig;
}

static void handle(void (*handler)(int))
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = handler;
	sa.sa_flags = 0; /* no SA_RESTART: a blocked write returns, and its caller decides */
	sigemptyset(&sa.sa_mask);
	for (int i = 0; i < NSIGNALS; i++) /* one at a time: the first notes the time alone */
		sigaddset(&sa.sa_mask, stop_signals[i]);
	for (int i = 0; i < NSIGNALS; i++)
		sigaction(stop_signals[i], &sa, NULL);
}

int stop_signals_catch(volatile sig_atomic_t *flag)
{
	struct sigevent ev = { .sigev_notify = SIGEV_SIGNAL, .sigev_signo = SIGALRM };
	struct sigaction sa;

	stop_flag = flag;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_nudge;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, NULL);
	have_nudge = !timer_create(CLOCK_MONOTONIC, &ev, &nudge);
	handle(on_stop);
	return have_nudge ? 0 : -errno;
}

void stop_signals_nudge(void)
{
	nudging = 1;
	if (stopped)
		start_nudging();
}

uint64_t stop_signal_at_ns(void)
{
	return stopped ? atomic_load(&first_at_ns) : 0;
}

static void on_death(int sig)
{
	const char *path = atomic_load(&unlink_path);

	if (path)
		unlink(path); /* async-signal-safe */
	signal(sig, SIG_DFL);
	raise(sig); /* delivered once this handler returns: the process ends of it */
}

void stop_signals_unlink_on_death(const char *path)
{
	atomic_store(&unlink_path, path);
	handle(on_death);
}

void stop_signals_forget(void)
{
	atomic_store(&unlink_path, NULL);
}
