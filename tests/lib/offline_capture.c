// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "offline_capture.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <cmocka.h>

#include "offline.h"
#include "options.h"

int offline_capture(int fd, const char *root, int argc, const char **argv, char *text, size_t len)
{
	char path[] = "/tmp/tmacg-offline-capture-XXXXXX";
	int tmp = mkstemp(path), saved = dup(fd), code;
	struct options o;
	FILE *f;

	assert_true(tmp >= 0);
	assert_true(saved >= 0);
	assert_int_equal(options_parse(&o, argc, (char **)argv, stdout, stderr), 0);
	options_resolve(&o, false); /* as main does, for a pipe */
	if (root)
		setenv("TMACG_SYSFS_ROOT", root, 1);
	fflush(stdout);
	fflush(stderr);
	dup2(tmp, fd);
	code = offline_run(&o);
	fflush(stdout);
	fflush(stderr);
	dup2(saved, fd);
	close(saved);
	if (root)
		unsetenv("TMACG_SYSFS_ROOT");
	f = fdopen(tmp, "r");
	assert_non_null(f);
	rewind(f);
	text[fread(text, 1, len - 1, f)] = '\0';
	fclose(f);
	remove(path);
	return code;
}
