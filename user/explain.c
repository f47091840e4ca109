// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * tmacg --explain NODE: what a node of the model means, in the vendor's words
 * (the model's description data), with its formula and threshold as the model
 * writes them, the helpers those read, its parent and children.  A command-line
 * concern like the listings (model_list.c), above model/.
 */
#include "offline.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "util/name_escape.h"

/* s, escaped, in lines of at most width columns after an indent of two. */
static void put_wrapped(FILE *f, const char *s, int width)
{
	char *t = name_term_text(s);
	const char *p = t ? t : "(out of memory)";

	while (*p) {
		int n = (int)strlen(p), cut = n;

		if (n > width) {
			cut = width;
			while (cut > 0 && p[cut] != ' ')
				cut--;
			if (!cut) /* one word longer than the line */
				cut = (int)strcspn(p, " ");
		}
		fprintf(f, "  %.*s\n", cut, p);
		p += cut;
		while (*p == ' ')
			p++;
	}
	free(t);
}

/* The name s[0..n) is a helper's: its index, -1 if none. */
static int helper_named(const struct tma_model *m, const char *s, size_t n)
{
	const char *name, *text;

	for (int h = 0; model_helper_text(m, h, &name, &text); h++)
		if (strlen(name) == n && !strncmp(name, s, n))
			return h;
	return -1;
}

/* Marks the helpers text reads, and those they read, in seen[]. */
static void mark_helpers(const struct tma_model *m, const char *text, bool *seen)
{
	for (const char *p = text; p && *p;) {
		size_t n = 0;
		int h;

		if (!(isalpha((unsigned char)*p) || *p == '_')) {
			p++;
			continue;
		}
		while (isalnum((unsigned char)p[n]) || p[n] == '_' || p[n] == '.' || p[n] == ':')
			n++;
		h = helper_named(m, p, n);
		if (h >= 0 && !seen[h]) {
			const char *name = NULL, *htext = "";

			seen[h] = true;
			model_helper_text(m, h, &name, &htext);
			mark_helpers(m, htext, seen);
		}
		p += n;
	}
}

static void print_helpers(FILE *f, const struct tma_model *m, const struct model_node_text *t)
{
	int nh = model_helper_count(m);
	bool *seen = calloc((size_t)nh + 1, sizeof(*seen));
	const char *name, *text;

	if (!seen)
		return;
	mark_helpers(m, t->formula, seen);
	mark_helpers(m, t->threshold, seen);
	for (int h = 0; h < nh; h++) {
		if (!seen[h] || !model_helper_text(m, h, &name, &text))
			continue;
		fprintf(f, "  where %s = ", name);
		name_term_put(f, text);
		fputc('\n', f);
	}
	free(seen);
}

static void print_children(FILE *f, const struct tma_model *m, int i)
{
	int shown = 0;

	for (int k = 0; k < model_node_count(m); k++) {
		if (model_node(m, k)->parent != i || model_node(m, k)->level == 0)
			continue;
		fprintf(f, "%s%s", shown++ ? ", " : "children:  ", model_node(m, k)->name);
	}
	if (shown)
		fputc('\n', f);
}

/* ", TMA 5.1 has it (--tma-version 5.1)": a node renamed since (DRAM_Bound, TMA 5.2). */
static void print_versions_with(FILE *f, const struct tma_model *m, const char *node)
{
	char versions[16][MODEL_VERSION_MAX], err[256];
	int n = model_versions(model_id(m), versions, 16);

	for (int v = 0; v < n; v++) {
		struct tma_model *o;

		if (model_tma_version(m) && !strcmp(versions[v], model_tma_version(m)))
			continue;
		o = model_load_version(model_id(m), versions[v], err, sizeof(err));
		if (o && model_node_index(o, node) >= 0)
			fprintf(f, ", TMA %s has it (--tma-version %s)", versions[v], versions[v]);
		model_free(o);
	}
}

int explain_print(FILE *f, FILE *errf, const struct tma_model *m, const char *node)
{
	int i = model_node_index(m, node);
	const struct model_node_info *n;
	struct model_node_text t;

	if (i < 0) {
		fprintf(errf, "tmacg: model %s (%s%s) has no node '", model_id(m),
			model_tma_version(m) ? "TMA " : "no TMA version",
			model_tma_version(m) ? model_tma_version(m) : "");
		name_term_put(errf, node);
		fprintf(errf, "'");
		print_versions_with(errf, m, node);
		fprintf(errf, ": tmacg --list-metrics --model %s lists them\n", model_id(m));
		return 2;
	}
	n = model_node(m, i);
	model_node_description(m, i, &t);
	fprintf(f, "%s: ", n->name);
	if (n->number)
		fprintf(f, "node %s, level %d", n->number, n->level);
	else
		fprintf(f, "%s", n->is_count ? "a count" : "an Info metric");
	fprintf(f, " of model %s (", model_id(m));
	name_term_put(f, model_title(m));
	if (model_tma_version(m))
		fprintf(f, ", %s%s", isdigit((unsigned char)model_tma_version(m)[0]) ? "TMA " : "",
			model_tma_version(m));
	fprintf(f, ")\n");
	if (n->level > 0)
		fprintf(f, "parent:    %s\n",
			n->parent >= 0 ? model_node(m, n->parent)->name : "- (level 1)");
	print_children(f, m, i);
	if (n->domain) {
		fputs("domain:    ", f);
		name_term_put(f, n->domain);
		fputc('\n', f);
	}
	fputs("description:\n", f);
	put_wrapped(f, t.brief ? t.brief : "(the model gives none)", 76);
	if (t.long_text && t.long_text != t.brief) {
		fputc('\n', f);
		put_wrapped(f, t.long_text, 76);
	}
	fputs("formula:   ", f);
	name_term_put(f, t.formula ? t.formula : "-");
	fputc('\n', f);
	print_helpers(f, m, &t);
	fputs("threshold: ", f);
	if (!t.threshold)
		fputs("none (never flagged)", f);
	else if (strchr("<>=!", t.threshold[0])) /* "> 0.1 and ...": the node's own value */
		fprintf(f, "%s ", n->name);
	if (t.threshold)
		name_term_put(f, t.threshold);
	fputc('\n', f);
	if (t.issues) {
		fputs("issues:    ", f);
		name_term_put(f, t.issues);
		fputc('\n', f);
	}
	return 0;
}
