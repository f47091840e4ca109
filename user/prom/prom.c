// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "prom/prom.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "output/cgroup_record.h"
#include "prom/prom_expo.h"
#include "prom/prom_listen.h"
#include "prom/prom_server.h"
#include "prom/prom_text.h"
#include "output/report.h"

struct prom {
	struct prom_expo *expo;
	struct prom_server *server;
	struct report_sink sink;
	bool failed; /* this interval's text could not be built */
	bool warned;
	bool warned_duplicate;
	char bound[80]; /* the address bound, for prom_announce() */
};

static void on_begin(void *ctx, const struct report_line *head)
{
	struct prom *p = ctx;

	p->failed = prom_expo_begin(p->expo, head) != 0;
}

static void on_line(void *ctx, const struct report_line *line)
{
	struct prom *p = ctx;
	int ret = p->failed ? 0 : prom_expo_line(p->expo, line);

	if (ret == -EEXIST && !p->warned_duplicate) {
		/* Two lines of one label set even with the cgroup path: never expected. */
		fprintf(stderr,
			"tmacg: warning: cgroup %s reported twice in an interval: its "
			"second line is not on /metrics\n",
			line->cgroup);
		p->warned_duplicate = true;
	} else if (ret && ret != -EEXIST) {
		p->failed = true;
	}
}

/* Serves the text built since the last begin. */
static void publish(struct prom *p)
{
	struct prom_text text, done;
	int ret = prom_expo_end_text(p->expo, &text);

	/* Out of memory: the previous interval stays served rather than a partial one. */
	if (!ret && p->failed) {
		prom_text_free(&text);
		ret = -ENOMEM;
	} else if (!ret) {
		ret = prom_server_publish_text(p->server, &text, &done);
		/* The text served until now, when no scrape still sends it: the next one's buffers. */
		if (!ret)
			prom_expo_recycle(p->expo, &done);
	}
	if (ret) {
		if (!p->warned)
			fprintf(stderr, "tmacg: warning: out of memory building /metrics: the "
					"previous interval is served\n");
		p->warned = true;
	}
}

/*
 * The report's sink ends only measured intervals: the BPF programs were
 * attached before the first began (monitor.c attaches, then reads the
 * baseline), so once one ends tmacg is ready.  Until then the server
 * answers /readyz "not ready" (prom_server's own state).
 */
static void on_end(void *ctx)
{
	struct prom *p = ctx;

	publish(p);
	prom_server_set_ready(p->server);
}

struct prom *prom_open(const char *spec, bool k8s, const char *host, const char *model,
		       const char *tma_version, char *err, size_t errlen)
{
	struct prom *p = calloc(1, sizeof(*p));
	struct prom_listen_addr addr;

	if (!p) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	if (prom_listen_parse(spec, &addr, err, errlen))
		goto fail;
	p->expo = prom_expo_new(k8s);
	if (!p->expo) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	p->server = prom_server_start(&addr, p->bound, sizeof(p->bound), err, errlen);
	if (!p->server)
		goto fail;
	p->sink =
		(struct report_sink){ .begin = on_begin, .line = on_line, .end = on_end, .ctx = p };
	/* Before the first interval: tmacg_build_info only, and not ready. */
	p->failed = prom_expo_begin_unmeasured(p->expo, host, model, tma_version) != 0;
	publish(p);
	return p;
fail:
	prom_close(p);
	return NULL;
}

void prom_set_counts(struct prom *p, bool on)
{
	prom_expo_set_counts(p->expo, on);
}

void prom_announce(const struct prom *p)
{
	fprintf(stderr, "tmacg: serving Prometheus metrics at http://%s/metrics\n", p->bound);
}

const struct report_sink *prom_sink(struct prom *p)
{
	return &p->sink;
}

void prom_close(struct prom *p)
{
	if (!p)
		return;
	prom_server_stop(p->server);
	prom_expo_free(p->expo);
	free(p);
}
