// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The image's binary and Dockerfile (no container engine needed):
 * - build-static/tmacg (`make static`, built by `make test`) is a static-pie
 *   (ET_DYN, no PT_INTERP, no shared library), with full RELRO (GNU_RELRO and
 *   BIND_NOW), and tmacg's own code calls the stack protector and the
 *   fortified (_chk) libc functions: the hardening flags really applied;
 * - every FROM of deploy/Dockerfile is pinned by digest, and the runtime stage
 *   is a base with no shell (distroless static or scratch) that runs nothing.
 * $TMACG_STATIC overrides the binary's path (its directory holds libtmacg.a).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <ctype.h>
#include <libgen.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char *run(const char *fmt, const char *arg)
{
	char cmd[1024], *out = NULL;
	size_t len = 0, n;
	char buf[4096];
	FILE *p, *o = open_memstream(&out, &len);

	snprintf(cmd, sizeof(cmd), fmt, arg);
	p = popen(cmd, "r");
	assert_non_null(p);
	while ((n = fread(buf, 1, sizeof(buf), p)) > 0)
		fwrite(buf, 1, n, o);
	if (pclose(p) != 0)
		fail_msg("%s failed", cmd);
	fclose(o);
	return out;
}

static const char *static_binary(void)
{
	const char *path = getenv("TMACG_STATIC") ? getenv("TMACG_STATIC") : "build-static/tmacg";

	if (access(path, R_OK))
		fail_msg("%s missing: `make static` builds it (make test does)", path);
	return path;
}

static void static_binary_is_hardened(void **state)
{
	const char *bin = static_binary();
	char *hdr = run("readelf -hW %s", bin), *ph = run("readelf -lW %s", bin);
	char *dyn = run("readelf -dW %s", bin);

	(void)state;
	if (!strstr(hdr, "Type:                              DYN"))
		fail_msg("not position-independent (ET_DYN): %s", hdr);
	assert_null(strstr(ph, "INTERP"));    /* no dynamic loader: static */
	assert_null(strstr(dyn, "(NEEDED)")); /* no shared library */
	assert_non_null(strstr(ph, "GNU_RELRO"));
	if (!strstr(dyn, "BIND_NOW") && !strstr(dyn, "Flags: NOW"))
		fail_msg("relocations not bound at start (-z now): %s", dyn);
	free(hdr);
	free(ph);
	free(dyn);
}

/* Undefined references of tmacg's own objects: the flags reached the compiler. */
static void own_code_is_protected_and_fortified(void **state)
{
	char dir[4096], archive[4200], *und;

	(void)state;
	snprintf(dir, sizeof(dir), "%s", static_binary());
	snprintf(archive, sizeof(archive), "%s/libtmacg.a", dirname(dir));
	und = run("nm -u %s", archive);
	assert_non_null(strstr(und, "__stack_chk_fail"));
	assert_non_null(strstr(und, "__snprintf_chk"));
	assert_non_null(strstr(und, "__fprintf_chk"));
	free(und);
}

static void dockerfile_pins_bases_and_runs_no_shell(void **state)
{
	FILE *f = fopen("deploy/Dockerfile", "r");
	char line[1024], last_from[1024] = "";
	int froms = 0;
	bool run_after_last = false;

	(void)state;
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "FROM ", 5)) {
			const char *at = strstr(line, "@sha256:");
			int hex = 0;

			froms++;
			snprintf(last_from, sizeof(last_from), "%s", line + 5);
			run_after_last = false;
			if (!strncmp(line + 5, "scratch", 7))
				continue;
			if (!at)
				fail_msg("base image not pinned by digest: %s", line);
			for (at += 8; isxdigit((unsigned char)at[hex]); hex++)
				;
			if (hex != 64)
				fail_msg("digest is not 64 hex digits: %s", line);
		} else if (!strncmp(line, "RUN ", 4)) {
			run_after_last = true;
		}
	}
	fclose(f);
	assert_true(froms >= 2); /* a build stage and a runtime stage */
	if (strncmp(last_from, "gcr.io/distroless/static", 24) && strncmp(last_from, "scratch", 7))
		fail_msg("the runtime base has a shell or a package manager: %s", last_from);
	assert_false(run_after_last); /* a RUN needs a shell the runtime image lacks */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(static_binary_is_hardened),
		cmocka_unit_test(own_code_is_protected_and_fortified),
		cmocka_unit_test(dockerfile_pins_bases_and_runs_no_shell),
	};
	return cmocka_run_group_tests_name("image", tests, NULL, NULL);
}
