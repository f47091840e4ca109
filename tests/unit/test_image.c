// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The image's binary and Containerfile (no container engine needed):
 * - build-static/tmacg (`make static`, built by `make test`) is a static-pie
 *   (ET_DYN, no PT_INTERP, no shared library), with full RELRO (GNU_RELRO and
 *   BIND_NOW), and tmacg's own code calls the stack protector and the
 *   fortified (_chk) libc functions: the hardening flags really applied;
 * - deploy/Containerfile is FROM scratch and the binary alone: nothing pulled,
 *   nothing run (tests/integration/test_container builds and runs it).
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
	/* readelf: the objects' own code (nm reads the IR of fat LTO objects instead). */
	und = run("readelf -sW %s | grep ' UND '", archive);
	assert_non_null(strstr(und, "__stack_chk_fail"));
	assert_non_null(strstr(und, "__snprintf_chk"));
	assert_non_null(strstr(und, "__fprintf_chk"));
	free(und);
}

/*
 * Built offline (issue 20): every FROM is scratch, so no registry is pulled
 * and no base image has to be pinned or trusted; no RUN (nothing to run it
 * with), and the one file copied is the binary.
 */
static void containerfile_pulls_nothing_and_runs_nothing(void **state)
{
	FILE *f = fopen("deploy/Containerfile", "r");
	char line[1024];
	int froms = 0, copies = 0;

	(void)state;
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "FROM ", 5)) {
			froms++;
			if (strcmp(line, "FROM scratch\n"))
				fail_msg("a base image would be pulled from a registry: %s", line);
		} else if (!strncmp(line, "RUN ", 4) || !strncmp(line, "ADD ", 4)) {
			fail_msg("the image runs or fetches something while building: %s", line);
		} else if (!strncmp(line, "COPY ", 5)) {
			copies++;
			if (strcmp(line, "COPY tmacg /usr/bin/tmacg\n"))
				fail_msg("the image holds more than the binary: %s", line);
		}
	}
	fclose(f);
	assert_int_equal(froms, 1);
	assert_int_equal(copies, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(static_binary_is_hardened),
		cmocka_unit_test(own_code_is_protected_and_fortified),
		cmocka_unit_test(containerfile_pulls_nothing_and_runs_nothing),
	};
	return cmocka_run_group_tests_name("image", tests, NULL, NULL);
}
