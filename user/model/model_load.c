// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Loader of the .tma model format (docs/model-format.md): one directive per
 * logical line; formulas are parsed here, names resolved in model_resolve.c
 * once the whole file is read (a node may read a node written later).  The
 * directives and the line reader are one concern, the grammar of the file:
 * they share the loader state and its error positions.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model_impl.h"
#include "util/file_read.h"
#include "util/name_escape.h"

/* Models loaded so far in this process: each one's serial (model_serial). */
static _Atomic uint64_t models_loaded;

/* Physical lines one logical line may span: far more than any formula needs. */
#define MODEL_MAX_SEGS 64

struct loader {
	struct tma_model *m;
	const char *file;
	char *err;
	size_t errlen;
	/* the current logical line */
	char *text;
	size_t len, cap;
	struct expr_seg segs[MODEL_MAX_SEGS];
	int nsegs;
	struct model_entry *cur; /* node or info being described */
};

static int lerr(struct loader *ld, size_t off, const char *fmt, ...)
{
	struct expr_src src = { ld->text, ld->len, ld->segs, ld->nsegs };
	int line, col, n;
	va_list ap;

	expr_src_pos(&src, off, &line, &col);
	n = snprintf(ld->err, ld->errlen, "%s:%d:%d: ", ld->file, line, col);
	if (n < 0 || (size_t)n >= ld->errlen)
		return -EINVAL;
	va_start(ap, fmt);
	vsnprintf(ld->err + n, ld->errlen - n, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* Room for one more element; models have hundreds of entries, so plain realloc is enough. */
static int grow(void **arr, int n, size_t size)
{
	void *na = realloc(*arr, (size_t)(n + 1) * size);

	if (!na)
		return -ENOMEM;
	*arr = na;
	return 0;
}

static char *dup_n(const char *s, size_t n)
{
	char *d = malloc(n + 1);

	if (d) {
		memcpy(d, s, n);
		d[n] = '\0';
	}
	return d;
}

/* Node names may start with a digit (Intel's 4K_Aliasing); formulas read those as G4K_Aliasing. */
static bool valid_name(const char *s, size_t n, bool node)
{
	static const char *const reserved[] = { "and",	       "or",
						"not",	       "if",
						"else",	       "min",
						"max",	       "True",
						"False",       "self",
						"parent",      "over",
						"threshold",   "topdown_use_fixed",
						"smt_enabled", "pmu_slots" };

	if (!n || !(isalpha((unsigned char)s[0]) || s[0] == '_' ||
		    (node && isdigit((unsigned char)s[0]))))
		return false;
	for (size_t i = 1; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '_')
			return false;
	for (size_t i = 0; i < sizeof(reserved) / sizeof(reserved[0]); i++)
		if (strlen(reserved[i]) == n && !memcmp(s, reserved[i], n))
			return false;
	return true;
}

static size_t skip_space(const struct loader *ld, size_t off)
{
	while (off < ld->len && isspace((unsigned char)ld->text[off]))
		off++;
	return off;
}

/* Next whitespace-separated word at *off; returns its length (0 at end). */
static size_t word(const struct loader *ld, size_t *off)
{
	size_t i = *off = skip_space(ld, *off);

	while (i < ld->len && !isspace((unsigned char)ld->text[i]))
		i++;
	return i - *off;
}

static int parse_expr_at(struct loader *ld, size_t off, enum expr_mode mode, int *root)
{
	struct expr_seg segs[MODEL_MAX_SEGS];
	struct expr_src src;
	struct expr_error e;
	int n = 0, rc;

	/* re-base the segments so the parser's offsets start at off */
	for (int i = 0; i < ld->nsegs; i++) {
		if (i + 1 < ld->nsegs && ld->segs[i + 1].off <= off)
			continue;
		segs[n] = ld->segs[i];
		if (segs[n].off <= off) {
			segs[n].col += (int)(off - segs[n].off);
			segs[n].off = 0;
		} else {
			segs[n].off -= off;
		}
		n++;
	}
	src = (struct expr_src){ ld->text + off, ld->len - off, segs, n };
	rc = expr_parse(&ld->m->pool, &src, mode, root, &e);
	if (rc == -EINVAL)
		snprintf(ld->err, ld->errlen, "%s:%d:%d: %s", ld->file, e.line, e.col, e.msg);
	else if (rc)
		snprintf(ld->err, ld->errlen, "%s: out of memory", ld->file);
	return rc;
}

/*
 * A text value as it reads: "\#" is a '#' (append_line keeps it from starting a
 * comment), and a run of spaces one space (a text broken over continuation lines
 * keeps the space before each '\').
 */
static void unescape_text(char *s)
{
	char *w = s;

	for (const char *r = s; *r; r++) {
		if (r[0] == '\\' && r[1] == '#')
			r++;
		else if (r[0] == ' ' && w > s && w[-1] == ' ')
			continue;
		*w++ = *r;
	}
	*w = '\0';
}

static int set_text(struct loader *ld, char **field, size_t off, const char *what)
{
	off = skip_space(ld, off);
	if (*field)
		return lerr(ld, off, "second '%s' line for the same entry", what);
	if (off >= ld->len)
		return lerr(ld, off, "'%s' needs a value", what);
	*field = dup_n(ld->text + off, ld->len - off);
	if (!*field)
		return -ENOMEM;
	unescape_text(*field);
	return 0;
}

static int find_const(const struct tma_model *m, const char *name)
{
	for (int i = 0; i < m->nconsts; i++)
		if (!strcmp(m->consts[i].name, name))
			return i;
	return -1;
}

static int find_helper(const struct tma_model *m, const char *name)
{
	for (int i = 0; i < m->nhelpers; i++)
		if (!strcmp(m->helpers[i].name, name))
			return i;
	return -1;
}

/*
 * Node names and numbers are found through a hash while loading, but the
 * listings, the planner and constant and helper names still cost the square
 * of a model's size: the caps keep a hostile model under a second (60,000
 * nodes took 19 s), 8 times the largest built-in (249 entries, 68 constants
 * and helpers).
 */
#define MODEL_MAX_ENTRIES 2048
#define MODEL_MAX_NAMES 2048

/* "NAME = expr" of a const or helper line: a name no const or helper has yet. */
static int new_name_eq(struct loader *ld, size_t *off, char **name)
{
	size_t n = 0, start = skip_space(ld, *off), i;

	if (ld->m->nconsts + ld->m->nhelpers >= MODEL_MAX_NAMES)
		return lerr(ld, start,
			    "more than %d constants and helpers, the limit of a model (the "
			    "built-in ones have under 100)",
			    MODEL_MAX_NAMES);
	for (i = start; i < ld->len && (isalnum((unsigned char)ld->text[i]) || ld->text[i] == '_');
	     i++)
		n++;
	if (!valid_name(ld->text + start, n, false))
		return lerr(ld, start, "expected a name ([A-Za-z_][A-Za-z0-9_]*, not a keyword)");
	i = skip_space(ld, i);
	if (i >= ld->len || ld->text[i] != '=')
		return lerr(ld, i, "expected '=' after the name");
	*name = dup_n(ld->text + start, n);
	if (!*name)
		return -ENOMEM;
	if (find_const(ld->m, *name) >= 0 || find_helper(ld->m, *name) >= 0) {
		free(*name);
		*name = NULL;
		return lerr(ld, start, "duplicate name %.*s", (int)n, ld->text + start);
	}
	*off = i + 1;
	return 0;
}

/*
 * Folds an expression of numbers and earlier constants (const and cap lines);
 * names are resolved here because constants may only read earlier ones.
 */
static int const_value(struct loader *ld, int e, double *v)
{
	struct expr *x = &ld->m->pool.e[e];
	bool div0 = false;
	double a, b;
	int rc;

	switch (x->kind) {
	case EXPR_NUM:
		*v = x->num;
		return 0;
	case EXPR_NAME: {
		int c = find_const(ld->m, expr_str(&ld->m->pool, x->a));

		if (c < 0)
			return snprintf(ld->err, ld->errlen,
					"%s:%d:%d: '%s' is not a constant defined above", ld->file,
					x->line, x->col, expr_str(&ld->m->pool, x->a)),
			       -EINVAL;
		x->kind = EXPR_CONST;
		x->a = c;
		x->num = ld->m->consts[c].value;
		*v = x->num;
		return 0;
	}
	case EXPR_NEG:
		rc = const_value(ld, x->a, &a);
		*v = expr_unary(x->kind, a);
		return rc;
	case EXPR_ADD:
	case EXPR_SUB:
	case EXPR_MUL:
	case EXPR_DIV:
		rc = const_value(ld, x->a, &a);
		if (!rc)
			rc = const_value(ld, x->b, &b);
		if (rc)
			return rc;
		*v = expr_binary(x->kind, a, b, &div0);
		if (div0)
			return snprintf(ld->err, ld->errlen,
					"%s:%d:%d: division by zero in a constant", ld->file,
					x->line, x->col),
			       -EINVAL;
		return 0;
	default:
		snprintf(ld->err, ld->errlen,
			 "%s:%d:%d: a constant may hold only numbers, constants and + - * /",
			 ld->file, x->line, x->col);
		return -EINVAL;
	}
}

/* const NAME = expr (folded now) | helper NAME = expr (kept, with its text for --explain) */
static int do_named(struct loader *ld, size_t off, bool constant)
{
	struct tma_model *m = ld->m;
	char *name = NULL, *text = NULL;
	double value = 0;
	int root, rc;

	rc = new_name_eq(ld, &off, &name);
	if (rc)
		return rc;
	rc = parse_expr_at(ld, off, EXPR_MODE_FORMULA, &root);
	if (!rc)
		rc = constant ? const_value(ld, root, &value) : set_text(ld, &text, off, "helper");
	if (!rc)
		rc = constant ? grow((void **)&m->consts, m->nconsts, sizeof(*m->consts)) :
				grow((void **)&m->helpers, m->nhelpers, sizeof(*m->helpers));
	if (rc) {
		free(name);
		free(text);
		return rc;
	}
	if (constant)
		m->consts[m->nconsts++] = (struct model_const){ .name = name, .value = value };
	else
		m->helpers[m->nhelpers++] =
			(struct model_helper){ .name = name, .root = root, .text = text };
	return 0;
}

enum entry_kind { ENTRY_NODE, ENTRY_INFO, ENTRY_COUNT };

/* node NUMBER NAME | info NAME | count NAME */
static int do_entry(struct loader *ld, size_t off, enum entry_kind kind)
{
	bool info = kind != ENTRY_NODE;
	struct tma_model *m = ld->m;
	struct model_entry e = {
		.formula = -1, .threshold = -1, .cap = INFINITY, .info.parent = -1
	};
	size_t noff = off, nlen = 0, name_off, name_len;
	struct expr_src src = { ld->text, ld->len, ld->segs, ld->nsegs };
	int rc;

	if (m->nnodes >= MODEL_MAX_ENTRIES)
		return lerr(ld, skip_space(ld, off),
			    "more than %d nodes, Info metrics and counts, the limit of a model "
			    "(the built-in ones have under 300)",
			    MODEL_MAX_ENTRIES);
	if (!info) {
		nlen = word(ld, &noff);
		if (!nlen)
			return lerr(ld, noff, "expected a node number (1.2.1) and a name");
		for (size_t i = 0; i < nlen; i++) {
			char c = ld->text[noff + i];
			bool dot_ok = i > 0 && i + 1 < nlen && ld->text[noff + i - 1] != '.';

			if (!(isdigit((unsigned char)c) || (c == '.' && dot_ok)))
				return lerr(
					ld, noff,
					"bad node number '%.*s': write it as in the seed, e.g. 3.1.4",
					(int)nlen, ld->text + noff);
			if (c == '.')
				e.info.level++;
		}
		e.info.level++;
		if (e.info.level > MODEL_MAX_LEVEL)
			return lerr(ld, noff, "node number '%.*s' is deeper than %d levels",
				    (int)nlen, ld->text + noff, MODEL_MAX_LEVEL);
		if (model_entry_find_n(m, true, ld->text + noff, nlen) >= 0)
			return lerr(ld, noff, "duplicate node number %.*s", (int)nlen,
				    ld->text + noff);
		if (e.info.level > 1) {
			size_t plen = nlen;

			while (ld->text[noff + plen - 1] != '.')
				plen--;
			e.info.parent = model_entry_find_n(m, true, ld->text + noff, plen - 1);
			if (e.info.parent < 0)
				return lerr(
					ld, noff,
					"node %.*s has no parent: node %.*s must come before it",
					(int)nlen, ld->text + noff, (int)(plen - 1),
					ld->text + noff);
		}
		noff += nlen;
	}
	name_off = noff;
	name_len = word(ld, &name_off);
	if (!valid_name(ld->text + name_off, name_len, true))
		return lerr(ld, name_off,
			    "expected a name ([A-Za-z_][A-Za-z0-9_]*, not a keyword)");
	{
		size_t after = name_off + name_len;

		if (word(ld, &after))
			return lerr(ld, after, "unexpected text after the name");
	}
	rc = model_entry_find_n(m, false, ld->text + name_off, name_len);
	if (rc >= 0)
		return lerr(ld, name_off, "duplicate name %.*s (first defined at line %d)",
			    (int)name_len, ld->text + name_off, m->nodes[rc].line);
	e.info.name = dup_n(ld->text + name_off, name_len);
	e.info.name_len = name_len;
	e.info.number = info ? NULL : dup_n(ld->text + noff - nlen, nlen);
	e.info.is_info = kind == ENTRY_INFO;
	e.info.is_count = kind == ENTRY_COUNT;
	expr_src_pos(&src, name_off, &e.line, &e.col);
	rc = grow((void **)&m->nodes, m->nnodes, sizeof(e));
	if (rc || !e.info.name || (!info && !e.info.number)) {
		free((char *)e.info.name);
		free((char *)e.info.number);
		return -ENOMEM;
	}
	m->nodes[m->nnodes++] = e;
	ld->cur = &m->nodes[m->nnodes - 1];
	return model_entry_index_last(m);
}

/* The free-text field directive dir sets, NULL for any other directive. */
static char **text_field(struct model_entry *e, const char *dir)
{
	static const struct {
		const char *dir;
		size_t off;
	} fields[] = {
		{ "domain", offsetof(struct model_entry, info.domain) },
		{ "groups", offsetof(struct model_entry, info.groups) },
		{ "desc", offsetof(struct model_entry, info.description) },
		{ "brief", offsetof(struct model_entry, brief) },
		{ "long", offsetof(struct model_entry, long_text) },
		{ "issues", offsetof(struct model_entry, issues) },
		{ "area", offsetof(struct model_entry, area) },
		{ "sample", offsetof(struct model_entry, sample) },
	};

	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
		if (!strcmp(fields[i].dir, dir))
			return (char **)((char *)e + fields[i].off);
	return NULL;
}

static int do_entry_field(struct loader *ld, const char *dir, size_t off, size_t doff)
{
	struct model_entry *e = ld->cur;
	size_t vo = skip_space(ld, off);

	if (!e)
		return lerr(ld, doff, "'%s' outside a node, info or count block", dir);
	/* A count is a value, not a finding: nothing flags, caps or scopes it. */
	if (e->info.is_count && strcmp(dir, "domain") && strcmp(dir, "groups") &&
	    strcmp(dir, "desc") && strcmp(dir, "brief") && strcmp(dir, "long") &&
	    strcmp(dir, "formula"))
		return lerr(ld, doff,
			    "'%s' does not belong to a count (domain, groups, desc, brief, long, "
			    "formula do)",
			    dir);
	if (text_field(e, dir))
		return set_text(ld, text_field(e, dir), off, dir);
	if (!strcmp(dir, "scope")) {
		static const char *const scopes[] = { "thread", "core", "uncore", "system" };
		size_t n = ld->len - vo;
		bool ok = false;

		if (!e->info.is_info)
			return lerr(ld, doff, "'scope' belongs to info metrics");
		for (size_t i = 0; i < 4; i++)
			ok |= strlen(scopes[i]) == n && !memcmp(ld->text + vo, scopes[i], n);
		if (!ok)
			return lerr(ld, vo, "scope must be thread, core, uncore or system");
		return set_text(ld, &e->scope, off, dir);
	}
	if (!strcmp(dir, "core_wide")) {
		if (vo < ld->len)
			return lerr(ld, vo, "'core_wide' takes no value");
		e->info.core_wide = true;
		return 0;
	}
	if (!strcmp(dir, "formula") || !strcmp(dir, "threshold")) {
		bool formula = dir[0] == 'f';
		int *root = formula ? &e->formula : &e->threshold, rc;

		if (*root >= 0)
			return lerr(ld, doff, "second '%s' line for the same entry", dir);
		rc = parse_expr_at(ld, off, formula ? EXPR_MODE_FORMULA : EXPR_MODE_THRESHOLD,
				   root);
		/* the text as written, for --explain: the formula in the model's terms */
		return rc ? rc :
			    set_text(ld, formula ? &e->formula_text : &e->threshold_text, off, dir);
	}
	if (!strcmp(dir, "cap")) {
		int root, rc;

		if (!isinf(e->cap))
			return lerr(ld, doff, "second 'cap' line for the same entry");
		rc = parse_expr_at(ld, off, EXPR_MODE_FORMULA, &root);
		if (!rc)
			rc = const_value(ld, root, &e->cap);
		return rc;
	}
	return lerr(ld, doff, "unknown directive '%s'", dir);
}

/*
 * `event NAME [COUNTER]`: events whose names have no dot (AMD's
 * ls_not_halted_cyc, perf's cycles) or are not formula names (perf's
 * branch-misses, read as branch_misses).  COUNTER is what replay files and
 * the counts call it; it defaults to NAME.
 */
static int do_event_decl(struct loader *ld, size_t off)
{
	struct tma_model *m = ld->m;
	size_t no = off, nlen = word(ld, &no), co = no + nlen, clen = word(ld, &co), rest;
	struct model_event_decl d;

	rest = co + clen;
	if (!nlen)
		return lerr(ld, off, "'event' takes a name and optionally the counter it reads");
	if (word(ld, &rest))
		return lerr(ld, rest, "'event NAME [COUNTER]' takes at most two words");
	for (size_t i = 0; i < nlen; i++) {
		char c = ld->text[no + i];

		if (!(islower((unsigned char)c) || isdigit((unsigned char)c) || c == '_') ||
		    (i == 0 && isdigit((unsigned char)c)))
			return lerr(ld, no + i, "an event's formula name must be [a-z_][a-z0-9_]*");
	}
	for (size_t i = 0; i < clen; i++) {
		char c = ld->text[co + i];

		if (!(isalnum((unsigned char)c) || strchr("_-.:=/", c)))
			return lerr(ld, co + i, "bad character in the counter name");
	}
	for (int i = 0; i < m->ndecls; i++)
		if (strlen(m->decls[i].name) == nlen &&
		    !memcmp(m->decls[i].name, ld->text + no, nlen))
			return lerr(ld, no, "event %.*s declared twice", (int)nlen, ld->text + no);
	d.name = strndup(ld->text + no, nlen);
	d.counter = clen ? strndup(ld->text + co, clen) : strndup(ld->text + no, nlen);
	if (!d.name || !d.counter || grow((void **)&m->decls, m->ndecls, sizeof(*m->decls))) {
		free(d.name);
		free(d.counter);
		return lerr(ld, off, "out of memory");
	}
	m->decls[m->ndecls++] = d;
	return 0;
}

static int do_header(struct loader *ld, const char *dir, size_t off, size_t doff)
{
	struct tma_model *m = ld->m;

	if (!strcmp(dir, "model")) {
		size_t vo = skip_space(ld, off), n = ld->len - vo;

		/* '-' inside, as Arm names its cores (neoverse-n2-r0p3); never first */
		for (size_t i = 0; i < n; i++) {
			char c = ld->text[vo + i];

			if (!(islower((unsigned char)c) || isdigit((unsigned char)c) || c == '_' ||
			      (c == '-' && i > 0)))
				return lerr(ld, vo, "model id must be [a-z0-9_][a-z0-9_-]*");
		}
		return set_text(ld, &m->id, off, dir);
	}
	if (!strcmp(dir, "title"))
		return set_text(ld, &m->title, off, dir);
	if (!strcmp(dir, "tma_version")) {
		size_t vo = skip_space(ld, off), n = ld->len - vo;

		/*
		 * A version names a file (ID@VERSION.tma), is an argument (--tma-version)
		 * and is printed as is in messages and listings: a word, never a
		 * terminal control, and short enough for model_versions()' table.
		 */
		for (size_t i = 0; i < n; i++) {
			char c = ld->text[vo + i];

			if (!(isalnum((unsigned char)c) || (i > 0 && strchr("._+-", c))) ||
			    i + 1 >= MODEL_VERSION_MAX)
				return lerr(ld, vo,
					    "tma_version must be [A-Za-z0-9][A-Za-z0-9._+-]*, at "
					    "most %d characters",
					    MODEL_VERSION_MAX - 1);
		}
		return set_text(ld, &m->tma_version, off, dir);
	}
	if (!strcmp(dir, "source"))
		return set_text(ld, &m->source, off, dir);
	if (!strcmp(dir, "event"))
		return do_event_decl(ld, off);
	/* Which CPUs run a model is said once, in their descriptions. */
	if (!strcmp(dir, "cpu"))
		return lerr(ld, doff,
			    "'cpu' lines belong in the CPU's description now: write 'model %s' in "
			    "its .cpu file next to the model (docs/cpu-format.md)",
			    m->id ? m->id : "ID");
	return 1; /* not a header directive */
}

static int do_line(struct loader *ld)
{
	size_t doff = 0, dlen = word(ld, &doff);
	char dir[32];
	int rc;

	if (!dlen)
		return 0;
	if (dlen >= sizeof(dir))
		return lerr(ld, doff, "unknown directive '%.*s'", (int)dlen, ld->text + doff);
	memcpy(dir, ld->text + doff, dlen);
	dir[dlen] = '\0';
	if (!strcmp(dir, "const") || !strcmp(dir, "helper")) {
		ld->cur = NULL;
		return do_named(ld, doff + dlen, dir[0] == 'c');
	}
	if (!strcmp(dir, "node"))
		return do_entry(ld, doff + dlen, ENTRY_NODE);
	if (!strcmp(dir, "info"))
		return do_entry(ld, doff + dlen, ENTRY_INFO);
	if (!strcmp(dir, "count"))
		return do_entry(ld, doff + dlen, ENTRY_COUNT);
	rc = do_header(ld, dir, doff + dlen, doff);
	if (rc <= 0) {
		ld->cur = NULL;
		return rc;
	}
	return do_entry_field(ld, dir, doff + dlen, doff);
}

/* Appends one physical line (comment stripped) to the logical line; true if it continues. */
static int append_line(struct loader *ld, const char *s, size_t n, int line, bool *cont)
{
	const char *hash = memchr(s, '#', n);
	size_t start = 0;

	/* "\#": a '#' of a text value (vendor descriptions), not a comment */
	while (hash && hash > s && hash[-1] == '\\')
		hash = memchr(hash + 1, '#', n - (size_t)(hash + 1 - s));
	if (hash)
		n = hash - s;
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	*cont = n && s[n - 1] == '\\';
	if (*cont)
		n--;
	if (ld->nsegs == MODEL_MAX_SEGS) {
		snprintf(ld->err, ld->errlen, "%s:%d:1: too many continuation lines", ld->file,
			 line);
		return -EINVAL;
	}
	if (ld->nsegs) { /* continuation: drop the indentation, keep one space */
		while (start < n && isspace((unsigned char)s[start]))
			start++;
		n -= start;
	}
	if (ld->len + n + 2 > ld->cap) {
		size_t cap = (ld->len + n + 2) * 2;
		char *t = realloc(ld->text, cap);

		if (!t)
			return -ENOMEM;
		ld->text = t;
		ld->cap = cap;
	}
	if (ld->nsegs)
		ld->text[ld->len++] = ' ';
	ld->segs[ld->nsegs++] = (struct expr_seg){ ld->len, line, (int)start + 1 };
	memcpy(ld->text + ld->len, s + start, n);
	ld->len += n;
	ld->text[ld->len] = '\0';
	return 0;
}

/* base "icx" names model icx; "icx@4.5" names it at tma_version 4.5. */
static bool file_names_model(const char *base, const struct tma_model *m)
{
	const char *at = strchr(base, '@');
	size_t n = at ? (size_t)(at - base) : strlen(base);

	if (strlen(m->id) != n || strncmp(base, m->id, n))
		return false;
	return !at || (m->tma_version && !strcmp(at + 1, m->tma_version));
}

static int check_complete(struct loader *ld, const char *base)
{
	struct tma_model *m = ld->m;

	if (!m->id) {
		snprintf(ld->err, ld->errlen, "%s:1:1: no 'model ID' line", ld->file);
		return -EINVAL;
	}
	if (base && !file_names_model(base, m)) {
		snprintf(ld->err, ld->errlen,
			 "%s:1:1: model id '%s' (tma_version %s) differs from the file name",
			 ld->file, m->id, m->tma_version ? m->tma_version : "none");
		return -EINVAL;
	}
	for (int i = 0; i < m->nnodes; i++) {
		if (m->nodes[i].formula < 0) {
			snprintf(ld->err, ld->errlen, "%s:%d:%d: %s has no formula", ld->file,
				 m->nodes[i].line, m->nodes[i].col, m->nodes[i].info.name);
			return -EINVAL;
		}
	}
	if (model_resolve(m, ld->err, ld->errlen))
		return -EINVAL;
	if (model_compile(m, false) || model_subsets(m) || model_paths(m)) {
		snprintf(ld->err, ld->errlen, "%s: out of memory", ld->file);
		return -ENOMEM;
	}
	return 0;
}

/* base: the file name without directory and ".tma", which the id must equal; NULL: any id. */
struct tma_model *model_load_named(const char *text, size_t len, const char *filename,
				   const char *base, char *err, size_t errlen)
{
	struct loader ld = { .file = filename, .err = err, .errlen = errlen };
	size_t pos = 0;
	int line = 0, rc = 0;
	bool cont = false;

	if (errlen)
		err[0] = '\0';
	ld.m = calloc(1, sizeof(*ld.m));
	if (!ld.m) {
		snprintf(err, errlen, "%s: out of memory", filename);
		return NULL;
	}
	ld.m->serial = atomic_fetch_add(&models_loaded, 1) + 1;
	expr_pool_init(&ld.m->pool);
	u64map_init(&ld.m->by_name);
	u64map_init(&ld.m->by_number);
	ld.m->filename = strdup(filename);
	while (!rc && pos < len) {
		const char *s = text + pos, *nl = memchr(s, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - s) : len - pos;

		line++;
		pos += n + (nl ? 1 : 0);
		if (memchr(s, '\0', n)) {
			snprintf(err, errlen, "%s:%d:%d: NUL byte in the file", filename, line,
				 (int)((const char *)memchr(s, '\0', n) - s) + 1);
			rc = -EINVAL;
			break;
		}
		if (!cont)
			ld.len = ld.nsegs = 0;
		rc = append_line(&ld, s, n, line, &cont);
		if (!rc && !cont)
			rc = do_line(&ld);
	}
	if (!rc && cont) {
		ld.len = ld.nsegs = 0;
		snprintf(err, errlen, "%s:%d:1: the file ends after a continuation '\\'", filename,
			 line);
		rc = -EINVAL;
	}
	if (!rc)
		rc = check_complete(&ld, base);
	free(ld.text);
	if (rc) {
		term_escape_message(err, errlen); /* it quotes the file */
		if (rc == -ENOMEM && !err[0])
			snprintf(err, errlen, "%s: out of memory", filename);
		model_free(ld.m);
		return NULL;
	}
	return ld.m;
}

struct tma_model *model_load(const char *text, size_t len, const char *filename, char *err,
			     size_t errlen)
{
	return model_load_named(text, len, filename, NULL, err, errlen);
}

/* Far above any real model (ICX's is 64 KiB): /dev/zero must end with a message. */
#define MODEL_FILE_MAX (4 << 20)

struct tma_model *model_load_file(const char *path, char *err, size_t errlen)
{
	struct tma_model *m;
	char *text;
	size_t len;

	if (file_read_all(path, "model file", MODEL_FILE_MAX, &text, &len, err, errlen))
		return NULL;
	m = model_load(text, len, path, err, errlen);
	free(text);
	return m;
}
