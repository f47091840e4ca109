// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Hostile nesting: a workload 100 levels deep (paths longer than PATH_MAX)
 * must be charged to its top-level cgroup, whether it existed before tmacg
 * started (the scan) or was created while it ran (the mkdir events); and
 * siblings whose paths differ only after the tracepoint's 511 bytes must each
 * get its own, complete name.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "itest.h"
#include "itest_counts.h"
#include "itest_deep.h"

#define LEVELS 100
/* 100 levels of 60-byte names: about 6,100 bytes of path, over PATH_MAX. */
#define LEVEL_NAME "level-of-a-deeply-nested-cgroup-hierarchy-0123456789abcdefgh"

static void deep_burners_are_charged_to_the_top_level_cgroup(void **state)
{
	const char *args[] = { "--pmu", "software", "--interval", "30s", "--format", "json", NULL };
	char parent[128], cg[160];
	struct itest_tmacg t;
	json_object **lines;
	uint64_t before, after;
	int top, pre, post, seen;
	double got, want, tol;
	pid_t burners[2];
	size_t n;

	(void)state;
	ITEST_NEED_ROOT();
	itest_parent_name(parent, sizeof(parent), "deep");
	assert_int_equal(itest_mkcg(parent), 0);
	top = itest_deep_open(parent);
	assert_true(top >= 0);
	/* Found by the startup scan ... */
	pre = itest_deep_mkdir(top, LEVEL_NAME, LEVELS);
	assert_true(pre >= 0);
	/* The whole host: the test's parent is a level-1 line. */
	assert_int_equal(itest_tmacg_start(&t, args), 0);
	itest_tmacg_drain(&t);
	/* ... and named by mkdir events while tmacg runs. */
	post = itest_deep_mkdir(top, "x" LEVEL_NAME, LEVELS);
	assert_true(post >= 0);
	before = itest_usage_usec(parent);
	burners[0] = itest_deep_burn(pre, "1.5", "0.6");
	burners[1] = itest_deep_burn(post, "1.5", "0.6");
	assert_int_equal(itest_wait(burners[0]), 0);
	assert_int_equal(itest_wait(burners[1]), 0);
	after = itest_usage_usec(parent);
	lines = itest_stop_json(&t, SIGTERM, &n);
	snprintf(cg, sizeof(cg), "/%s", parent);
	got = itest_on_cpu_of(lines, n, cg, &seen);
	want = (after - before) / 1e6;
	tol = fmax(0.02 * want, 0.020);
	printf("  %s (burners %d levels down): tmacg %.4f s, cpu.stat %.4f s, error %.2f%%\n", cg,
	       LEVELS, got, want, want > 0 ? 100 * (got - want) / want : 0.0);
	assert_true(seen >= 1);
	assert_true(want > 0.3); /* the burners ran: not a comparison of two zeros */
	if (!(fabs(got - want) <= tol))
		fail_msg("%s: tmacg %.4f s, kernel %.4f s (tolerance %.4f s)", cg, got, want, tol);
	itest_json_free(lines, n);
	itest_tmacg_free(&t);
	close(pre);
	close(post);
	close(top);
	assert_int_equal(itest_rmcg(parent), 0);
}

/* 200-byte directory names: a few make a path longer than the tracepoint's cut. */
static void name200(char *buf, char c)
{
	memset(buf, c, 200);
	buf[200] = '\0';
}

struct sibling {
	char rel[8192]; /* below the mount, no leading '/' */
	int fd;
};

static void siblings_differing_after_the_cut_get_their_own_names(void **state)
{
	/* Prefix lengths at which two siblings are made: after 600, 1200 and 4096 bytes. */
	static const int at_levels[] = { 3, 6, 21 };
	char parent[128], mnt_parent[300], base[8192], name[201];
	struct sibling sib[6];
	struct itest_tmacg t;
	json_object **lines;
	int top, dir, level = 0;
	size_t n;

	(void)state;
	ITEST_NEED_ROOT();
	assert_int_equal(itest_make_parent("longnames", parent, sizeof(parent), mnt_parent,
					   sizeof(mnt_parent)),
			 0);
	{
		const char *args[] = { "--pmu",	   "software", "--cgroup",   mnt_parent,
				       "--depth",  "40",       "--interval", "30s",
				       "--format", "json",     NULL };

		assert_int_equal(itest_tmacg_start(&t, args), 0);
		itest_tmacg_drain(&t);
	}
	top = itest_deep_open(parent);
	assert_true(top >= 0);
	dir = dup(top);
	snprintf(base, sizeof(base), "%s", parent);
	name200(name, 'p');
	for (int k = 0; k < 3; k++) {
		int next;

		for (; level < at_levels[k]; level++) {
			next = itest_deep_mkdir(dir, name, 1);
			assert_true(next >= 0);
			close(dir);
			dir = next;
			strcat(base, "/");
			strcat(base, name);
		}
		assert_true(strlen(base) > (k == 0 ? 600u : k == 1 ? 1200u : 4096u));
		for (int s = 0; s < 2; s++) {
			struct sibling *x = &sib[k * 2 + s];

			/* Same 199 bytes, then 'a' or 'b': they differ in their last byte only. */
			name200(name, 's');
			name[199] = s ? 'b' : 'a';
			x->fd = itest_deep_mkdir(dir, name, 1);
			assert_true(x->fd >= 0);
			snprintf(x->rel, sizeof(x->rel), "%s/%s", base, name);
			assert_int_equal(itest_wait(itest_deep_burn(x->fd, "0.05", "1")), 0);
		}
		name200(name, 'p');
	}
	close(dir);
	lines = itest_stop_json(&t, SIGTERM, &n);
	for (int i = 0; i < 6; i++) {
		char want[8200];
		double got;
		int seen;

		assert_true(snprintf(want, sizeof(want), "/%s", sib[i].rel) < (int)sizeof(want));
		got = itest_on_cpu_of(lines, n, want, &seen);
		printf("  sibling %d (%zu-byte path): %d line(s), %.4f s\n", i, strlen(want), seen,
		       got);
		if (seen != 1)
			fail_msg("sibling %d (%zu bytes) has %d lines, expected exactly 1", i,
				 strlen(want), seen);
		/* Its own burner ran 50 ms at full duty: its line carries it. */
		assert_true(got > 0.01);
		close(sib[i].fd);
	}
	/* No line carries a name that is a cut-short prefix of another one. */
	for (size_t i = 0; i < n; i++) {
		const char *cg = itest_str(lines[i], "cgroup");

		assert_non_null(cg);
		for (int s = 0; s < 6; s++)
			if (strlen(cg) > 1 + strlen(parent) && strlen(cg) < 1 + strlen(sib[s].rel))
				assert_true(strncmp(cg + 1, sib[s].rel, strlen(cg) - 1) ||
					    sib[s].rel[strlen(cg) - 1] == '/');
	}
	itest_json_free(lines, n);
	itest_tmacg_free(&t);
	close(top);
	assert_int_equal(itest_rmcg(parent), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(deep_burners_are_charged_to_the_top_level_cgroup,
					  itest_cleanup),
		cmocka_unit_test_teardown(siblings_differing_after_the_cut_get_their_own_names,
					  itest_cleanup),
	};
	return cmocka_run_group_tests_name("deep_cgroups", tests, itest_group_setup, NULL);
}
