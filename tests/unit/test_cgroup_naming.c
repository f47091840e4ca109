// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* mkdir/rmdir events -> cgroup names: parent's path plus entry, never the tracepoint's cut path. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cgroups/cgroup_naming.h"

static struct cgroup_mount mnt = { .dir = "/nonexistent", .root = "/" };

static struct tmacg_cgroup_event mkdir_ev(uint64_t id, uint64_t parent, const char *name)
{
	struct tmacg_cgroup_event ev = { .id = id,
					 .parent_id = parent,
					 .type = TMACG_CGROUP_MKDIR };

	snprintf(ev.name, sizeof(ev.name), "%s", name);
	return ev;
}

static void siblings_past_the_cut_get_their_own_full_names(void **state)
{
	char comp[201], want[2][2048];
	struct tmacg_cgroup_event ev;
	struct cgroup_tree t;
	bool may_scan = false;
	uint64_t parent = 1;

	(void)state;
	memset(comp, 'p', 200);
	comp[200] = '\0';
	assert_int_equal(cgroup_tree_init(&t, &mnt, NULL, 0), 0);
	assert_int_equal(cgroup_tree_add(&t, 1, 0, "/"), 0);
	/* Five 200-byte levels: 1,005 bytes, past the 511 the tracepoint's path keeps. */
	for (uint64_t id = 2; id <= 6; id++) {
		ev = mkdir_ev(id, parent, comp);
		assert_int_equal(cgroup_naming_apply(&t, &ev, &may_scan), 0);
		parent = id;
	}
	for (int s = 0; s < 2; s++) {
		/* The tracepoint's cut paths of the two would be identical: only the names differ. */
		ev = mkdir_ev(10 + s, parent, s ? "sib-b" : "sib-a");
		assert_int_equal(cgroup_naming_apply(&t, &ev, &may_scan), 0);
		snprintf(want[s], sizeof(want[s]), "/%s/%s/%s/%s/%s/sib-%c", comp, comp, comp, comp,
			 comp, s ? 'b' : 'a');
		assert_string_equal(cgroup_tree_get(&t, 10 + s)->path, want[s]);
		assert_int_equal(cgroup_tree_get(&t, 10 + s)->level, 6);
	}
	/* rmdir marks, and the name is kept for the last report. */
	ev.type = TMACG_CGROUP_RMDIR;
	ev.id = 10;
	assert_int_equal(cgroup_naming_apply(&t, &ev, &may_scan), 0);
	assert_true(cgroup_tree_get(&t, 10)->removed);
	assert_string_equal(cgroup_tree_get(&t, 10)->path, want[0]);
	cgroup_tree_free(&t);
}

static void unknown_parent_is_found_by_one_scan(void **state)
{
	char dir[] = "/tmp/tmacg-naming-XXXXXX", sub[128], subsub[160];
	struct cgroup_mount fake = { .root = "/" };
	struct tmacg_cgroup_event ev;
	struct stat pst, cst;
	struct cgroup_tree t;
	bool may_scan = true;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(fake.dir, sizeof(fake.dir), "%s", dir);
	assert_int_equal(cgroup_tree_init(&t, &fake, NULL, 0), 0);
	assert_int_equal(cgroup_tree_scan(&t), 0);
	/* Made after the scan, its mkdir event lost: the child names an unknown parent. */
	snprintf(sub, sizeof(sub), "%s/svc", dir);
	snprintf(subsub, sizeof(subsub), "%s/svc/web", dir);
	assert_int_equal(mkdir(sub, 0755), 0);
	assert_int_equal(mkdir(subsub, 0755), 0);
	assert_int_equal(stat(sub, &pst), 0);
	assert_int_equal(stat(subsub, &cst), 0);
	ev = mkdir_ev(cst.st_ino, pst.st_ino, "web");
	assert_int_equal(cgroup_naming_apply(&t, &ev, &may_scan), 0);
	assert_false(may_scan); /* spent */
	assert_string_equal(cgroup_tree_get(&t, cst.st_ino)->path, "/svc/web");
	assert_string_equal(cgroup_tree_get(&t, pst.st_ino)->path, "/svc");
	/* Without a scan left, an unknown parent leaves the cgroup unnamed (and says so). */
	ev = mkdir_ev(999999999, 888888888, "x");
	assert_int_equal(cgroup_naming_apply(&t, &ev, &may_scan), -ENOENT);
	assert_null(cgroup_tree_get(&t, 999999999));
	/* No name (the BPF read failed): not named by a guess either. */
	ev = mkdir_ev(777, pst.st_ino, "");
	assert_int_equal(cgroup_naming_apply(&t, &ev, &may_scan), -EINVAL);
	assert_null(cgroup_tree_get(&t, 777));
	cgroup_tree_free(&t);
	rmdir(subsub);
	rmdir(sub);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(siblings_past_the_cut_get_their_own_full_names),
		cmocka_unit_test(unknown_parent_is_found_by_one_scan),
	};
	return cmocka_run_group_tests_name("cgroup_naming", tests, NULL, NULL);
}
