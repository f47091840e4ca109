/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * Recorded counts (docs/architecture.md "Replay input"): JSON lines, one interval
 * of one cgroup each, read and checked a line at a time: a bad line is named
 * and passed over, the lines around it replay.
 */
#ifndef TMACG_REPLAY_READ_H
#define TMACG_REPLAY_READ_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "model/retire_latency.h"

struct replay_counter {
	char *name; /* "INT_MISC.RECOVERY_CYCLES:c1:e1" */
	double value;
};

/* Resource keys of a tmacg/1 line, in struct resource's order (output/output_json.h). */
enum replay_res {
	RES_NAMESPACE,
	RES_POD,
	RES_POD_UID,
	RES_CONTAINER,
	RES_CONTAINER_ID,
	RES_HOST,
	RES_N
};
/* Their keys in "resource": "k8s.namespace.name", ... */
extern const char *const replay_resource_keys[RES_N];

/*
 * A resource key other than those (a pipeline's enrichment adds them:
 * k8s.deployment.name), kept for --group-by; a value that is not a string
 * is kept as its JSON text ("3", "true").
 */
struct replay_resource_key {
	char *key, *value;
};

struct report_group;

/* What a line's quality says of one node. */
struct replay_node_note {
	char *node;
	double measured;  /* NAN: not in quality.measured */
	char *unmeasured; /* NULL: not in quality.unmeasured */
};

/* What a tmacg/1 line says besides its counts: the replayed line says the same. */
struct replay_origin {
	char *model;	   /* the model that measured it: the default for --replay */
	char *tma_version; /* and its TMA version ("5.1"), NULL: none given */
	char *host;
	struct timespec time;
	uint64_t cgroup_id; /* 0: null */
	bool has_task;
	uint32_t tid, tgid;
	char *comm;
	char *resource[RES_N]; /* NULL: absent */
	int nextra;
	struct replay_resource_key *extra;
	/* "quality": how far the measurement can be trusted does not change in a replay. */
	double running_min; /* NAN: null */
	bool smt_shared;
	uint64_t dropped, map_full;
	char *instance;
	int pmu_groups; /* -1: null */
	int nmissing;
	char **missing; /* quality.missing_events */
	/*
	 * quality.measured (groups in turns) and quality.unmeasured (a perf group
	 * that failed to open), by node name as written; has_*: the key was there.
	 */
	bool has_measured, has_unmeasured;
	int nnotes;
	struct replay_node_note *notes;
	/* Set on a --group-by sum only (not owned): what it summed, written as "group". */
	const struct report_group *group;
};

struct replay_record {
	const char *input; /* its input's name (the reader's), for messages */
	int line;	   /* in the input, for messages */
	char *cgroup;
	double interval_s;
	bool topdown_fixed; /* given, or: any PERF_METRICS.* counter present */
	bool smt;
	bool smt_unknown;	/* "smt": null, as a host that does not say is written */
	unsigned int pmu_slots; /* given ("pmu_slots"), else 0: the model's documented width */
	/*
	 * A tmacg/1 line lists every counter it opened: one it does not list was
	 * not measured (NAN), where the counters of other replay input are 0.
	 */
	bool absent_unmeasured;
	int ncounters;
	struct replay_counter *counters; /* NAN: null in a tmacg/1 line */
	struct replay_origin *origin;	 /* tmacg/1 lines only, else NULL */
	/* "retire_latency": {EVENT: cycles}, the line's own retire latencies (may be empty) */
	struct rl_table retire_latency;
};

struct replay_data {
	const char *name; /* the name given to the reader, for messages */
	int nrecords;
	struct replay_record *records;
	/*
	 * Set by the caller, not owned: the latencies of a line that gives none of its
	 * own, --retire-latency's (file), else Intel's published (defaults); NULL: none.
	 */
	const struct rl_table *rl_file, *rl_defaults;
};

/*
 * Limit of one replay line: a record is a few KiB, so /dev/zero or a wrong
 * file ends with a message, not exhausted memory.  The input itself has no
 * limit: it is read a line at a time.
 */
#define REPLAY_MAX_LINE (1u << 20) /* 1 MiB */

/* Reads an input a line at a time (the whole input is never held). */
struct replay_reader {
	FILE *f;
	const char *name; /* for messages */
	size_t max_line;
	int lineno; /* of the line read last */
	char *buf;
	size_t cap;
	/* A pipe, a FIFO or a terminal: a line may be long in coming, so what is printed is flushed. */
	bool live;
	char msg[512]; /* why the last call failed: "NAME:LINE: what is wrong" */
};

void replay_reader_init(struct replay_reader *r, FILE *f, const char *name, size_t max_line);
/*
 * The next record into *rec (freed by replay_record_free): 1; 0 at the end;
 * -EINVAL: line r->lineno is bad, said in r->msg, and the next call reads on
 * (a last line without its newline that is not JSON is said to be cut
 * short); -E2BIG: a line over max_line, which ends the input (no JSON lines);
 * -ENOMEM or -EIO, said in r->msg.
 */
int replay_reader_next(struct replay_reader *r, struct replay_record *rec);
void replay_reader_free(struct replay_reader *r);
void replay_record_free(struct replay_record *r);

/* path opened for reading ("-": stdin), *name: its name for messages; NULL with err set. */
FILE *replay_open(const char *path, const char **name, char *err, size_t errlen);
void replay_close(FILE *f);

/*
 * Reads every line of f into out (name: the file name for messages), all or
 * nothing: 0, or -EINVAL with the first bad line's "NAME:LINE: what is wrong"
 * in err, or -ENOMEM/-EIO.  The whole input in memory: for tests and tools;
 * --replay streams (replay_source.h).
 */
int replay_read_stream(FILE *f, const char *name, struct replay_data *out, char *err,
		       size_t errlen);
/* The same for a path; "-" is standard input. */
int replay_read(const char *path, struct replay_data *out, char *err, size_t errlen);
void replay_free(struct replay_data *d);

#endif /* TMACG_REPLAY_READ_H */
