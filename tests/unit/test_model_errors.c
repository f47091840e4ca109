// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Every loader error names the file, line and column of the offending token. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

#include "model/model.h"

static void load_fails(const char *text, const char *want)
{
	char err[512] = "";
	struct tma_model *m = model_load(text, strlen(text), "t.tma", err, sizeof(err));

	if (m) {
		model_free(m);
		fail_msg("loaded, expected: %s", want);
	}
	assert_string_equal(err, want);
}

static void test_syntax_errors(void **state)
{
	(void)state;
	load_fails("model t\nnode 1 A\n  formula 1 + * 2\n",
		   "t.tma:3:15: syntax error: unexpected '*'");
	load_fails("model t\nnode 1 A\n  formula (1 + 2\n",
		   "t.tma:3:17: syntax error: expected ')', found end of expression");
	load_fails("model t\nnode 1 A\n  formula 1 if 2\n",
		   "t.tma:3:17: syntax error: expected 'else', found end of expression");
	load_fails("model t\nnode 1 A\n  formula 1 < 2 < 3\n",
		   "t.tma:3:17: chained comparison is not supported: join them with 'and'");
	load_fails("model t\nnode 1 A\n  formula foo(1)\n",
		   "t.tma:3:11: unknown function 'foo' (only min and max)");
	load_fails("model t\nnode 1 A\n  formula min(1)\n",
		   "t.tma:3:11: min/max need at least two arguments");
	load_fails("model t\nnode 1 A\n  formula 1 $ 2\n", "t.tma:3:13: unexpected character '$'");
	load_fails("model t\nnode 1 A\n  formula 1 = 2\n",
		   "t.tma:3:13: unexpected '=' (comparisons are == and !=)");
	load_fails("model t\nnode 1 A\n  formula 12abc\n", "t.tma:3:11: bad number");
	load_fails("model t\nnode 1 A\n  formula\n", "t.tma:3:10: empty expression");
	/* a leading comparison is for thresholds only */
	load_fails("model t\nnode 1 A\n  formula > 1\n",
		   "t.tma:3:11: syntax error: unexpected '>'");
	/* a retire latency is the event's own: no cmask or edge variant has one */
	load_fails("model t\nnode 1 A\n  formula X.Y:c1:retire_latency\n",
		   "t.tma:3:11: 'X.Y:c1:retire_latency': a retire latency takes no other modifier "
		   "(write EVENT.UMASK:retire_latency)");
	/* continuation lines: the column is the physical line's */
	load_fails("model t\nnode 1 A\n  formula 1 + \\\n      2 +\n",
		   "t.tma:4:10: syntax error: unexpected end of expression");
}

static void test_unknown_name(void **state)
{
	(void)state;
	load_fails("model t\nnode 1 A\n  formula 1 + Foo\n",
		   "t.tma:3:15: unknown name 'Foo' (not a constant, helper, flag, node or info "
		   "metric; events are written EVENT.UMASK, or declared with 'event NAME')");
	load_fails("model t\nevent ok\nevent ok\n", "t.tma:3:7: event ok declared twice");
	load_fails("model t\nevent Cycles\n",
		   "t.tma:2:7: an event's formula name must be [a-z_][a-z0-9_]*");
	load_fails("model t\nevent a b c\n",
		   "t.tma:2:11: 'event NAME [COUNTER]' takes at most two words");
	load_fails("model t\nnode 1 A\n  formula 1\n  threshold > 0.1 and Nope over threshold\n",
		   "t.tma:4:23: unknown node 'Nope' in a threshold");
	load_fails("model t\nnode 1 A\n  formula 1\n  threshold parent over threshold\n",
		   "t.tma:4:13: 'parent over threshold' in A, which has no parent");
	load_fails("model t\nconst C = X + 1\n", "t.tma:2:11: 'X' is not a constant defined above");
	load_fails("model t\nnode 1 A\n  formula 1\n  bogus 2\n",
		   "t.tma:4:3: unknown directive 'bogus'");
	load_fails("model t\n  formula 1\n",
		   "t.tma:2:3: 'formula' outside a node, info or count block");
}

static void test_cycle(void **state)
{
	(void)state;
	load_fails("model t\nnode 1 A\n  formula B + 1\nnode 2 B\n  formula 2 * A\n",
		   "t.tma:5:15: cycle: A -> B -> A");
	load_fails("model t\nhelper H = 1 + A\nnode 1 A\n  formula H\n",
		   "t.tma:2:16: cycle: A -> H -> A");
	load_fails("model t\nnode 1 A\n  formula A\n", "t.tma:3:11: cycle: A -> A");
}

static void test_duplicates(void **state)
{
	(void)state;
	load_fails("model t\nnode 1 A\n  formula 1\nnode 2 A\n  formula 2\n",
		   "t.tma:4:8: duplicate name A (first defined at line 2)");
	load_fails("model t\nnode 1 A\n  formula 1\ninfo A\n  formula 2\n",
		   "t.tma:4:6: duplicate name A (first defined at line 2)");
	load_fails("model t\nnode 1 A\n  formula 1\nnode 1 B\n  formula 2\n",
		   "t.tma:4:6: duplicate node number 1");
	load_fails("model t\nhelper H = 1\nhelper H = 2\n", "t.tma:3:8: duplicate name H");
	load_fails("model t\nnode 1 A\n  formula 1\n  formula 2\n",
		   "t.tma:4:3: second 'formula' line for the same entry");
	load_fails("model t\nnode 1 A\n  formula 1\ncount A\n  formula 2\n",
		   "t.tma:4:7: duplicate name A (first defined at line 2)");
}

/* A count is a value: no threshold, cap, scope or core_wide, and a formula it must have. */
static void test_count_fields(void **state)
{
	(void)state;
	load_fails("model t\ncount c\n  formula 1\n  threshold > 1\n",
		   "t.tma:4:3: 'threshold' does not belong to a count (domain, groups, desc, "
		   "brief, long, formula do)");
	load_fails("model t\ncount c\n  formula 1\n  cap 1\n",
		   "t.tma:4:3: 'cap' does not belong to a count (domain, groups, desc, "
		   "brief, long, formula do)");
	load_fails("model t\ncount c\n  scope thread\n",
		   "t.tma:3:3: 'scope' does not belong to a count (domain, groups, desc, brief, "
		   "long, formula do)");
	load_fails("model t\ncount c\n  desc no formula\n", "t.tma:2:7: c has no formula");
	load_fails("model t\ncount 1.2 c\n  formula 1\n",
		   "t.tma:2:7: expected a name ([A-Za-z_][A-Za-z0-9_]*, not a keyword)");
}

static void test_missing_parent(void **state)
{
	(void)state;
	load_fails("model t\nnode 1.2 B\n  formula 1\n",
		   "t.tma:2:6: node 1.2 has no parent: node 1 must come before it");
	load_fails("model t\nnode 1 A\n  formula 1\nnode 1.1.3 B\n  formula 1\n",
		   "t.tma:4:6: node 1.1.3 has no parent: node 1.1 must come before it");
	load_fails("model t\nnode 1..2 B\n  formula 1\n",
		   "t.tma:2:6: bad node number '1..2': write it as in the seed, e.g. 3.1.4");
}

static void test_file_level_errors(void **state)
{
	char err[512];

	(void)state;
	load_fails("title x\n", "t.tma:1:1: no 'model ID' line");
	load_fails("model t\nnode 1 A\n", "t.tma:2:8: A has no formula");
	load_fails("model T\n", "t.tma:1:7: model id must be [a-z0-9_][a-z0-9_-]*");
	load_fails("model -t\n", "t.tma:1:7: model id must be [a-z0-9_][a-z0-9_-]*");
	/* a version is printed as is (--list-models, --explain, messages): no terminal controls */
	load_fails("model t\ntma_version 5.2\x1b[2J\n",
		   "t.tma:2:13: tma_version must be [A-Za-z0-9][A-Za-z0-9._+-]*, at most 31 "
		   "characters");
	load_fails("model t\ntma_version .5\n",
		   "t.tma:2:13: tma_version must be [A-Za-z0-9][A-Za-z0-9._+-]*, at most 31 "
		   "characters");
	load_fails("model t\ntma_version 0123456789012345678901234567890123\n",
		   "t.tma:2:13: tma_version must be [A-Za-z0-9][A-Za-z0-9._+-]*, at most 31 "
		   "characters");
	load_fails("model t\nnode 1 A\n  formula 1 + \\\n",
		   "t.tma:3:1: the file ends after a continuation '\\'");
	load_fails("model t\nnode 1 A\n  formula 1\n  scope thread\n",
		   "t.tma:4:3: 'scope' belongs to info metrics");
	load_fails("model t\ninfo I\n  formula 1\n  scope galaxy\n",
		   "t.tma:4:9: scope must be thread, core, uncore or system");
	assert_null(model_load_file("/nonexistent/x.tma", err, sizeof(err)));
	assert_string_equal(
		err, "/nonexistent/x.tma: cannot open the model file: No such file or directory");
}

static void test_load_file(void **state)
{
	char path[] = "/tmp/tmacg-model-XXXXXX", err[512];
	const char text[] = "model t\nnode 1 A\n  formula 1 +\n";
	struct tma_model *m;
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, sizeof(text) - 1), sizeof(text) - 1);
	close(fd);
	assert_null(model_load_file(path, err, sizeof(err)));
	assert_non_null(strstr(err, ":3:14: syntax error: unexpected end of expression"));
	assert_int_equal(strncmp(err, path, strlen(path)), 0);
	fd = open(path, O_WRONLY | O_TRUNC);
	assert_int_equal(write(fd, "model t\nnode 1 A\n  formula 2\n", 29), 29);
	close(fd);
	m = model_load_file(path, err, sizeof(err));
	assert_non_null(m);
	assert_int_equal(model_node_count(m), 1);
	model_free(m);
	unlink(path);
}

/* The formula text for a node, in a buffer large enough for the limits below. */
static const char *node_with(const char *formula)
{
	static char text[16384];

	snprintf(text, sizeof(text), "model t\nnode 1 A\n  formula %s\n", formula);
	return text;
}

static void load_fails_saying(const char *text, const char *says)
{
	char err[512] = "";
	struct tma_model *m = model_load(text, strlen(text), "t.tma", err, sizeof(err));

	if (m) {
		model_free(m);
		fail_msg("loaded, expected: %s", says);
	}
	if (!strstr(err, says))
		fail_msg("error '%s', expected '%s'", err, says);
}

/* Each of the parser's four recursions is bounded, and so is the tree's height. */
static void test_limits(void **state)
{
	static const char *const nest[][2] = {
		{ "(", ")" }, { "-", "" }, { "not ", "" }, { "1 if 1 else ", "" }
	};
	static char f[12000];

	(void)state;
	for (size_t k = 0; k < sizeof(nest) / sizeof(nest[0]); k++) {
		size_t n = 0;

		for (int i = 0; i < 250; i++)
			n += sprintf(f + n, "%s", nest[k][0]);
		n += sprintf(f + n, "1");
		for (int i = 0; i < 250; i++)
			n += sprintf(f + n, "%s", nest[k][1]);
		load_fails_saying(node_with(f), "expression nested too deeply");
	}
	/* a + b + ... nests one level per operator, without recursing in the parser */
	f[0] = '1';
	for (int i = 0; i < 1001; i++)
		memcpy(f + 1 + 4 * i, " + 1", 5);
	load_fails_saying(node_with(f), "expression too long: split it with helpers");
	f[1 + 4 * 1000] = '\0'; /* 1000 operators: the most allowed */
	{
		char err[512] = "";
		const char *text = node_with(f);
		struct tma_model *m = model_load(text, strlen(text), "t.tma", err, sizeof(err));

		if (!m)
			fail_msg("1000 additions: %s", err);
		model_free(m);
	}
	load_fails("model t\nconst Z = 0\nconst X = 2 / (Z * 3)\n",
		   "t.tma:3:13: division by zero in a constant");
}

/* /dev/zero never ends: refused by fstat before a byte is read, so is a symlink to it. */
static void test_unbounded_file_refused(void **state)
{
	char dir[] = "/tmp/tmacg-model-XXXXXX", link[64], big[64], err[512];
	int fd;

	(void)state;
	assert_null(model_load_file("/dev/zero", err, sizeof(err)));
	assert_string_equal(err, "/dev/zero: a character device, not a regular file: the model "
				 "file must be a regular file");
	assert_non_null(mkdtemp(dir));
	snprintf(link, sizeof(link), "%s/zero.tma", dir);
	assert_int_equal(symlink("/dev/zero", link), 0);
	assert_null(model_load_file(link, err, sizeof(err)));
	assert_non_null(strstr(err, "zero.tma: a character device, not a regular file"));
	/* A regular file past the cap: refused by its size, nothing read. */
	snprintf(big, sizeof(big), "%s/big.tma", dir);
	fd = open(big, O_WRONLY | O_CREAT, 0600);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, (4 << 20) + 1), 0);
	close(fd);
	assert_null(model_load_file(big, err, sizeof(err)));
	assert_non_null(strstr(err, "big.tma: larger than 4 MiB, the limit of a model file"));
	unlink(link);
	unlink(big);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_syntax_errors),
		cmocka_unit_test(test_unknown_name),
		cmocka_unit_test(test_cycle),
		cmocka_unit_test(test_duplicates),
		cmocka_unit_test(test_missing_parent),
		cmocka_unit_test(test_file_level_errors),
		cmocka_unit_test(test_load_file),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_unbounded_file_refused),
		cmocka_unit_test(test_count_fields),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
