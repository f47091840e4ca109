// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* Reader and validator of replay files (JSON lines, parsed with json-c). */
#include "replay/replay_read.h"

#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "model/model.h"
#include "util/file_read.h"
#include "util/name_escape.h"

#include "replay/replay_number.h"
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

void replay_record_free(struct replay_record *r)
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
		double cycles;
		int rc = replay_exact_double(val, &cycles) ?
				 rl_table_add(&r->retire_latency, key, cycles) :
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
		if (val && !replay_exact_double(val, &v))
			return rerr(err, errlen, name, r->line,
				    "counter \"%s\" is %s: a count that a double does not hold "
				    "exactly, it would not replay as written",
				    key, json_object_get_string(val));
		if (val && v < 0)
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

/* "smt": true, false, or null (the host did not say: evaluated as off, written back null). */
static int optional_smt(json_object *o, struct replay_record *r, const char *name, char *err,
			size_t errlen)
{
	json_object *x;

	if (!json_object_object_get_ex(o, "smt", &x))
		return 0;
	if (x && json_object_get_type(x) != json_type_boolean)
		return rerr(err, errlen, name, r->line, "\"smt\" must be true, false or null");
	r->smt = x && json_object_get_boolean(x);
	r->smt_unknown = !x;
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
	if (!is_number(x) || !(d >= 0 && d <= MODEL_PMU_SLOTS_MAX) || d != (double)(unsigned int)d)
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

/* The record in o, the JSON of the line text: 0, or -EINVAL with the reason in err, or -ENOMEM. */
static int parse_object(json_object *o, const char *text, size_t len, struct replay_record *r,
			const char *name, char *err, size_t errlen)
{
	const char *counters_key = "counters", *huge;
	json_object *x;
	size_t hugelen;
	int rc;

	if ((huge = replay_huge_integer(text, len, &hugelen)))
		return rerr(
			err, errlen, name, r->line,
			"%.*s%s is out of the range of a 64-bit integer: it would not replay as "
			"written",
			hugelen > 40 ? 40 : (int)hugelen, huge, hugelen > 40 ? "..." : "");
	if (keys_kept(o) != keys_written(text, len))
		return rerr(err, errlen, name, r->line,
			    "a key given twice in one object: each key once (which one would "
			    "count?)");
	if (json_object_get_type(o) != json_type_object)
		return rerr(err, errlen, name, r->line, "expected a JSON object, found %s",
			    json_type_to_name(json_object_get_type(o)));
	/* tmacg's own lines: their counts under "counts", their names escaped. */
	if (json_object_object_get_ex(o, "schema", &x)) {
		if (json_object_get_type(x) != json_type_string ||
		    strcmp(json_object_get_string(x), REPLAY_TMACG1_SCHEMA))
			return rerr(err, errlen, name, r->line,
				    "\"schema\" is %s: this tmacg replays %s lines",
				    json_object_to_json_string(x), REPLAY_TMACG1_SCHEMA);
		r->absent_unmeasured = true;
		counters_key = "counts";
	}
	if (!json_object_object_get_ex(o, "cgroup", &x) ||
	    json_object_get_type(x) != json_type_string)
		return rerr(err, errlen, name, r->line, "\"cgroup\" (a string) is missing");
	r->cgroup = r->absent_unmeasured ? name_json_bytes(json_object_get_string(x)) :
					   strdup(json_object_get_string(x));
	if (!r->cgroup)
		return -ENOMEM;
	if (!json_object_object_get_ex(o, "interval_s", &x) || !is_number(x))
		return rerr(err, errlen, name, r->line,
			    "\"interval_s\" (a number of seconds) is missing");
	if (!replay_exact_double(x, &r->interval_s) || !(r->interval_s > 0))
		return rerr(err, errlen, name, r->line, "\"interval_s\" must be a positive number");
	if (!json_object_object_get_ex(o, counters_key, &x) ||
	    json_object_get_type(x) != json_type_object)
		return rerr(err, errlen, name, r->line,
			    "\"%s\" (an object of event name: count) is missing", counters_key);
	rc = parse_counters(x, r, name, err, errlen);
	if (!rc)
		rc = optional_bool(o, "topdown_fixed", &r->topdown_fixed, name, r->line, err,
				   errlen);
	if (!rc)
		rc = optional_smt(o, r, name, err, errlen);
	if (!rc)
		rc = optional_slots(o, &r->pmu_slots, name, r->line, err, errlen);
	if (!rc)
		rc = parse_latencies(o, r, name, err, errlen);
	if (!rc && r->absent_unmeasured)
		rc = replay_origin_parse(o, &r->origin, name, r->line, err, errlen);
	return rc;
}

static int parse_line(const char *text, size_t len, struct replay_record *r, const char *name,
		      char *err, size_t errlen)
{
	json_tokener *tok = json_tokener_new();
	enum json_tokener_error e;
	json_object *o;
	size_t end;
	int rc;

	if (!tok)
		return -ENOMEM;
	o = json_tokener_parse_ex(tok, text, (int)len);
	e = json_tokener_get_error(tok);
	end = json_tokener_get_parse_end(tok);
	json_tokener_free(tok);
	if (!o || e != json_tokener_success || end < len) {
		json_object_put(o);
		if (e == json_tokener_success && end < len)
			return rerr(err, errlen, name, r->line, "bad JSON: text after the object");
		rerr(err, errlen, name, r->line, "bad JSON: %s",
		     e == json_tokener_continue ? "the object is not complete on this line" :
						  json_tokener_error_desc(e));
		return -EBADMSG; /* not JSON at all: a line cut short, when it is the last */
	}
	rc = parse_object(o, text, len, r, name, err, errlen);
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

void replay_reader_init(struct replay_reader *r, FILE *f, const char *name, size_t max_line)
{
	struct stat st;
	int fd = fileno(f);

	*r = (struct replay_reader){ .f = f, .name = name, .max_line = max_line };
	/* A pipe, a FIFO or a terminal may pause between lines: a regular file does not. */
	r->live = fd >= 0 && !fstat(fd, &st) && !S_ISREG(st.st_mode);
}

void replay_reader_free(struct replay_reader *r)
{
	free(r->buf);
	r->buf = NULL;
	r->cap = 0;
}

/*
 * One line into r->buf, at most max_line bytes before its newline: the
 * length, -1 at the end of the input, -E2BIG when the line is longer
 * (/dev/zero has no end); *newline: the line ended with one.
 */
static ssize_t read_line(struct replay_reader *r, bool *newline)
{
	size_t n = 0;
	int c;

	while ((c = getc_unlocked(r->f)) != EOF && c != '\n') {
		if (n == r->max_line)
			return -E2BIG;
		if (n + 1 >= r->cap) {
			size_t ncap = r->cap ? r->cap * 2 : 4096;
			char *nb = realloc(r->buf, ncap);

			if (!nb)
				return -ENOMEM;
			r->buf = nb;
			r->cap = ncap;
		}
		r->buf[n++] = (char)c;
	}
	*newline = c == '\n';
	if (c == EOF && n == 0)
		return -1;
	if (!r->buf && !(r->buf = malloc(r->cap = 1)))
		return -ENOMEM;
	r->buf[n] = '\0';
	return (ssize_t)n;
}

/* A last line without its newline that is not JSON: what a full disk or a killed writer leaves. */
static void cut_short(struct replay_reader *r)
{
	char why[sizeof(r->msg)];
	const char *p = strstr(r->msg, "bad JSON: ");

	snprintf(why, sizeof(why), "%s", p ? p + 10 : r->msg);
	rerr(r->msg, sizeof(r->msg), r->name, r->lineno,
	     "incomplete last line: the recording was cut short? (%s)", why);
}

int replay_reader_next(struct replay_reader *r, struct replay_record *rec)
{
	for (;;) {
		bool newline = false;
		ssize_t n = read_line(r, &newline);
		int rc;

		if (n == -1 && ferror(r->f)) {
			rerr(r->msg, sizeof(r->msg), r->name, r->lineno + 1, "read error: %s",
			     strerror(errno));
			return -EIO;
		}
		if (n == -1)
			return 0;
		r->lineno++;
		if (n == -E2BIG) {
			rerr(r->msg, sizeof(r->msg), r->name, r->lineno,
			     "line longer than %zu bytes, the limit of one replay line: "
			     "not JSON lines?",
			     r->max_line);
			return -E2BIG;
		}
		if (n < 0) {
			snprintf(r->msg, sizeof(r->msg), "%s: out of memory", r->name);
			return (int)n;
		}
		if (blank(r->buf, (size_t)n))
			continue;
		*rec = (struct replay_record){ .input = r->name, .line = r->lineno };
		if (memchr(r->buf, '\0', (size_t)n))
			rc = rerr(r->msg, sizeof(r->msg), r->name, r->lineno, "bad JSON: NUL byte");
		else
			rc = parse_line(r->buf, (size_t)n, rec, r->name, r->msg, sizeof(r->msg));
		if (!rc)
			return 1;
		replay_record_free(rec);
		if (rc == -ENOMEM) {
			snprintf(r->msg, sizeof(r->msg), "%s: out of memory", r->name);
			return rc;
		}
		if (rc == -EBADMSG && !newline)
			cut_short(r);
		term_escape_message(r->msg, sizeof(r->msg)); /* it quotes the file */
		return -EINVAL;
	}
}

int replay_read_stream(FILE *f, const char *name, struct replay_data *out, char *err, size_t errlen)
{
	struct replay_reader r;
	struct replay_record rec;
	int rc;

	memset(out, 0, sizeof(*out));
	out->name = name;
	replay_reader_init(&r, f, name, REPLAY_MAX_LINE);
	while ((rc = replay_reader_next(&r, &rec)) == 1) {
		struct replay_record *nr = realloc(out->records, (out->nrecords + 1) * sizeof(*nr));

		if (!nr) {
			replay_record_free(&rec);
			snprintf(r.msg, sizeof(r.msg), "%s: out of memory", name);
			rc = -ENOMEM;
			break;
		}
		out->records = nr;
		out->records[out->nrecords++] = rec;
	}
	if (!rc && !out->nrecords) {
		rc = -EINVAL;
		rerr(r.msg, sizeof(r.msg), name, r.lineno,
		     "no records: expected one JSON object per line");
	}
	replay_reader_free(&r);
	if (rc) {
		snprintf(err, errlen, "%s", r.msg);
		replay_free(out);
		return rc == -E2BIG ? -EINVAL : rc;
	}
	return 0;
}

FILE *replay_open(const char *path, const char **name, char *err, size_t errlen)
{
	bool from_stdin = !strcmp(path, "-");
	/* A pipe is fine (zcat x.gz | tmacg --replay -, or <(...)): it is read as a stream. */
	int fd = from_stdin ? -1 : file_open_input(path, "replay file", true, err, errlen);
	FILE *f = from_stdin ? stdin : fd >= 0 ? fdopen(fd, "r") : NULL;

	*name = from_stdin ? "<stdin>" : path;
	if (!f && fd >= 0) {
		snprintf(err, errlen, "%s: out of memory", path);
		close(fd);
	}
	return f;
}

void replay_close(FILE *f)
{
	if (f && f != stdin)
		fclose(f);
}

int replay_read(const char *path, struct replay_data *out, char *err, size_t errlen)
{
	const char *name;
	FILE *f = replay_open(path, &name, err, errlen);
	int rc;

	if (!f) {
		memset(out, 0, sizeof(*out));
		return -EINVAL;
	}
	rc = replay_read_stream(f, name, out, err, errlen);
	replay_close(f);
	return rc;
}

void replay_free(struct replay_data *d)
{
	for (int i = 0; i < d->nrecords; i++)
		replay_record_free(&d->records[i]);
	free(d->records);
	memset(d, 0, sizeof(*d));
}
