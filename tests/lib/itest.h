/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * Helpers for the root integration tests: cgroups the test creates under its
 * own parent and removes afterwards, processes started inside them, and
 * tmacg run as a child with its output collected.
 */
#ifndef TMACG_ITEST_H
#define TMACG_ITEST_H

#include <json-c/json.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* False (with the reason) when not root, or BPF/BTF is unavailable. */
bool itest_can_run(char *why, size_t len);

/*
 * A cmocka group setup deciding once whether these root tests can run; it
 * says why not on stderr.  Each test then starts with ITEST_NEED_ROOT().
 */
extern char itest_skip_reason[256];
int itest_group_setup(void **state);
/* TMACG_MODEL_DIR=tests/fixtures/name of this repository, then itest_group_setup. */
int itest_fixture_setup(void **state, const char *name);
#define ITEST_NEED_ROOT()                 \
	do {                              \
		if (itest_skip_reason[0]) \
			skip();           \
	} while (0)

/* The cgroup2 mount directory ("/sys/fs/cgroup/unified" here). */
const char *itest_cgroup_mount(void);

/* Creates "<mount>/<rel>"; 0 or -errno. */
int itest_mkcg(const char *rel);
/* Kills what runs inside and removes "<mount>/<rel>" and its descendants. */
int itest_rmcg(const char *rel);
/* The cgroup's id (its directory's inode number); 0 or -errno. */
int itest_cgroup_id(const char *rel, uint64_t *id);
/* usage_usec from cpu.stat. */
uint64_t itest_usage_usec(const char *rel);

/* Starts argv inside cgroup rel (joined before exec). */
pid_t itest_spawn_in(const char *rel, char *const argv[]);
/* Starts the burn helper: SECONDS DUTY [DUTY2] in cgroup rel. */
pid_t itest_burn_in(const char *rel, const char *seconds, const char *duty, const char *duty2);
/* waitpid; returns the exit status (or 128 + signal). */
int itest_wait(pid_t pid);
/*
 * Runs cmd with sh -c; what it prints (up to outlen - 1 bytes) in out.
 * Returns its exit status, or -1 when it did not exit.
 */
int itest_shell(const char *cmd, char *out, size_t outlen);

struct itest_tmacg {
	pid_t pid;
	int out_fd; /* read by a thread so tmacg never blocks on a full pipe */
	int err_fd;
	char *out; /* all of stdout, after itest_tmacg_stop */
	char *err; /* all of stderr (so far, before the stop) */
	int status;
	void *reader; /* the draining thread */
};

/* Runs $TMACG with args (NULL-terminated) and -v; waits for its "ready" line. */
int itest_tmacg_start(struct itest_tmacg *t, const char *const args[]);
/* From now on a thread reads tmacg's output (call after the start). */
void itest_tmacg_drain(struct itest_tmacg *t);
/* Sends sig (0: none, just wait for exit), collects the output, reaps it. */
int itest_tmacg_stop(struct itest_tmacg *t, int sig);
void itest_tmacg_free(struct itest_tmacg *t);

/* Parses every line of out as JSON; NULL if any line is not valid JSON. */
json_object **itest_json_lines(const char *out, size_t *n);
void itest_json_free(json_object **lines, size_t n);
/*
 * The end of a live test: fails if tmacg reported a group as never counting,
 * then frees lines and t and removes the test's parent cgroup.
 */
void itest_finish(struct itest_tmacg *t, json_object **lines, size_t n, const char *parent);
/*
 * Stops tmacg with sig (itest_tmacg_stop, which must give 0) and parses its
 * stdout: fails the test unless every line is JSON.
 */
json_object **itest_stop_json(struct itest_tmacg *t, int sig, size_t *n);
/* "a.b.c" lookup helpers (NULL / NAN when absent). */
const char *itest_str(json_object *o, const char *path);
/* An HTML report's data block, parsed; fails the test when there is none. */
json_object *itest_html_data(const char *path);
/*
 * Runs $TMACG with args (ending with --count or --duration) and --format html
 * -o a temporary file, to exit 0: the report's data block, the file removed.
 */
json_object *itest_html_run(const char *const args[]);
/* Its cgroup of that path; fails the test when there is none. */
json_object *itest_html_cgroup(json_object *data, const char *path);
double itest_num(json_object *o, const char *path);

/*
 * Kills every tmacg still running and removes every top-level cgroup the
 * tests created: a teardown, so a failed assertion leaves nothing behind.
 */
int itest_cleanup(void **state);

/* The test's own cgroup parent name: "tmacg-test-<pid>-<name>". */
void itest_parent_name(char *buf, size_t len, const char *name);
/*
 * Creates that parent (itest_mkcg): its name into parent, its directory
 * under the mount (what --cgroup takes) into mnt.  0 or -errno.
 */
int itest_make_parent(const char *name, char *parent, size_t plen, char *mnt, size_t mlen);

#endif
