// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The bytes of JSON lines and of the /metrics exposition, pinned: both were
 * made cheaper per node (issue 27) on the promise that their output does
 * not change.  Lines of icx at level 3 and at level 6 (with quality.measured,
 * as a rotating run gives), values from a fixed generator, are written as
 * JSON lines and as three intervals of the exposition (the second with fewer
 * cgroups than the first: a reused buffer must not leak the longer text; the
 * third with one back, its counters started again), and compared byte for
 * byte with tests/fixtures/output_bytes/.  The fixtures were written by the
 * code before that work (ff2ccdd), with TMACG_OUTPUT_BYTES_WRITE=DIR; the
 * family added since (tmacg_tma_measured_ratio) is taken out of the
 * exposition before the comparison and pinned on its own (measured6.N.txt,
 * written by the code that added it, f1b31fb): its samples were made cheaper
 * after it was added.  It then became a sample per set of perf groups
 * (tma_groups), on the ratios of the nodes of a set too: measured6.N.txt
 * were rewritten by regroup.py from f1b31fb's, and the label is checked and
 * taken out of the ratios before they are compared (without_groups).  Since
 * then two changes are meant: ratios are written to 9
 * significant digits and measured shares to 4, cut toward zero (docs/output.md
 * "Numbers"), and tmacg_tma_node_slots_total in whole slots, rounded to the
 * nearest (docs/prometheus.md); the fixtures keep the old full digits, and a
 * number that differs must be the old value so written, judged by glibc's
 * printf (and libm's nearbyint), and only where a ratio, a share or a
 * node's slots stand.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "output/cgroup_record.h"
#include "output/output_json.h"
#include "prom/prom_expo.h"
#include "repo_root.h"

#define NLINES 3

static const char *const count_names[] = { "on_cpu_s",	  "cpu_utilization", "context_switches",
					   "page_faults", "cycles",	     "instructions",
					   "slots" };
#define NCOUNTS (int)(sizeof(count_names) / sizeof(count_names[0]))

struct lines {
	struct tma_model *tma;
	int level;
	struct model_result *result[NLINES];
	double counts[NLINES][NCOUNTS];
	double *measured; /* level 6 only */
	uint64_t *groups; /* with measured: node k reads groups 0 and k % 4 + 1 */
	char cgroup[NLINES][32];
	struct resource res;
};

static uint64_t rng = 0x2545f4914f6cdd1dULL;

static double uniform(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (double)(rng >> 11) / 9007199254740992.0;
}

static void make(struct lines *L, struct tma_model *tma, int level)
{
	rng = 0x2545f4914f6cdd1dULL; /* the same lines whatever ran before */
	int nev = model_event_count(tma), n = model_node_count(tma);
	double *ev = calloc(nev, sizeof(double));

	assert_non_null(ev);
	memset(L, 0, sizeof(*L));
	L->tma = tma;
	L->level = level;
	L->res.host = "node-7";
	for (int i = 0; i < NLINES; i++) {
		struct model_input in = { .events = ev,
					  .interval_s = 1.001202908,
					  .flags = MODEL_FLAG_TOPDOWN_FIXED | MODEL_FLAG_SMT };

		snprintf(L->cgroup[i], sizeof(L->cgroup[i]), "/pool/c\"%d\\", i);
		for (int c = 0; c < NCOUNTS; c++)
			L->counts[i][c] =
				c == 3 && i == 1 ? NAN : floor(uniform() * 1e9) / (c ? 1 : 1e9);
		for (int e = 0; e < nev; e++)
			ev[e] = floor(1e6 + uniform() * 1e9);
		L->result[i] = model_result_new(tma);
		assert_non_null(L->result[i]);
		assert_int_equal(model_eval_level(tma, &in, L->result[i], level, false), 0);
	}
	free(ev);
	if (level <= 3)
		return;
	L->measured = calloc(n, sizeof(double));
	L->groups = calloc(n, sizeof(*L->groups));
	assert_non_null(L->measured);
	assert_non_null(L->groups);
	for (int k = 0; k < n; k++) {
		const struct model_node_info *node = model_node(tma, k);
		bool turns = !node->is_info && !node->is_count && node->level > 3;

		/* The share of group k % 4 + 1 (group 0's is 1): the smallest of the two. */
		L->measured[k] = turns ? (k % 4 + 1) / 15.0 : NAN;
		L->groups[k] = turns ? 1 | UINT64_C(1) << (k % 4 + 1) : 0;
	}
}

static void unmake(struct lines *L)
{
	for (int i = 0; i < NLINES; i++)
		model_result_free(L->result[i]);
	free(L->measured);
	free(L->groups);
}

static void fill(const struct lines *L, int i, struct report_line *l)
{
	static const char *const missing[] = { "cpu/topdown-bad-spec/" };

	*l = (struct report_line){ .time = { .tv_sec = 1795255201 + i, .tv_nsec = 701452650 },
				   .interval_s = 1.001202908,
				   .host = "node-7",
				   .model = model_id(L->tma),
				   .tma_version = model_tma_version(L->tma),
				   .cgroup = L->cgroup[i],
				   .cgroup_id = 76481 + (uint64_t)i,
				   .resource = &L->res,
				   .ncounts = NCOUNTS,
				   .count_names = count_names,
				   .count_values = L->counts[i],
				   .nsummary = 4,
				   .running_min = 0.5 + i / 8.0,
				   .pmu_groups = 3,
				   .nmissing = 1,
				   .missing = missing,
				   .instance = "15645@2026-11-24T12:28:26.652210263Z",
				   .tma = L->tma,
				   .result = L->result[i],
				   .measured = L->measured,
				   .measured_groups = L->groups,
				   .level = L->level,
				   .topdown_fixed = true,
				   .smt = true };
}

enum digits_rule { EXACT, RATIO_9, SHARE_4_CUT, WHOLE };

/* Which rule the number at got + at follows: a ratio's, a share's, a node's slots' or none (exact). */
static enum digits_rule rule_at(const char *got, size_t at)
{
	size_t start = at;
	enum digits_rule rule = EXACT;

	while (start && got[start - 1] != '\n')
		start--;
	/* /metrics: the sample's family */
	if (!strncmp(got + start, "tmacg_tma_ratio{", 16) ||
	    !strncmp(got + start, "tmacg_tma_info_value{", 21))
		return RATIO_9;
	if (!strncmp(got + start, "tmacg_tma_measured_ratio{", 25))
		return SHARE_4_CUT;
	if (!strncmp(got + start, "tmacg_tma_node_slots_total{", 27))
		return WHOLE;
	/* JSON: inside "metrics":{...} or "measured":{...} (node names hold no brace) */
	for (size_t i = start; i < at; i++) {
		if (!strncmp(got + i, "\"metrics\":{", 11))
			rule = RATIO_9;
		else if (!strncmp(got + i, "\"measured\":{", 12))
			rule = SHARE_4_CUT;
		else if (got[i] == '}')
			rule = EXACT;
	}
	return rule;
}

/* w as the rule writes it, read back: printf's %.8e, the first 4 of its exact digits, or whole. */
static double stated(double w, enum digits_rule rule)
{
	char text[80], cut[80];
	char *e;
	int kept = 0, n = 0;

	if (rule == WHOLE)
		return nearbyint(w);
	if (rule == RATIO_9) {
		snprintf(text, sizeof(text), "%.8e", w);
		return strtod(text, NULL);
	}
	snprintf(text, sizeof(text), "%.3e", w);
	if (strtod(text, NULL) == w)
		return w; /* w was read from a text of 4 digits: that text */
	snprintf(text, sizeof(text), "%.40e", w);
	e = strchr(text, 'e');
	for (const char *p = text; p < e; p++)
		if (!(*p >= '0' && *p <= '9' && kept++ >= 4))
			cut[n++] = *p;
	snprintf(cut + n, sizeof(cut) - (size_t)n, "%s", e);
	return strtod(cut, NULL);
}

/* A number starts at s + i: a value's place (after ':', ',', '[' or ' '). */
static bool number_at(const char *s, size_t i)
{
	return i && strchr(":,[ ", s[i - 1]) &&
	       ((s[i] >= '0' && s[i] <= '9') ||
		(s[i] == '-' && s[i + 1] >= '0' && s[i + 1] <= '9'));
}

/* got (len bytes) is want, but for numbers written to their stated digits. */
static void same_but_stated_digits(const char *name, const char *want, const char *got, size_t len)
{
	size_t i = 0, j = 0, nw = strlen(want);

	while (i < nw && j < len) {
		if (number_at(want, i) && number_at(got, j)) {
			char *ew, *eg;
			double w = strtod(want + i, &ew), g = strtod(got + j, &eg);
			size_t lw = (size_t)(ew - (want + i)), lg = (size_t)(eg - (got + j));

			if (lw != lg || memcmp(want + i, got + j, lw)) {
				enum digits_rule rule = rule_at(got, j);

				if (rule == EXACT || g != stated(w, rule))
					fail_msg("%s differs at byte %zu: got %.*s, want %.*s (%s)",
						 name, j, (int)lg, got + j, (int)lw, want + i,
						 rule == EXACT	 ? "exact" :
						 rule == RATIO_9 ? "9 digits" :
						 rule == WHOLE	 ? "whole" :
								   "4 digits cut");
			}
			i += lw;
			j += lg;
			continue;
		}
		if (want[i] != got[j])
			fail_msg("%s differs at byte %zu: got \"%.60s\", want \"%.60s\"", name, j,
				 got + j, want + i);
		i++;
		j++;
	}
	if (i != nw || j != len)
		fail_msg("%s: %zu bytes, want %zu (the same but for the numbers)", name, len, nw);
}

/* The file's text, or (writing) writes text there; fails the test on a difference. */
static void pin(const char *name, const char *text, size_t len)
{
	const char *dir = getenv("TMACG_OUTPUT_BYTES_WRITE");
	char path[4096];
	FILE *f;
	char *want;
	long n;

	if (dir) {
		snprintf(path, sizeof(path), "%s/%s", dir, name);
		f = fopen(path, "w");
		assert_non_null(f);
		assert_int_equal(fwrite(text, 1, len, f), len);
		assert_int_equal(fclose(f), 0);
		return;
	}
	assert_int_equal(repo_root(path, sizeof(path) - 64 - strlen(name)), 0);
	strcat(path, "/tests/fixtures/output_bytes/");
	strcat(path, name);
	f = fopen(path, "r");
	if (!f)
		fail_msg("cannot read %s", path);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	want = malloc(n + 1);
	assert_non_null(want);
	assert_int_equal(fread(want, 1, n, f), n);
	fclose(f);
	want[n] = '\0';
	same_but_stated_digits(name, want, text, len);
	free(want);
}

static struct tma_model *icx(void)
{
	char err[256];
	struct tma_model *m = model_load_builtin("icx", err, sizeof(err));

	if (!m)
		fail_msg("icx: %s", err);
	return m;
}

static void json_lines_unchanged(void **state)
{
	struct tma_model *m = icx();
	struct lines L[2];
	char *buf = NULL;
	size_t len = 0;

	(void)state;
	make(&L[0], m, 3);
	make(&L[1], m, 6);
	{
		FILE *f = open_memstream(&buf, &len);

		assert_non_null(f);
		for (int k = 0; k < 2; k++)
			for (int i = 0; i < NLINES; i++) {
				struct report_line l;

				fill(&L[k], i, &l);
				assert_int_equal(output_json_line(f, &l), 0);
			}
		assert_int_equal(fclose(f), 0);
		pin("lines.json", buf, len);
		free(buf);
		buf = NULL;
	}
	unmake(&L[0]);
	unmake(&L[1]);
	model_free(m);
}

/* The sets of groups among the nodes whose quality.measured the lines report: tmacg_tma_measured_ratio's samples a line. */
static int nsets(const struct lines *L)
{
	uint64_t seen = 0;

	for (int i = 0; i < model_node_count(L->tma); i++)
		if (!isnan(L->measured[i]))
			seen |= L->groups[i];
	return __builtin_popcountll(seen & ~UINT64_C(1));
}

/* The index of the node of path (as a label writes it, icx's need no escape). */
static int node_of(const struct lines *L, const char *path, size_t len)
{
	for (int k = 0; k < model_node_count(L->tma); k++) {
		const char *p = model_node(L->tma, k)->path;

		if (strlen(p) == len && !strncmp(p, path, len))
			return k;
	}
	fail_msg("no node %.*s", (int)len, path);
	return -1;
}

/*
 * text without the tma_groups labels of its tmacg_tma_ratio samples, each
 * checked first: on the nodes whose events take turns, and only there, and
 * naming the node's groups.  text's new length.
 */
static size_t without_groups(const struct lines *L, char *text)
{
	char *in = text, *out = text;
	int labelled = 0;

	while (*in) {
		char *end = strchr(in, '\n');
		size_t n = end ? (size_t)(end - in) + 1 : strlen(in);
		char *node = strstr(in, ",tma_node=\""), *g = strstr(in, ",tma_groups=\"");

		if (!strncmp(in, "tmacg_tma_ratio{", 16) && node && node < in + n) {
			char want[40];
			int k;

			node += strlen(",tma_node=\"");
			k = node_of(L, node, strcspn(node, "\""));
			if (!g || g > in + n) {
				if (L->measured && !isnan(L->measured[k]))
					fail_msg("no tma_groups on a node in turns: %.*s", (int)n,
						 in);
			} else {
				size_t glen = strcspn(g + 1, "}") + 1;

				snprintf(want, sizeof(want), ",tma_groups=\"0+%d\"", k % 4 + 1);
				if (!L->measured || isnan(L->measured[k]) || strlen(want) != glen ||
				    strncmp(g, want, glen))
					fail_msg("%s wanted, not as %.*s", want, (int)n, in);
				labelled++;
				memmove(out, in, (size_t)(g - in));
				out += g - in;
				n -= (size_t)(g + glen - in);
				in = g + glen;
			}
		}
		memmove(out, in, n);
		out += n;
		in += n;
	}
	*out = '\0';
	assert_true(!L->measured || labelled > 0);
	return (size_t)(out - text);
}

/*
 * text without family's HELP, TYPE and samples (want of them), which go to
 * taken (as long as text); text's new length.
 */
static size_t without_family(char *text, const char *family, int want, char *taken)
{
	size_t flen = strlen(family);
	char *in = text, *out = text;
	int samples = 0;

	while (*in) {
		char *end = strchr(in, '\n');
		size_t n = end ? (size_t)(end - in) + 1 : strlen(in);
		bool ours = (!strncmp(in, family, flen) && in[flen] == '{') ||
			    ((!strncmp(in, "# HELP ", 7) || !strncmp(in, "# TYPE ", 7)) &&
			     !strncmp(in + 7, family, flen) && in[7 + flen] == ' ');

		samples += ours && *in != '#';
		if (!ours) {
			memmove(out, in, n);
			out += n;
		} else {
			memcpy(taken, in, n);
			taken += n;
		}
		in += n;
	}
	*out = '\0';
	*taken = '\0';
	assert_int_equal(samples, want);
	return (size_t)(out - text);
}

/*
 * The build info's formula-state labels (added after the fixtures), checked
 * against the head's facts and taken out: the rest must be as pinned.
 */
static size_t without_state_labels(char *text, const struct report_line *head)
{
	char want[96];
	char *at;
	size_t n;

	snprintf(want, sizeof(want), ",smt=\"%s\",topdown_fixed=\"%s\"",
		 head->smt ? "true" : "false", head->topdown_fixed ? "true" : "false");
	at = strstr(text, want);
	if (!at)
		fail_msg("the build info has no %s", want);
	n = strlen(want);
	memmove(at, at + n, strlen(at + n) + 1);
	return strlen(text);
}

/* One interval of the exposition over the first n lines of L; name: metricsL.K.txt. */
static void interval(struct prom_expo *e, const struct lines *L, int n, const char *name)
{
	struct report_line l;
	size_t len;
	char *text, *measured;

	fill(L, 0, &l);
	assert_int_equal(prom_expo_begin(e, &l), 0);
	for (int i = 0; i < n; i++) {
		fill(L, i, &l);
		assert_int_equal(prom_expo_line(e, &l), 0);
	}
	text = prom_expo_end(e, &len);
	assert_non_null(text);
	assert_int_equal(strlen(text), len);
	measured = malloc(len + 1);
	assert_non_null(measured);
	len = without_family(text, "tmacg_tma_measured_ratio", L->measured ? n * nsets(L) : 0,
			     measured);
	fill(L, 0, &l);
	without_state_labels(text, &l);
	len = without_groups(L, text);
	pin(name, text, len);
	if (L->measured) {
		char mname[32];

		snprintf(mname, sizeof(mname), "measured%s", name + strlen("metrics"));
		pin(mname, measured, strlen(measured));
	}
	free(measured);
	free(text);
}

static void exposition_unchanged(void **state)
{
	struct tma_model *m = icx();
	const char *names[2][3] = { { "metrics3.1.txt", "metrics3.2.txt", "metrics3.3.txt" },
				    { "metrics6.1.txt", "metrics6.2.txt", "metrics6.3.txt" } };

	(void)state;
	for (int k = 0; k < 2; k++) {
		struct prom_expo *e = prom_expo_new(false);
		struct lines L;

		assert_non_null(e);
		make(&L, m, k ? 6 : 3);
		interval(e, &L, NLINES, names[k][0]);
		interval(e, &L, 1, names[k][1]);
		interval(e, &L, 2, names[k][2]);
		prom_expo_free(e);
		unmake(&L);
	}
	model_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(json_lines_unchanged),
		cmocka_unit_test(exposition_unchanged),
	};
	return cmocka_run_group_tests_name("output_bytes", tests, NULL, NULL);
}
