// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * --format top on a real terminal: tmacg runs in a detached tmux session of a
 * known size, watching cgroups with burners, and the screen is read back
 * with `tmux capture-pane`.  Checks what a person would see: one title, the
 * column header, a row per cgroup sorted by CPU, nothing wider than the
 * terminal or scrolled, a redraw in place every interval; and without a
 * terminal, plain frames with no escape at all.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "itest.h"
#include "output/term_width.h"
#include "text_count.h"

/*
 * The running session's own tmux server, -S /tmp/tmacg-test-<pid>-<n>.tmux: a
 * new one for every session, so a server still exiting is never asked for
 * another; the socket file is removed with it (tmux leaves it behind).
 */
static char sock[64];
static int sessions;

static int sh(const char *fmt, ...)
{
	char cmd[8192];
	va_list ap;
	int rc;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	rc = system(cmd);
	return WIFEXITED(rc) ? WEXITSTATUS(rc) : 128;
}

static int group_setup(void **state)
{
	snprintf(sock, sizeof(sock), "/tmp/tmacg-test-%d-0.tmux", (int)getpid());
	return itest_group_setup(state);
}

/* Ends the tmux server (and tmacg in it), then what itest_cleanup ends. */
static int teardown(void **state)
{
	sh("tmux -S %s kill-server 2>/dev/null", sock);
	unlink(sock);
	return itest_cleanup(state);
}

static void need_tmux(void)
{
	if (sh("command -v tmux >/dev/null 2>&1"))
		fail_msg("tmux not found: deploy/install-deps.sh --test installs it");
}

/* The pane's text (with SGR escapes when escapes); NULL when tmux failed. */
static char *capture(bool escapes)
{
	char cmd[256], *buf = NULL;
	size_t len = 0;
	FILE *p, *m = open_memstream(&buf, &len);
	int c;

	snprintf(cmd, sizeof(cmd), "tmux -S %s capture-pane -p %s -t top 2>/dev/null", sock,
		 escapes ? "-e" : "");
	p = popen(cmd, "r");
	while (p && (c = fgetc(p)) != EOF)
		fputc(c, m);
	fclose(m);
	if (!p || pclose(p)) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* Waits up to seconds for a screen with a title unlike `unlike` (NULL: any title). */
static char *wait_screen(const char *unlike, int seconds)
{
	time_t give_up = time(NULL) + seconds;
	char *s = NULL;

	while (time(NULL) < give_up) {
		free(s);
		s = capture(false);
		if (s && !strncmp(s, "tmacg ", 6) &&
		    (!unlike || strcspn(s, "\n") != strcspn(unlike, "\n") ||
		     strncmp(s, unlike, strcspn(s, "\n"))))
			return s;
		usleep(200000);
	}
	return s;
}

struct screen_rows {
	int nrows;
	char name[16][256];
	double cpu[16];
};

/*
 * Checks one captured screen of width x height and reads its rows: the first
 * line is the only title, the second the header, every other non-empty line
 * a row "NAME CPU% ..." (a wrapped or scrolled line would not parse).
 */
static void check_screen(const char *screen, int width, int height, struct screen_rows *r)
{
	char *copy = strdup(screen), *save = NULL, *line;
	int n = 0;

	print_message("%s", screen);
	assert_int_equal(text_count(screen, "tmacg "), 1);
	memset(r, 0, sizeof(*r));
	for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save), n++) {
		char cpu[64];

		assert_true(term_width(line) <= width);
		if (n == 0) {
			assert_memory_equal(line, "tmacg ", 6);
			assert_non_null(strstr(line, "model software"));
			continue;
		}
		if (n == 1) {
			assert_memory_equal(line, "CGROUP", 6);
			assert_non_null(strstr(line, "CPU%"));
			assert_non_null(strstr(line, "RUN%"));
			continue;
		}
		assert_true(r->nrows < 16);
		if (sscanf(line, "%255s %63s", r->name[r->nrows], cpu) != 2)
			fail_msg("not a row: '%s'", line);
		r->cpu[r->nrows] = !strcmp(cpu, "-") ? -1 : strtod(cpu, NULL);
		assert_true(r->cpu[r->nrows] >= -1);
		r->nrows++;
	}
	assert_true(n <= height);
	free(copy);
}

static int row_ending(const struct screen_rows *r, const char *end)
{
	int found = -1;

	for (int i = 0; i < r->nrows; i++) {
		size_t n = strlen(r->name[i]), e = strlen(end);

		if (n >= e && !strcmp(r->name[i] + n - e, end)) {
			assert_int_equal(found, -1); /* once */
			found = i;
		}
	}
	return found;
}

/* Starts tmacg in a w x h tmux session; extra: more of its arguments. */
static void start_top(int w, int h, bool no_color, const char *parent, const char *extra,
		      const char *errfile)
{
	char tmacg[PATH_MAX];

	assert_non_null(realpath(getenv("TMACG"), tmacg));
	snprintf(sock, sizeof(sock), "/tmp/tmacg-test-%d-%d.tmux", (int)getpid(), ++sessions);
	assert_int_equal(sh("tmux -S %s new-session -d -s top -x %d -y %d "
			    "\"exec env %s '%s' --pmu software --cgroup '%s/%s' --interval 1s "
			    "--duration 40s %s 2>'%s'\"",
			    sock, w, h, no_color ? "NO_COLOR=1" : "-u NO_COLOR", tmacg,
			    itest_cgroup_mount(), parent, extra, errfile),
			 0);
}

static void stop_top(const char *errfile)
{
	FILE *f = fopen(errfile, "r");
	char buf[1024];
	size_t n;

	sh("tmux -S %s kill-server 2>/dev/null", sock);
	unlink(sock);
	if (f) {
		n = fread(buf, 1, sizeof(buf) - 1, f);
		buf[n] = '\0';
		if (n)
			print_message("tmacg's stderr: %s\n", buf);
		fclose(f);
	}
	unlink(errfile);
}

static void one_size(const char *parent, int w, int h, bool no_color)
{
	char errfile[128], *first, *second, *colored;
	struct screen_rows r1, r2;
	int a, b, c;

	snprintf(errfile, sizeof(errfile), "/tmp/tmacg-test-%d-%dx%d.err", (int)getpid(), w, h);
	start_top(w, h, no_color, parent, "--depth 1 --format top", errfile);
	/* the first interval's frame, then one showing a later interval */
	first = wait_screen(NULL, 20);
	assert_non_null(first);
	second = wait_screen(first, 5);
	assert_non_null(second);
	colored = capture(true);
	stop_top(errfile);

	check_screen(first, w, h, &r1);
	check_screen(second, w, h, &r2);
	/* redrawn in place: the second is another interval's, with the same rows */
	assert_string_not_equal(first, second);
	assert_int_equal(r1.nrows, r2.nrows);
	/* the parent and its three children, each once, whatever the width cut */
	assert_int_equal(r2.nrows, 4);
	a = row_ending(&r2, "/a");
	b = row_ending(&r2, "/b");
	c = row_ending(&r2, "/c");
	assert_true(a >= 0 && b >= 0 && c >= 0);
	/*
	 * Sorted by CPU; 90 % of a CPU ahead of 5 % even on a busy machine (under
	 * a load of 16 on 2 CPUs, a still got twice c's share).
	 */
	for (int i = 1; i < r2.nrows; i++)
		assert_true(r2.cpu[i - 1] >= r2.cpu[i]);
	assert_true(r2.cpu[a] > r2.cpu[c] && r2.cpu[c] > 0);
	assert_true(a < c);
	/* colour (the header's reverse video) unless NO_COLOR */
	assert_non_null(colored);
	if (no_color)
		assert_null(strstr(colored, "\033[7m"));
	else
		assert_non_null(strstr(colored, "\033[7m"));
	free(first);
	free(second);
	free(colored);
}

static void top_in_tmux(void **state)
{
	static const char *duty[] = { "0.9", "0.5", "0.05" };
	static const char *leaf[] = { "a", "b", "c" };
	char parent[128], child[3][160];
	pid_t burners[3];

	(void)state;
	ITEST_NEED_ROOT();
	need_tmux();
	itest_parent_name(parent, sizeof(parent), "top");
	assert_int_equal(itest_mkcg(parent), 0);
	for (int i = 0; i < 3; i++) {
		snprintf(child[i], sizeof(child[i]), "%s/%s", parent, leaf[i]);
		assert_int_equal(itest_mkcg(child[i]), 0);
		burners[i] = itest_burn_in(child[i], "60", duty[i], NULL);
		assert_true(burners[i] > 0);
	}
	one_size(parent, 100, 30, false);
	/* 60 columns: the names are cut at the start and keep their leaf */
	one_size(parent, 60, 20, true);
	for (int i = 0; i < 3; i++) {
		kill(burners[i], SIGKILL);
		itest_wait(burners[i]);
	}
	assert_int_equal(itest_rmcg(parent), 0);
}

/* Without --format, a terminal gets the table until more than 8 cgroups show. */
static void auto_top_over_eight(void **state)
{
	char parent[128], cg[160], errfile[128], *screen;

	(void)state;
	ITEST_NEED_ROOT();
	need_tmux();
	itest_parent_name(parent, sizeof(parent), "auto");
	assert_int_equal(itest_mkcg(parent), 0);
	snprintf(errfile, sizeof(errfile), "/tmp/tmacg-test-%d-auto.err", (int)getpid());
	/* 8 cgroups, the parent and 7 children: the table */
	for (int i = 0; i < 7; i++) {
		snprintf(cg, sizeof(cg), "%s/c%d", parent, i);
		assert_int_equal(itest_mkcg(cg), 0);
	}
	start_top(100, 40, true, parent, "--depth 1", errfile);
	sleep(3);
	screen = capture(false);
	stop_top(errfile);
	assert_non_null(screen);
	print_message("%s", screen);
	assert_null(strstr(screen, "tmacg "));
	assert_non_null(strstr(screen, ", interval ")); /* the table's tree per cgroup */
	free(screen);
	/* 9: the live view */
	snprintf(cg, sizeof(cg), "%s/c7", parent);
	assert_int_equal(itest_mkcg(cg), 0);
	start_top(100, 40, true, parent, "--depth 1", errfile);
	screen = wait_screen(NULL, 20);
	stop_top(errfile);
	assert_non_null(screen);
	print_message("%s", screen);
	assert_memory_equal(screen, "tmacg ", 6);
	assert_non_null(strstr(screen, " 9 cgroups"));
	free(screen);
	assert_int_equal(itest_rmcg(parent), 0);
}

/* Waits up to seconds for a screen holding text; NULL when none did. */
static char *wait_text(const char *text, int seconds)
{
	time_t give_up = time(NULL) + seconds;
	char *s;

	while (time(NULL) <= give_up) {
		s = capture(false);
		if (s && strstr(s, text))
			return s;
		free(s);
		usleep(100000);
	}
	return NULL;
}

/* Sends one key to the session, as typed. */
static void key(const char *k)
{
	assert_int_equal(sh("tmux -S %s send-keys -t top %s", sock, k), 0);
}

/*
 * The keys on a real terminal, with a 10 s interval so that every change seen
 * within 3 s is a redraw on the key, not the next interval: s four times walks
 * CPU% -> the three rates -> the name (software model), which sorts the rows
 * by name (the parent, then /a, then /c); r reverses that; q ends tmacg, with 0.
 */
static void keys_in_tmux(void **state)
{
	char parent[128], child[2][160], tmacg[PATH_MAX], errfile[128], codefile[128];
	char *screen, *line;
	pid_t burners[2];
	FILE *f;
	int code = -1;

	(void)state;
	ITEST_NEED_ROOT();
	need_tmux();
	itest_parent_name(parent, sizeof(parent), "keys");
	assert_int_equal(itest_mkcg(parent), 0);
	for (int i = 0; i < 2; i++) {
		snprintf(child[i], sizeof(child[i]), "%s/%c", parent, "ac"[i]);
		assert_int_equal(itest_mkcg(child[i]), 0);
		burners[i] = itest_burn_in(child[i], "60", i ? "0.05" : "0.9", NULL);
		assert_true(burners[i] > 0);
	}
	snprintf(errfile, sizeof(errfile), "/tmp/tmacg-test-%d-keys.err", (int)getpid());
	snprintf(codefile, sizeof(codefile), "/tmp/tmacg-test-%d-keys.code", (int)getpid());
	unlink(codefile);
	assert_non_null(realpath(getenv("TMACG"), tmacg));
	snprintf(sock, sizeof(sock), "/tmp/tmacg-test-%d-%d.tmux", (int)getpid(), ++sessions);
	assert_int_equal(sh("tmux -S %s new-session -d -s top -x 100 -y 20 "
			    "\"'%s' --pmu software --cgroup '%s/%s' --depth 1 --format top "
			    "--interval 10s --duration 60s 2>'%s'; echo $? >'%s'\"",
			    sock, tmacg, itest_cgroup_mount(), parent, errfile, codefile),
			 0);
	screen = wait_text("CGROUP", 30);
	assert_non_null(screen);
	print_message("%s", screen);
	assert_null(strstr(screen, "sort "));
	free(screen);
	key("s");
	screen = wait_text("sort context_switches/s", 3);
	assert_non_null(screen);
	free(screen);
	key("s");
	key("s");
	key("s");
	screen = wait_text("sort CGROUP", 3);
	assert_non_null(screen);
	print_message("%s", screen);
	assert_non_null(strstr(screen, "*CGROUP"));
	line = strstr(screen, "*CGROUP");
	line = strchr(line, '\n') + 1;
	assert_memory_equal(line, "/", 1); /* the parent: a prefix of its children */
	assert_true(strstr(line, "/a ") < strstr(line, "/c "));
	free(screen);
	key("r");
	screen = wait_text("sort CGROUP reversed", 3);
	assert_non_null(screen);
	assert_true(strstr(screen, "/c ") < strstr(screen, "/a "));
	free(screen);
	key("q");
	for (int i = 0; i < 50 && code < 0; i++) {
		usleep(100000);
		f = fopen(codefile, "r");
		if (f && fscanf(f, "%d", &code) != 1)
			code = -1;
		if (f)
			fclose(f);
	}
	stop_top(errfile);
	unlink(codefile);
	assert_int_equal(code, 0); /* within 5 s of q, and 0 */
	for (int i = 0; i < 2; i++) {
		kill(burners[i], SIGKILL);
		itest_wait(burners[i]);
	}
	assert_int_equal(itest_rmcg(parent), 0);
}

/* Into a pipe: whole frames one after another, an empty line apart, no escapes. */
static void top_into_a_pipe(void **state)
{
	const char *args[] = { "--pmu", "software", "--format", "top", "--interval",
			       "300ms", "--count",  "3",	NULL };
	struct itest_tmacg t;
	char *p;

	(void)state;
	ITEST_NEED_ROOT();
	unsetenv("COLUMNS");
	assert_int_equal(itest_tmacg_start(&t, args), 0);
	itest_tmacg_drain(&t);
	assert_int_equal(itest_tmacg_stop(&t, 0), 0);
	print_message("%s", t.out);
	assert_null(strchr(t.out, '\033'));
	assert_memory_equal(t.out, "tmacg ", 6);
	assert_int_equal(text_count(t.out, "tmacg "), 3);
	assert_int_equal(text_count(t.out, "\n\ntmacg "), 2);
	assert_int_equal(text_count(t.out, "\nCGROUP "), 3);
	/* every line within the 80 columns a pipe gets without $COLUMNS */
	for (p = t.out; *p;) {
		char *nl = strchr(p, '\n'), *line = strndup(p, nl ? (size_t)(nl - p) : strlen(p));

		assert_true(term_width(line) <= 80);
		free(line);
		p = nl ? nl + 1 : p + strlen(p);
	}
	itest_tmacg_free(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(top_in_tmux, teardown),
		cmocka_unit_test_teardown(auto_top_over_eight, teardown),
		cmocka_unit_test_teardown(top_into_a_pipe, teardown),
		cmocka_unit_test_teardown(keys_in_tmux, teardown),
	};

	return cmocka_run_group_tests(tests, group_setup, NULL);
}
