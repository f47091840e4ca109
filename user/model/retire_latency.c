// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Retire-latency tables (retire_latency.h).  Every value read is checked: a
 * latency is a number of cycles, finite and not negative; anything else stops
 * with the file and the event named, never a silent zero.
 */
#include "model/retire_latency.h"

#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"

/* Intel's files are a few KiB; /dev/zero or a wrong file must end with a message. */
#define RL_FILE_MAX (4u << 20)

int rl_table_add(struct rl_table *t, const char *event, double cycles)
{
	struct retire_latency *nv;
	char *name;

	if (!(cycles >= 0) || !isfinite(cycles))
		return -EINVAL;
	if (rl_table_find(t, event))
		return -EEXIST;
	name = strdup(event);
	nv = name ? realloc(t->v, (size_t)(t->n + 1) * sizeof(*nv)) : NULL;
	if (!nv) {
		free(name);
		return -ENOMEM;
	}
	t->v = nv;
	t->v[t->n].event = name;
	t->v[t->n++].cycles = cycles;
	return 0;
}

const double *rl_table_find(const struct rl_table *t, const char *event)
{
	for (int i = 0; t && i < t->n; i++)
		if (!strcmp(t->v[i].event, event))
			return &t->v[i].cycles;
	return NULL;
}

void rl_table_free(struct rl_table *t)
{
	for (int i = 0; i < t->n; i++)
		free(t->v[i].event);
	free(t->v);
	t->v = NULL;
	t->n = 0;
}

static int fail(char *err, size_t errlen, const char *file, const char *fmt, ...)
{
	int n = snprintf(err, errlen, "%s: ", file);
	va_list ap;

	va_start(ap, fmt);
	if (n >= 0 && (size_t)n < errlen)
		vsnprintf(err + n, errlen - n, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static int add_mean(struct rl_table *t, const char *event, json_object *stats, const char *file,
		    char *err, size_t errlen)
{
	json_object *mean;
	enum json_type type;
	int rc;

	if (json_object_get_type(stats) != json_type_object ||
	    !json_object_object_get_ex(stats, "MEAN", &mean))
		return fail(err, errlen, file,
			    "Data.%s has no \"MEAN\" (Intel's format: \"EVENT\": {\"MEAN\": "
			    "cycles, ...})",
			    event);
	type = json_object_get_type(mean);
	if (type != json_type_double && type != json_type_int)
		return fail(err, errlen, file, "Data.%s.MEAN is not a number of cycles", event);
	rc = rl_table_add(t, event, json_object_get_double(mean));
	if (rc == -EINVAL)
		return fail(err, errlen, file, "Data.%s.MEAN %g: a latency is 0 or more cycles",
			    event, json_object_get_double(mean));
	if (rc == -EEXIST)
		return fail(err, errlen, file, "Data.%s given twice", event);
	if (rc)
		return fail(err, errlen, file, "out of memory");
	return 0;
}

int rl_table_parse_intel(const char *text, size_t len, const char *file, struct rl_table *t,
			 char *err, size_t errlen)
{
	json_tokener *tok = json_tokener_new();
	json_object *o = NULL, *data;
	int rc = 0;

	if (!tok)
		return fail(err, errlen, file, "out of memory");
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT);
	o = json_tokener_parse_ex(tok, text, (int)len);
	if (!o || json_tokener_get_error(tok) != json_tokener_success) {
		rc = fail(err, errlen, file, "bad JSON: %s",
			  json_tokener_error_desc(json_tokener_get_error(tok)));
		goto out;
	}
	if (json_object_get_type(o) != json_type_object ||
	    !json_object_object_get_ex(o, "Data", &data) ||
	    json_object_get_type(data) != json_type_object) {
		rc = fail(err, errlen, file,
			  "no \"Data\" object: want Intel's retire-latency format, "
			  "{\"Data\": {\"EVENT\": {\"MEAN\": cycles}}}");
		goto out;
	}
	json_object_object_foreach(data, event, stats) {
		rc = add_mean(t, event, stats, file, err, errlen);
		if (rc)
			break;
	}
	if (!rc && t->n == 0)
		rc = fail(err, errlen, file, "\"Data\" lists no event: nothing to weigh by");
out:
	json_object_put(o);
	json_tokener_free(tok);
	if (rc)
		rl_table_free(t);
	return rc;
}

int rl_table_read_file(const char *path, struct rl_table *t, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	char *buf;
	size_t len;
	int rc;

	if (!f) {
		snprintf(err, errlen, "%s: cannot open the retire-latency file: %s", path,
			 strerror(errno));
		return -errno;
	}
	buf = malloc(RL_FILE_MAX + 1);
	if (!buf) {
		fclose(f);
		return fail(err, errlen, path, "out of memory");
	}
	len = fread(buf, 1, RL_FILE_MAX + 1, f);
	if (ferror(f))
		rc = fail(err, errlen, path, "cannot read the retire-latency file: %s",
			  strerror(errno));
	else if (len > RL_FILE_MAX)
		rc = fail(err, errlen, path,
			  "larger than %u MiB (Intel's retire-latency files are a few KiB): is it "
			  "one?",
			  RL_FILE_MAX >> 20);
	else
		rc = rl_table_parse_intel(buf, len, path, t, err, errlen);
	free(buf);
	fclose(f);
	return rc;
}

unsigned rl_fill(const struct tma_model *m, const struct rl_table *given,
		 const struct rl_table *defaults, double *lat)
{
	unsigned sources = RL_SOURCE_NONE;

	for (int i = 0; i < model_latency_count(m); i++) {
		const char *ev = model_latency_name(m, i);
		const double *c = rl_table_find(given, ev);

		if (c) {
			sources |= RL_SOURCE_GIVEN;
		} else if ((c = rl_table_find(defaults, ev))) {
			sources |= RL_SOURCE_DEFAULTS;
		}
		lat[i] = c ? *c : NAN;
	}
	return sources;
}

const char *rl_source_name(const struct tma_model *m, unsigned sources)
{
	static const char *const names[] = { "none", "given", "defaults", "given+defaults" };

	return model_latency_count(m) ? names[sources & 3] : NULL;
}
