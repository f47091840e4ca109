// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "group_lines.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "offline_capture.h"

#define OUT_MAX (32u << 20)

/* tmacg ARGS... (argv[0] added), its exit code, stdout and stderr. */
struct tmacg_run tmacg_run(const char *const *args)
{
	const char *argv[32] = { "tmacg" };
	char path[] = "/tmp/tmacg-group-err-XXXXXX";
	int argc = 1, tmp = mkstemp(path), saved = dup(STDERR_FILENO);
	struct tmacg_run r = { .out = malloc(OUT_MAX), .err = calloc(1, 1 << 16) };
	ssize_t n;

	while (args[argc - 1])
		argv[argc] = args[argc - 1], argc++;
	assert_true(tmp >= 0 && saved >= 0 && r.out && r.err);
	fflush(stderr);
	dup2(tmp, STDERR_FILENO);
	r.code = offline_capture(STDOUT_FILENO, NULL, argc, argv, r.out, OUT_MAX);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	n = pread(tmp, r.err, (1 << 16) - 1, 0);
	r.err[n > 0 ? n : 0] = '\0';
	close(tmp);
	remove(path);
	assert_true(strlen(r.out) < OUT_MAX - 1); /* not cut */
	return r;
}

void tmacg_run_free(struct tmacg_run *r)
{
	free(r->out);
	free(r->err);
}

/* The JSON lines of text, parsed; *n: how many. */
json_object **json_lines(const char *text, int *n)
{
	char *copy = strdup(text), *save = NULL;
	json_object **v = NULL;

	*n = 0;
	for (char *l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		v = realloc(v, (size_t)(*n + 1) * sizeof(*v));
		assert_non_null(v);
		v[*n] = json_tokener_parse(l);
		if (!v[*n])
			fail_msg("not JSON: %s", l);
		(*n)++;
	}
	free(copy);
	return v;
}

void json_lines_free(json_object **v, int n)
{
	for (int i = 0; i < n; i++)
		json_object_put(v[i]);
	free(v);
}

json_object *json_at(json_object *o, const char *a, const char *b)
{
	json_object *x = json_object_object_get(o, a);

	return b ? json_object_object_get(x, b) : x;
}

/* Both null, or numbers within rel of the larger (1e-300 for zeros). */
bool json_close(json_object *a, json_object *b, double rel)
{
	double x, y;

	if (!a || !b)
		return !a && !b;
	x = json_object_get_double(a);
	y = json_object_get_double(b);
	return x == y || fabs(x - y) <= rel * fmax(fmax(fabs(x), fabs(y)), 1e-300);
}

/* x is the number v, exactly. */
bool json_is(json_object *x, double v)
{
	return x && json_object_get_double(x) == v;
}

int same_metrics(const char *what, int line, json_object *a, json_object *b, double rel)
{
	json_object *ma = json_at(a, "metrics", NULL), *mb = json_at(b, "metrics", NULL);
	int n = 0;

	assert_non_null(ma);
	assert_non_null(mb);
	if (json_object_object_length(ma) != json_object_object_length(mb))
		fail_msg("%s line %d: %d nodes, %d in the reference", what, line,
			 json_object_object_length(ma), json_object_object_length(mb));
	json_object_object_foreach(mb, node, vb) {
		json_object *va;

		if (!json_object_object_get_ex(ma, node, &va))
			fail_msg("%s line %d: no %s", what, line, node);
		if (!json_close(va, vb, rel))
			fail_msg("%s line %d: %s is %s, the reference %s", what, line, node,
				 json_object_to_json_string(va), json_object_to_json_string(vb));
		n++;
	}
	assert_true(json_object_equal(json_at(a, "flagged", NULL), json_at(b, "flagged", NULL)));
	assert_true(
		json_object_equal(json_at(a, "bottleneck", NULL), json_at(b, "bottleneck", NULL)));
	return n;
}
