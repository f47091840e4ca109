// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Reader and validator of replay files (JSON lines, parsed with json-c). */
#include "replay/replay_read.h"

#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/model.h"
#include "util/file_read.h"
#include "util/name_escape.h"

#include "replay/replay_tmacg1.h"

static int rerr(char *err, size_t errlen, const char *name, int line, const char *fmt, ...)
{
	int n = snprintf(err, errlen, "%s:%d: ", name, line);
	va_list ap;

	if (n >= 0 && (size_t)n < errlen) {
		va_start(ap, fmt);
		vsnprintf(err + n, errlen - n, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

static bool is_number(json_object *v)
{
	enum json_type t = json_object_get_type(v);

	return t == json_type_int || t == json_type_double;
}

static void record_free(struct replay_record *r)
{
	for (int i = 0; i < r->ncounters; i++)
		free(r->counters[i].name);
	free(r->counters);
	free(r->cgroup);
	rl_table_free(&r->retire_latency);
	replay_origin_free(r->origin);
}

/* "retire_latency": {"EVENT": cycles, ...}: TMA 5.1's latency inputs, as measured. */
static int parse_latencies(json_object *o, struct replay_record *r, const char *name, char *err,
			   size_t errlen)
{
	json_object *x;

	if (!json_object_object_get_ex(o, "retire_latency", &x))
		return 0;
	if (json_object_get_type(x) != json_type_object)
		return rerr(err, errlen, name, r->line,
			    "\"retire_latency\" must be an object of event name: cycles");
	json_object_object_foreach(x, key, val) {
		int rc = is_number(val) ? rl_table_add(&r->retire_latency, key,
						       json_object_get_double(val)) :
					  -EINVAL;

		if (rc == -EINVAL)
			return rerr(err, errlen, name, r->line,
				    "retire_latency \"%s\" must be a number of cycles, 0 or more",
				    key);
		if (rc)
			return rc;
	}
	return 0;
}

static int parse_counters(json_object *c, struct replay_record *r, const char *name, char *err,
			  size_t errlen)
{
	bool perf_metrics = false;

	r->counters = calloc(json_object_object_length(c) + 1, sizeof(*r->counters));
	if (!r->counters)
		return -ENOMEM;
	json_object_object_foreach(c, key, val) {
		struct replay_counter *k = &r->counters[r->ncounters];
		double v = NAN;

		/* tmacg/1: null is a counter opened but never on the PMU. */
		if (!(r->absent_unmeasured && !val) && !is_number(val))
			return rerr(err, errlen, name, r->line,
				    "counter \"%s\" is %s, not a number", key,
				    json_type_to_name(json_object_get_type(val)));
		if (val)
			v = json_object_get_double(val);
		if (val && (!isfinite(v) || v < 0))
			return rerr(err, errlen, name, r->line,
				    "counter \"%s\" is %g: counts are finite and not negative", key,
				    v);
		k->name = strdup(key);
		if (!k->name)
			return -ENOMEM;
		k->value = v;
		r->ncounters++;
		perf_metrics |= !strncmp(key, "PERF_METRICS.", 13);
	}
	r->topdown_fixed = perf_metrics;
	return 0;
}

static int optional_bool(json_object *o, const char *key, bool *v, const char *name, int line,
			 char *err, size_t errlen)
{
	json_object *x;

	if (!json_object_object_get_ex(o, key, &x))
		return 0;
	if (json_object_get_type(x) != json_type_boolean)
		return rerr(err, errlen, name, line, "\"%s\" must be true or false", key);
	*v = json_object_get_boolean(x);
	return 0;
}

/* An optional slot width: a whole number of slots per cycle (0: not known), as a PMU reports it. */
static int optional_slots(json_object *o, unsigned int *v, const char *name, int line, char *err,
			  size_t errlen)
{
	json_object *x;
	double d;

	if (!json_object_object_get_ex(o, "pmu_slots", &x))
		return 0;
	d = json_object_get_double(x);
	if ((json_object_get_type(x) != json_type_int &&
	     json_object_get_type(x) != json_type_double) ||
	    !(d >= 0 && d <= MODEL_PMU_SLOTS_MAX) || d != (double)(unsigned int)d)
		return rerr(err, errlen, name, line,
			    "\"pmu_slots\" must be a whole number of slots from 0 to %d",
			    MODEL_PMU_SLOTS_MAX);
	*v = (unsigned int)d;
	return 0;
}

/* Keys written in the text: each string followed by a ':' outside strings. */
static size_t keys_written(const char *s, size_t n)
{
	size_t keys = 0;

	for (size_t i = 0; i < n; i++) {
		if (s[i] != '"')
			continue;
		for (i++; i < n && s[i] != '"'; i++)
			if (s[i] == '\\')
				i++;
		for (i++; i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r'); i++)
			;
		if (i < n && s[i] == ':')
			keys++;
		i--; /* the loop's i++ reads this byte next */
	}
	return keys;
}

/* Keys json-c kept: a key given twice in one object is kept once, the last value. */
static size_t keys_kept(json_object *o)
{
	size_t keys = 0;

	if (json_object_get_type(o) == json_type_array) {
		for (size_t i = 0; i < json_object_array_length(o); i++)
			keys += keys_kept(json_object_array_get_idx(o, i));
	} else if (json_object_get_type(o) == json_type_object) {
		json_object_object_foreach(o, key, val) {
			(void)key;
			keys += 1 + keys_kept(val);
		}
	}
	return keys;
}

static int parse_line(const char *text, size_t len, struct replay_record *r, const char *name,
		      char *err, size_t errlen)
{
	json_tokener *tok = json_tokener_new();
	const char *counters_key = "counters";
	json_object *o, *x;
	int rc = 0;

	if (!tok)
		return -ENOMEM;
	o = json_tokener_parse_ex(tok, text, (int)len);
	if (!o || json_tokener_get_error(tok) != json_tokener_success ||
	    json_tokener_get_parse_end(tok) < len) {
		enum json_tokener_error e = json_tokener_get_error(tok);
		size_t end = json_tokener_get_parse_end(tok);

		json_object_put(o);
		json_tokener_free(tok);
		if (e == json_tokener_success && end < len)
			return rerr(err, errlen, name, r->line, "bad JSON: text after the object");
		return rerr(err, errlen, name, r->line, "bad JSON: %s",
			    e == json_tokener_continue ? "the object is not complete on this line" :
							 json_tokener_error_desc(e));
	}
	json_tokener_free(tok);
	if (keys_kept(o) != keys_written(text, len)) {
		rc = rerr(err, errlen, name, r->line,
			  "a key given twice in one object: each key once (which one would "
			  "count?)");
		goto out;
	}
	if (json_object_get_type(o) != json_type_object) {
		rc = rerr(err, errlen, name, r->line, "expected a JSON object, found %s",
			  json_type_to_name(json_object_get_type(o)));
		goto out;
	}
	/* tmacg's own lines: their counts under "counts", their names escaped. */
	if (json_object_object_get_ex(o, "schema", &x)) {
		if (json_object_get_type(x) != json_type_string ||
		    strcmp(json_object_get_string(x), REPLAY_TMACG1_SCHEMA)) {
			rc = rerr(err, errlen, name, r->line,
				  "\"schema\" is %s: this tmacg replays %s lines",
				  json_object_to_json_string(x), REPLAY_TMACG1_SCHEMA);
			goto out;
		}
		r->absent_unmeasured = true;
		counters_key = "counts";
	}
	if (!json_object_object_get_ex(o, "cgroup", &x) ||
	    json_object_get_type(x) != json_type_string) {
		rc = rerr(err, errlen, name, r->line, "\"cgroup\" (a string) is missing");
		goto out;
	}
	r->cgroup = r->absent_unmeasured ? name_json_bytes(json_object_get_string(x)) :
					   strdup(json_object_get_string(x));
	if (!r->cgroup) {
		rc = -ENOMEM;
		goto out;
	}
	if (!json_object_object_get_ex(o, "interval_s", &x) || !is_number(x)) {
		rc = rerr(err, errlen, name, r->line,
			  "\"interval_s\" (a number of seconds) is missing");
		goto out;
	}
	r->interval_s = json_object_get_double(x);
	if (!(r->interval_s > 0) || !isfinite(r->interval_s)) {
		rc = rerr(err, errlen, name, r->line, "\"interval_s\" must be a positive number");
		goto out;
	}
	if (!json_object_object_get_ex(o, counters_key, &x) ||
	    json_object_get_type(x) != json_type_object) {
		rc = rerr(err, errlen, name, r->line,
			  "\"%s\" (an object of event name: count) is missing", counters_key);
		goto out;
	}
	rc = parse_counters(x, r, name, err, errlen);
	if (!rc)
		rc = optional_bool(o, "topdown_fixed", &r->topdown_fixed, name, r->line, err,
				   errlen);
	if (!rc)
		rc = optional_bool(o, "smt", &r->smt, name, r->line, err, errlen);
	if (!rc)
		rc = optional_slots(o, &r->pmu_slots, name, r->line, err, errlen);
	if (!rc)
		rc = parse_latencies(o, r, name, err, errlen);
	if (!rc && r->absent_unmeasured)
		rc = replay_origin_parse(o, &r->origin, name, r->line, err, errlen);
out:
	json_object_put(o);
	return rc;
}

static bool blank(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r')
			return false;
	return true;
}

/*
 * One line into *buf, at most max bytes before its newline: the length, -1 at
 * the end of the input, -E2BIG when the line is longer (/dev/zero has no end).
 */
static ssize_t read_line(FILE *f, char **buf, size_t *cap, size_t max)
{
	size_t n = 0;
	int c;

	while ((c = getc_unlocked(f)) != EOF && c != '\n') {
		if (n == max)
			return -E2BIG;
		if (n + 1 >= *cap) {
			size_t ncap = *cap ? *cap * 2 : 4096;
			char *nb = realloc(*buf, ncap);

			if (!nb)
				return -ENOMEM;
			*buf = nb;
			*cap = ncap;
		}
		(*buf)[n++] = (char)c;
	}
	if (c == EOF && n == 0)
		return -1;
	if (!*buf && !(*buf = malloc(*cap = 1)))
		return -ENOMEM;
	(*buf)[n] = '\0';
	return (ssize_t)n;
}

int replay_read_stream(FILE *f, const char *name, struct replay_data *out, char *err, size_t errlen)
{
	return replay_read_stream_limited(f, name, REPLAY_MAX_LINE, REPLAY_MAX_BYTES, out, err,
					  errlen);
}

int replay_read_stream_limited(FILE *f, const char *name, size_t max_line, size_t max_bytes,
			       struct replay_data *out, char *err, size_t errlen)
{
	char *line = NULL;
	size_t cap = 0, total = 0;
	ssize_t n;
	int lineno = 0, rc = 0;

	memset(out, 0, sizeof(*out));
	out->name = name;
	while ((n = read_line(f, &line, &cap, max_line)) >= 0) {
		struct replay_record r = { .line = ++lineno };
		struct replay_record *nr;

		total += n + 1;
		if (total > max_bytes + 1) {
			snprintf(err, errlen,
				 "%s: larger than %zu bytes, the limit of a replay input: split it "
				 "and replay the parts",
				 name, max_bytes);
			rc = -EFBIG;
			break;
		}
		if (blank(line, n))
			continue;
		if (memchr(line, '\0', n)) {
			rc = rerr(err, errlen, name, lineno, "bad JSON: NUL byte");
			break;
		}
		rc = parse_line(line, n, &r, name, err, errlen);
		if (!rc) {
			nr = realloc(out->records, (out->nrecords + 1) * sizeof(*nr));
			rc = nr ? 0 : -ENOMEM;
			if (nr)
				out->records = nr;
		}
		if (rc) {
			record_free(&r);
			break;
		}
		out->records[out->nrecords++] = r;
	}
	if (n == -E2BIG) {
		rc = rerr(err, errlen, name, lineno + 1,
			  "line longer than %zu bytes, the limit of one replay line: "
			  "not JSON lines?",
			  max_line);
	} else if (n == -ENOMEM) {
		rc = -ENOMEM;
	}
	free(line);
	if (!rc && ferror(f)) {
		rerr(err, errlen, name, lineno + 1, "read error: %s", strerror(errno));
		rc = -EIO;
	}
	if (!rc && !out->nrecords)
		rc = rerr(err, errlen, name, lineno,
			  "no records: expected one JSON object per line");
	if (rc == -ENOMEM)
		snprintf(err, errlen, "%s: out of memory", name);
	if (rc) {
		term_escape_message(err, errlen); /* it quotes the file */
		replay_free(out);
	}
	return rc;
}

int replay_read(const char *path, struct replay_data *out, char *err, size_t errlen)
{
	bool from_stdin = !strcmp(path, "-");
	/* A pipe is fine (zcat x.gz | tmacg --replay -, or <(...)): it is read as a stream. */
	int fd = from_stdin ? -1 : file_open_input(path, "replay file", true, err, errlen);
	FILE *f = from_stdin ? stdin : fd >= 0 ? fdopen(fd, "r") : NULL;
	int rc;

	if (!f) {
		memset(out, 0, sizeof(*out));
		if (fd >= 0) {
			snprintf(err, errlen, "%s: out of memory", path);
			close(fd);
			return -ENOMEM;
		}
		return fd;
	}
	rc = replay_read_stream(f, from_stdin ? "<stdin>" : path, out, err, errlen);
	if (f != stdin)
		fclose(f);
	return rc;
}

void replay_free(struct replay_data *d)
{
	for (int i = 0; i < d->nrecords; i++)
		record_free(&d->records[i]);
	free(d->records);
	memset(d, 0, sizeof(*d));
}

/* a and b the same version, NULL (none given) included */
static bool same_version(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

const char *replay_recorded_model(const struct replay_data *d, const char **version, char *err,
				  size_t errlen)
{
	const struct replay_record *first = NULL;

	err[0] = '\0';
	*version = NULL;
	for (int i = 0; i < d->nrecords; i++) {
		const struct replay_record *r = &d->records[i];

		if (!r->origin || !r->origin->model)
			continue;
		if (!first) {
			first = r;
		} else if (strcmp(first->origin->model, r->origin->model)) {
			/* the lines' text, controls as \xHH */
			char *a = name_term_text(first->origin->model),
			     *b = name_term_text(r->origin->model);

			snprintf(err, errlen,
				 "%s: line %d was measured with model %s, line %d with %s: "
				 "name the model to replay with --model ID",
				 d->name, first->line, a ? a : "?", r->line, b ? b : "?");
			free(a);
			free(b);
			return NULL;
		} else if (!same_version(first->origin->tma_version, r->origin->tma_version)) {
			snprintf(
				err, errlen,
				"%s: line %d was measured with TMA %s of model %s, line %d with TMA "
				"%s: name the version to replay with --tma-version V",
				d->name, first->line,
				first->origin->tma_version ? first->origin->tma_version : "(none)",
				first->origin->model, r->line,
				r->origin->tma_version ? r->origin->tma_version : "(none)");
			return NULL;
		}
	}
	if (first)
		*version = first->origin->tma_version;
	return first ? first->origin->model : NULL;
}
