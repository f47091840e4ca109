// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* The identity of a tmacg/1 line, read back so a replayed line says the same. */
#include "replay/replay_tmacg1.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/name_escape.h"
#include "util/rfc3339.h"
#include "replay/replay_number.h"
#include "replay/replay_read.h"

const char *const replay_resource_keys[RES_N] = {
	"k8s.namespace.name", "k8s.pod.name", "k8s.pod.uid",
	"k8s.container.name", "container.id", "host.name",
};

/* rc, and when it is -EINVAL, "NAME:LINE: "KEY" must be WANT ..." in err. */
static int bad(int rc, char *err, size_t errlen, const char *name, int line, const char *key,
	       const char *want)
{
	if (rc == -EINVAL)
		snprintf(err, errlen, "%s:%d: \"%s\" must be %s in a %s line", name, line, key,
			 want, REPLAY_TMACG1_SCHEMA);
	return rc;
}

/*
 * A string key into *out, its name bytes back from the JSON escapes
 * (name_escape.h); absent or null leaves *out NULL.  0, -EINVAL, -ENOMEM.
 */
static int get_name(json_object *o, const char *key, char **out)
{
	json_object *x;

	*out = NULL;
	if (!json_object_object_get_ex(o, key, &x) || !x)
		return 0;
	if (json_object_get_type(x) != json_type_string)
		return -EINVAL;
	*out = name_json_bytes(json_object_get_string(x));
	return *out ? 0 : -ENOMEM;
}

/*
 * "2026-11-21T10:00:01.000000000Z", as output_json.c writes it, and only a
 * time the writer (rfc3339_text) writes back the same: a day past its
 * month's end or a second 60 (timegm moves them on), more than 9 fraction
 * digits, a year of other than four digits (RFC 3339's 0000 to 9999) are
 * refused.
 */
static int parse_time(const char *s, struct timespec *ts)
{
	struct tm tm = { 0 };
	char back[RFC3339_MAX];
	const char *p = s + 19;
	long fraction = 0;
	int ndigits = 0;

	if (strlen(s) < 20 || sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2d", &tm.tm_year, &tm.tm_mon,
				     &tm.tm_mday, &tm.tm_hour, &tm.tm_min, &tm.tm_sec) != 6)
		return -EINVAL;
	if (*p == '.') {
		for (p++; *p >= '0' && *p <= '9' && ndigits <= 9; p++, ndigits++)
			fraction = fraction * 10 + (*p - '0');
		if (!ndigits || ndigits > 9)
			return -EINVAL;
	}
	if (strcmp(p, "Z"))
		return -EINVAL;
	for (; ndigits < 9; ndigits++)
		fraction *= 10;
	tm.tm_year -= 1900;
	tm.tm_mon--;
	*ts = (struct timespec){ .tv_sec = timegm(&tm), .tv_nsec = fraction };
	rfc3339_text(ts, back);
	return strncmp(back, s, 19) ? -EINVAL : 0;
}

static int parse_task(json_object *t, struct replay_origin *g)
{
	json_object *x, *y;
	uint64_t tid, tgid;

	/* the BPF map's u32 ids: 0 (the idle task) to 2^32-1 */
	if (json_object_get_type(t) != json_type_object ||
	    !json_object_object_get_ex(t, "tid", &x) || !json_object_object_get_ex(t, "tgid", &y) ||
	    !replay_int_in(x, 0, UINT32_MAX, &tid) || !replay_int_in(y, 0, UINT32_MAX, &tgid))
		return -EINVAL;
	g->tid = (uint32_t)tid;
	g->tgid = (uint32_t)tgid;
	g->has_task = true;
	return get_name(t, "comm", &g->comm);
}

struct replay_node_note *replay_origin_note(struct replay_origin *g, const char *node)
{
	struct replay_node_note *n;

	for (int i = 0; i < g->nnotes; i++)
		if (!strcmp(g->notes[i].node, node))
			return &g->notes[i];
	n = realloc(g->notes, (size_t)(g->nnotes + 1) * sizeof(*n));
	if (!n)
		return NULL;
	g->notes = n;
	n = &g->notes[g->nnotes];
	*n = (struct replay_node_note){ strdup(node), NAN, NULL };
	if (!n->node)
		return NULL;
	g->nnotes++;
	return n;
}

/*
 * quality.measured {node: fraction} and quality.unmeasured {node: reason},
 * kept by node name (the replay's model maps them).  0, -EINVAL, -ENOMEM.
 */
static int parse_notes(json_object *q, struct replay_origin *g)
{
	json_object *objs[2] = { NULL, NULL }; /* measured, unmeasured */

	g->has_measured = json_object_object_get_ex(q, "measured", &objs[0]);
	g->has_unmeasured = json_object_object_get_ex(q, "unmeasured", &objs[1]);
	for (int k = 0; k < 2; k++) {
		if (!(k ? g->has_unmeasured : g->has_measured))
			continue;
		if (json_object_get_type(objs[k]) != json_type_object)
			return -EINVAL; /* null included */
		json_object_object_foreach(objs[k], node, v) {
			struct replay_node_note *n;
			double f = json_object_get_double(v);
			bool number = json_object_get_type(v) == json_type_double ||
				      json_object_get_type(v) == json_type_int;

			if (k ? json_object_get_type(v) != json_type_string :
				!number || !(f >= 0 && f <= 1))
				return -EINVAL;
			if (!(n = replay_origin_note(g, node)))
				return -ENOMEM;
			if (!k)
				n->measured = f;
			else if (!(n->unmeasured = strdup(json_object_get_string(v))))
				return -ENOMEM;
		}
	}
	return 0;
}

/* "quality" as output_json.c writes it; every key optional (null running_min: NAN). */
static int parse_quality(json_object *q, struct replay_origin *g)
{
	json_object *x;
	int rc;

	if (json_object_get_type(q) != json_type_object)
		return -EINVAL;
	/* a share of the interval: 0 to 1 */
	if (json_object_object_get_ex(q, "running_min", &x) && x) {
		if (!replay_exact_double(x, &g->running_min) ||
		    !(g->running_min >= 0 && g->running_min <= 1))
			return -EINVAL;
	}
	if (json_object_object_get_ex(q, "smt_shared", &x)) {
		if (json_object_get_type(x) != json_type_boolean)
			return -EINVAL;
		g->smt_shared = json_object_get_boolean(x);
	}
	if (json_object_object_get_ex(q, "dropped", &x) &&
	    !replay_int_in(x, 0, UINT64_MAX, &g->dropped))
		return -EINVAL;
	if (json_object_object_get_ex(q, "map_full", &x) &&
	    !replay_int_in(x, 0, UINT64_MAX, &g->map_full))
		return -EINVAL;
	if (json_object_object_get_ex(q, "pmu_groups", &x) && x) {
		uint64_t n;

		if (!replay_int_in(x, 0, INT_MAX, &n))
			return -EINVAL;
		g->pmu_groups = (int)n;
	}
	if (json_object_object_get_ex(q, "missing_events", &x)) {
		size_t n;

		if (json_object_get_type(x) != json_type_array)
			return -EINVAL;
		n = json_object_array_length(x);
		g->missing = calloc(n + 1, sizeof(*g->missing));
		if (!g->missing)
			return -ENOMEM;
		for (size_t i = 0; i < n; i++) {
			json_object *e = json_object_array_get_idx(x, i);

			if (json_object_get_type(e) != json_type_string)
				return -EINVAL;
			g->missing[g->nmissing] = strdup(json_object_get_string(e));
			if (!g->missing[g->nmissing++])
				return -ENOMEM;
		}
	}
	rc = parse_notes(q, g);
	return rc ? rc : get_name(q, "instance", &g->instance);
}

static bool known_resource_key(const char *key)
{
	for (int i = 0; i < RES_N; i++)
		if (!strcmp(key, replay_resource_keys[i]))
			return true;
	return false;
}

/*
 * The resource keys beyond the known ones, for --group-by: a string's bytes
 * (name_escape.h), anything else as its JSON text; a null one is absent.
 */
static int parse_extra_resource(json_object *res, struct replay_origin *g)
{
	g->extra = calloc((size_t)json_object_object_length(res) + 1, sizeof(*g->extra));
	if (!g->extra)
		return -ENOMEM;
	json_object_object_foreach(res, key, val) {
		struct replay_resource_key *k = &g->extra[g->nextra];
		bool str = json_object_get_type(val) == json_type_string;

		if (!val || known_resource_key(key))
			continue;
		k->key = name_json_bytes(key);
		k->value =
			str ? name_json_bytes(json_object_get_string(val)) :
			      strdup(json_object_to_json_string_ext(val, JSON_C_TO_STRING_PLAIN));
		g->nextra++;
		if (!k->key || !k->value)
			return -ENOMEM;
	}
	return 0;
}

static int parse_origin(json_object *o, struct replay_origin *g, const char *name, int line,
			char *err, size_t errlen)
{
	json_object *x;
	int rc;

	if ((rc = get_name(o, "model", &g->model)))
		return bad(rc, err, errlen, name, line, "model", "a string");
	if ((rc = get_name(o, "tma_version", &g->tma_version)))
		return bad(rc, err, errlen, name, line, "tma_version", "a string or null");
	if ((rc = get_name(o, "host", &g->host)))
		return bad(rc, err, errlen, name, line, "host", "a string or null");
	if (!json_object_object_get_ex(o, "time", &x) ||
	    json_object_get_type(x) != json_type_string ||
	    parse_time(json_object_get_string(x), &g->time))
		return bad(-EINVAL, err, errlen, name, line, "time",
			   "RFC 3339 UTC time from year 0000 to 9999 as tmacg writes it "
			   "(YYYY-MM-DDTHH:MM:SS.NNNNNNNNNZ)");
	/* 0 is no cgroup's id: written as null, it would not replay as written */
	if (json_object_object_get_ex(o, "cgroup_id", &x) && x &&
	    (!replay_int_in(x, 0, UINT64_MAX, &g->cgroup_id) || !g->cgroup_id))
		return bad(-EINVAL, err, errlen, name, line, "cgroup_id",
			   "an integer from 1 to 2^64-1, or null");
	if (json_object_object_get_ex(o, "task", &x) && (rc = parse_task(x, g)))
		return bad(rc, err, errlen, name, line, "task",
			   "an object of tid and tgid (0 to 2^32-1) and comm");
	g->running_min = NAN;
	g->pmu_groups = -1;
	if (json_object_object_get_ex(o, "quality", &x) && (rc = parse_quality(x, g)))
		return bad(rc, err, errlen, name, line, "quality", "an object as tmacg writes it");
	if (!json_object_object_get_ex(o, "resource", &x))
		return 0;
	if (json_object_get_type(x) != json_type_object)
		return bad(-EINVAL, err, errlen, name, line, "resource", "an object");
	for (int i = 0; i < RES_N; i++)
		if ((rc = get_name(x, replay_resource_keys[i], &g->resource[i])))
			return bad(rc, err, errlen, name, line, replay_resource_keys[i],
				   "a string");
	return parse_extra_resource(x, g);
}

int replay_origin_parse(json_object *o, struct replay_origin **out, const char *name, int line,
			char *err, size_t errlen)
{
	struct replay_origin *g = calloc(1, sizeof(*g));
	int rc = g ? parse_origin(o, g, name, line, err, errlen) : -ENOMEM;

	if (rc) {
		replay_origin_free(g);
		g = NULL;
	}
	*out = g;
	return rc;
}

void replay_origin_free(struct replay_origin *g)
{
	if (!g)
		return;
	replay_origin_clear(g);
	free(g);
}

void replay_origin_clear(struct replay_origin *g)
{
	free(g->model);
	free(g->tma_version);
	free(g->host);
	free(g->comm);
	free(g->instance);
	for (int i = 0; i < g->nmissing; i++)
		free(g->missing[i]);
	free(g->missing);
	for (int i = 0; i < g->nnotes; i++) {
		free(g->notes[i].node);
		free(g->notes[i].unmeasured);
	}
	free(g->notes);
	for (int i = 0; i < RES_N; i++)
		free(g->resource[i]);
	for (int i = 0; i < g->nextra; i++) {
		free(g->extra[i].key);
		free(g->extra[i].value);
	}
	free(g->extra);
	memset(g, 0, sizeof(*g));
}
