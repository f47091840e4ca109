// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * A loaded model: what it tells its readers (ids, events, nodes) and its
 * release.  Loading is model_load.c (the text) and model_builtin.c (which
 * file); names become indices in model_resolve.c.
 */
#include <stdlib.h>
#include <string.h>

#include "model/model_impl.h"

void model_free(struct tma_model *m)
{
	if (!m)
		return;
	free(m->id);
	free(m->title);
	free(m->tma_version);
	free(m->source);
	free(m->filename);
	for (int i = 0; i < m->ndecls; i++) {
		free(m->decls[i].name);
		free(m->decls[i].counter);
	}
	free(m->decls);
	for (int i = 0; i < m->nconsts; i++)
		free(m->consts[i].name);
	free(m->consts);
	for (int i = 0; i < m->nhelpers; i++) {
		free(m->helpers[i].name);
		free(m->helpers[i].text);
	}
	free(m->helpers);
	u64map_free(&m->by_name);
	u64map_free(&m->by_number);
	for (int i = 0; i < m->nnodes; i++) {
		struct model_entry *e = &m->nodes[i];

		free((char *)e->info.name);
		free((char *)e->info.number);
		free((char *)e->info.domain);
		free((char *)e->info.description);
		free((char *)e->info.groups);
		free((char *)e->info.path);
		free(e->area);
		free(e->sample);
		free(e->scope);
		free(e->brief);
		free(e->long_text);
		free(e->issues);
		free(e->formula_text);
		free(e->threshold_text);
	}
	free(m->nodes);
	for (int i = 0; i < m->nevents; i++)
		free(m->events[i]);
	free(m->events);
	for (int i = 0; i < m->nlatencies; i++)
		free(m->latencies[i]);
	free(m->latencies);
	free(m->order);
	free(m->torder);
	free(m->tloop);
	free(m->kids);
	free(m->kid_start);
	model_code_free(&m->code);
	for (int i = 0; i < 2; i++)
		for (int l = 0; l <= MODEL_MAX_LEVEL; l++) {
			free(m->subset[i][l].order);
			free(m->shown[i][l].node);
		}
	expr_pool_free(&m->pool);
	free(m);
}

const char *model_id(const struct tma_model *m)
{
	return m->id;
}

const char *model_tma_version(const struct tma_model *m)
{
	return m->tma_version;
}

const char *model_title(const struct tma_model *m)
{
	return m->title ? m->title : m->id;
}

int model_event_count(const struct tma_model *m)
{
	return m->nevents;
}

const char *model_event_name(const struct tma_model *m, int i)
{
	return i >= 0 && i < m->nevents ? m->events[i] : NULL;
}

int model_event_index(const struct tma_model *m, const char *name)
{
	for (int i = 0; i < m->nevents; i++)
		if (!strcmp(m->events[i], name))
			return i;
	return -1;
}

int model_latency_count(const struct tma_model *m)
{
	return m->nlatencies;
}

const char *model_latency_name(const struct tma_model *m, int i)
{
	return i >= 0 && i < m->nlatencies ? m->latencies[i] : NULL;
}

int model_latency_index(const struct tma_model *m, const char *name)
{
	for (int i = 0; i < m->nlatencies; i++)
		if (!strcmp(m->latencies[i], name))
			return i;
	return -1;
}

uint64_t model_serial(const struct tma_model *m)
{
	return m->serial;
}

int model_node_count(const struct tma_model *m)
{
	return m->nnodes;
}

const struct model_node_info *model_node(const struct tma_model *m, int i)
{
	return i >= 0 && i < m->nnodes ? &m->nodes[i].info : NULL;
}

bool model_node_description(const struct tma_model *m, int i, struct model_node_text *out)
{
	const struct model_entry *e;

	if (i < 0 || i >= m->nnodes)
		return false;
	e = &m->nodes[i];
	out->one_line = e->info.description;
	out->brief = e->brief ? e->brief : out->one_line;
	out->long_text = e->long_text ? e->long_text : out->brief;
	out->issues = e->issues;
	out->formula = e->formula_text;
	out->threshold = e->threshold_text;
	return true;
}

int model_helper_count(const struct tma_model *m)
{
	return m->nhelpers;
}

bool model_helper_text(const struct tma_model *m, int i, const char **name, const char **text)
{
	if (i < 0 || i >= m->nhelpers)
		return false;
	*name = m->helpers[i].name;
	*text = m->helpers[i].text;
	return true;
}

int model_node_index(const struct tma_model *m, const char *name)
{
	return model_entry_find(m, name);
}

const int *model_shown_nodes(const struct tma_model *m, int level, bool info, int *n)
{
	const struct model_shown *s;

	if (level < 0)
		level = 0;
	if (level > MODEL_MAX_LEVEL)
		level = MODEL_MAX_LEVEL;
	s = &m->shown[info][level];
	*n = s->n;
	return s->node;
}
