// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* tmacg: TMA per cgroup.  Parses the command line and hands over to a mode. */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "model/model.h"
#include "model_list.h"
#include "monitor.h"
#include "options.h"
#include "rules_cmd.h"
#include "replay/replay_run.h"
#include "offline.h"

/* stdout's, live (main): static, as stdout lives until exit. */
static char stdout_buffer[1 << 20];

static void on_stop_signal(int sig)
{
	(void)sig;
	monitor_stop = 1;
}

static void install_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop_signal;
	/*
	 * SA_RESTART: a write blocked on a slow reader resumes instead of losing
	 * the line; clock_nanosleep() is never restarted, so the sleep still ends.
	 */
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

int main(int argc, char **argv)
{
	struct options o;
	int ret = options_parse(&o, argc, argv, stdout, stderr);

	if (ret == 1)
		return 0;
	if (ret)
		return 2;
	options_resolve(&o, isatty(STDOUT_FILENO));
	/*
	 * Live, the report flushes each interval whole (report_interval): `kubectl
	 * logs` and pipes see every line when its interval ends, in one write per
	 * MiB instead of one per line (half of what was left of the output path's
	 * cost at 1,000 cgroups, docs/benchmarks.md).  The buffer is given:
	 * glibc's setvbuf ignores the size asked without one, and stdout wrote
	 * 4 KiB at a time (st_blksize), 2,500 write()s a second at level 6.
	 * A MiB: a level-6 interval of 1,000 cgroups is 10 MB.
	 * --replay and the listings stay line-buffered: a replay of `tail -f`
	 * shows each line as it is read.
	 */
	if (o.list_models || o.list_metrics || o.list_events || o.replay || o.explain)
		setvbuf(stdout, NULL, _IOLBF, 0);
	else
		setvbuf(stdout, stdout_buffer, _IOFBF, sizeof(stdout_buffer));
	/* A closed pipe shows up as EPIPE on write: tmacg then ends quietly. */
	signal(SIGPIPE, SIG_IGN);
	/*
	 * The offline modes keep SIGINT's and SIGTERM's default: they have nothing
	 * to detach, and a read from a pipe that stays open must still end.
	 */
	if (o.list_models)
		return model_list_print(stdout, stderr);
	if (o.prometheus_rules)
		return rules_cmd_run(&o, stdout, stderr);
	if (o.list_metrics || o.list_events || o.replay || o.explain)
		return offline_run(&o);
	install_signals();
	return monitor_run(&o);
}
