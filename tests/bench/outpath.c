// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The output path's CPU time per reported cgroup, without BPF or cgroups: the
 * lines report.c would hand over for LINES cgroups (values varied per cgroup,
 * computed beforehand), written as JSON lines to /dev/null and as the
 * Prometheus exposition (begin, every line, end, as one scrape's interval),
 * timed on this thread's CPU clock.  Variants are interleaved, ROUNDS times.
 *
 *   outpath [LINES [ROUNDS]]    (1000, 15)
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

#include "model/model.h"
#include "output/output_json.h"
#include "prom/prom_expo.h"
#include "software_counts.h"

struct variant {
	const char *name;
	struct tma_model *tma;
	int level;
	int ncounts;
	const char **count_names;
	double *counts;		      /* lines x ncounts */
	struct model_result **result; /* per line, or NULL */
	char **cgroup;
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

static void make_lines(struct variant *v, int lines)
{
	v->counts = calloc((size_t)lines * v->ncounts, sizeof(double));
	v->cgroup = calloc(lines, sizeof(char *));
	if (v->tma)
		v->result = calloc(lines, sizeof(*v->result));
	if (!v->counts || !v->cgroup || (v->tma && !v->result))
		exit(2);
	for (int i = 0; i < lines; i++) {
		char name[64];

		snprintf(name, sizeof(name), "/tmacg-bench/pool/c%05d", i);
		v->cgroup[i] = strdup(name);
		for (int c = 0; c < v->ncounts; c++)
			v->counts[(size_t)i * v->ncounts + c] = count_value(v->count_names[c], i);
		if (v->tma) {
			int nev = model_event_count(v->tma);
			double *ev = calloc(nev, sizeof(double));
			struct model_input in = { .events = ev,
						  .interval_s = 1.001202908,
						  .flags = MODEL_FLAG_TOPDOWN_FIXED |
							   MODEL_FLAG_SMT };

			if (!ev)
				exit(2);
			for (int e = 0; e < nev; e++)
				ev[e] = floor(1e6 + uniform() * 1e9);
			v->result[i] = model_result_new(v->tma);
			if (!v->result[i] ||
			    model_eval_level(v->tma, &in, v->result[i], v->level, false))
				exit(2);
			model_result_no_slots(v->tma, v->result[i]);
			free(ev);
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
				   .topdown_fixed = true,
				   .smt = true };
}

static double json_round(const struct variant *v, int lines, FILE *out)
{
	struct report_line l;
	double t0 = now_ns();

	for (int i = 0; i < lines; i++) {
		fill_line(v, i, &l);
		if (output_json_line(out, &l))
			exit(3);
	}
	fflush(out);
	return (now_ns() - t0) / lines;
}

static double prom_round(const struct variant *v, int lines, struct prom_expo *e)
{
	struct report_line l;
	double t0 = now_ns();
	size_t len;
	char *text;

	fill_line(v, 0, &l);
	if (prom_expo_begin(e, &l))
		exit(3);
	for (int i = 0; i < lines; i++) {
		fill_line(v, i, &l);
		if (prom_expo_line(e, &l))
			exit(3);
	}
	text = prom_expo_end(e, &len);
	if (!text)
		exit(3);
	free(text);
	return (now_ns() - t0) / lines;
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static void print_stats(const char *name, struct variant *v, long bytes, bool last)
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
	printf("}%s", last ? "" : ",");
}

int main(int argc, char **argv)
{
	int lines = argc > 1 ? atoi(argv[1]) : 1000;
	int rounds = argc > 2 ? atoi(argv[2]) : 15;
	char err[256];
	struct variant soft = { 0 };
	struct variant tma = { .level = 3 };
	struct variant *vs[4] = { &soft, &tma, &soft, &tma };
	struct variant prom_soft, prom_tma;
	struct prom_expo *e = prom_expo_new(false), *e_tma = prom_expo_new(false);
	FILE *out = fopen("/dev/null", "w");
	long bytes[2];

	if (lines < 1 || rounds < 1 || rounds > 64) {
		fprintf(stderr, "usage: outpath [LINES (>= 1) [ROUNDS (1..64)]]\n");
		return 1;
	}
	tma.tma = model_load_builtin("icx", err, sizeof(err));
	if (!tma.tma || !e || !e_tma || !out) {
		fprintf(stderr, "outpath: cannot set up: %s\n", tma.tma ? "out of memory" : err);
		return 2;
	}
	/* The software line's counts: the documented ones, then the software model's events. */
	{
		struct tma_model *sw = model_load_builtin("software", err, sizeof(err));
		int nev = sw ? model_event_count(sw) : 0;

		soft.count_names = calloc(software_ndocumented + nev, sizeof(char *));
		if (!sw || !soft.count_names)
			return 2;
		for (int i = 0; i < software_ndocumented; i++)
			soft.count_names[soft.ncounts++] = software_documented_counts[i];
		for (int i = 0; i < nev; i++)
			soft.count_names[soft.ncounts++] = model_event_name(sw, i);
	}
	/* The icx line's counts: the summary ones, then the events level 3 reads, as tmacg lists them. */
	{
		int nev = model_event_count(tma.tma);
		bool *needed = calloc(nev, sizeof(bool));

		tma.count_names = calloc(soft.ncounts + nev, sizeof(char *));
		if (!needed || !tma.count_names ||
		    model_events_needed(tma.tma, 3, false,
					MODEL_FLAG_TOPDOWN_FIXED | MODEL_FLAG_SMT, needed) < 0)
			return 2;
		for (int i = 0; i < soft.ncounts; i++)
			tma.count_names[tma.ncounts++] = soft.count_names[i];
		for (int i = 0; i < nev; i++)
			if (needed[i])
				tma.count_names[tma.ncounts++] = model_event_name(tma.tma, i);
		free(needed);
	}
	make_lines(&soft, lines);
	make_lines(&tma, lines);
	prom_soft = soft;
	prom_tma = tma;
	vs[2] = &prom_soft;
	vs[3] = &prom_tma;
	for (int j = 0; j < 2; j++) {
		struct report_line l;
		char *buf = NULL;
		size_t len = 0;
		FILE *m = open_memstream(&buf, &len);

		if (!m)
			return 2;
		fill_line(j ? &tma : &soft, 0, &l);
		output_json_line(m, &l);
		fclose(m);
		bytes[j] = (long)len;
		free(buf);
	}
	/* One round unmeasured: first-touch page faults, the exposition's first series. */
	json_round(&soft, lines, out);
	json_round(&tma, lines, out);
	prom_round(&soft, lines, e);
	prom_round(&tma, lines, e_tma);
	for (int r = 0; r < rounds; r++) {
		for (int k = 0; k < 4; k++) {
			int i = (k + r) % 4;
			struct variant *v = vs[i];

			v->samples[v->nsamples++] =
				i < 2 ? json_round(v, lines, out) :
					prom_round(v, lines, i == 2 ? e : e_tma);
		}
	}
	printf("{\"lines\":%d,\"rounds\":%d,", lines, rounds);
	print_stats("json_software", &soft, bytes[0], false);
	print_stats("json_icx_level3", &tma, bytes[1], false);
	print_stats("prom_software", &prom_soft, -1, false);
	print_stats("prom_icx_level3", &prom_tma, -1, true);
	printf("}\n");
	fclose(out);
	prom_expo_free(e);
	prom_expo_free(e_tma);
	return 0;
}
