// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "itest.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "cgroup_cpu_stat.h"
#include "cgroups/cgroup_fs.h"
#include "itest_deep.h"
#include "repo_root.h"

static struct cgroup_mount mount_info;
static bool mount_found;

/* What a failing test may leave behind: cleaned up by itest_cleanup(). */
#define ITEST_MAX_LEFT 64
static pid_t running[ITEST_MAX_LEFT];
static char *created[ITEST_MAX_LEFT];

static void remember_pid(pid_t pid, bool add)
{
	for (int i = 0; i < ITEST_MAX_LEFT; i++) {
		if (add && !running[i]) {
			running[i] = pid;
			return;
		}
		if (!add && running[i] == pid)
			running[i] = 0;
	}
}

static void remember_cgroup(const char *rel, bool add)
{
	if (strchr(rel, '/'))
		return; /* a child goes with its top-level parent */
	for (int i = 0; i < ITEST_MAX_LEFT; i++) {
		if (add && !created[i]) {
			created[i] = strdup(rel);
			return;
		}
		if (!add && created[i] && !strcmp(created[i], rel)) {
			free(created[i]);
			created[i] = NULL;
		}
	}
}

const char *itest_cgroup_mount(void)
{
	if (!mount_found && !cgroup_find_mount("/proc/self/mountinfo", NULL, &mount_info))
		mount_found = true;
	return mount_found ? mount_info.dir : NULL;
}

char itest_skip_reason[256];

int itest_group_setup(void **state)
{
	(void)state;
	if (!itest_can_run(itest_skip_reason, sizeof(itest_skip_reason)))
		fprintf(stderr, "skipped: %s\n", itest_skip_reason);
	return 0;
}

int itest_fixture_setup(void **state, const char *name)
{
	char root[4096], dir[4400];

	if (repo_root(root, sizeof(root)))
		return -1;
	snprintf(dir, sizeof(dir), "%s/tests/fixtures/%s", root, name);
	setenv("TMACG_MODEL_DIR", dir, 1);
	return itest_group_setup(state);
}

bool itest_can_run(char *why, size_t len)
{
	if (geteuid() != 0) {
		snprintf(why, len, "not root: the integration tests load BPF programs");
		return false;
	}
	if (access("/sys/kernel/btf/vmlinux", R_OK)) {
		snprintf(why, len, "no kernel BTF (/sys/kernel/btf/vmlinux)");
		return false;
	}
	if (!itest_cgroup_mount()) {
		snprintf(why, len, "no cgroup2 mount");
		return false;
	}
	if (!getenv("TMACG")) {
		snprintf(why, len, "TMACG (the binary under test) is not set: run via make test");
		return false;
	}
	return true;
}

static int path_of(char *buf, size_t len, const char *rel)
{
	return snprintf(buf, len, "%s/%s", itest_cgroup_mount(), rel) >= (int)len ? -ENAMETOOLONG :
										    0;
}

int itest_mkcg(const char *rel)
{
	char p[4096];

	if (path_of(p, sizeof(p), rel))
		return -ENAMETOOLONG;
	if (mkdir(p, 0755) && errno != EEXIST)
		return -errno;
	remember_cgroup(rel, true);
	return 0;
}

/* Kills what runs inside and removes dir and its descendants, at any depth. */
static int remove_tree(const char *dir)
{
	char parent[4096];
	const char *slash = strrchr(dir, '/');
	int fd, err;

	if (!slash || snprintf(parent, sizeof(parent), "%.*s", (int)(slash - dir), dir) >=
			      (int)sizeof(parent))
		return -ENAMETOOLONG;
	fd = open(parent[0] ? parent : "/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	err = itest_deep_remove(fd, slash + 1);
	close(fd);
	return err;
}

int itest_rmcg(const char *rel)
{
	char p[4096];

	if (path_of(p, sizeof(p), rel))
		return -ENAMETOOLONG;
	remember_cgroup(rel, false);
	return remove_tree(p);
}

int itest_cgroup_id(const char *rel, uint64_t *id)
{
	struct stat st;
	char p[4096];

	if (path_of(p, sizeof(p), rel))
		return -ENAMETOOLONG;
	if (stat(p, &st))
		return -errno;
	*id = st.st_ino;
	return 0;
}

uint64_t itest_usage_usec(const char *rel)
{
	char path[CGROUP_PATH_MAX];
	uint64_t usage;

	/* rel is below the mount: as a hierarchy path, "/rel" (cgroup_dir_of() maps it back). */
	if (!itest_cgroup_mount() || snprintf(path, sizeof(path), "/%s", rel) >= (int)sizeof(path))
		return 0;
	return cgroup_read_cpu_stat(&mount_info, path, "usage_usec", &usage) ? 0 : usage;
}

pid_t itest_spawn_in(const char *rel, char *const argv[])
{
	pid_t pid = fork();

	if (pid == 0) {
		char p[4200];
		FILE *f;

		if (path_of(p, sizeof(p) - 16, rel))
			_exit(126);
		strcat(p, "/cgroup.procs");
		f = fopen(p, "w");
		if (!f || fprintf(f, "%d\n", getpid()) < 0 || fclose(f))
			_exit(126);
		execv(argv[0], argv);
		_exit(127);
	}
	return pid;
}

pid_t itest_burn_in(const char *rel, const char *seconds, const char *duty, const char *duty2)
{
	char burn[4096];
	char *argv[] = { burn, (char *)seconds, (char *)duty, (char *)duty2, NULL };
	const char *helpers = getenv("TMACG_HELPERS");

	snprintf(burn, sizeof(burn), "%s/burn",
		 helpers ? helpers : "build/tests/integration/helpers");
	return itest_spawn_in(rel, argv);
}

int itest_wait(pid_t pid)
{
	int status;

	if (waitpid(pid, &status, 0) < 0)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

void itest_finish(struct itest_tmacg *t, json_object **lines, size_t n, const char *parent)
{
	if (t->err && strstr(t->err, "never counted"))
		fail_msg("a group reported as never counting: %s", t->err);
	itest_json_free(lines, n);
	itest_tmacg_free(t);
	assert_int_equal(itest_rmcg(parent), 0);
}

int itest_shell(const char *cmd, char *out, size_t outlen)
{
	FILE *p = popen(cmd, "r");
	size_t len;
	int status;

	if (!p)
		return -1;
	len = fread(out, 1, outlen - 1, p);
	out[len] = '\0';
	status = pclose(p);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* Appends what fd has to buf without blocking longer than timeout_ms. */
static int drain(int fd, char **buf, size_t *len, int timeout_ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	char chunk[65536];
	ssize_t n;

	if (fd < 0)
		return -1;
	if (poll(&p, 1, timeout_ms) <= 0)
		return 0;
	n = read(fd, chunk, sizeof(chunk));
	if (n <= 0)
		return -1; /* EOF */
	*buf = realloc(*buf, *len + n + 1);
	memcpy(*buf + *len, chunk, n);
	*len += n;
	(*buf)[*len] = '\0';
	return 1;
}

struct reader {
	pthread_t thread;
	int out_fd, err_fd;
	char *out, *err;
	size_t olen, elen;
};

/* Drains stdout and stderr until both reach EOF (tmacg exited). */
static void *reader_main(void *arg)
{
	struct reader *r = arg;
	bool out_open = r->out_fd >= 0, err_open = true;

	while (out_open || err_open) {
		if (out_open && drain(r->out_fd, &r->out, &r->olen, 20) < 0)
			out_open = false;
		if (err_open && drain(r->err_fd, &r->err, &r->elen, 20) < 0)
			err_open = false;
	}
	return NULL;
}

int itest_tmacg_start(struct itest_tmacg *t, const char *const args[])
{
	int out[2], err[2];
	size_t elen = 0;
	const char *argv[64] = { getenv("TMACG"), "-v" };
	int argc = 2;
	time_t give_up = time(NULL) + 30;

	memset(t, 0, sizeof(*t));
	for (int i = 0; args[i] && argc < 63; i++)
		argv[argc++] = args[i];
	argv[argc] = NULL;
	if (pipe2(out, O_CLOEXEC) || pipe2(err, O_CLOEXEC))
		return -errno;
	t->pid = fork();
	if (t->pid == 0) {
		dup2(out[1], 1);
		dup2(err[1], 2);
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	close(out[1]);
	close(err[1]);
	remember_pid(t->pid, true);
	t->out_fd = out[0];
	t->err_fd = err[0];
	/* Ready once it says so on stderr (its stdout is quiet until an interval ends). */
	while (time(NULL) < give_up) {
		if (drain(t->err_fd, &t->err, &elen, 100) < 0)
			return -EIO; /* exited: t->err says why */
		if (t->err && strstr(t->err, "tmacg: ready"))
			break;
	}
	if (!t->err || !strstr(t->err, "tmacg: ready"))
		return -ETIMEDOUT;
	return 0;
}

/* Starts the reader once the caller is done reading by hand (see closed-pipe test). */
static struct reader *start_reader(struct itest_tmacg *t)
{
	struct reader *r = calloc(1, sizeof(*r));

	r->out_fd = t->out_fd;
	r->err_fd = t->err_fd;
	r->err = t->err;
	r->elen = t->err ? strlen(t->err) : 0;
	t->err = NULL;
	pthread_create(&r->thread, NULL, reader_main, r);
	return r;
}

void itest_tmacg_drain(struct itest_tmacg *t)
{
	if (!t->reader)
		t->reader = start_reader(t);
}

int itest_tmacg_stop(struct itest_tmacg *t, int sig)
{
	struct reader *r;
	time_t give_up = time(NULL) + 60;
	int status;

	itest_tmacg_drain(t);
	r = t->reader;
	if (sig)
		kill(t->pid, sig);
	/* A hang is a failure, not a stuck test run. */
	while (waitpid(t->pid, &status, WNOHANG) == 0) {
		if (time(NULL) > give_up) {
			kill(t->pid, SIGKILL);
			waitpid(t->pid, &status, 0);
			break;
		}
		usleep(10000);
	}
	t->status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	remember_pid(t->pid, false);
	pthread_join(r->thread, NULL);
	if (t->out_fd >= 0)
		close(t->out_fd);
	close(t->err_fd);
	t->out = r->out ? r->out : strdup("");
	t->err = r->err ? r->err : strdup("");
	free(r);
	t->reader = NULL;
	return t->status;
}

void itest_tmacg_free(struct itest_tmacg *t)
{
	free(t->out);
	free(t->err);
	t->out = t->err = NULL;
}

json_object **itest_json_lines(const char *out, size_t *n)
{
	json_object **lines = NULL;
	const char *p = out;

	*n = 0;
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		char *line = strndup(p, len);
		json_object *o = json_tokener_parse(line);

		free(line);
		if (!o) {
			itest_json_free(lines, *n);
			*n = 0;
			return NULL;
		}
		lines = realloc(lines, (*n + 1) * sizeof(*lines));
		lines[(*n)++] = o;
		p += len + (nl ? 1 : 0);
	}
	return lines;
}

void itest_json_free(json_object **lines, size_t n)
{
	for (size_t i = 0; i < n; i++)
		json_object_put(lines[i]);
	free(lines);
}

json_object **itest_stop_json(struct itest_tmacg *t, int sig, size_t *n)
{
	json_object **lines;

	assert_int_equal(itest_tmacg_stop(t, sig), 0);
	lines = itest_json_lines(t->out, n);
	assert_non_null(lines);
	return lines;
}

static json_object *lookup(json_object *o, const char *path)
{
	char key[256];

	while (o && *path) {
		const char *dot = strchr(path, '.');
		size_t len = dot ? (size_t)(dot - path) : strlen(path);

		snprintf(key, sizeof(key), "%.*s", (int)len, path);
		if (!json_object_object_get_ex(o, key, &o))
			return NULL;
		path += len + (dot ? 1 : 0);
	}
	return o;
}

const char *itest_str(json_object *o, const char *path)
{
	json_object *v = lookup(o, path);

	return v && json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL;
}

double itest_num(json_object *o, const char *path)
{
	json_object *v = lookup(o, path);

	if (!v ||
	    !(json_object_is_type(v, json_type_double) || json_object_is_type(v, json_type_int)))
		return NAN;
	return json_object_get_double(v);
}

void itest_parent_name(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "tmacg-test-%d-%s", getpid(), name);
}

int itest_make_parent(const char *name, char *parent, size_t plen, char *mnt, size_t mlen)
{
	const char *at = itest_cgroup_mount();

	itest_parent_name(parent, plen, name);
	if (!at)
		return -ENOENT;
	if ((size_t)snprintf(mnt, mlen, "%s/%s", at, parent) >= mlen)
		return -ENAMETOOLONG;
	return itest_mkcg(parent);
}

int itest_cleanup(void **state)
{
	(void)state;
	for (int i = 0; i < ITEST_MAX_LEFT; i++) {
		if (running[i]) {
			kill(running[i], SIGKILL);
			waitpid(running[i], NULL, 0);
			running[i] = 0;
		}
	}
	for (int i = 0; i < ITEST_MAX_LEFT; i++) {
		if (created[i]) {
			char p[4096];

			if (!path_of(p, sizeof(p), created[i]))
				remove_tree(p);
			free(created[i]);
			created[i] = NULL;
		}
	}
	return 0;
}

/* The report's data block, parsed; fails the test when there is none. */
json_object *itest_html_data(const char *path)
{
	static const char open_tag[] = "<script type=\"application/json\" id=\"tmacg-data\">";
	FILE *f = fopen(path, "r");
	char *doc = NULL, *start, *end;
	size_t cap = 0;
	json_object *o;

	assert_non_null(f);
	assert_true(getdelim(&doc, &cap, '\0', f) > 0);
	fclose(f);
	start = strstr(doc, open_tag);
	assert_non_null(start);
	start += sizeof(open_tag) - 1;
	end = strstr(start, "</script>");
	assert_non_null(end);
	*end = '\0';
	o = json_tokener_parse(start);
	assert_non_null(o);
	assert_non_null(strstr(end + 1, "</html>"));
	free(doc);
	return o;
}

json_object *itest_html_cgroup(json_object *data, const char *path)
{
	json_object *cgs = NULL;

	assert_true(json_object_object_get_ex(data, "cgroups", &cgs));
	for (size_t i = 0; i < json_object_array_length(cgs); i++) {
		json_object *c = json_object_array_get_idx(cgs, i);

		if (!strcmp(itest_str(c, "path"), path))
			return c;
	}
	fail_msg("no cgroup %s in the report", path);
	return NULL;
}

json_object *itest_html_run(const char *const args[])
{
	char dir[] = "/tmp/tmacg-html-XXXXXX", out[64];
	const char *all[64];
	struct itest_tmacg t;
	json_object *data;
	int n = 0;

	assert_non_null(mkdtemp(dir));
	snprintf(out, sizeof(out), "%s/report.html", dir);
	while (args[n] && n < 58) {
		all[n] = args[n];
		n++;
	}
	all[n++] = "--format";
	all[n++] = "html";
	all[n++] = "-o";
	all[n++] = out;
	all[n] = NULL;
	assert_int_equal(itest_tmacg_start(&t, all), 0);
	itest_tmacg_drain(&t);
	assert_int_equal(itest_tmacg_stop(&t, 0), 0);
	data = itest_html_data(out);
	itest_tmacg_free(&t);
	unlink(out);
	rmdir(dir);
	return data;
}
