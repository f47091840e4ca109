// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * cgroup v1 at start (cgroups/cgroup_v1.h), from fake mountinfo files: a
 * v1-only host (RHEL 8, Amazon Linux 2) is told why tmacg cannot run there; a
 * hybrid host gets a note naming the cgroup2 mount and saying that v1
 * containers are not seen; a cgroup2 host (name=systemd alone in v1) none.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cgroups/cgroup_v1.h"

/* This project's machine: Debian 12 in the hybrid layout. */
static const char hybrid[] =
	"31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755\n"
	"32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu\n"
	"33 31 0:30 / /sys/fs/cgroup/cpuacct rw,relatime - cgroup cgroup rw,cpuacct\n"
	"35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory\n"
	"40 31 0:37 / /sys/fs/cgroup/systemd rw,relatime - cgroup cgroup rw,name=systemd\n"
	"41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw\n";
/* RHEL 8: v1 only, cpu and cpuacct in one hierarchy, options besides controllers. */
static const char v1_only[] =
	"25 21 0:22 / /sys/fs/cgroup ro,nosuid - tmpfs tmpfs ro,mode=755\n"
	"26 25 0:23 / /sys/fs/cgroup/systemd rw - cgroup cgroup rw,xattr,release_agent=/x,"
	"name=systemd\n"
	"29 25 0:26 / /sys/fs/cgroup/memory rw - cgroup cgroup rw,seclabel,memory\n"
	"30 25 0:27 / /sys/fs/cgroup/cpu,cpuacct rw - cgroup cgroup rw,seclabel,cpu,cpuacct\n";
/* A cgroup2 host whose systemd still keeps a named v1 hierarchy (no controller). */
static const char v2_named[] = "26 25 0:23 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw,nsdelegate\n"
			       "27 25 0:24 / /run/x rw - cgroup cgroup rw,name=systemd\n";

static void scan(const char *text, struct cgroup_v1 *v1)
{
	char path[] = "/tmp/tmacg-mountinfo-XXXXXX";
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	assert_int_equal(cgroup_v1_scan(path, v1), 0);
	unlink(path);
}

/* text's v1 hierarchies: how many, their controllers, the cpu controller's directory. */
static void expect_v1(const char *text, struct cgroup_v1 *v1, int n, const char *controllers,
		      const char *dir)
{
	scan(text, v1);
	assert_int_equal(v1->hierarchies, n);
	assert_string_equal(v1->controllers, controllers);
	assert_string_equal(v1->dir, dir);
}

static void hybrid_host_notes_the_v2_mount(void **state)
{
	struct cgroup_v1 v1;
	char note[1024];

	(void)state;
	expect_v1(hybrid, &v1, 3, "cpu,cpuacct,memory", "/sys/fs/cgroup/cpu");
	cgroup_v1_hybrid_note(&v1, "/sys/fs/cgroup/unified", note, sizeof(note));
	assert_non_null(strstr(note, "cgroup2 at /sys/fs/cgroup/unified"));
	assert_non_null(strstr(note, "containers placed in cgroup v1 are not seen"));
}

static void v1_only_host_is_told_why(void **state)
{
	struct cgroup_v1 v1;
	char msg[1024];

	(void)state;
	expect_v1(v1_only, &v1, 2, "memory,cpu,cpuacct", "/sys/fs/cgroup/cpu,cpuacct");
	cgroup_v1_no_v2_message(&v1, msg, sizeof(msg));
	assert_non_null(strstr(msg, "cgroup v1 only"));
	assert_non_null(strstr(msg, "/sys/fs/cgroup/cpu,cpuacct"));
	assert_non_null(strstr(msg, "systemd.unified_cgroup_hierarchy=1"));
}

static void cgroup2_host_says_nothing(void **state)
{
	struct cgroup_v1 v1;
	char note[1024] = "x";

	(void)state;
	scan(v2_named, &v1);
	assert_int_equal(v1.hierarchies, 0);
	cgroup_v1_hybrid_note(&v1, "/sys/fs/cgroup", note, sizeof(note));
	assert_string_equal(note, "");
}

static void no_cgroups_at_all(void **state)
{
	struct cgroup_v1 v1;
	char msg[512];

	(void)state;
	scan("26 25 0:23 / /proc rw - proc proc rw\n", &v1);
	cgroup_v1_no_v2_message(&v1, msg, sizeof(msg));
	assert_non_null(strstr(msg, "no cgroup2 filesystem is mounted"));
	assert_int_equal(cgroup_v1_scan("/nonexistent/mountinfo", &v1), -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(hybrid_host_notes_the_v2_mount),
		cmocka_unit_test(v1_only_host_is_told_why),
		cmocka_unit_test(cgroup2_host_says_nothing),
		cmocka_unit_test(no_cgroups_at_all),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
