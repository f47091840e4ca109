// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The image (issue 20): deploy/build-image builds it offline from the static
 * binary, and podman runs it as the DaemonSet does: every capability dropped
 * but BPF and PERFMON, read-only root, no_new_privs, the host's cgroup2
 * hierarchy and BTF mounted read-only, under tmacg's seccomp profile
 * (deploy/seccomp/tmacg.json).  Under podman's own default profile tmacg either
 * works (a profile that lets CAP_BPF call bpf()) or ends naming seccomp and
 * the profile: never anything else.  Root; skipped, saying why, without
 * buildah and podman (deploy/install-deps.sh --test installs them) or without
 * build-static/tmacg (make static).  The image is removed afterwards.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "itest.h"
#include "repo_root.h"

static char root[PATH_MAX];
static char dir[] = "/tmp/tmacg-image-XXXXXX";
static bool made_dir;
static char image[128]; /* what podman load named it */
static const char *runtime = "";

static int sh(const char *cmd, char **out);

/*
 * podman (cgroupfs manager, as on this hybrid host) makes <mount>/libpod_parent
 * in every cgroup hierarchy and leaves it there, empty, after `run --rm`: the
 * ones this test made, to remove.
 */
#define MAX_HIERARCHIES 32
static char made_parents[MAX_HIERARCHIES][PATH_MAX];
static int nmade_parents;

/* Every cgroup (v1 or v2) mount's <mount>/libpod_parent that does not exist yet. */
static void note_missing_podman_parents(void)
{
	char line[4096], mnt[1024];
	FILE *f = fopen("/proc/self/mountinfo", "r");

	assert_non_null(f);
	while (fgets(line, sizeof(line), f) && nmade_parents < MAX_HIERARCHIES) {
		const char *sep = strstr(line, " - ");

		if (!sep || (strncmp(sep, " - cgroup ", 10) && strncmp(sep, " - cgroup2 ", 11)))
			continue;
		if (sscanf(line, "%*s %*s %*s %*s %1023s", mnt) != 1)
			continue;
		snprintf(made_parents[nmade_parents], PATH_MAX, "%s/libpod_parent", mnt);
		if (access(made_parents[nmade_parents], F_OK))
			nmade_parents++;
	}
	fclose(f);
}

/* Removes what podman left of the cgroups this test made it create; 0 when none is left. */
static int remove_podman_parents(void)
{
	char cmd[PATH_MAX + 128];
	int left = 0;

	for (int i = 0; i < nmade_parents; i++) {
		if (access(made_parents[i], F_OK))
			continue;
		snprintf(cmd, sizeof(cmd), "find '%s' -depth -type d -exec rmdir {} + 2>/dev/null",
			 made_parents[i]);
		sh(cmd, NULL);
		if (!access(made_parents[i], F_OK)) {
			fprintf(stderr, "podman left %s behind (not empty?)\n", made_parents[i]);
			left++;
		}
	}
	return left;
}

/* Runs cmd through sh; its stdout and stderr in out (malloc'ed); the exit status. */
static int sh(const char *cmd, char **out)
{
	char buf[4096];
	size_t len = 0, n;
	FILE *p = popen(cmd, "r"), *o;
	char *text = NULL;
	int st;

	assert_non_null(p);
	o = open_memstream(&text, &len);
	while ((n = fread(buf, 1, sizeof(buf), p)) > 0)
		fwrite(buf, 1, n, o);
	fclose(o);
	st = pclose(p);
	if (out)
		*out = text;
	else
		free(text);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static bool have(const char *tool)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "command -v %s >/dev/null 2>&1", tool);
	return sh(cmd, NULL) == 0;
}

static int setup(void **state)
{
	char cmd[3 * PATH_MAX], *out = NULL, *at;

	(void)state;
	if (geteuid() || !have("buildah") || !have("podman")) {
		printf("  skipped: needs root, buildah and podman (deploy/install-deps.sh "
		       "--test installs them)\n");
		return 0;
	}
	if (repo_root(root, sizeof(root)) || !mkdtemp(dir))
		return -1;
	made_dir = true;
	note_missing_podman_parents();
	snprintf(cmd, sizeof(cmd), "%s/build-static/tmacg", root);
	if (access(cmd, X_OK)) {
		printf("  skipped: %s missing (make static; make test builds it)\n", cmd);
		return 0;
	}
	/*
	 * crun refuses hosts whose cgroup2 mount has controllers while v1 is
	 * mounted too (hybrid, as on the test machine); runc does not.
	 */
	if (have("runc"))
		runtime = "--runtime runc";
	snprintf(cmd, sizeof(cmd),
		 "cd '%s' && deploy/build-image linux/amd64 build-static/tmacg '%s/tmacg.oci.tar' "
		 "tmacg-test:%d 2>&1 && podman load -q -i '%s/tmacg.oci.tar' 2>&1",
		 root, dir, (int)getpid(), dir);
	if (sh(cmd, &out)) {
		fprintf(stderr, "building or loading the image failed:\n%s", out);
		free(out);
		return -1;
	}
	printf("%s", out);
	at = strstr(out, "Loaded image");
	if (!at || sscanf(strchr(at, ':') + 1, " %127s", image) != 1) {
		fprintf(stderr, "podman load named no image:\n%s", out);
		free(out);
		return -1;
	}
	free(out);
	return 0;
}

static int teardown(void **state)
{
	char cmd[PATH_MAX + 128];

	(void)state;
	if (image[0]) {
		snprintf(cmd, sizeof(cmd), "podman rmi -f '%s' >/dev/null 2>&1", image);
		sh(cmd, NULL);
	}
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (made_dir)
		sh(cmd, NULL);
	remove_podman_parents();
	return 0;
}

/* podman run as the DaemonSet runs tmacg; seccomp: a --security-opt, or "" for podman's default. */
static int run_image(const char *seccomp, const char *args, char **out)
{
	char cmd[4 * PATH_MAX];

	/*
	 * podman raises RLIMIT_NOFILE and RLIMIT_NPROC to its defaults, which
	 * needs CAP_SYS_RESOURCE the container does not have (Kubernetes'
	 * runtimes set none): lower limits, enough for tmacg on this machine.
	 */
	snprintf(cmd, sizeof(cmd),
		 "timeout 120 podman %s run --rm --network none --cap-drop ALL "
		 "--cap-add BPF,PERFMON --read-only --security-opt no-new-privileges %s "
		 "--ulimit nofile=4096:4096 --ulimit nproc=4096:4096 "
		 "-v '%s:/sys/fs/cgroup:ro' -v /sys/kernel/btf:/sys/kernel/btf:ro '%s' %s 2>&1",
		 runtime, seccomp, itest_cgroup_mount(), image, args);
	return sh(cmd, out);
}

static void skip_without_image(void)
{
	if (!image[0])
		skip();
}

/* One file, run as uid 0, the binary as entrypoint, nothing else in it (no shell). */
static void image_is_one_static_binary(void **state)
{
	char cmd[512], *out;

	(void)state;
	skip_without_image();
	snprintf(cmd, sizeof(cmd),
		 "podman image inspect --format '{{.Architecture}} {{.Os}} {{.Config.User}} "
		 "{{.Config.Entrypoint}} {{len .RootFS.Layers}}' '%s'",
		 image);
	assert_int_equal(sh(cmd, &out), 0);
	if (strcmp(out, "amd64 linux 0:0 [/usr/bin/tmacg] 1\n"))
		fail_msg("image config: %s", out);
	free(out);
	snprintf(cmd, sizeof(cmd), "podman %s run --rm --entrypoint /bin/sh '%s' -c true 2>&1",
		 runtime, image);
	assert_int_not_equal(sh(cmd, &out), 0); /* no shell to run */
	free(out);
}

/* The DaemonSet's capabilities and tmacg's seccomp profile: it measures. */
static void runs_under_the_daemonsets_privileges(void **state)
{
	char opt[PATH_MAX + 64], *out;
	int rc;

	(void)state;
	skip_without_image();
	snprintf(opt, sizeof(opt), "--security-opt 'seccomp=%s/deploy/seccomp/tmacg.json'", root);
	rc = run_image(opt, "--pmu software --count 2 --interval 300ms --format json", &out);
	if (rc != 0 || !strstr(out, "{\"schema\":\"tmacg/1\""))
		fail_msg("exit %d:\n%s", rc, out);
	free(out);
}

/* podman's default profile: it works, or tmacg names seccomp and the profile. */
static void runtime_default_works_or_names_seccomp(void **state)
{
	char *out;
	int rc;

	(void)state;
	skip_without_image();
	rc = run_image("", "--pmu software --count 1 --interval 300ms --format json", &out);
	if (rc == 0) {
		assert_non_null(strstr(out, "{\"schema\":\"tmacg/1\""));
		printf("  podman's default seccomp profile allows bpf() to CAP_BPF here\n");
	} else if (!strstr(out, "seccomp filter is in force") ||
		   !strstr(out, "deploy/seccomp/tmacg.json")) {
		fail_msg("exit %d without naming seccomp and the profile:\n%s", rc, out);
	} else {
		printf("  podman's default profile refuses bpf(); tmacg said so:\n  %s", out);
	}
	free(out);
}

/* Last: the cgroups podman made for these runs are gone with them. */
static void leaves_no_cgroups_behind(void **state)
{
	(void)state;
	skip_without_image();
	assert_int_equal(remove_podman_parents(), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(image_is_one_static_binary),
		cmocka_unit_test(runs_under_the_daemonsets_privileges),
		cmocka_unit_test(runtime_default_works_or_names_seccomp),
		cmocka_unit_test(leaves_no_cgroups_behind),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
