/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * tmacg's offline modes run in-process with stdout and stderr captured, and
 * their JSON lines compared node by node: the --group-by tests' tools.
 */
#ifndef TMACG_TESTS_GROUP_LINES_H
#define TMACG_TESTS_GROUP_LINES_H

#include <json-c/json.h>
#include <stdbool.h>

struct tmacg_run {
	/* exit code, stdout and stderr */
	int code;
	char *out, *err;
};

/* tmacg ARGS... (NULL-terminated; argv[0] added): its exit code, stdout and stderr. */
struct tmacg_run tmacg_run(const char *const *args);
void tmacg_run_free(struct tmacg_run *r);

/* The JSON lines of text, parsed (a cmocka failure on one that is not JSON); *n: how many. */
json_object **json_lines(const char *text, int *n);
void json_lines_free(json_object **v, int n);

/* o's member a, and its member b (NULL: a's). */
json_object *json_at(json_object *o, const char *a, const char *b);
/* Both null, or numbers within rel of the larger. */
bool json_close(json_object *a, json_object *b, double rel);
/* x is the number v, exactly. */
bool json_is(json_object *x, double v);

/*
 * Line a's "metrics" against line b's (the reference): the same nodes, each
 * within rel relative (or both null), the same flagged and bottleneck; a
 * cmocka failure naming what and line otherwise.  How many nodes.
 */
int same_metrics(const char *what, int line, json_object *a, json_object *b, double rel);

#endif
