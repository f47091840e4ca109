// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * --format html live (--pmu software: no PMU needed): the report is written at
 * the end of the run, by SIGINT, SIGTERM, SIGHUP or by --count, to -o's file and only whole
 * (nothing at the path while measuring, no temporary file left), with the
 * cgroups measured, their intervals and the host's kernel; an -o path that
 * cannot be written is refused with exit 2 before anything is measured.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <json-c/json.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "itest.h"

/* Files in dir besides the report: a temporary file left behind. */
static int other_files(const char *dir, const char *report)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	assert_non_null(d);
	while ((e = readdir(d)))
		if (e->d_name[0] != '.' && strcmp(e->d_name, report))
			n++;
	closedir(d);
	return n;
}

static void sigint_writes_the_report(void **state)
{
	char parent[128], mnt[200], child[160], path[200], dir[] = "/tmp/tmacg-html-XXXXXX";
	char out[64];
	const char *args[] = { "--pmu",	   "software",	 "--cgroup", mnt,	   "--depth",
			       "1",	   "--interval", "300ms",    "--duration", "10m",
			       "--format", "html",	 "-o",	     out,	   NULL };
	struct itest_tmacg t;
	struct utsname u;
	struct stat st;
	json_object *data, *c;
	pid_t burner;

	(void)state;
	ITEST_NEED_ROOT();
	assert_non_null(mkdtemp(dir));
	snprintf(out, sizeof(out), "%s/report.html", dir);
	assert_int_equal(itest_make_parent("html", parent, sizeof(parent), mnt, sizeof(mnt)), 0);
	snprintf(child, sizeof(child), "%s/web", parent);
	assert_int_equal(itest_mkcg(child), 0);
	burner = itest_burn_in(child, "30", "0.5", NULL);
	assert_int_equal(itest_tmacg_start(&t, args), 0);
	itest_tmacg_drain(&t);
	sleep(1);
	/* Measuring: nothing at the path yet. */
	assert_int_not_equal(stat(out, &st), 0);
	assert_int_equal(itest_tmacg_stop(&t, SIGINT), 0);
	kill(burner, SIGKILL);
	itest_wait(burner);
	data = itest_html_data(out);
	snprintf(path, sizeof(path), "/%s", child);
	c = itest_html_cgroup(data, path);
	assert_true(itest_num(c, "intervals") >= 2);
	print_message("%s: %.0f intervals, %.3f s CPU\n", path, itest_num(c, "intervals"),
		      itest_num(c, "cpu_s"));
	assert_true(itest_num(c, "cpu_s") > 0.1);
	assert_int_equal(uname(&u), 0);
	assert_string_equal(itest_str(data, "kernel"), u.release);
	assert_string_equal(itest_str(data, "model"), "software");
	assert_int_equal(other_files(dir, "report.html"), 0);
	json_object_put(data);
	itest_tmacg_free(&t);
	unlink(out);
	rmdir(dir);
}

/* SIGTERM (a pod's end) and SIGHUP (an ssh session closed) end the run as SIGINT does. */
static void every_stop_signal_writes_the_report(void **state)
{
	static const int sigs[] = { SIGTERM, SIGHUP };

	(void)state;
	ITEST_NEED_ROOT();
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		char dir[] = "/tmp/tmacg-html-XXXXXX", out[64];
		const char *args[] = { "--pmu", "software", "--interval", "200ms", "--format",
				       "html",	"-o",	    out,	  NULL };
		struct itest_tmacg t;
		json_object *data;

		assert_non_null(mkdtemp(dir));
		snprintf(out, sizeof(out), "%s/report.html", dir);
		assert_int_equal(itest_tmacg_start(&t, args), 0);
		itest_tmacg_drain(&t);
		usleep(500000);
		if (itest_tmacg_stop(&t, sigs[i]) != 0)
			fail_msg("%s: exit %d, want 0; stderr: %s", strsignal(sigs[i]), t.status,
				 t.err);
		data = itest_html_data(out);
		assert_true(itest_num(itest_html_cgroup(data, "/"), "intervals") >= 1);
		assert_int_equal(other_files(dir, "report.html"), 0); /* no temporary file */
		json_object_put(data);
		itest_tmacg_free(&t);
		unlink(out);
		rmdir(dir);
	}
}

static void count_ends_the_run(void **state)
{
	const char *args[] = { "--pmu", "software", "--interval", "200ms", "--count", "2", NULL };
	json_object *data;

	(void)state;
	ITEST_NEED_ROOT();
	data = itest_html_run(args);
	assert_int_equal((int)itest_num(itest_html_cgroup(data, "/"), "intervals"), 2);
	json_object_put(data);
}

/* Exit 2 and the reason, before the BPF setup: -v's "ready" never comes. */
static void unwritable_output_is_refused_first(void **state)
{
	char cmd[1024], text[4096] = "";

	(void)state;
	ITEST_NEED_ROOT();
	snprintf(cmd, sizeof(cmd),
		 "'%s' -v --pmu software --count 1 --format html -o /nonexistent-dir/r.html 2>&1",
		 getenv("TMACG"));
	assert_int_equal(itest_shell(cmd, text, sizeof(text)), 2);
	assert_non_null(strstr(text, "/nonexistent-dir/r.html: cannot write there"));
	assert_null(strstr(text, "ready"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(sigint_writes_the_report, itest_cleanup),
		cmocka_unit_test_teardown(every_stop_signal_writes_the_report, itest_cleanup),
		cmocka_unit_test_teardown(count_ends_the_run, itest_cleanup),
		cmocka_unit_test_teardown(unwritable_output_is_refused_first, itest_cleanup),
	};
	return cmocka_run_group_tests_name("html_live", tests, itest_group_setup, NULL);
}
