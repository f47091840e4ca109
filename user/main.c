// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* tmacg: TMA per cgroup.  Parses the command line and hands over to a mode. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
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
#include "util/out_stream.h"
#include "util/stop_signal.h"

/* stdout's, live (main): static, as stdout lives until exit. */
static char stdout_buffer[1 << 16];
static struct out_stream stdout_writer;

/*
 * Standard input, output and error that tmacg was started without (`>&-`)
 * are held by /dev/null: else the first file tmacg opens would take the
 * number, and the lines meant for stdout go into it.  Whether stdout was.
 */
static bool hold_closed_std_fds(void)
{
	bool stdout_closed = false;

	for (int fd = 0; fd <= 2; fd++) {
		if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
			continue;
		stdout_closed = stdout_closed || fd == STDOUT_FILENO;
		/* the lowest number free: fd, the ones below it being open by now */
		if (open("/dev/null", fd ? O_WRONLY : O_RDONLY) != fd)
			break;
	}
	return stdout_closed;
}

int main(int argc, char **argv)
{
	bool stdout_closed = hold_closed_std_fds();
	struct options o;
	int ret = options_parse(&o, argc, argv, stdout, stderr);

	if (ret == 1)
		return 0;
	if (ret)
		return 2;
	options_resolve(&o, isatty(STDOUT_FILENO));
	/*
	 * Live, the report flushes each interval whole (report_interval), a
	 * write per 64 KiB (a pipe's default capacity): few enough write()s, and
	 * small enough that each line is written into a buffer still in cache.
	 * JSON lines are kept by their printer, 64 KiB at a time
	 * (output_json.h): stdout is unbuffered then, so they go to write()
	 * without a copy into stdio's buffer.  The buffer is given, as glibc's
	 * setvbuf ignores a size asked without one.  --replay and the listings
	 * stay line-buffered: a replay of `tail -f` shows each line as it is
	 * read.  Through tmacg's own writer (util/out_stream.h): a failed write
	 * names its cause, and after a stop signal a blocked output cannot hold
	 * the exit.
	 */
	if (o.list_models || o.list_metrics || o.list_events || o.replay || o.explain)
		stdout = out_stream_open(&stdout_writer, STDOUT_FILENO, stdout_closed, _IOLBF, NULL,
					 0);
	else if (o.format == FORMAT_JSON)
		stdout = out_stream_open(&stdout_writer, STDOUT_FILENO, stdout_closed, _IONBF, NULL,
					 0);
	else
		stdout = out_stream_open(&stdout_writer, STDOUT_FILENO, stdout_closed, _IOFBF,
					 stdout_buffer, sizeof(stdout_buffer));
	if (!stdout) {
		fprintf(stderr, "tmacg: out of memory\n");
		return 1;
	}
	/* A closed pipe shows up as EPIPE on write: tmacg then ends quietly. */
	signal(SIGPIPE, SIG_IGN);
	/*
	 * The offline modes keep the stop signals' default: they have nothing to
	 * detach, and a read from a pipe that stays open must still end (a
	 * report's temporary file is removed first: offline.c).
	 */
	if (o.list_models)
		return model_list_print(stdout, stderr);
	if (o.prometheus_rules)
		return rules_cmd_run(&o, stdout, stderr);
	if (o.list_metrics || o.list_events || o.replay || o.explain)
		return offline_run(&o);
	/*
	 * SIGINT, SIGTERM, SIGHUP: the interval so far is reported, the HTML
	 * report written, everything closed; a blocked output given its deadline.
	 */
	if (stop_signals_catch(&monitor_stop))
		fprintf(stderr, "tmacg: warning: no timer for the stop signals: a blocked output "
				"may delay the exit after one\n");
	return monitor_run(&o);
}
