// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The rule, checked on every build: facts about a CPU live in its
 * description (user/model/builtin/<id>.cpu), so no C code under user/ names a
 * CPU id or model ("icx", spr, ...) or a CPUID model number (0x6A, 0x8F, ...).
 * The ids and numbers come from the descriptions themselves, so a CPU added
 * to the data is covered too.  Comments are prose and may name CPUs.
 */
#include <ctype.h>
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "pmu/cpu_desc.h"

static int hits;

/* The text with comments blanked out (strings kept: a message is code). */
static void strip_comments(char *s)
{
	char quote = 0;

	for (char *p = s; *p; p++) {
		if (quote) {
			if (*p == '\\' && p[1])
				p++;
			else if (*p == quote)
				quote = 0;
		} else if (*p == '"' || *p == '\'') {
			quote = *p;
		} else if (p[0] == '/' && p[1] == '*') {
			char *end = strstr(p + 2, "*/");
			char *stop = end ? end + 2 : p + strlen(p);

			for (; p < stop; p++)
				if (*p != '\n')
					*p = ' ';
			p--;
		} else if (p[0] == '/' && p[1] == '/') {
			for (; *p && *p != '\n'; p++)
				*p = ' ';
			p--;
		}
	}
}

static bool word_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* Case-insensitive whole-word occurrences of word in text; reports each. */
static void find_word(const char *file, const char *text, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = text; (p = strcasestr(p, word)); p += n) {
		int line = 1;

		if ((p > text && word_char(p[-1])) || word_char(p[n]))
			continue;
		for (const char *q = text; q < p; q++)
			line += *q == '\n';
		print_message("%s:%d: names '%s': move the fact to a .cpu description\n", file,
			      line, word);
		hits++;
	}
}

static void scan_file(const char *path)
{
	FILE *f = fopen(path, "r");
	char *text;
	long len;

	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	rewind(f);
	text = calloc((size_t)len + 1, 1);
	assert_non_null(text);
	assert_int_equal(fread(text, 1, (size_t)len, f), (size_t)len);
	fclose(f);
	strip_comments(text);
	for (int i = 0; i < cpu_desc_count(); i++) {
		const struct cpu_desc *d = cpu_desc_at(i);

		find_word(path, text, d->id);
		find_word(path, text, d->model);
		for (int k = 0; k < d->nmatch; k++) {
			char num[16];

			/* A range ([00-FF]: a whole AMD family) names no one CPU; 0x00 is any byte. */
			if (d->match[k].model != d->match[k].model_last)
				continue;
			snprintf(num, sizeof(num), "0x%X", d->match[k].model);
			find_word(path, text, num);
			snprintf(num, sizeof(num), "0x%02X", d->match[k].model);
			find_word(path, text, num);
		}
	}
	free(text);
}

static int scan_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int files = 0;

	if (!d)
		fail_msg("cannot open %s (run from the repository root or set TMACG_SRC_DIR)", dir);
	while ((e = readdir(d))) {
		char path[1024];
		size_t n = strlen(e->d_name);

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (e->d_type == DT_DIR) {
			files += scan_dir(path);
		} else if (n > 2 &&
			   (!strcmp(e->d_name + n - 2, ".c") || !strcmp(e->d_name + n - 2, ".h"))) {
			scan_file(path);
			files++;
		}
	}
	closedir(d);
	return files;
}

static void test_no_cpu_facts_in_c(void **state)
{
	const char *src = getenv("TMACG_SRC_DIR");

	(void)state;
	unsetenv("TMACG_MODEL_DIR");
	assert_true(cpu_desc_count() >= 3);
	assert_true(scan_dir(src && *src ? src : "user") > 20);
	if (hits)
		fail_msg("%d CPU facts in C code (listed above)", hits);
}

/* The checker finds what it must: a fixture line of each kind. */
static void test_checker_finds(void **state)
{
	char text[] = "static const char *id = \"spr\"; /* icx in a comment */\n"
		      "int m = 0x6a; // 0x8F in a comment\nint spread = 0x6AB;\n";

	(void)state;
	hits = 0;
	strip_comments(text);
	find_word("fixture.c", text, "spr");
	find_word("fixture.c", text, "icx");
	find_word("fixture.c", text, "0x6A");
	find_word("fixture.c", text, "0x8F");
	assert_int_equal(hits, 2);
	hits = 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_checker_finds),
		cmocka_unit_test(test_no_cpu_facts_in_c),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
