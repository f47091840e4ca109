// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "monitor_capture.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <cmocka.h>

#include "monitor.h"
#include "options.h"

int monitor_capture(const char *const *args, char *err, size_t len)
{
	const char *argv[16] = { "tmacg" };
	char path[] = "/tmp/tmacg-monitor-capture-XXXXXX";
	int tmp = mkstemp(path), saved = dup(STDERR_FILENO), argc = 1, code;
	struct options o;
	ssize_t n;

	assert_true(tmp >= 0 && saved >= 0);
	while (args[argc - 1] && argc < 15) {
		argv[argc] = args[argc - 1];
		argc++;
	}
	assert_int_equal(options_parse(&o, argc, (char **)argv, stdout, stderr), 0);
	options_resolve(&o, false); /* as main does, for a pipe */
	fflush(stdout);
	fflush(stderr);
	dup2(tmp, STDERR_FILENO);
	code = monitor_run(&o);
	fflush(stdout);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	n = pread(tmp, err, len - 1, 0);
	err[n > 0 ? n : 0] = '\0';
	close(tmp);
	unlink(path);
	return code;
}
