/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * tmacg's own JSON lines (schema tmacg/1, docs/output.md) as replay input: a
 * line recorded on one host is replayed elsewhere with another model, level
 * or --info (docs/architecture.md "Replay input").
 */
#ifndef TMACG_REPLAY_TMACG1_H
#define TMACG_REPLAY_TMACG1_H

#include <json-c/json.h>
#include <stddef.h>

struct replay_origin;

/* The schema a line must carry to be read this way. */
#define REPLAY_TMACG1_SCHEMA "tmacg/1"

/*
 * What the tmacg/1 line o says about where, when and with which model it was
 * measured, into a new *out (the reader takes cgroup, interval_s and counts).
 * 0, or -EINVAL with "NAME:LINE: what is wrong" in err, or -ENOMEM.
 */
int replay_origin_parse(json_object *o, struct replay_origin **out, const char *name, int line,
			char *err, size_t errlen);

void replay_origin_free(struct replay_origin *origin);
/* What origin owns freed and origin zeroed, for one that is not an allocation of its own. */
void replay_origin_clear(struct replay_origin *origin);
/* The note of node in origin, added (NAN, NULL) when new; NULL when out of memory. */
struct replay_node_note *replay_origin_note(struct replay_origin *origin, const char *node);

#endif /* TMACG_REPLAY_TMACG1_H */
