// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The live view's drawing: the columns a frame gives each row at this width,
 * each line built and cut to the terminal (names, numbers, the bar, the
 * bottleneck path, the header, the legend, the title), and the frame written
 * in place.  One concern: everything here decides what a character cell of
 * the screen shows.  The rows come from top_rows.c, their order from
 * top_order.c.
 */
#include "output/output_top.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "model/model.h"
#include "output/cgroup_record.h"
#include "output/term_width.h"
#include "output/top_impl.h"
#include "util/out_stream.h"

/* A line is at most this many bytes: wide enough for any terminal, escapes included. */
#define TOP_LINE_BYTES 16384
#define TOP_MAX_WIDTH 1000

/* Column widths, without the space before each. */
#define COL_CPU 6	    /* "1234.5": percent of one CPU */
#define COL_RUN 5	    /* "100.0": running_min in percent */
#define COL_MEAS 5	    /* "100.0": the path's deepest node's quality.measured in percent */
#define COL_SHARE 5	    /* " 45.2" */
#define NAME_MIN 12	    /* below this a name says little */
#define NAME_PREFERRED 24   /* a name gets this many before any rate column shows */
#define NAME_NATURAL_MAX 48 /* spare columns go to the bar and path past this */
#define BAR_MIN 8
#define BAR_MID 12 /* the bar grows to this before the path gets spare columns */
#define BAR_MAX 24
#define PATH_MIN 12
#define CONTAINER_INDENT 2 /* a container's row, below its pod's */
#define POD_REST_MIN 8	   /* a pod name keeps this much beside its namespace */

#define SGR_RESET "\033[0m"
#define SGR_HEADER "\033[7m"

/* How a level-1 node shows: its column header, bar letter and bar colour. */
static const struct {
	const char *name, *head;
	char letter;
	const char *sgr;
} known_l1[] = {
	{ "Frontend_Bound", "FE%", 'F', "\033[30;44m" },
	{ "Bad_Speculation", "BAD%", 'S', "\033[30;41m" },
	{ "Backend_Bound", "BE%", 'B', "\033[30;43m" },
	{ "Retiring", "RET%", 'R', "\033[30;42m" },
	/* AMD's fifth level-1 share: slots the sibling SMT thread took. */
	{ "SMT_Contention", "SMT%", 'T', "\033[30;45m" },
};

static void l1_style(const struct top *t, int i, const char **head, char *letter, const char **sgr)
{
	const char *name = model_node(t->m, t->l1[i])->name;

	for (size_t k = 0; k < sizeof(known_l1) / sizeof(known_l1[0]); k++) {
		if (!strcmp(name, known_l1[k].name)) {
			*head = known_l1[k].head;
			*letter = known_l1[k].letter;
			*sgr = known_l1[k].sgr;
			return;
		}
	}
	*head = name; /* cut to the column */
	*letter = (char)('1' + i);
	*sgr = "\033[30;47m";
}

/* Room for a path of TOP_MAX_PATH levels, each node's name and its marks. */
#define PATH_BYTES 1024

struct layout {
	int name_w;
	bool cpu, run, l1, meas;
	int nextra; /* extra columns shown, from the first */
	int extra_w[TOP_MAX_EXTRA];
	int bar_w, path_w; /* 0: not shown */
};

static int imin(int a, int b)
{
	return a < b ? a : b;
}

/* Moves spare columns into *w until it reaches want. */
static void grow(int *w, int want, int *spare)
{
	int add = imin(want - *w, *spare);

	if (add > 0) {
		*w += add;
		*spare -= add;
	}
}

/* Takes n of the spare columns when there are that many. */
static bool take(int *spare, int n)
{
	if (*spare < n)
		return false;
	*spare -= n;
	return true;
}

/* The columns a row's name takes uncut: "ns/pod", "  container" below its pod, a path. */
static int name_width(const struct top_row *r)
{
	if (r->under_pod)
		return CONTAINER_INDENT + term_width(r->name);
	if (r->pod[0])
		return term_width(r->ns) + 1 + (r->container ? term_width(r->pod) + 1 : 0) +
		       term_width(r->name);
	return term_width(r->name);
}

/*
 * Which columns fit in width, and how wide: the name first (at least
 * NAME_MIN), then by priority CPU, the level-1 shares, running_min, the
 * bottleneck path, MEAS% (rotating only), the bar, the name to
 * NAME_PREFERRED, the rate columns
 * (a name says more than a third rate); spare columns widen the name,
 * the bar to BAR_MID, the path to its longest, the bar to BAR_MAX, the name
 * to its longest.
 */
static void layout(struct top *t, int width, struct layout *l)
{
	int name_nat, path_nat, spare;

	memset(l, 0, sizeof(*l));
	for (size_t i = 0; i < t->n; i++) {
		char path[PATH_BYTES];
		int w = name_width(&t->rows[i]),
		    p = (int)strlen(top_path_text(t, &t->rows[i], path, sizeof(path)));

		t->name_nat = w > t->name_nat ? w : t->name_nat;
		t->path_nat = p > t->path_nat ? p : t->path_nat;
	}
	name_nat = t->name_nat > 4 ? t->name_nat : 4;	/* "NAME" */
	path_nat = t->path_nat > 10 ? t->path_nat : 10; /* "BOTTLENECK" */
	l->name_w = imin(width, NAME_MIN);
	spare = width - l->name_w;
	l->cpu = take(&spare, 1 + COL_CPU);
	l->l1 = l->cpu && t->nl1 && take(&spare, t->nl1 * (1 + COL_SHARE));
	l->run = l->cpu && take(&spare, 1 + COL_RUN);
	/* Without room for the shares, the bar still shows them (and the path is no number). */
	if (l->cpu && t->paths && take(&spare, 1 + PATH_MIN))
		l->path_w = PATH_MIN;
	/* How much of the path was seen: worth a column only beside the path it qualifies. */
	l->meas = l->path_w && t->rotating && take(&spare, 1 + COL_MEAS);
	if (l->cpu && t->nl1 && take(&spare, 1 + BAR_MIN))
		l->bar_w = BAR_MIN;
	grow(&l->name_w, imin(name_nat, NAME_PREFERRED), &spare);
	for (int i = 0; l->run && i < t->nextra; i++) {
		int w = (int)strlen(t->extra_head[i]);

		w = w > 9 ? w : 9;
		if (spare < 1 + w)
			break;
		l->extra_w[l->nextra++] = w;
		spare -= 1 + w;
	}
	grow(&l->name_w, imin(name_nat, NAME_NATURAL_MAX), &spare);
	if (l->bar_w)
		grow(&l->bar_w, BAR_MID, &spare);
	if (l->path_w)
		grow(&l->path_w, path_nat, &spare);
	if (l->bar_w)
		grow(&l->bar_w, BAR_MAX, &spare);
	grow(&l->name_w, name_nat, &spare);
}

/* A line being built: bytes and the columns they take. */
struct line {
	char buf[TOP_LINE_BYTES];
	size_t len;
	int cols;
};

static void put_raw(struct line *ln, const char *s)
{
	size_t n = strlen(s);

	if (ln->len + n < sizeof(ln->buf)) {
		memcpy(ln->buf + ln->len, s, n + 1);
		ln->len += n;
	}
}

/* Text cut and escaped to w columns, padded to w (left-aligned) or right-aligned. */
static void put_text(struct line *ln, const char *s, int w, bool right)
{
	char fit[TOP_NAME_BYTES * 4], pad[TOP_LINE_BYTES];
	int cols = term_fit(s, w, fit, sizeof(fit));

	term_pad(pad, sizeof(pad), w - cols);
	if (right)
		put_raw(ln, pad);
	put_raw(ln, fit);
	if (!right)
		put_raw(ln, pad);
	ln->cols += w;
}

/* A name: cut at the start, where paths share their prefix ("~able/pod1"). */
static void put_name(struct line *ln, const char *s, int w)
{
	char fit[TOP_NAME_BYTES * 4], pad[TOP_LINE_BYTES];
	int cols = term_fit_tail(s, w, fit, sizeof(fit));

	term_pad(pad, sizeof(pad), w - cols);
	put_raw(ln, fit);
	put_raw(ln, pad);
	ln->cols += w;
}

/*
 * "namespace/pod" in w columns: the namespace whole (or its start, when it
 * alone would take most of the row) and what follows cut at its start, where
 * pod names share their prefix and differ in their generated suffix.
 */
static void put_pod_name(struct line *ln, const char *ns, const char *rest, int w)
{
	char fit[TOP_NAME_BYTES * 4], pad[TOP_LINE_BYTES];
	int ns_w = term_width(ns), cols;

	if (ns_w + 1 + term_width(rest) <= w) {
		snprintf(fit, sizeof(fit), "%s/%s", ns, rest);
		put_text(ln, fit, w, false);
		return;
	}
	if (ns_w + 1 + POD_REST_MIN > w)
		ns_w = w / 2 > 1 ? w / 2 - 1 : 0;
	cols = term_fit(ns, ns_w, fit, sizeof(fit));
	put_raw(ln, fit);
	if (cols < w) {
		put_raw(ln, "/");
		cols++;
	}
	cols += term_fit_tail(rest, w - cols, fit, sizeof(fit));
	put_raw(ln, fit);
	term_pad(pad, sizeof(pad), w - cols);
	put_raw(ln, pad);
	ln->cols += w;
}

static void put_row_name(struct line *ln, const struct top_row *r, int w)
{
	char rest[TOP_NAME_BYTES * 2 + 2];

	if (r->under_pod && w > CONTAINER_INDENT) {
		put_text(ln, "", CONTAINER_INDENT, false);
		put_name(ln, r->name, w - CONTAINER_INDENT);
	} else if (r->pod[0]) {
		snprintf(rest, sizeof(rest), "%s%s%s", r->container ? r->pod : "",
			 r->container ? "/" : "", r->name);
		put_pod_name(ln, r->ns, rest, w);
	} else {
		put_name(ln, r->name, w);
	}
}

/*
 * A path in turns (levels 4-6) too long for w: cut at its start, where a node
 * begins if one fits ("~.~DRAM_Bound.~MEM_Bandwidth"), so its deepest node,
 * the one MEAS% is about, stays in sight; else inside the deepest node's name.
 */
static void put_path_tail(struct line *ln, const char *path, int w)
{
	char cut[PATH_BYTES + 2];

	for (const char *p = strchr(path, '.'); term_width(path) > w && p; p = strchr(p + 1, '.')) {
		if (1 + term_width(p) <= w) {
			snprintf(cut, sizeof(cut), "~%s", p);
			put_text(ln, cut, w, false);
			return;
		}
	}
	put_name(ln, path, w);
}

static void put_sep(struct line *ln)
{
	put_raw(ln, " ");
	ln->cols++;
}

/* A number right-aligned in w columns: one decimal when it fits, "-" when unknown. */
static void put_num_prec(struct line *ln, double v, int w, int prec)
{
	char buf[64];

	if (isnan(v) || isinf(v))
		snprintf(buf, sizeof(buf), "-");
	else if (snprintf(buf, sizeof(buf), "%.*f", prec, v) > w &&
		 snprintf(buf, sizeof(buf), "%.0f", v) > w)
		snprintf(buf, sizeof(buf), "%.*e", w > 7 ? w - 7 : 0, v);
	put_text(ln, buf, w, true);
}

static void put_num(struct line *ln, double v, int w)
{
	put_num_prec(ln, v, w, 1);
}

/*
 * The bar: each level-1 share gets cells in proportion, the cells left by
 * rounding down going to the largest remainders, so the bar is always full
 * when any share is known.  Letters always; colours only when allowed.
 */
static void put_bar(const struct top *t, struct line *ln, const struct top_row *r, int w,
		    bool color)
{
	int cells[TOP_MAX_L1] = { 0 }, used = 0;
	double rem[TOP_MAX_L1] = { 0 }, sum = 0;

	for (int i = 0; i < t->nl1; i++)
		if (isfinite(r->l1[i]) && r->l1[i] > 0)
			sum += r->l1[i];
	for (int i = 0; sum > 0 && i < t->nl1; i++) {
		double exact = isfinite(r->l1[i]) && r->l1[i] > 0 ? w * r->l1[i] / sum : 0;

		cells[i] = (int)floor(exact);
		rem[i] = exact - cells[i];
		used += cells[i];
	}
	while (sum > 0 && used < w) {
		int best = 0;

		for (int i = 1; i < t->nl1; i++)
			if (rem[i] > rem[best])
				best = i;
		cells[best]++;
		rem[best] = -1;
		used++;
	}
	for (int i = 0; i < t->nl1; i++) {
		const char *head, *sgr;
		char letter, run[BAR_MAX + 1];

		if (!cells[i])
			continue;
		l1_style(t, i, &head, &letter, &sgr);
		memset(run, letter, cells[i]);
		run[cells[i]] = '\0';
		if (color)
			put_raw(ln, sgr);
		put_raw(ln, run);
		if (color)
			put_raw(ln, SGR_RESET);
	}
	if (sum <= 0) {
		char pad[BAR_MAX + 1];

		term_pad(pad, sizeof(pad), w);
		put_raw(ln, pad);
	}
	ln->cols += w;
}

static void row_line(const struct top *t, const struct layout *l, const struct top_row *r,
		     bool color, struct line *ln)
{
	put_row_name(ln, r, l->name_w);
	if (l->cpu) {
		put_sep(ln);
		put_num(ln, r->cpu, COL_CPU);
	}
	if (l->run) {
		put_sep(ln);
		put_num(ln, r->run, COL_RUN);
	}
	for (int i = 0; l->l1 && i < t->nl1; i++) {
		put_sep(ln);
		put_num(ln, isnan(r->l1[i]) ? NAN : 100 * r->l1[i], COL_SHARE);
	}
	for (int i = 0; i < l->nextra; i++) {
		put_sep(ln);
		/* Ratios such as IPC need two decimals; rates per second one. */
		put_num_prec(ln, r->extra[i], l->extra_w[i], t->extra_node[i] ? 2 : 1);
	}
	if (l->bar_w) {
		put_sep(ln);
		put_bar(t, ln, r, l->bar_w, color);
	}
	if (l->meas) {
		put_sep(ln);
		put_num(ln, 100 * top_path_measured(t, r), COL_MEAS);
	}
	if (l->path_w) {
		char path[PATH_BYTES];

		top_path_text(t, r, path, sizeof(path));
		put_sep(ln);
		if (t->rotating)
			put_path_tail(ln, *path ? path : "-", l->path_w);
		else
			put_text(ln, *path ? path : "-", l->path_w, false);
	}
}

/* Sort key k's column header: "CPU%", "BE%", "cpu_migrations/s", "POD". */
static const char *sort_head(const struct top *t, int k)
{
	const char *head, *sgr;
	char letter;
	int i;

	switch (top_sort_kind(t, k, &i)) {
	case TOP_SORT_CPU:
		return "CPU%";
	case TOP_SORT_L1:
		l1_style(t, i, &head, &letter, &sgr);
		return head;
	case TOP_SORT_EXTRA:
		return t->extra_head[i];
	case TOP_SORT_MEAS:
		return "MEAS%";
	default:
		return t->pods ? "POD" : "CGROUP";
	}
}

/* A column header, marked "*" when the user sorted by it (not the default, CPU busiest first). */
static void put_head(const struct top *t, struct line *ln, int k, int w, bool right)
{
	char text[64];

	int n = snprintf(text, sizeof(text), "%s%s",
			 k == t->sort && (t->sort || t->reverse) ? "*" : "", sort_head(t, k));

	/* "*MEAS%" is one wider than its column: marked, it drops the '%' ("*MEAS"). */
	if (n > w && n > 1 && n < (int)sizeof(text) && text[n - 1] == '%')
		text[n - 1] = '\0';
	put_text(ln, text, w, right);
}

static void header_line(const struct top *t, const struct layout *l, struct line *ln)
{
	put_head(t, ln, top_sort_name_key(t), l->name_w, false);
	if (l->cpu) {
		put_sep(ln);
		put_head(t, ln, 0, COL_CPU, true);
	}
	if (l->run) {
		put_sep(ln);
		put_text(ln, "RUN%", COL_RUN, true);
	}
	for (int i = 0; l->l1 && i < t->nl1; i++) {
		put_sep(ln);
		put_head(t, ln, 1 + i, COL_SHARE, true);
	}
	for (int i = 0; i < l->nextra; i++) {
		put_sep(ln);
		put_head(t, ln, 1 + t->nl1 + i, l->extra_w[i], true);
	}
	if (l->bar_w) {
		put_sep(ln);
		put_text(ln, "LEVEL 1", l->bar_w, false);
	}
	if (l->meas) {
		put_sep(ln);
		put_head(t, ln, top_sort_name_key(t) + 1, COL_MEAS, true);
	}
	if (l->path_w) {
		put_sep(ln);
		put_text(ln, "BOTTLENECK", l->path_w, false);
	}
}

/* "F Frontend_Bound  S Bad_Speculation ...": what the bar's letters stand for. */
static void legend_line(const struct top *t, bool color, int width, struct line *ln)
{
	char item[256];

	put_raw(ln, "bar:");
	ln->cols += 4;
	for (int i = 0; i < t->nl1; i++) {
		const char *head, *sgr, *name = model_node(t->m, t->l1[i])->name;
		char letter;
		int w;

		l1_style(t, i, &head, &letter, &sgr);
		w = 4 + term_width(name);
		/* Too narrow for the name (a fifth share, AMD's): its column's head says it. */
		if (ln->cols + w > width) {
			name = head;
			w = 4 + term_width(name);
		}
		if (ln->cols + w > width)
			break;
		snprintf(item, sizeof(item), "  %s%c%s ", color ? sgr : "", letter,
			 color ? SGR_RESET : "");
		put_raw(ln, item);
		ln->cols += 4;
		put_text(ln, name, w - 4, false);
	}
}

void top_title_text(const struct top_title *ti, const char *extra, char *buf, size_t len)
{
	char when[32] = "", lost[96] = "";
	struct tm tm;

	if (localtime_r(&ti->time.tv_sec, &tm))
		strftime(when, sizeof(when), "%H:%M:%S", &tm);
	if (ti->map_full)
		snprintf(lost, sizeof(lost), "  map full: %llu dropped, raise --max-cgroups",
			 (unsigned long long)ti->map_full);
	snprintf(buf, len, "%s  interval %.2fs  host %s  model %s%s%s%s", when, ti->interval_s,
		 ti->host ? ti->host : "?", ti->model ? ti->model : "?", extra ? extra : "",
		 ti->dropped ? "  samples dropped: see stderr" : "", lost);
}

static void title_line(const struct top *t, const struct top_title *ti, size_t nrows, int width,
		       struct line *ln)
{
	char text[1024], extra[192];
	int n;

	/* How many rows, and what the keys changed, so the screen says why it looks different. */
	n = snprintf(extra, sizeof(extra), "  %zu %s%s", nrows, t->pods ? "pod" : "cgroup",
		     nrows == 1 ? "" : "s");
	if (t->sort || t->reverse)
		n += snprintf(extra + n, sizeof(extra) - n, "  sort %s%s", sort_head(t, t->sort),
			      t->reverse ? " reversed" : "");
	if (t->show_level != t->level)
		snprintf(extra + n, sizeof(extra) - n, "  level %d", t->show_level);
	memcpy(text, "tmacg ", 6);
	top_title_text(ti, extra, text + 6, sizeof(text) - 6);
	put_text(ln, text, imin(width, term_width(text)), false);
}

/* Where a frame goes, and how many lines it has left on the screen. */
struct frame {
	FILE *f;
	const struct top_screen *s;
	size_t lines, written; /* lines the frame has (at most the height), written so far */
};

/* Writes one line: on a terminal, clears what an earlier frame left to its right. */
static void emit(struct frame *fr, struct line *ln)
{
	/* Padding at the end of a line shows nothing: drop it. */
	while (ln->len && ln->buf[ln->len - 1] == ' ') {
		ln->buf[--ln->len] = '\0';
		ln->cols--;
	}
	if (fr->written < fr->lines) {
		fputs(ln->buf, fr->f);
		if (fr->s->ansi && ln->cols < fr->s->width)
			fputs("\033[K", fr->f);
		/* The last line of the frame gets no newline on a terminal: it could scroll. */
		if (++fr->written < fr->lines || !fr->s->ansi)
			fputc('\n', fr->f);
	}
	ln->len = 0;
	ln->cols = 0;
	ln->buf[0] = '\0';
}

int top_draw(struct top *t, FILE *f, const struct top_screen *s, const struct top_title *ti)
{
	struct line *ln = calloc(1, sizeof(*ln));
	struct top_screen scr = *s;
	struct frame fr = { .f = f, .s = &scr };
	struct layout l;
	size_t fixed, shown;
	int err = 0;

	if (!ln)
		return -ENOMEM;
	/* Wider than any screen, and every line fits its buffer. */
	scr.width = s->width > 0 ? imin(s->width, TOP_MAX_WIDTH) : 80;
	t->last_scr = *s;
	t->last_title = *ti;
	if (top_order(t)) {
		free(ln);
		return -ENOMEM;
	}
	layout(t, scr.width, &l);
	fixed = 2 + (l.bar_w ? 1 : 0); /* title, legend, column header */
	shown = t->n;
	fr.lines = fixed + t->n;
	if (scr.height > 0 && fr.lines > (size_t)scr.height) {
		fr.lines = scr.height;
		/* a line for "+N more" */
		shown = fr.lines > fixed + 1 ? fr.lines - fixed - 1 : 0;
	}
	if (scr.ansi)
		fputs(t->drawn ? "\033[H" : "\033[H\033[2J", f);
	else if (t->drawn)
		fputc('\n', f); /* frames apart by one empty line */
	title_line(t, ti, t->n, scr.width, ln);
	emit(&fr, ln);
	if (l.bar_w) {
		legend_line(t, scr.color, scr.width, ln);
		emit(&fr, ln);
	}
	if (scr.color)
		put_raw(ln, SGR_HEADER);
	header_line(t, &l, ln);
	if (scr.color)
		put_raw(ln, SGR_RESET);
	emit(&fr, ln);
	for (size_t i = 0; i < shown; i++) {
		row_line(t, &l, &t->rows[i], scr.color, ln);
		emit(&fr, ln);
	}
	if (shown < t->n) {
		char more[96];

		snprintf(more, sizeof(more), "+%zu more (--top N sums the rest)", t->n - shown);
		put_text(ln, more, imin(scr.width, (int)strlen(more)), false);
		emit(&fr, ln);
	}
	if (scr.ansi)
		fputs("\033[J", f);
	t->drawn = true;
	t->frame_done = true; /* kept for top_redraw until the next frame's first row */
	free(ln);
	if (fflush(f) || ferror(f))
		err = out_stream_error(f);
	return err;
}

int top_redraw(struct top *t, FILE *f)
{
	struct top_screen scr = t->last_scr;
	struct top_title title = t->last_title;

	if (!t->drawn)
		return 0; /* nothing shown yet: the first frame will show the change */
	return top_draw(t, f, &scr, &title);
}

static int env_int(const char *name)
{
	const char *v = getenv(name);
	char *end;
	long n;

	if (!v || !*v)
		return 0;
	n = strtol(v, &end, 10);
	return *end || n <= 0 || n > 100000 ? 0 : (int)n;
}

void top_screen_size(int fd, struct top_screen *s)
{
	struct winsize ws;
	bool tty = isatty(fd);

	s->width = env_int("COLUMNS");
	s->height = tty ? env_int("LINES") : 0;
	if (tty && !ioctl(fd, TIOCGWINSZ, &ws) && ws.ws_col && ws.ws_row) {
		s->width = ws.ws_col;
		s->height = ws.ws_row;
	}
	if (!s->width)
		s->width = 80;
	if (tty && !s->height)
		s->height = 24;
}
