// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Finding the cgroup2 mount and turning user paths into hierarchy paths. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cgroup_cpu_stat.h"
#include "cgroups/cgroup_fs.h"

static char *write_tmp(const char *text)
{
	char *path = strdup("/tmp/tmacg-mountinfo-XXXXXX");
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	return path;
}

static void finds_cgroup2_among_v1_mounts(void **state)
{
	/* The hybrid layout of this project's machines. */
	char *mi = write_tmp(
		"25 30 0:23 / /sys rw,nosuid - sysfs sysfs rw\n"
		"31 25 0:26 / /sys/fs/cgroup rw - tmpfs tmpfs ro,mode=755\n"
		"32 31 0:27 / /sys/fs/cgroup/cpu rw - cgroup cgroup rw,cpu\n"
		"33 31 0:28 / /sys/fs/cgroup/unified rw,relatime shared:10 - cgroup2 cgroup2 rw\n");
	struct cgroup_mount m;

	(void)state;
	assert_int_equal(cgroup_find_mount(mi, NULL, &m), 0);
	assert_string_equal(m.dir, "/sys/fs/cgroup/unified");
	assert_string_equal(m.root, "/");
	unlink(mi);
	free(mi);
}

static void unescapes_and_selects_by_directory(void **state)
{
	char *mi = write_tmp("33 31 0:28 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n"
			     "40 31 0:28 /kubepods /mnt/my\\040cg rw - cgroup2 cgroup2 rw\n");
	struct cgroup_mount m;

	(void)state;
	assert_int_equal(cgroup_find_mount(mi, "/mnt/my cg/", &m), 0);
	assert_string_equal(m.dir, "/mnt/my cg");
	assert_string_equal(m.root, "/kubepods");
	assert_int_equal(cgroup_find_mount(mi, "/nowhere", &m), -ENOENT);
	unlink(mi);
	free(mi);
}

static void no_cgroup2_is_enoent(void **state)
{
	char *mi = write_tmp("32 31 0:27 / /sys/fs/cgroup/cpu rw - cgroup cgroup rw,cpu\n");
	struct cgroup_mount m;

	(void)state;
	assert_int_equal(cgroup_find_mount(mi, NULL, &m), -ENOENT);
	assert_int_equal(cgroup_find_mount("/nonexistent/mountinfo", NULL, &m), -ENOENT);
	unlink(mi);
	free(mi);
}

/* A fake mount: a plain directory tree stands in for cgroupfs. */
static void resolves_user_paths(void **state)
{
	char dir[] = "/tmp/tmacg-cgfs-XXXXXX", sub[128], out[CGROUP_PATH_MAX], abs[256];
	struct cgroup_mount m = { .root = "/" };

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(m.dir, sizeof(m.dir), "%s", dir);
	snprintf(sub, sizeof(sub), "%s/svc", dir);
	assert_int_equal(mkdir(sub, 0755), 0);
	snprintf(sub, sizeof(sub), "%s/svc/web", dir);
	assert_int_equal(mkdir(sub, 0755), 0);

	snprintf(abs, sizeof(abs), "%s/svc/web/", dir); /* below the mount, trailing slash */
	assert_int_equal(cgroup_resolve(&m, abs, out, sizeof(out)), 0);
	assert_string_equal(out, "/svc/web");
	snprintf(abs, sizeof(abs), "%s//svc", dir);
	assert_int_equal(cgroup_resolve(&m, abs, out, sizeof(out)), 0);
	assert_string_equal(out, "/svc");
	assert_int_equal(cgroup_resolve(&m, dir, out, sizeof(out)), 0);
	assert_string_equal(out, "/");
	assert_int_equal(cgroup_resolve(&m, "/svc/web", out, sizeof(out)),
			 0); /* in the hierarchy */
	assert_string_equal(out, "/svc/web");
	assert_int_equal(cgroup_resolve(&m, "svc", out, sizeof(out)), 0);
	assert_string_equal(out, "/svc");
	assert_int_not_equal(cgroup_resolve(&m, "/svc/nope", out, sizeof(out)), 0);
	snprintf(abs, sizeof(abs), "%s/nope", dir);
	assert_int_not_equal(cgroup_resolve(&m, abs, out, sizeof(out)), 0);

	/* '.', '..' and repeated slashes name the directory they lead to. */
	{
		static const struct {
			bool below; /* below the mount's directory, else a hierarchy path */
			const char *path, *want;
		} cases[] = {
			{ true, "/svc/./", "/svc" },
			{ true, "/svc/../svc//web/.", "/svc/web" },
			{ false, "svc/web/..", "/svc" },
			{ false, "/svc/./web/../../svc", "/svc" },
			{ false, ".", "/" },
		};

		for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
			snprintf(abs, sizeof(abs), "%s%s", cases[i].below ? dir : "",
				 cases[i].path);
			assert_int_equal(cgroup_resolve(&m, abs, out, sizeof(out)), 0);
			assert_string_equal(out, cases[i].want);
		}
	}
	/* Above the hierarchy's root: no cgroup there. */
	assert_int_equal(cgroup_resolve(&m, "/svc/../..", out, sizeof(out)), -EXDEV);
	/* Up out of the mount: outside cgroup2, refused as such, not taken as a path in it. */
	snprintf(abs, sizeof(abs), "%s/svc/../..", dir);
	assert_int_equal(cgroup_resolve(&m, abs, out, sizeof(out)), -EXDEV);
	{
		char link[300], outside[] = "/tmp/tmacg-cgfs-out-XXXXXX";

		/* A symlink to a cgroup directory names that cgroup. */
		snprintf(link, sizeof(link), "%s-link", dir);
		assert_int_equal(symlink(sub, link), 0);
		assert_int_equal(cgroup_resolve(&m, link, out, sizeof(out)), 0);
		assert_string_equal(out, "/svc/web");
		unlink(link);
		/* One to a directory outside the mount is refused, saying so. */
		assert_non_null(mkdtemp(outside));
		assert_int_equal(symlink(outside, link), 0);
		assert_int_equal(cgroup_resolve(&m, link, out, sizeof(out)), -EXDEV);
		unlink(link);
		rmdir(outside);
	}

	assert_int_equal(cgroup_dir_of(&m, "/svc/web", out, sizeof(out)), 0);
	assert_string_equal(out, sub);
	assert_int_equal(cgroup_dir_of(&m, "/", out, sizeof(out)), 0);
	assert_string_equal(out, dir);
	rmdir(sub);
	snprintf(sub, sizeof(sub), "%s/svc", dir);
	rmdir(sub);
	rmdir(dir);
}

static void namespaced_mount_root_is_stripped(void **state)
{
	struct cgroup_mount m = { .dir = "/sys/fs/cgroup", .root = "/kubepods" };
	char out[CGROUP_PATH_MAX];

	(void)state;
	assert_int_equal(cgroup_dir_of(&m, "/kubepods/pod1", out, sizeof(out)), 0);
	assert_string_equal(out, "/sys/fs/cgroup/pod1");
	assert_int_equal(cgroup_dir_of(&m, "/kubepods", out, sizeof(out)), 0);
	assert_string_equal(out, "/sys/fs/cgroup");
	assert_int_equal(cgroup_dir_of(&m, "/kubepodsX", out, sizeof(out)), 0);
	assert_string_equal(out, "/sys/fs/cgroup/kubepodsX");
}

static void parents_and_levels(void **state)
{
	char out[64];

	(void)state;
	cgroup_parent_path("/a/b/c", out, sizeof(out));
	assert_string_equal(out, "/a/b");
	cgroup_parent_path("/a", out, sizeof(out));
	assert_string_equal(out, "/");
	cgroup_parent_path("/", out, sizeof(out));
	assert_string_equal(out, "");
	assert_int_equal(cgroup_path_level("/"), 0);
	assert_int_equal(cgroup_path_level("/a"), 1);
	assert_int_equal(cgroup_path_level("/a/b/c"), 3);
}

static void cpu_stat_keys(void **state)
{
	char dir[] = "/tmp/tmacg-cgfs-XXXXXX", file[128];
	struct cgroup_mount m = { .root = "/" };
	uint64_t v = 0;
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(m.dir, sizeof(m.dir), "%s", dir);
	snprintf(file, sizeof(file), "%s/cpu.stat", dir);
	f = fopen(file, "w");
	fputs("usage_usec 123456789\nuser_usec 5\nsystem_usec 6\n", f);
	fclose(f);
	assert_int_equal(cgroup_read_cpu_stat(&m, "/", "usage_usec", &v), 0);
	assert_true(v == 123456789);
	assert_int_equal(cgroup_read_cpu_stat(&m, "/", "system_usec", &v), 0);
	assert_true(v == 6);
	assert_int_equal(cgroup_read_cpu_stat(&m, "/", "nice_usec", &v), -ENOENT);
	assert_int_equal(cgroup_read_cpu_stat(&m, "/gone", "usage_usec", &v), -ENOENT);
	unlink(file);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(finds_cgroup2_among_v1_mounts),
		cmocka_unit_test(unescapes_and_selects_by_directory),
		cmocka_unit_test(no_cgroup2_is_enoent),
		cmocka_unit_test(resolves_user_paths),
		cmocka_unit_test(namespaced_mount_root_is_stripped),
		cmocka_unit_test(parents_and_levels),
		cmocka_unit_test(cpu_stat_keys),
	};
	return cmocka_run_group_tests_name("cgroup_fs", tests, NULL, NULL);
}
