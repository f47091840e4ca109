// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * What tmacg checks of the kernel before loading (collect/kernel_support.h):
 * each feature probe made to fail names the kernel's release, the feature and
 * the version that has it, and is the answer collector_open() turns into exit
 * 2; a probe that cannot tell (no privileges) blocks nothing.  And the BTF
 * choice: --btf FILE must be a kernel's BTF, no BTF at all names the file,
 * --btf and where to get one, in at most five lines.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <bpf/btf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "collect/collector.h"
#include "collect/kernel_support.h"

/* What each fake probe answers; the test sets it. */
static int ringbuf_answer, read_value_answer, test_run_answer;
static int test_run_cpu;

static int fake_ringbuf(void)
{
	return ringbuf_answer;
}

static int fake_read_value(void)
{
	return read_value_answer;
}

static int fake_test_run(int cpu)
{
	test_run_cpu = cpu;
	return test_run_answer;
}

static void fake_release(char *buf, size_t len)
{
	snprintf(buf, len, "5.9.0-fake");
}

static const struct kernel_probes fake = { fake_ringbuf, fake_read_value, fake_test_run,
					   fake_release };

static int all_supported(void **state)
{
	(void)state;
	ringbuf_answer = read_value_answer = test_run_answer = 1;
	test_run_cpu = -1;
	return 0;
}

static void expect_missing(int *answer, const char *feature, const char *since)
{
	char err[1024] = "";

	*answer = 0;
	assert_int_equal(kernel_features_check(&fake, 3, err, sizeof(err)),
			 COLLECTOR_KERNEL_UNSUPPORTED);
	if (!strstr(err, "5.9.0-fake") || !strstr(err, feature) || !strstr(err, since) ||
	    !strstr(err, "5.10 or later"))
		fail_msg("want the release, \"%s\" and %s in: %s", feature, since, err);
}

static void every_feature_present_passes(void **state)
{
	char err[256] = "";

	(void)state;
	assert_int_equal(kernel_features_check(&fake, 3, err, sizeof(err)), 0);
	assert_string_equal(err, "");
	assert_int_equal(test_run_cpu, 3); /* on the CPU it is given, as the flush runs */
}

static void no_test_run_on_cpu_exits_2(void **state)
{
	(void)state;
	expect_missing(&test_run_answer, "BPF_F_TEST_RUN_ON_CPU", "5.10");
}

static void no_ringbuf_exits_2(void **state)
{
	(void)state;
	expect_missing(&ringbuf_answer, "ring buffer", "5.8");
}

static void no_perf_read_value_exits_2(void **state)
{
	(void)state;
	expect_missing(&read_value_answer, "bpf_perf_event_read_value", "4.15");
}

/* EPERM: the probe could not ask; the load that follows says what is wrong. */
static void a_probe_that_cannot_tell_blocks_nothing(void **state)
{
	char err[256] = "";

	(void)state;
	ringbuf_answer = -EPERM;
	test_run_answer = -EACCES;
	read_value_answer = -EINVAL;
	assert_int_equal(kernel_features_check(&fake, 0, err, sizeof(err)), 0);
}

static int count_lines(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n + 1; /* the last line has no newline: the caller adds it */
}

static void no_btf_anywhere_says_how_to_get_it(void **state)
{
	struct btf_choice c;
	char err[2048] = "";

	(void)state;
	assert_int_equal(
		kernel_btf_choose(NULL, "/nonexistent/vmlinux", false, &c, err, sizeof(err)),
		-ENOENT);
	assert_false(c.kernel_btf);
	if (count_lines(err) > 5 || !strstr(err, "/nonexistent/vmlinux") ||
	    !strstr(err, "--btf FILE") || !strstr(err, "BTFHub") || !strstr(err, "debug package"))
		fail_msg("want at most 5 lines naming the file, --btf, BTFHub and the debug "
			 "package:\n%s",
			 err);
}

static void kernel_btf_present_needs_nothing(void **state)
{
	char path[] = "/tmp/tmacg-kbtf-XXXXXX", err[256] = "";
	struct btf_choice c;
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(kernel_btf_choose(NULL, path, false, &c, err, sizeof(err)), 0);
	assert_true(c.kernel_btf);
	assert_null(c.custom_path);
	unlink(path);
}

/* A raw BTF file: with task_struct (a kernel's) or without. */
static void write_btf(char *path, bool task_struct)
{
	struct btf *btf = btf__new_empty();
	const void *raw;
	__u32 size;
	int fd = mkstemp(path);
	int int_id;

	assert_non_null(btf);
	assert_true(fd >= 0);
	int_id = btf__add_int(btf, "int", 4, BTF_INT_SIGNED);
	assert_true(btf__add_struct(btf, task_struct ? "task_struct" : "other", 4) > 0);
	assert_int_equal(btf__add_field(btf, "pid", int_id, 0, 0), 0);
	raw = btf__raw_data(btf, &size);
	assert_non_null(raw);
	assert_int_equal(write(fd, raw, size), (ssize_t)size);
	close(fd);
	btf__free(btf);
}

static void btf_file_is_used_where_the_kernel_has_none(void **state)
{
	char path[] = "/tmp/tmacg-btf-XXXXXX", err[256] = "";
	struct btf_choice c;

	(void)state;
	write_btf(path, true);
	assert_int_equal(
		kernel_btf_choose(path, "/nonexistent/vmlinux", false, &c, err, sizeof(err)), 0);
	assert_string_equal(c.custom_path, path);
	assert_false(c.kernel_btf); /* raw_tp: tp_btf needs the kernel's own */
	unlink(path);
}

static void btf_file_not_a_kernels_is_refused(void **state)
{
	char bad[] = "/tmp/tmacg-btf-XXXXXX", text[] = "/tmp/tmacg-txt-XXXXXX", err[1024] = "";
	struct btf_choice c;
	int fd;

	(void)state;
	write_btf(bad, false);
	assert_int_equal(kernel_btf_choose(bad, "/nonexistent", false, &c, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "no struct task_struct"));
	fd = mkstemp(text);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "not btf\n", 8), 8);
	close(fd);
	assert_int_equal(kernel_btf_choose(text, "/nonexistent", false, &c, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "not a BTF file"));
	assert_int_equal(
		kernel_btf_choose("/nonexistent/btf", "/nonexistent", false, &c, err, sizeof(err)),
		-EINVAL);
	assert_non_null(strstr(err, "No such file"));
	unlink(bad);
	unlink(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(every_feature_present_passes, all_supported),
		cmocka_unit_test_setup(no_test_run_on_cpu_exits_2, all_supported),
		cmocka_unit_test_setup(no_ringbuf_exits_2, all_supported),
		cmocka_unit_test_setup(no_perf_read_value_exits_2, all_supported),
		cmocka_unit_test_setup(a_probe_that_cannot_tell_blocks_nothing, all_supported),
		cmocka_unit_test(no_btf_anywhere_says_how_to_get_it),
		cmocka_unit_test(kernel_btf_present_needs_nothing),
		cmocka_unit_test(btf_file_is_used_where_the_kernel_has_none),
		cmocka_unit_test(btf_file_not_a_kernels_is_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
