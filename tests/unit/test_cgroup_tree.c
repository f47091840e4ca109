// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Which cgroups are reported, and which reported cgroups a leaf's counts roll up into. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cgroups/cgroup_tree.h"
#include "util/acc_layout.h"

/* Ids are chosen by the test: the tree is fed as mkdir events would feed it. */
enum { ROOT = 1, A = 10, AB = 11, ABC = 12, X = 20, XY = 21 };

static struct cgroup_mount mnt = { .dir = "/nonexistent", .root = "/" };

static void build(struct cgroup_tree *t)
{
	assert_int_equal(cgroup_tree_add(t, ROOT, 0, "/"), 0);
	assert_int_equal(cgroup_tree_add(t, A, ROOT, "/a"), 0);
	assert_int_equal(cgroup_tree_add(t, AB, A, "/a/b"), 0);
	assert_int_equal(cgroup_tree_add(t, ABC, AB, "/a/b/c"), 0);
	assert_int_equal(cgroup_tree_add(t, X, ROOT, "/x"), 0);
	assert_int_equal(cgroup_tree_add(t, XY, X, "/x/y"), 0);
}

static void expect_targets(struct cgroup_tree *t, uint64_t id, const uint64_t *want, int nwant)
{
	struct cgroup_node *got[16];
	int n = cgroup_tree_targets_of(t, id, got, 16);

	assert_int_equal(n, nwant);
	for (int i = 0; i < n; i++)
		assert_true(got[i]->id == want[i]); /* deepest first */
}

static void whole_host_reports_root_children_and_root_tasks(void **state)
{
	struct cgroup_tree t;

	(void)state;
	assert_int_equal(cgroup_tree_init(&t, &mnt, NULL, 0), 0);
	build(&t);
	assert_true(cgroup_tree_get(&t, ROOT)->target);
	assert_true(cgroup_tree_get(&t, ROOT)->self_only);
	assert_true(cgroup_tree_get(&t, A)->target);
	assert_false(cgroup_tree_get(&t, AB)->target);
	/* A leaf's counts go to its level-1 ancestor only, never also to the root line. */
	expect_targets(&t, ABC, (uint64_t[]){ A }, 1);
	expect_targets(&t, XY, (uint64_t[]){ X }, 1);
	expect_targets(&t, ROOT, (uint64_t[]){ ROOT }, 1);
	expect_targets(&t, 999, NULL, 0); /* unknown */
	cgroup_tree_free(&t);
}

static void spec_with_depth_rolls_up_into_every_reported_ancestor(void **state)
{
	struct cgroup_spec spec = { .path = "/a", .depth = 1 };
	struct cgroup_tree t;

	(void)state;
	assert_int_equal(cgroup_tree_init(&t, &mnt, &spec, 1), 0);
	build(&t);
	assert_false(cgroup_tree_get(&t, ROOT)->target);
	assert_true(cgroup_tree_get(&t, A)->target);
	assert_true(cgroup_tree_get(&t, AB)->target);
	assert_false(cgroup_tree_get(&t, ABC)->target); /* two levels down */
	assert_false(cgroup_tree_get(&t, X)->target);
	expect_targets(&t, ABC, (uint64_t[]){ AB, A }, 2);
	expect_targets(&t, AB, (uint64_t[]){ AB, A }, 2);
	expect_targets(&t, A, (uint64_t[]){ A }, 1);
	expect_targets(&t, XY, NULL, 0);
	cgroup_tree_free(&t);
}

static void spec_does_not_match_a_sibling_prefix(void **state)
{
	struct cgroup_spec spec = { .path = "/a", .depth = 5 };
	struct cgroup_tree t;

	(void)state;
	assert_int_equal(cgroup_tree_init(&t, &mnt, &spec, 1), 0);
	assert_int_equal(cgroup_tree_add(&t, 30, ROOT, "/ab"), 0); /* "/ab" is not below "/a" */
	assert_false(cgroup_tree_get(&t, 30)->target);
	cgroup_tree_free(&t);
}

static int forgotten;

static void count_forget(uint64_t id, void *ctx)
{
	(void)ctx;
	assert_int_equal(id, ABC);
	forgotten++;
}

static void removed_cgroup_is_reported_once_more_then_forgotten(void **state)
{
	struct cgroup_spec spec = { .path = "/a", .depth = 2 };
	const struct acc_layout layout = { 4, 1 };
	struct cgroup_tree t;
	struct cgroup_node *n;

	(void)state;
	forgotten = 0;
	assert_int_equal(cgroup_tree_init(&t, &mnt, &spec, 1), 0);
	build(&t);
	n = cgroup_tree_get(&t, ABC);
	assert_non_null(cgroup_node_sum(n, &layout)); /* freed with the node: ASan checks */
	assert_ptr_equal(cgroup_node_sum(n, &layout), n->sum); /* allocated once */
	cgroup_tree_mark_removed(&t, ABC);
	assert_true(cgroup_node_reported(n)); /* the interval it was removed in */
	cgroup_tree_age_removed(&t, 2, count_forget, NULL);
	assert_false(cgroup_node_reported(n));			/* not printed again... */
	expect_targets(&t, ABC, (uint64_t[]){ ABC, AB, A }, 3); /* ...but late counts roll up */
	cgroup_tree_age_removed(&t, 2, count_forget, NULL);
	assert_int_equal(forgotten, 0);
	cgroup_tree_age_removed(&t, 2, count_forget, NULL);
	assert_int_equal(forgotten, 1);
	assert_null(cgroup_tree_get(&t, ABC));
	assert_non_null(cgroup_tree_get(&t, AB));
	cgroup_tree_free(&t);
}

static bool only_x(struct cgroup_node *n, void *ctx)
{
	(*(int *)ctx)++;
	return !strncmp(n->path, "/x", 2);
}

static void classifier_replaces_specs(void **state)
{
	struct cgroup_tree t;
	int calls = 0;

	(void)state;
	assert_int_equal(cgroup_tree_init(&t, &mnt, NULL, 0), 0);
	cgroup_tree_set_classifier(&t, only_x, &calls);
	build(&t);
	assert_int_equal(calls, 6);
	assert_false(cgroup_tree_get(&t, ROOT)->target);
	assert_false(cgroup_tree_get(&t, A)->target);
	assert_true(cgroup_tree_get(&t, X)->target);
	expect_targets(&t, XY, (uint64_t[]){ XY, X }, 2);
	cgroup_tree_free(&t);
}

static void scan_finds_directories_by_inode(void **state)
{
	char dir[] = "/tmp/tmacg-tree-XXXXXX", sub[128];
	struct cgroup_mount fake = { .root = "/" };
	struct cgroup_tree t;
	struct stat st;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(fake.dir, sizeof(fake.dir), "%s", dir);
	snprintf(sub, sizeof(sub), "%s/svc", dir);
	mkdir(sub, 0755);
	snprintf(sub, sizeof(sub), "%s/svc/web", dir);
	mkdir(sub, 0755);
	assert_int_equal(cgroup_tree_init(&t, &fake, NULL, 0), 0);
	assert_int_equal(cgroup_tree_scan(&t), 0);
	assert_int_equal(cgroup_tree_len(&t), 3);
	assert_int_equal(stat(sub, &st), 0);
	assert_non_null(cgroup_tree_get(&t, st.st_ino));
	assert_string_equal(cgroup_tree_get(&t, st.st_ino)->path, "/svc/web");
	assert_int_equal(cgroup_tree_get(&t, st.st_ino)->level, 2);
	cgroup_tree_free(&t);
	rmdir(sub);
	snprintf(sub, sizeof(sub), "%s/svc", dir);
	rmdir(sub);
	rmdir(dir);
}

/* A chain DEEP levels below ROOT: ids 1000 (level 1) .. 1000 + DEEP - 1. */
#define DEEP 150

static void build_deep(struct cgroup_tree *t)
{
	uint64_t parent = ROOT;

	assert_int_equal(cgroup_tree_add(t, ROOT, 0, "/"), 0);
	for (uint64_t i = 0; i < DEEP; i++) {
		assert_int_equal(cgroup_tree_add_child(t, 1000 + i, parent, "d"), 0);
		parent = 1000 + i;
	}
}

static void leaf_far_below_the_reported_cgroup_is_charged_to_it(void **state)
{
	struct cgroup_node *got[4];
	struct cgroup_tree t;
	const struct cgroup_node *leaf;

	(void)state;
	assert_int_equal(cgroup_tree_init(&t, &mnt, NULL, 0), 0);
	build_deep(&t);
	leaf = cgroup_tree_get(&t, 1000 + DEEP - 1);
	assert_non_null(leaf);
	assert_int_equal(leaf->level, DEEP);
	assert_int_equal(strlen(leaf->path), 2 * DEEP);
	/* 150 levels down, still charged to its level-1 ancestor, and only to it. */
	assert_int_equal(cgroup_tree_for_each_target(&t, 1000 + DEEP - 1, NULL, NULL), 1);
	assert_int_equal(cgroup_tree_targets_of(&t, 1000 + DEEP - 1, got, 4), 1);
	assert_true(got[0]->id == 1000);
	cgroup_tree_free(&t);
}

static void deep_spec_reports_every_level(void **state)
{
	struct cgroup_spec spec = { .path = "/d", .depth = DEEP };
	struct cgroup_tree t;
	int calls = 0;

	(void)state;
	assert_int_equal(cgroup_tree_init(&t, &mnt, &spec, 1), 0);
	build_deep(&t);
	/* More targets than any fixed array a caller might have used. */
	calls = cgroup_tree_for_each_target(&t, 1000 + DEEP - 1, NULL, NULL);
	assert_int_equal(calls, DEEP);
	cgroup_tree_free(&t);
}

static void broken_or_looping_chain_is_an_error_not_a_silent_zero(void **state)
{
	struct cgroup_tree t;

	(void)state;
	assert_int_equal(cgroup_tree_init(&t, &mnt, NULL, 0), 0);
	build_deep(&t);
	/* Parent 77 never seen: the delta belongs to nobody and the caller must count it. */
	assert_int_equal(cgroup_tree_add(&t, 500, 77, "/lost/child"), 0);
	assert_int_equal(cgroup_tree_for_each_target(&t, 500, NULL, NULL), -ESRCH);
	assert_int_equal(cgroup_tree_for_each_target(&t, 999999, NULL, NULL), -ENOENT);
	/* A corrupt chain (a loop) ends with an error instead of spinning. */
	cgroup_tree_get(&t, 1000)->parent_id = 1000 + DEEP - 1;
	assert_int_equal(cgroup_tree_for_each_target(&t, 1000 + DEEP / 2, NULL, NULL), -ELOOP);
	cgroup_tree_free(&t);
}

static void count_call(struct cgroup_node *n, void *ctx)
{
	(void)n;
	++*(int *)ctx;
}

/*
 * A chain that breaks above a target: nothing may be charged, because the
 * error makes the caller count the delta as unattributed (dropped).  Charging
 * the targets met before the break and also dropping would count it twice.
 */
static void broken_chain_charges_no_target(void **state)
{
	struct cgroup_spec spec = { .path = "/lost", .depth = 1 };
	struct cgroup_tree t;
	int calls = 0;

	(void)state;
	assert_int_equal(cgroup_tree_init(&t, &mnt, &spec, 1), 0);
	assert_int_equal(cgroup_tree_add(&t, ROOT, 0, "/"), 0);
	/* /lost and its child are targets; /lost's parent 77 was never seen. */
	assert_int_equal(cgroup_tree_add(&t, 600, 77, "/lost"), 0);
	assert_int_equal(cgroup_tree_add(&t, 500, 600, "/lost/child"), 0);
	assert_true(cgroup_tree_get(&t, 500)->target && cgroup_tree_get(&t, 600)->target);
	assert_int_equal(cgroup_tree_for_each_target(&t, 500, count_call, &calls), -ESRCH);
	assert_int_equal(calls, 0);
	/* A loop above a target: the same. */
	cgroup_tree_get(&t, 600)->parent_id = 500;
	assert_int_equal(cgroup_tree_for_each_target(&t, 500, count_call, &calls), -ELOOP);
	assert_int_equal(calls, 0);
	/* Once the chain is whole, both are charged. */
	cgroup_tree_get(&t, 600)->parent_id = ROOT;
	assert_int_equal(cgroup_tree_for_each_target(&t, 500, count_call, &calls), 2);
	assert_int_equal(calls, 2);
	cgroup_tree_free(&t);
}

static void child_is_named_by_its_parent_and_entry(void **state)
{
	char longname[256], want[1024];
	struct cgroup_tree t;

	(void)state;
	memset(longname, 'x', 255);
	longname[255] = '\0';
	assert_int_equal(cgroup_tree_init(&t, &mnt, NULL, 0), 0);
	build(&t);
	assert_int_equal(cgroup_tree_add_child(&t, 40, ABC, longname), 0);
	snprintf(want, sizeof(want), "/a/b/c/%s", longname);
	assert_string_equal(cgroup_tree_get(&t, 40)->path, want);
	assert_int_equal(cgroup_tree_get(&t, 40)->level, 4);
	assert_int_equal(cgroup_tree_add_child(&t, 41, ROOT, "top"), 0);
	assert_string_equal(cgroup_tree_get(&t, 41)->path, "/top");
	assert_int_equal(cgroup_tree_add_child(&t, 42, 4242, "orphan"), -ENOENT);
	assert_null(cgroup_tree_get(&t, 42));
	assert_int_equal(cgroup_tree_add_child(&t, 43, ROOT, ""), -EINVAL);
	assert_int_equal(cgroup_tree_add_child(&t, 43, ROOT, "a/b"), -EINVAL);
	cgroup_tree_free(&t);
}

/* mkdir -p of DEEP_FS levels of 200-byte names below dir, by openat: > 4 x PATH_MAX. */
#define DEEP_FS 100

static int open_chain(const char *dir, const char *name, int levels, bool create)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY);

	for (int i = 0; fd >= 0 && i < levels; i++) {
		int next;

		if (create && mkdirat(fd, name, 0755))
			return -1;
		next = openat(fd, name, O_RDONLY | O_DIRECTORY);
		close(fd);
		fd = next;
	}
	return fd;
}

static void remove_chain(const char *dir, const char *name, int levels)
{
	for (int depth = levels - 1; depth >= 0; depth--) {
		int fd = open_chain(dir, name, depth, false);

		assert_true(fd >= 0);
		assert_int_equal(unlinkat(fd, name, AT_REMOVEDIR), 0);
		close(fd);
	}
}

static void scan_has_no_depth_or_path_length_limit(void **state)
{
	char dir[] = "/tmp/tmacg-deep-XXXXXX", name[201];
	struct cgroup_mount fake = { .root = "/" };
	const struct cgroup_node *n;
	struct cgroup_tree t;
	struct stat st;
	int fd;

	(void)state;
	memset(name, 'n', 200);
	name[200] = '\0';
	assert_non_null(mkdtemp(dir));
	snprintf(fake.dir, sizeof(fake.dir), "%s", dir);
	fd = open_chain(dir, name, DEEP_FS, true);
	assert_true(fd >= 0);
	assert_int_equal(fstat(fd, &st), 0);
	close(fd);
	assert_int_equal(cgroup_tree_init(&t, &fake, NULL, 0), 0);
	assert_int_equal(cgroup_tree_scan(&t), 0);
	assert_int_equal(cgroup_tree_len(&t), DEEP_FS + 1);
	n = cgroup_tree_get(&t, st.st_ino);
	assert_non_null(n);
	assert_int_equal(n->level, DEEP_FS);
	assert_int_equal(strlen(n->path), DEEP_FS * 201);
	assert_int_equal(cgroup_tree_targets_of(&t, st.st_ino, (struct cgroup_node *[1]){ 0 }, 1),
			 1);
	cgroup_tree_free(&t);
	remove_chain(dir, name, DEEP_FS);
	assert_int_equal(rmdir(dir), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(whole_host_reports_root_children_and_root_tasks),
		cmocka_unit_test(spec_with_depth_rolls_up_into_every_reported_ancestor),
		cmocka_unit_test(spec_does_not_match_a_sibling_prefix),
		cmocka_unit_test(removed_cgroup_is_reported_once_more_then_forgotten),
		cmocka_unit_test(classifier_replaces_specs),
		cmocka_unit_test(scan_finds_directories_by_inode),
		cmocka_unit_test(leaf_far_below_the_reported_cgroup_is_charged_to_it),
		cmocka_unit_test(deep_spec_reports_every_level),
		cmocka_unit_test(broken_or_looping_chain_is_an_error_not_a_silent_zero),
		cmocka_unit_test(broken_chain_charges_no_target),
		cmocka_unit_test(child_is_named_by_its_parent_and_entry),
		cmocka_unit_test(scan_has_no_depth_or_path_length_limit),
	};
	return cmocka_run_group_tests_name("cgroup_tree", tests, NULL, NULL);
}
