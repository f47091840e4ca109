// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Reads tmacg's JSON lines (schema tmacg/1) on stdin, averages each metric
 * of one cgroup over the intervals, and checks relations given as arguments:
 *   check --cgroup /tmacg-hw-1-dram 'Backend_Bound>Frontend_Bound' ...
 * The right side may be a number ('Frontend_Bound<0.2'), and '<' reads as
 * "below": a model with too few nodes to compare (neoverse-n1) bounds one.
 * An argument "=NODE" prints NODE's mean ("-" when it has none) on a line.
 * Prints every value it compared; exit 0 when all hold, 1 when one fails,
 * 2 when there was nothing to compare (no lines, a metric always null).
 */
#include <json-c/json.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_METRICS 512

static char *names[MAX_METRICS];
static double sums[MAX_METRICS];
static int counts[MAX_METRICS], nmetrics;

static void add(const char *name, double v)
{
	int i;

	for (i = 0; i < nmetrics; i++)
		if (!strcmp(names[i], name))
			break;
	if (i == nmetrics) {
		if (nmetrics == MAX_METRICS)
			return;
		names[nmetrics++] = strdup(name);
	}
	sums[i] += v;
	counts[i]++;
}

static int mean(const char *name, double *v)
{
	for (int i = 0; i < nmetrics; i++)
		if (!strcmp(names[i], name) && counts[i]) {
			*v = sums[i] / counts[i];
			return 0;
		}
	return -1;
}

int main(int argc, char **argv)
{
	const char *cgroup = NULL;
	char *line = NULL;
	size_t cap = 0;
	int lines = 0, failed = 0, first = 1;

	if (argc > 2 && !strcmp(argv[1], "--cgroup")) {
		cgroup = argv[2];
		first = 3;
	}
	while (getline(&line, &cap, stdin) > 0) {
		json_object *o = json_tokener_parse(line), *cg, *metrics;

		if (!o)
			continue;
		if (cgroup && (!json_object_object_get_ex(o, "cgroup", &cg) ||
			       strcmp(json_object_get_string(cg), cgroup))) {
			json_object_put(o);
			continue;
		}
		if (json_object_object_get_ex(o, "metrics", &metrics)) {
			json_object_object_foreach(metrics, key, val) {
				if (val && (json_object_is_type(val, json_type_double) ||
					    json_object_is_type(val, json_type_int)))
					add(key, json_object_get_double(val));
			}
			lines++;
		}
		json_object_put(o);
	}
	free(line);
	if (!lines) {
		fprintf(stderr, "check: no tmacg/1 lines with metrics%s%s\n",
			cgroup ? " for cgroup " : "", cgroup ? cgroup : "");
		return 2;
	}
	for (int a = first; a < argc; a++) {
		char left[128], *gt = strpbrk(argv[a], "<>"), *end;
		double l, r;
		bool less, held, bound;

		if (argv[a][0] == '=') {
			if (mean(argv[a] + 1, &l))
				printf("%s -\n", argv[a] + 1);
			else
				printf("%s %.3f\n", argv[a] + 1, l);
			continue;
		}

		if (!gt || gt == argv[a] || (size_t)(gt - argv[a]) >= sizeof(left)) {
			fprintf(stderr,
				"check: '%s' is not NODE>NODE, NODE<NUMBER or NODE>NUMBER\n",
				argv[a]);
			return 2;
		}
		less = *gt == '<';
		snprintf(left, sizeof(left), "%.*s", (int)(gt - argv[a]), argv[a]);
		r = strtod(gt + 1, &end);
		bound = end != gt + 1 && !*end;
		if (!bound) {
			if (less) {
				fprintf(stderr, "check: '%s': '<' takes a number\n", argv[a]);
				return 2;
			}
			if (mean(gt + 1, &r)) {
				fprintf(stderr, "check: %s has no value in %d intervals\n", gt + 1,
					lines);
				return 2;
			}
		}
		if (mean(left, &l)) {
			fprintf(stderr, "check: %s has no value in %d intervals\n", left, lines);
			return 2;
		}
		held = less ? l < r : l > r;
		if (bound)
			printf("  %-7s %s %.3f %c %s\n", held ? "ok" : "FAILED", left, l, *gt,
			       gt + 1);
		else
			printf("  %-7s %s %.3f %c %s %.3f\n", held ? "ok" : "FAILED", left, l, *gt,
			       gt + 1, r);
		failed += !held;
	}
	return failed ? 1 : 0;
}
