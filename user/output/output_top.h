/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * --format top: one screen per interval, a row per cgroup (or pod) sorted by
 * CPU, redrawn in place on a terminal.  Rows are made from the same
 * report_line the JSON printer receives, so live, Kubernetes and software
 * measurements need nothing of their own: a model with level-1 TMA nodes gets
 * their shares, a bar and the bottleneck path; any measurement gets its rate
 * counts ("*_per_s").  Plain ANSI: cursor home, clear to the end of each line
 * and of the screen; no escape at all when the output is not a terminal.
 */
#ifndef TMACG_OUTPUT_TOP_H
#define TMACG_OUTPUT_TOP_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

struct tma_model;
struct report_line;

/* --format auto picks top on a terminal when more cgroups than this are reported. */
#define TOP_AUTO_MIN_ROWS 8

struct top;

struct top_screen {
	int width;  /* columns: no line is wider */
	int height; /* lines; 0: as many as there are rows (not a terminal) */
	bool ansi;  /* redraw in place with cursor escapes */
	bool color; /* SGR colours in the bar and the header */
};

struct top_title {
	struct timespec time;
	double interval_s;
	const char *host;
	const char *model;
	uint64_t dropped;
	uint64_t map_full; /* of dropped: lost to a full cgroup map */
};

/*
 * The interval's title, the same in the table's header and the live view's
 * first line: "HH:MM:SS  interval 2.00s  host H  model M", then extra, then
 * what was lost ("  samples dropped: see stderr", "  map full: N dropped,
 * raise --max-cgroups").  host is written as given: the caller escapes it.
 */
void top_title_text(const struct top_title *ti, const char *extra, char *buf, size_t len);

/* m: the TMA model or NULL; level: the deepest level reported (the bottleneck path's). */
struct top *top_new(const struct tma_model *m, int level, int ncounts,
		    const char *const *count_names);
void top_free(struct top *t);

/* Adds a row from one cgroup's line (other: the "(other)" sum of --top).  0 or -ENOMEM. */
int top_add(struct top *t, const struct report_line *line, bool other);

/*
 * Draws the rows added since the last draw, in the order of the keys (CPU by
 * default).  The next top_add starts a new frame.  0 or -errno.
 */
int top_draw(struct top *t, FILE *f, const struct top_screen *s, const struct top_title *title);

/*
 * Keys of the live view (docs/live-view.md): q quits, s sorts by the next
 * column, r reverses the sort, l (or 1-6) sets the level of the bottleneck
 * path shown.  Returns what the caller does next.
 */
enum top_key_action { TOP_KEY_IGNORED, TOP_KEY_REDRAW, TOP_KEY_QUIT };
enum top_key_action top_key(struct top *t, int key);

/* Draws the last frame again (after a key), as it would be drawn now.  0 or -errno. */
int top_redraw(struct top *t, FILE *f);

/*
 * The size of the terminal on fd (TIOCGWINSZ), else $COLUMNS and $LINES,
 * else 80x24; height 0 when fd is not a terminal.
 */
void top_screen_size(int fd, struct top_screen *s);

#endif /* TMACG_OUTPUT_TOP_H */
