// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The output path's CPU time per reported cgroup, without BPF or cgroups: the
 * lines report.c would hand over for LINES cgroups (values varied per cgroup,
 * computed beforehand), written as JSON lines to /dev/null (buffered as
 * tmacg's stdout is live) and as the Prometheus exposition (begin, every
 * line, end, as one scrape's interval), timed on this thread's CPU clock.
 * Variants are interleaved, ROUNDS times.
 * icx at level 3 and at level 6; level 6's lines carry quality.measured (each
 * node below level 3 measured part of the interval), as a rotating run's do.
 * eval_icx_level3 and _level6 time what comes before the output: the model's
 * evaluation of the same lines' events (issue 27: level 6 evaluates 105 nodes
 * where level 3 evaluates 41, so this part alone sets a floor under the
 * whole process's level 6 / level 3).
 *
 *   outpath [LINES [ROUNDS [VARIANT]]]    (1000, 15, all)
 * VARIANT (json_icx_level6, ...) runs that one alone, warm-up included: for
 * a profiler (callgrind's instructions over LINES x (ROUNDS + 1) are one line's).
 * prints one JSON object: per variant, ns per line {median, min, max} and the
 * bytes of one JSON line.  N lines a second cost ns_per_line x N / 1e7 percent
 * of one CPU.
 */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "collect/measured_sets.h"
#include "model/model.h"
#include "output/output_json.h"
#include "prom/prom_expo.h"
#include "prom/prom_text.h"
#include "software_counts.h"

struct variant {
	const char *name;
	struct tma_model *tma;
	int level;
	int ncounts;
	const char **count_names;
	bool *count_derived; /* per count, as measure.c marks them: report_line.count_derived */
	double *counts;	     /* lines x ncounts */
	struct model_result **result; /* per line, or NULL */
	double *events;		      /* lines x the model's events: the evaluation's input */
	double *measured;	      /* lines x nnodes, NULL: not rotating */
	uint64_t *groups;	      /* per node, the groups measured takes: measured_groups */
	struct measured_sets sets;    /* of groups: measured_sets */
	int nnodes;
	char **cgroup;
	struct json_printer *json; /* as report.c makes it live */
	double samples[64];
	int nsamples;
};

static uint64_t rng = 0x9e3779b97f4a7c15u;

static double uniform(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (double)(rng >> 11) / 9007199254740992.0;
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* Counts as a live interval gives them: seconds, whole counts and per-second rates. */
static double count_value(const char *name, int line)
{
	double busy = uniform();

	if (strstr(name, "_per_s") || strstr(name, "utilization"))
		return busy * 1000 / 1.001202908;
	if (strstr(name, "_s"))
		return floor(busy * 1e9) / 1e9;
	return floor(busy * (line % 7 + 1) * 1e6);
}

/* Line i's evaluation at the variant's level, as measure.c makes it live. */
static int evaluate(const struct variant *v, int i, struct model_result *out)
{
	struct model_input in = { .events = v->events + (size_t)i * model_event_count(v->tma),
				  .interval_s = 1.001202908,
				  .flags = MODEL_FLAG_TOPDOWN_FIXED | MODEL_FLAG_SMT };

	return model_eval_level(v->tma, &in, out, v->level, false);
}

static void make_lines(struct variant *v, int lines)
{
	v->counts = calloc((size_t)lines * v->ncounts, sizeof(double));
	v->cgroup = calloc(lines, sizeof(char *));
	if (v->tma) {
		v->result = calloc(lines, sizeof(*v->result));
		v->events = calloc((size_t)lines * model_event_count(v->tma), sizeof(double));
	}
	if (!v->counts || !v->cgroup || (v->tma && (!v->result || !v->events)))
		exit(2);
	for (int i = 0; i < lines; i++) {
		char name[64];

		snprintf(name, sizeof(name), "/tmacg-bench/pool/c%05d", i);
		v->cgroup[i] = strdup(name);
		for (int c = 0; c < v->ncounts; c++)
			v->counts[(size_t)i * v->ncounts + c] = count_value(v->count_names[c], i);
		if (v->tma) {
			int nev = model_event_count(v->tma);
			double *ev = v->events + (size_t)i * nev;

			for (int e = 0; e < nev; e++)
				ev[e] = floor(1e6 + uniform() * 1e9);
			v->result[i] = model_result_new(v->tma);
			if (!v->result[i] || evaluate(v, i, v->result[i]))
				exit(2);
			model_result_no_slots(v->tma, v->result[i]);
		}
	}
}

static void fill_line(const struct variant *v, int i, struct report_line *l)
{
	static const struct resource res = { .host = "node-7" };
	static const char *const missing[] = { "cpu/topdown-bad-spec/" };

	*l = (struct report_line){ .time = { .tv_sec = 1795255201, .tv_nsec = 701452650 },
				   .interval_s = 1.001202908,
				   .host = "node-7",
				   .model = v->tma ? model_id(v->tma) : "software",
				   .tma_version = v->tma ? model_tma_version(v->tma) : NULL,
				   .cgroup = v->cgroup[i],
				   .cgroup_id = 76481 + (uint64_t)i,
				   .resource = &res,
				   .ncounts = v->ncounts,
				   .count_names = v->count_names,
				   .count_derived = v->count_derived,
				   .count_values = v->counts + (size_t)i * v->ncounts,
				   .nsummary = 4,
				   .running_min = v->tma ? 0.5 + uniform() / 2 : 1,
				   .pmu_groups = v->tma ? 3 : 0,
				   .nmissing = v->tma ? 1 : 0,
				   .missing = missing,
				   .instance = "15645@2026-11-24T12:28:26.652210263Z",
				   .tma = v->tma,
				   .result = v->tma ? v->result[i] : NULL,
				   .level = v->level,
				   .measured =
					   v->measured ? v->measured + (size_t)i * v->nnodes : NULL,
				   .measured_groups = v->measured ? v->groups : NULL,
				   .topdown_fixed = true,
				   .smt = true };
}

static double json_round(const struct variant *v, int lines, FILE *out)
{
	struct report_line l;
	double t0 = now_ns();

	fill_line(v, 0, &l); /* a round is an interval, as report_interval's */
	json_printer_begin_interval(v->json, &l);
	for (int i = 0; i < lines; i++) {
		fill_line(v, i, &l);
		if (json_printer_line(v->json, out, &l))
			exit(3);
	}
	if (json_printer_flush(v->json, out))
		exit(3);
	fflush(out);
	return (now_ns() - t0) / lines;
}

static double prom_round(const struct variant *v, int lines, struct prom_expo *e)
{
	struct report_line l;
	double t0 = now_ns();
	struct prom_text text;

	fill_line(v, 0, &l);
	if (prom_expo_begin(e, &l))
		exit(3);
	for (int i = 0; i < lines; i++) {
		fill_line(v, i, &l);
		if (prom_expo_line(e, &l))
			exit(3);
	}
	/*
	 * Served once (prom_text_len makes the rows into text in a chunk, as a
	 * scrape does), and no scrape still sending it at the next publish: as
	 * live, mostly.
	 */
	if (prom_expo_end_text(e, &text) || prom_text_len(&text) == (size_t)-1)
		exit(3);
	prom_expo_recycle(e, &text);
	return (now_ns() - t0) / lines;
}

/* Every line's evaluation into one result, as report.c reuses one. */
static double eval_round(const struct variant *v, int lines, struct model_result *out)
{
	double t0 = now_ns();

	for (int i = 0; i < lines; i++)
		if (evaluate(v, i, out))
			exit(3);
	return (now_ns() - t0) / lines;
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static void print_stats(const char *name, struct variant *v, long bytes)
{
	double *s = v->samples;
	int n = v->nsamples;
	double median;

	qsort(s, n, sizeof(double), by_value);
	median = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	printf("\"%s\":{\"ns_per_line\":{\"median\":%.0f,\"min\":%.0f,\"max\":%.0f}", name, median,
	       s[0], s[n - 1]);
	if (bytes >= 0)
		printf(",\"bytes_per_line\":%ld", bytes);
	putchar('}');
}

/* The icx line's counts: the summary ones, then the events its level reads, as tmacg lists them. */
static int tma_counts(struct variant *v, const struct variant *soft)
{
	int nev = model_event_count(v->tma);
	bool *needed = calloc(nev, sizeof(bool));

	v->count_names = calloc(soft->ncounts + nev, sizeof(char *));
	v->count_derived = calloc(soft->ncounts + nev, sizeof(bool));
	if (!needed || !v->count_names || !v->count_derived ||
	    model_events_needed(v->tma, v->level, false, MODEL_FLAG_TOPDOWN_FIXED | MODEL_FLAG_SMT,
				needed) < 0)
		return -1;
	for (int i = 0; i < soft->ncounts; i++) {
		v->count_derived[v->ncounts] = soft->count_derived[i];
		v->count_names[v->ncounts++] = soft->count_names[i];
	}
	for (int i = 0; i < nev; i++)
		if (needed[i])
			v->count_names[v->ncounts++] = model_event_name(v->tma, i);
	free(needed);
	return 0;
}

/*
 * quality.measured as a rotating run reports it, per line: each tree node
 * below level 3 and at most the variant's level gets the smallest
 * running / enabled of its perf groups (acc_measured), here one of 15
 * groups' (icx level 6 rotates in 15 slices), each group's a fifteenth of
 * the interval give or take what its cgroup ran; the rest not reported (NAN).
 * The node's groups: that one and group 0, on at every switch.
 */
static int rotating(struct variant *v, int lines)
{
	int n = model_node_count(v->tma);

	v->nnodes = n;
	v->measured = calloc((size_t)lines * (n ? n : 1), sizeof(double));
	v->groups = calloc(n ? n : 1, sizeof(*v->groups));
	if (!v->measured || !v->groups)
		return -1;
	for (int k = 0; k < n; k++) {
		const struct model_node_info *node = model_node(v->tma, k);

		if (!node->is_info && !node->is_count && node->level > 3)
			v->groups[k] = 1 | UINT64_C(1) << (1 + k % 15);
	}
	/* As measure.c takes them: per set of groups, the sets the lines carry. */
	if (measured_sets_make(&v->sets, v->tma, v->groups, v->level))
		return -1;
	for (int i = 0; i < lines; i++) {
		double share[16] = { 1 };

		for (int g = 1; g < 16; g++)
			share[g] = floor(6.6e7 * (0.9 + uniform() / 10)) / 1001202908.0;
		for (int k = 0; k < n; k++)
			v->measured[(size_t)i * n + k] = NAN;
		measured_sets_fill(&v->sets, share, v->measured + (size_t)i * n);
	}
	return 0;
}

/* Variant k of main's: JSON lines (0-2) or the exposition (3-5, expo k - 3). */
/* The round of variant k: 0-2 JSON, 3-5 the exposition, 6-7 the evaluation alone. */
static double run_round(const struct variant *v, int k, int lines, FILE *out, struct prom_expo **e,
			struct model_result *scratch)
{
	if (k >= 6)
		return eval_round(v, lines, scratch);
	return k < 3 ? json_round(v, lines, out) : prom_round(v, lines, e[k - 3]);
}

#define NVARIANTS 8
static const char *const names[NVARIANTS] = { "json_software",	 "json_icx_level3",
					      "json_icx_level6", "prom_software",
					      "prom_icx_level3", "prom_icx_level6",
					      "eval_icx_level3", "eval_icx_level6" };

int main(int argc, char **argv)
{
	int lines = argc > 1 ? atoi(argv[1]) : 1000;
	int rounds = argc > 2 ? atoi(argv[2]) : 15;
	const char *only = argc > 3 ? argv[3] : NULL;
	char err[256];
	struct variant soft = { 0 };
	struct variant l3 = { .level = 3 }, l6 = { .level = 6 };
	struct variant *tmas[2] = { &l3, &l6 };
	struct variant pv[3], ev[2];
	struct variant *vs[NVARIANTS] = { &soft, &l3, &l6, &pv[0], &pv[1], &pv[2], &ev[0], &ev[1] };
	struct prom_expo *e[3];
	struct model_result *scratch;
	FILE *out = fopen("/dev/null", "w");
	long bytes[3];

	/*
	 * As tmacg's stdout live with JSON lines (main.c): unbuffered, the
	 * printer handing it 64 KiB at a time.
	 */
	if (out)
		setvbuf(out, NULL, _IONBF, 0);
	if (lines < 1 || rounds < 1 || rounds > 64) {
		fprintf(stderr, "usage: outpath [LINES (>= 1) [ROUNDS (1..64) [VARIANT]]]\n");
		return 1;
	}
	for (int k = 0; only && k <= NVARIANTS; k++)
		if (k == NVARIANTS) {
			fprintf(stderr,
				"outpath: no variant '%s' (json_software ... eval_icx_level6)\n",
				only);
			return 1;
		} else if (!strcmp(only, names[k])) {
			break;
		}
	for (int k = 0; k < 3; k++)
		e[k] = prom_expo_new(false);
	l3.tma = model_load_builtin("icx", err, sizeof(err));
	l6.tma = l3.tma;
	scratch = l3.tma ? model_result_new(l3.tma) : NULL;
	if (!l3.tma || !e[0] || !e[1] || !e[2] || !out || !scratch) {
		fprintf(stderr, "outpath: cannot set up: %s\n", l3.tma ? "out of memory" : err);
		return 2;
	}
	/* The software line's counts: the documented ones, then the software model's events. */
	{
		struct tma_model *sw = model_load_builtin("software", err, sizeof(err));
		int nev = sw ? model_event_count(sw) : 0;

		soft.count_names = calloc(software_ndocumented + nev, sizeof(char *));
		soft.count_derived = calloc(software_ndocumented + nev, sizeof(bool));
		if (!sw || !soft.count_names || !soft.count_derived)
			return 2;
		for (int i = 0; i < software_ndocumented; i++) {
			const char *name = software_documented_counts[i];
			int k = model_node_index(sw, name);

			soft.count_derived[soft.ncounts] =
				!strcmp(name, "cpu_utilization") ||
				(k >= 0 && model_node(sw, k)->per_interval);
			soft.count_names[soft.ncounts++] = name;
		}
		for (int i = 0; i < nev; i++)
			soft.count_names[soft.ncounts++] = model_event_name(sw, i);
	}
	for (int t = 0; t < 2; t++)
		if (tma_counts(tmas[t], &soft))
			return 2;
	if (rotating(&l6, lines))
		return 2;
	make_lines(&soft, lines);
	make_lines(&l3, lines);
	make_lines(&l6, lines);
	for (int k = 0; k < 3; k++) {
		struct report_line l;

		fill_line(vs[k], 0, &l);
		vs[k]->json = json_printer_new(&l);
		if (!vs[k]->json)
			return 2;
	}
	for (int k = 0; k < 3; k++) {
		struct report_line l;
		char *buf = NULL;
		size_t len = 0;
		FILE *m = open_memstream(&buf, &len);

		if (!m)
			return 2;
		pv[k] = *vs[k];
		fill_line(vs[k], 0, &l);
		output_json_line(m, &l);
		fclose(m);
		bytes[k] = (long)len;
		free(buf);
	}
	/* The evaluation alone, on the same lines as JSON and /metrics. */
	ev[0] = l3;
	ev[1] = l6;
	/*
	 * One round unmeasured: first-touch page faults, the exposition's first
	 * series.  With VARIANT, that one's alone: a profile of the run is then
	 * rounds + 1 rounds of it (callgrind's per-line figures took the other
	 * variants' warm-up in before, issue 27).
	 */
	for (int k = 0; k < NVARIANTS; k++)
		if (!only || !strcmp(only, names[k]))
			run_round(vs[k], k, lines, out, e, scratch);
	for (int r = 0; r < rounds; r++) {
		for (int k = 0; k < NVARIANTS; k++) {
			int i = (k + r) % NVARIANTS;
			struct variant *v = vs[i];

			if (!only || !strcmp(only, names[i]))
				v->samples[v->nsamples++] = run_round(v, i, lines, out, e, scratch);
		}
	}
	printf("{\"lines\":%d,\"rounds\":%d", lines, rounds);
	for (int k = 0; k < NVARIANTS; k++)
		if (vs[k]->nsamples) {
			putchar(',');
			print_stats(names[k], vs[k], k < 3 ? bytes[k] : -1);
		}
	printf("}\n");
	fclose(out);
	for (int k = 0; k < 3; k++)
		prom_expo_free(e[k]);
	model_result_free(scratch);
	return 0;
}
