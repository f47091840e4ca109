// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Cgroup and task names chosen by others, end to end: every JSON line is
 * strict UTF-8 and JSON (Python's json.loads on bytes too), two names that
 * differ only in invalid bytes stay apart, and the table carries no terminal
 * control, neither from a cgroup name nor from a task's comm.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "itest.h"
#include "utf8_check.h"

static const char *const names[] = {
	"bad\xff\xfe",
	"bad\xfe\xff", /* differ only in invalid bytes */
	"over\xc0\xaf",
	"surr\xed\xa0\x80",
	"cut\xe2\x82",
	"clear\x1b[2Jfake",
	"bell\a\r",
	"csi\x9b"
	"31m",
	"café \xf0\x9f\x98\x80",
};
#define NNAMES (sizeof(names) / sizeof(names[0]))

static void make_children(const char *parent)
{
	for (size_t i = 0; i < NNAMES; i++) {
		char cg[300];

		snprintf(cg, sizeof(cg), "%s/%s", parent, names[i]);
		assert_int_equal(itest_mkcg(cg), 0);
	}
}

/* Python's strict reading of the raw lines, as a consumer would: exit 0 when every line loads. */
static int python_loads_every_line(const char *out)
{
	char path[] = "/tmp/tmacg-lines-XXXXXX", cmd[512];
	int fd = mkstemp(path), rc;

	assert_true(fd >= 0);
	assert_int_equal(write(fd, out, strlen(out)), (ssize_t)strlen(out));
	close(fd);
	snprintf(cmd, sizeof(cmd),
		 "python3 -c 'import json,sys\n"
		 "for b in open(sys.argv[1], \"rb\"): json.loads(b)' %s",
		 path);
	rc = system(cmd);
	unlink(path);
	return rc;
}

static void json_lines_are_strict_utf8_and_lossless(void **state)
{
	char parent[128], mnt_parent[300];
	const char *args[] = { "--pmu",	   "software", "--cgroup", mnt_parent,	 "--depth",
			       "1",	   "--count",  "1",	   "--interval", "300ms",
			       "--format", "json",     NULL };
	bool seen[NNAMES] = { false };
	struct itest_tmacg t;
	json_object **lines;
	size_t n;

	(void)state;
	ITEST_NEED_ROOT();
	assert_int_equal(
		itest_make_parent("names", parent, sizeof(parent), mnt_parent, sizeof(mnt_parent)),
		0);
	make_children(parent);
	assert_int_equal(itest_tmacg_start(&t, args), 0);
	assert_int_equal(itest_tmacg_stop(&t, 0), 0);
	if (!utf8_check_strict((const unsigned char *)t.out, strlen(t.out)))
		fail_msg("output is not strict UTF-8");
	if (system("command -v python3 >/dev/null") == 0)
		assert_int_equal(python_loads_every_line(t.out), 0);
	lines = itest_json_lines(t.out, &n);
	assert_non_null(lines);
	for (size_t i = 0; i < n; i++) {
		const char *cg = itest_str(lines[i], "cgroup");
		char raw[512], want[400];

		assert_non_null(cg);
		assert_true(strlen(cg) < sizeof(raw));
		utf8_check_name_bytes(cg, raw);
		for (size_t k = 0; k < NNAMES; k++) {
			snprintf(want, sizeof(want), "/%s/%s", parent, names[k]);
			if (!strcmp(raw, want)) {
				assert_false(seen[k]); /* one line each: none merged */
				seen[k] = true;
			}
		}
	}
	for (size_t k = 0; k < NNAMES; k++)
		if (!seen[k])
			fail_msg("name %zu has no line of its own (or does not decode back)", k);
	itest_json_free(lines, n);
	itest_tmacg_free(&t);
	assert_int_equal(itest_rmcg(parent), 0);
}

/* No byte that moves a terminal: C0 but newline, DEL, and no C1 byte outside valid UTF-8. */
static void assert_no_terminal_controls(const char *out)
{
	for (const unsigned char *p = (const unsigned char *)out; *p; p++)
		if ((*p < 0x20 && *p != '\n') || *p == 0x7f)
			fail_msg("control byte 0x%02x in the table at offset %zu", *p,
				 (size_t)(p - (const unsigned char *)out));
	if (!utf8_check_strict((const unsigned char *)out, strlen(out)))
		fail_msg("the table holds invalid UTF-8 (a raw C1 byte or worse)");
}

static void table_has_no_terminal_escapes(void **state)
{
	char parent[128], mnt_parent[300], cg[300], link[] = "/tmp/tmacg-comm-XXXXXX";
	char linkpath[200];
	const char *args[] = { "--pmu", "software",   "--cgroup",   mnt_parent, "--depth",
			       "1",	"--per-task", "--interval", "30s",	"--format",
			       "table", "--color",    "never",	    NULL };
	/* dash names itself after the path it was started by: a comm with ESC[2J in it. */
	char *argv[] = { linkpath, "-c", "i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done",
			 NULL };
	struct itest_tmacg t;

	(void)state;
	ITEST_NEED_ROOT();
	assert_non_null(mkdtemp(link));
	snprintf(linkpath, sizeof(linkpath), "%s/\x1b[2J\x9b\r", link);
	assert_int_equal(symlink("/bin/sh", linkpath), 0);
	assert_int_equal(
		itest_make_parent("table", parent, sizeof(parent), mnt_parent, sizeof(mnt_parent)),
		0);
	make_children(parent);
	snprintf(cg, sizeof(cg), "%s/%s", parent, "clear\x1b[2Jfake");
	assert_int_equal(itest_tmacg_start(&t, args), 0);
	itest_tmacg_drain(&t);
	assert_int_equal(itest_wait(itest_spawn_in(cg, argv)), 0);
	assert_int_equal(itest_tmacg_stop(&t, SIGTERM), 0);
	assert_no_terminal_controls(t.out);
	assert_non_null(strstr(t.out, "clear\\x1b[2Jfake"));  /* the row, escaped */
	assert_non_null(strstr(t.out, "\\x1b[2J\\x9b\\x0d")); /* the task's comm, escaped */
	assert_non_null(strstr(t.out, "bad\\xff\\xfe"));
	assert_non_null(strstr(t.out, "bad\\xfe\\xff"));
	assert_non_null(strstr(t.out, "café \xf0\x9f\x98\x80")); /* printable: as it is */
	unlink(linkpath);
	rmdir(link);
	itest_tmacg_free(&t);
	assert_int_equal(itest_rmcg(parent), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(json_lines_are_strict_utf8_and_lossless, itest_cleanup),
		cmocka_unit_test_teardown(table_has_no_terminal_escapes, itest_cleanup),
	};
	return cmocka_run_group_tests_name("hostile_names", tests, itest_group_setup, NULL);
}
