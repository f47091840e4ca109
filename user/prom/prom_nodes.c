// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "prom/prom_nodes.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "prom/prom_label.h"
#include "util/int_text.h"

void prom_nodes_free(struct prom_nodes *pn)
{
	for (int i = 0; i < pn->n; i++) {
		if (pn->plain)
			free(pn->plain[i]);
		if (pn->ratio)
			free(pn->ratio[i]);
	}
	for (int s = 0; pn->set_label && s < pn->nsets; s++)
		free(pn->set_label[s]);
	free(pn->plain);
	free(pn->plain_len);
	free(pn->ratio);
	free(pn->ratio_len);
	free(pn->set_of);
	free(pn->set_label);
	free(pn->set_label_len);
	free(pn->set_node);
	free(pn->tree_level);
	free(pn->in_slots);
	free(pn->groups);
	*pn = (struct prom_nodes){ 0 };
}

/* `,tma_groups="0+5"`: the groups of mask, ascending, as --list-events numbers them. */
static void groups_label(struct prom_buf *b, uint64_t mask)
{
	prom_buf_puts(b, ",tma_groups=\"");
	for (int g = 0; g < 64; g++) {
		char num[INT_TEXT_MAX];

		if (!((mask >> g) & 1))
			continue;
		if (mask & ((1ULL << g) - 1)) /* a group before it */
			prom_buf_putc(b, '+');
		prom_buf_put(b, num, uint_text((uint64_t)g, num));
	}
	prom_buf_putc(b, '"');
}

/*
 * `,tma_node="<path>",level="N"[,tma_groups="G"]}` (mask 0: no groups), or
 * `,tma_groups="G"}` alone without a path; escaped once: a sample copies it.
 */
static char *labels_text(const char *path, int level, uint64_t mask, size_t *len)
{
	struct prom_buf b = { 0 };
	int err = 0;

	if (path) {
		char num[INT_TEXT_MAX];

		prom_buf_putc(&b, ',');
		err = prom_label(&b, "tma_node", path);
		prom_buf_puts(&b, ",level=\"");
		prom_buf_put(&b, num, int_text(level, num));
		prom_buf_putc(&b, '"');
	}
	if (mask)
		groups_label(&b, mask);
	prom_buf_put(&b, "}", 2); /* with its NUL: a string too */
	if (b.failed || err) {
		prom_buf_free(&b);
		return NULL;
	}
	*len = b.len - 1;
	return b.p;
}

/* Whether pn holds the labels of tma and groups already. */
static bool mapped(const struct prom_nodes *pn, const struct tma_model *tma, const uint64_t *groups)
{
	if (!pn->tma_serial || model_serial(tma) != pn->tma_serial || !groups != !pn->groups)
		return false;
	return !groups || !memcmp(groups, pn->groups, (size_t)pn->n * sizeof(*groups));
}

/* Node k's set: the index of its mask among those seen before it, else a new one. */
static int set_index(struct prom_nodes *pn, const uint64_t *groups, int k)
{
	for (int j = 0; j < k; j++)
		if (pn->set_of[j] >= 0 && groups[j] == groups[k])
			return pn->set_of[j];
	pn->set_node[pn->nsets] = -1;
	pn->set_label[pn->nsets] = labels_text(NULL, 0, groups[k], &pn->set_label_len[pn->nsets]);
	return pn->set_label[pn->nsets] ? pn->nsets++ : -ENOMEM;
}

/* Node k, of a set: that set's node if it is the set's shallowest tree node so far. */
static void shallowest(struct prom_nodes *pn, const struct tma_model *tma, int k)
{
	const struct model_node_info *node = model_node(tma, k);
	int *at = &pn->set_node[pn->set_of[k]];

	if (node->is_info || node->is_count || node->level < 1)
		return;
	if (*at < 0 || node->level < model_node(tma, *at)->level)
		*at = k;
}

/* The labels made so far by every prom_nodes: each making's number, never reused. */
static _Atomic uint64_t builds;

int prom_nodes_map(struct prom_nodes *pn, const struct tma_model *tma, const uint64_t *groups)
{
	int n = model_node_count(tma);
	size_t one = n ? (size_t)n : 1;

	if (mapped(pn, tma, groups))
		return 0;
	prom_nodes_free(pn);
	pn->n = n;
	pn->plain = calloc(one, sizeof(*pn->plain));
	pn->plain_len = calloc(one, sizeof(*pn->plain_len));
	pn->ratio = calloc(one, sizeof(*pn->ratio));
	pn->ratio_len = calloc(one, sizeof(*pn->ratio_len));
	pn->set_of = calloc(one, sizeof(*pn->set_of));
	pn->set_label = calloc(one, sizeof(*pn->set_label));
	pn->set_label_len = calloc(one, sizeof(*pn->set_label_len));
	pn->set_node = malloc(one * sizeof(*pn->set_node));
	pn->tree_level = malloc(one * sizeof(*pn->tree_level));
	pn->in_slots = malloc(one * sizeof(*pn->in_slots));
	pn->groups = groups ? malloc(one * sizeof(*pn->groups)) : NULL;
	if (!pn->plain || !pn->plain_len || !pn->ratio || !pn->ratio_len || !pn->set_of ||
	    !pn->set_label || !pn->set_label_len || !pn->set_node || !pn->tree_level ||
	    !pn->in_slots || (groups && !pn->groups))
		goto oom;
	for (int k = 0; k < n; k++) {
		const struct model_node_info *node = model_node(tma, k);
		uint64_t mask = groups ? groups[k] : 0;

		bool tree = !node->is_info && !node->is_count && node->level >= 1;

		pn->tree_level[k] = node->is_info ? PROM_NODES_INFO : tree ? node->level : 0;
		pn->in_slots[k] =
			tree && node->level <= 2 && node->domain && !strcmp(node->domain, "Slots");
		pn->set_of[k] = mask ? set_index(pn, groups, k) : -1;
		if (pn->set_of[k] >= 0)
			shallowest(pn, tma, k);
		pn->plain[k] = labels_text(node->path, node->level, 0, &pn->plain_len[k]);
		pn->ratio[k] = labels_text(node->path, node->level, mask, &pn->ratio_len[k]);
		if (pn->set_of[k] == -ENOMEM || !pn->plain[k] || !pn->ratio[k])
			goto oom;
	}
	if (groups)
		memcpy(pn->groups, groups, (size_t)n * sizeof(*groups));
	pn->tma_serial = model_serial(tma);
	pn->build = atomic_fetch_add(&builds, 1) + 1;
	return 0;
oom:
	prom_nodes_free(pn);
	return -ENOMEM;
}
