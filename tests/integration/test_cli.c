// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The exit codes the README promises, from the binary: bad arguments exit 2
 * with a message naming the fix (a duration without a unit, a cgroup that
 * does not exist), a reader that goes away (| head) ends tmacg quietly
 * with 0, a write that fails names its cause with 1.  Nothing here needs root.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "itest.h"
#include "repo_root.h"

struct run {
	int status; /* exit code, 128 + signal */
	char err[4096];
};

/*
 * Runs $TMACG with args; stdout a pipe already closed by its reader (closed),
 * /dev/null, or (to_fd) the descriptor out_fd, closed when it is -1.
 */
static void run_to(struct run *r, bool closed, bool to_fd, int out_fd, const char *const args[])
{
	const char *argv[32] = { getenv("TMACG") };
	int out[2], err[2], status, n = 1;
	size_t len = 0;
	ssize_t got;
	pid_t pid;

	assert_non_null(argv[0]);
	for (; args[n - 1]; n++)
		argv[n] = args[n - 1];
	argv[n] = NULL;
	assert_int_equal(pipe2(out, O_CLOEXEC), 0);
	assert_int_equal(pipe2(err, O_CLOEXEC), 0);
	if (closed)
		close(out[0]); /* the reader is gone before tmacg writes */
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		dup2(closed ? out[1] : null, 1);
		if (to_fd && out_fd >= 0)
			dup2(out_fd, 1);
		else if (to_fd)
			close(1);
		dup2(err[1], 2);
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	close(out[1]);
	close(err[1]);
	if (!closed)
		close(out[0]);
	while ((got = read(err[0], r->err + len, sizeof(r->err) - 1 - len)) > 0)
		len += (size_t)got;
	r->err[len] = '\0';
	close(err[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	r->status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static void run(struct run *r, bool closed, const char *const args[])
{
	run_to(r, closed, false, -1, args);
}

static void expect(const struct run *r, int status, const char *says)
{
	if (r->status != status || (says ? !strstr(r->err, says) : r->err[0] != '\0'))
		fail_msg("exit %d, want %d; stderr: \"%s\", want %s%s", r->status, status, r->err,
			 says ? "it to say " : "nothing", says ? says : "");
}

/* perf stat -I 1000 is one second, sleep 1000 is 1,000 seconds: tmacg refuses to guess. */
static void duration_without_unit_exits_2(void **state)
{
	/* --duration/--count bound a tmacg that would take the number (and fail the test). */
	static const char *const interval[] = { "--pmu",      "software", "--interval", "1000",
						"--duration", "1s",	  NULL };
	static const char *const duration[] = { "--pmu", "software",   "--duration", "3", "--count",
						"1",	 "--interval", "100ms",	     NULL };
	struct run r;

	(void)state;
	run(&r, false, interval);
	expect(&r, 2, "--interval '1000': a duration needs a unit: ns, us, ms, s, m or h");
	run(&r, false, duration);
	expect(&r, 2, "--duration '3': a duration needs a unit");
}

static void missing_cgroup_exits_2(void **state)
{
	static const char *const missing[] = {
		"--pmu", "software", "--cgroup", "/tmacg-test-no-such-cgroup", "--count", "1", NULL
	};
	static const char *const root[] = { "--pmu", "software", "--cgroup-root", "/tmp", "--count",
					    "1",     NULL };
	struct run r;

	(void)state;
	run(&r, false, missing);
	expect(&r, 2, "cgroup '/tmacg-test-no-such-cgroup' not found");
	run(&r, false, root);
	expect(&r, 2, "--cgroup-root /tmp: not a cgroup2 mount point");
}

/*
 * A path up out of the cgroup2 mount is refused as outside it, not looked up
 * as a cgroup of that name or taken for the mount's parent.
 */
static void cgroup_outside_mount_exits_2(void **state)
{
	char up[4200];
	const char *const args[] = { "--pmu", "software", "--cgroup", up, "--count", "1", NULL };
	struct run r;

	(void)state;
	snprintf(up, sizeof(up), "%s/..", itest_cgroup_mount());
	run(&r, false, args);
	expect(&r, 2, "is outside cgroup v2");
}

/* tmacg --replay ... | head: a quiet 0 in every format, not "Broken pipe" and 1. */
static void closed_pipe_during_replay_exits_0_quietly(void **state)
{
	static const char *const formats[] = { "json", "table", "top" };
	char golden[4200];

	(void)state;
	assert_int_equal(repo_root(golden, 4096), 0);
	strcat(golden, "/tests/golden/icx-tma4.5.jsonl");
	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++) {
		/* the golden vectors of TMA 4.5: that version reads every counter they hold */
		const char *const args[] = { "--replay", golden,	  "--model",
					     "icx",	 "--tma-version", "4.5",
					     "--format", formats[i],	  NULL };
		struct run r;

		run(&r, true, args);
		expect(&r, 0, NULL);
	}
}

/*
 * A write that fails says why, in its own words, and exits 1: a full disk,
 * a standard output never opened (`>&-`: nothing else may take its number),
 * a terminal whose session ended (EIO).  The replay's lines go through the
 * live run's writer, so this holds for both.
 */
static void write_errors_name_their_cause(void **state)
{
	char golden[4200];
	const char *const args[] = { "--replay", golden,     "--model", "icx", "--tma-version",
				     "4.5",	 "--format", "json",	NULL };
	int full = open("/dev/full", O_WRONLY | O_CLOEXEC);
	int master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC), slave;
	struct run r;

	(void)state;
	assert_int_equal(repo_root(golden, 4096), 0);
	strcat(golden, "/tests/golden/icx-tma4.5.jsonl");
	assert_true(full >= 0);
	run_to(&r, false, true, full, args);
	expect(&r, 1, "cannot write the output: the file system is full (ENOSPC)");
	close(full);

	run_to(&r, false, true, -1, args);
	expect(&r, 1, "cannot write the output: the output is not open (EBADF");

	if (master < 0)
		skip(); /* no /dev/ptmx here (a container without devpts) */
	assert_int_equal(grantpt(master), 0);
	assert_int_equal(unlockpt(master), 0);
	slave = open(ptsname(master), O_WRONLY | O_NOCTTY | O_CLOEXEC);
	assert_true(slave >= 0);
	close(master); /* the session's end: the terminal's writes fail with EIO */
	run_to(&r, false, true, slave, args);
	expect(&r, 1, "cannot write the output: the device behind the output failed (EIO");
	close(slave);
}

/* Entries of dir besides . and .. */
static int entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	assert_non_null(d);
	while ((e = readdir(d)))
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	return n;
}

/*
 * A replay's report of a pipe that stays open, ended by a stop signal: the
 * replay ends at once (it dies of the signal), and takes its temporary file
 * with it.
 */
static void stop_signal_during_html_replay_leaves_no_file(void **state)
{
	static const int sigs[] = { SIGTERM, SIGINT, SIGHUP };

	(void)state;
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		char dir[] = "/tmp/tmacg-cli-XXXXXX", out[64];
		const char *argv[] = {
			getenv("TMACG"), "--replay", "-",    "--model", "icx", "--tma-version",
			"4.5",		 "--format", "html", "-o",	out,   NULL
		};
		int in[2], status;
		pid_t pid;

		assert_non_null(argv[0]);
		assert_non_null(mkdtemp(dir));
		snprintf(out, sizeof(out), "%s/r.html", dir);
		assert_int_equal(pipe2(in, O_CLOEXEC), 0);
		pid = fork();
		assert_true(pid >= 0);
		if (pid == 0) {
			dup2(in[0], 0);
			execv(argv[0], (char *const *)argv);
			_exit(127);
		}
		close(in[0]);
		/* the temporary file, once it reads */
		for (int t = 0; t < 100 && !entries(dir); t++)
			usleep(100000);
		assert_int_equal(entries(dir), 1);
		assert_int_equal(kill(pid, sigs[i]), 0);
		assert_int_equal(waitpid(pid, &status, 0), pid);
		assert_true(WIFSIGNALED(status) && WTERMSIG(status) == sigs[i]);
		if (entries(dir))
			fail_msg("%s: a file left in %s", strsignal(sigs[i]), dir);
		close(in[1]);
		rmdir(dir);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(duration_without_unit_exits_2),
		cmocka_unit_test(missing_cgroup_exits_2),
		cmocka_unit_test(cgroup_outside_mount_exits_2),
		cmocka_unit_test(closed_pipe_during_replay_exits_0_quietly),
		cmocka_unit_test(write_errors_name_their_cause),
		cmocka_unit_test(stop_signal_during_html_replay_leaves_no_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
