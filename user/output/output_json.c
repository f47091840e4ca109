// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * JSON lines through json-c: it escapes every string (cgroup names may hold
 * quotes, backslashes or control characters) and keeps insertion order, which
 * gives the schema's stable key order.
 */
#include "output/output_json.h"

#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "util/name_escape.h"

void json_double_text(double d, char *buf, size_t len)
{
	/* Counts are whole numbers: 260, not the shorter 2.6e+02, and cheap to print. */
	if (d == floor(d) && fabs(d) < 1e15 && len >= 24) {
		long long v = (long long)d;
		unsigned long long u = v < 0 ? -(unsigned long long)v : (unsigned long long)v;
		char digits[24];
		int n = 0;

		do
			digits[n++] = (char)('0' + u % 10);
		while (u /= 10);
		if (v < 0 || signbit(d))
			*buf++ = '-';
		while (n)
			*buf++ = digits[--n];
		*buf = '\0';
		return;
	}
	/*
	 * %g drops trailing zeros, so %.15g is already the shortest text when 15
	 * digits suffice (distinct 15-digit decimals never meet in one double);
	 * 16 or 17 digits are needed otherwise.  Three tries instead of seventeen:
	 * this is most of the cost of a JSON line.
	 */
	for (int prec = 15; prec <= 17; prec++) {
		snprintf(buf, len, "%.*g", prec, d);
		if (strtod(buf, NULL) == d)
			return;
	}
}

static json_object *json_num(double d)
{
	char buf[40];

	if (!isfinite(d))
		return NULL; /* json-c writes NULL as null */
	json_double_text(d, buf, sizeof(buf));
	return json_object_new_double_s(d, buf);
}

/* Every string through here: names chosen by others may hold any byte (name_escape.h). */
static json_object *json_str(const char *s)
{
	const char *text;
	json_object *o;

	if (!s)
		return NULL;
	text = name_json_text(s);
	if (!text)
		return NULL; /* out of memory: null, "could not be given" */
	o = json_object_new_string(text);
	if (text != s)
		free((char *)text);
	return o;
}

static void add_key(json_object *o, const char *key, json_object *v)
{
	const char *text = name_json_text(key);

	json_object_object_add(o, text ? text : "", v);
	if (text != key)
		free((char *)text);
}

static void format_time(const struct timespec *ts, char *buf, size_t len)
{
	struct tm tm;
	char date[32];

	gmtime_r(&ts->tv_sec, &tm);
	strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf, len, "%s.%09ldZ", date, ts->tv_nsec);
}

static json_object *resource_object(const struct resource *res)
{
	json_object *o = json_object_new_object();

	if (!res)
		return o;
	if (res->k8s_namespace)
		json_object_object_add(o, "k8s.namespace.name", json_str(res->k8s_namespace));
	if (res->k8s_pod)
		json_object_object_add(o, "k8s.pod.name", json_str(res->k8s_pod));
	if (res->k8s_pod_uid)
		json_object_object_add(o, "k8s.pod.uid", json_str(res->k8s_pod_uid));
	if (res->k8s_container)
		json_object_object_add(o, "k8s.container.name", json_str(res->k8s_container));
	if (res->container_id)
		json_object_object_add(o, "container.id", json_str(res->container_id));
	if (res->host)
		json_object_object_add(o, "host.name", json_str(res->host));
	return o;
}

/* "metrics", "flagged" and "bottleneck" from the model's result. */
static void add_model_result(json_object *o, const struct report_line *r)
{
	json_object *metrics = json_object_new_object();
	json_object *flagged = json_object_new_array();
	char path[1024] = "";
	size_t used = 0;

	if (r->tma && r->result) {
		int n = model_node_count(r->tma);

		for (int i = 0; i < n; i++) {
			const struct model_node_info *node = model_node(r->tma, i);

			if (node->is_count || (node->is_info ? !r->info : node->level > r->level))
				continue;
			json_object_object_add(metrics, node->name, json_num(r->result->value[i]));
			if (r->result->flagged[i] && !node->is_info)
				json_object_array_add(flagged, json_str(node->name));
		}
		for (int i = 0; i < r->result->bottleneck_len; i++) {
			const struct model_node_info *node =
				model_node(r->tma, r->result->bottleneck[i]);

			if (node->level > r->level)
				break;
			used += snprintf(path + used, sizeof(path) - used, "%s%s", i ? "." : "",
					 node->name);
			if (used >= sizeof(path))
				break;
		}
	}
	json_object_object_add(o, "metrics", metrics);
	json_object_object_add(o, "flagged", flagged);
	json_object_object_add(o, "bottleneck", path[0] ? json_str(path) : NULL);
}

int output_json_line(FILE *f, const struct report_line *r)
{
	json_object *o = json_object_new_object();
	json_object *counts = json_object_new_object();
	json_object *quality = json_object_new_object();
	char when[64];
	int err = 0;

	format_time(&r->time, when, sizeof(when));
	json_object_object_add(o, "schema", json_str("tmacg/1"));
	json_object_object_add(o, "time", json_str(when));
	json_object_object_add(o, "interval_s", json_num(r->interval_s));
	json_object_object_add(o, "host", json_str(r->host));
	json_object_object_add(o, "model", json_str(r->model));
	json_object_object_add(o, "tma_version", json_str(r->tma_version));
	json_object_object_add(o, "cgroup", json_str(r->cgroup));
	json_object_object_add(o, "cgroup_id",
			       r->cgroup_id ? json_object_new_uint64(r->cgroup_id) : NULL);
	if (r->task) {
		json_object *t = json_object_new_object();

		json_object_object_add(t, "tid", json_object_new_int64(r->task->tid));
		json_object_object_add(t, "tgid", json_object_new_int64(r->task->tgid));
		json_object_object_add(t, "comm", json_str(r->task->comm));
		json_object_object_add(o, "task", t);
	}
	json_object_object_add(o, "resource", resource_object(r->resource));
	for (int i = 0; i < r->ncounts; i++)
		add_key(counts, r->count_names[i], json_num(r->count_values[i]));
	json_object_object_add(o, "counts", counts);
	json_object_object_add(quality, "running_min", json_num(r->running_min));
	json_object_object_add(quality, "smt_shared", json_object_new_boolean(r->smt_shared));
	json_object_object_add(quality, "dropped", json_object_new_uint64(r->dropped));
	json_object_object_add(quality, "map_full", json_object_new_uint64(r->map_full));
	json_object_object_add(quality, "instance", json_str(r->instance));
	/* Added after the first tmacg/1 keys, as the schema's rules allow. */
	json_object_object_add(quality, "pmu_groups",
			       r->pmu_groups >= 0 ? json_object_new_int(r->pmu_groups) : NULL);
	{
		json_object *missing = json_object_new_array();

		for (int i = 0; i < r->nmissing; i++)
			json_object_array_add(missing, json_str(r->missing[i]));
		json_object_object_add(quality, "missing_events", missing);
	}
	json_object_object_add(quality, "retire_latency", json_str(r->retire_latency));
	json_object_object_add(quality, "no_top_down",
			       r->result && r->result->no_tree ? json_str(r->result->no_tree) :
								 NULL);
	json_object_object_add(o, "quality", quality);
	add_model_result(o, r);
	json_object_object_add(o, "topdown_fixed", json_object_new_boolean(r->topdown_fixed));
	json_object_object_add(o, "smt", json_object_new_boolean(r->smt));

	if (fprintf(f, "%s\n",
		    json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN |
							      JSON_C_TO_STRING_NOSLASHESCAPE)) < 0)
		err = errno == EPIPE ? -EPIPE : -EIO;
	json_object_put(o);
	return err;
}
