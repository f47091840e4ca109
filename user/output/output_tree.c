// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* The TMA tree as a table; live mode and replay print through the same function. */
#include "output/output_tree.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "util/name_escape.h"
#include "output/cgroup_record.h"

/* Column where values start: fits the deepest ICX/SPR names at level 6. */
#define TREE_VALUE_COL 44
/* The summary counts wrap before this column. */
#define TREE_WIDTH 100

#define ANSI_BOTTLENECK "\033[1;31m"
#define ANSI_FLAGGED "\033[33m"
#define ANSI_RESET "\033[0m"

static bool on_path(const struct model_result *r, int node)
{
	for (int i = 0; i < r->bottleneck_len; i++)
		if (r->bottleneck[i] == node)
			return true;
	return false;
}

/* A node extrapolated from less than half the interval (REPORT_MEASURED_LOW): "~". */
static bool measured_low(const struct report_line *line, int node)
{
	return line->measured && line->measured[node] < REPORT_MEASURED_LOW;
}

static void print_node(FILE *f, const struct model_node_info *n, double v, bool flagged,
		       bool bottleneck, bool low, bool color)
{
	int indent = 2 * n->level, width = TREE_VALUE_COL - indent - 1;
	const char *on = !color ? "" : bottleneck ? ANSI_BOTTLENECK : flagged ? ANSI_FLAGGED : "";

	fprintf(f, "%s%*s%-*s ", on, indent, "", width > 0 ? width : 0, n->name);
	if (isnan(v))
		fprintf(f, "%7s", "-");
	else
		fprintf(f, "%6.1f%%", v * 100);
	/* Markers in fixed columns, the line ending after the last one shown. */
	if (flagged || bottleneck || low)
		fputs(flagged ? " *" : "  ", f);
	if (bottleneck || low)
		fputs(bottleneck ? " <" : "  ", f);
	fprintf(f, "%s%s\n", low ? " ~" : "", *on ? ANSI_RESET : "");
}

/* A count as the table shows it: whole numbers whole, "-" for null. */
static void count_text(double v, char *buf, size_t len)
{
	if (!isfinite(v))
		snprintf(buf, len, "-");
	else if (v == floor(v) && fabs(v) < 1e15)
		snprintf(buf, len, "%.0f", v);
	else if (fabs(v) < 1000)
		snprintf(buf, len, "%.4g", v);
	else
		snprintf(buf, len, "%.1f", v);
}

/* "name value" pairs of the summary counts (CPU time, the model's counts), wrapped. */
static void print_counts(FILE *f, const struct report_line *line)
{
	int col = 0;

	for (int i = 0; i < line->nsummary; i++) {
		char num[40];
		int w;

		count_text(line->count_values[i], num, sizeof(num));
		w = 2 + (int)strlen(line->count_names[i]) + 1 + (int)strlen(num);
		if (col && col + w > TREE_WIDTH) {
			fputc('\n', f);
			col = 0;
		}
		fprintf(f, "  %s %s", line->count_names[i], num);
		col += w;
	}
	if (col)
		fputc('\n', f);
}

/* The bottleneck's one-line description, the vendor's words: escaped, as any text of others. */
static void print_why(FILE *f, const struct tma_model *m, int node)
{
	struct model_node_text t;
	char *text;

	if (!model_node_description(m, node, &t) || !t.one_line)
		return;
	text = name_term_text(t.one_line);
	fprintf(f, "  %s: %s\n", model_node(m, node)->name, text ? text : "(out of memory)");
	free(text);
}

/* The nodes shown "-" because a perf group they read failed to open, and why. */
static void print_unmeasured(FILE *f, const struct report_line *line)
{
	for (int i = 0; line->unmeasured && i < model_node_count(line->tma); i++) {
		const struct model_node_info *node = model_node(line->tma, i);
		char *why;

		if (!line->unmeasured[i] || node->level == 0 || node->level > line->level)
			continue;
		why = name_term_text(line->unmeasured[i]);
		fprintf(f, "  %s: not measured: %s\n", node->name, why ? why : "(out of memory)");
		free(why);
	}
}

/*
 * A line of summed counts is named by its group: "group KEY=VALUE ... (N
 * lines, M cgroups)", each value escaped as names are, "(none)" where the
 * lines lacked the key.
 */
static void print_group(FILE *f, const struct report_group *g, double interval_s)
{
	fputs("group", f);
	for (int i = 0; i < g->nkeys; i++) {
		char *k = name_term_text(g->key_names[i]);
		char *v = g->values[i] ? name_term_text(g->values[i]) : NULL;

		fprintf(f, " %s=%s", k ? k : "?", !g->values[i] ? "(none)" : v ? v : "?");
		free(k);
		free(v);
	}
	fprintf(f, " (%llu line%s, %llu cgroup%s), interval %.3f s\n", (unsigned long long)g->lines,
		g->lines == 1 ? "" : "s", (unsigned long long)g->cgroups,
		g->cgroups == 1 ? "" : "s", interval_s);
}

void output_tree(FILE *f, const struct report_line *line, bool color)
{
	const struct tma_model *m = line->tma;
	const struct model_result *r = line->result;
	int n = model_node_count(m), level = line->level, last = -1, low = 0;
	const char *path = model_bottleneck_path(m, r, level);
	double interval_s = line->interval_s;
	const char *cgroup = line->cgroup;
	char label[512], *shown_name;

	if (line->task) {
		snprintf(label, sizeof(label), "%s  task %u (%s)", line->cgroup, line->task->tid,
			 line->task->comm);
		cgroup = label;
	}
	/* Names and comms are chosen by others: no terminal escapes reach the table. */
	if (line->group) {
		print_group(f, line->group, interval_s);
	} else {
		shown_name = name_term_text(cgroup);
		fprintf(f, "cgroup %s, interval %.3f s\n",
			shown_name ? shown_name : "(out of memory)", interval_s);
		free(shown_name);
	}
	for (int i = 0; i < n; i++) {
		const struct model_node_info *node = model_node(m, i);

		if (node->level == 0 || node->level > level) /* Info metrics, counts */
			continue;
		print_node(f, node, r->value[i], r->flagged[i], on_path(r, i),
			   measured_low(line, i), color);
		low += measured_low(line, i);
	}
	if (low)
		fprintf(f, "  ~ measured less than half the interval (at --level 4-6 groups take "
			   "turns on the PMU: quality.measured)\n");
	print_unmeasured(f, line);
	print_counts(f, line);
	fprintf(f, "  bottleneck: %s", path ? path : "none");
	if (!path && r->no_tree)
		fprintf(f, " (%s)", r->no_tree);
	fputc('\n', f);
	for (int i = 0; path && i < r->bottleneck_len; i++) /* the node the path ends at */
		if (model_node(m, r->bottleneck[i])->level <= level)
			last = r->bottleneck[i];
	if (last >= 0)
		print_why(f, m, last);
	fputc('\n', f);
}
