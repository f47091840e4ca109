/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * Recorded counts (docs/architecture.md "Replay input"): JSON lines, one interval
 * of one cgroup each.  The whole input is read and checked before anything is
 * printed, so a bad line never leaves half an output behind.
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

/* What a tmacg/1 line says besides its counts: the replayed line says the same. */
/* What a line's quality says of one node. */
struct replay_node_note {
	char *node;
	double measured;  /* NAN: not in quality.measured */
	char *unmeasured; /* NULL: not in quality.unmeasured */
};

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
};

struct replay_record {
	int line; /* in the input, for messages */
	char *cgroup;
	double interval_s;
	bool topdown_fixed; /* given, or: any PERF_METRICS.* counter present */
	bool smt;
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
 * Reads every line of f (name: the file name for messages).  0, or -EINVAL
 * with "NAME:LINE: what is wrong" in err, or -ENOMEM/-EIO.
 */
int replay_read_stream(FILE *f, const char *name, struct replay_data *out, char *err,
		       size_t errlen);
/*
 * Limits of one replay line and one replay input: a record is a few KiB, and
 * the whole input is kept in memory, so /dev/zero or a wrong file must end
 * with a message, not exhaust memory.
 */
#define REPLAY_MAX_LINE (1u << 20)    /* 1 MiB */
#define REPLAY_MAX_BYTES (256u << 20) /* 256 MiB */
/* The same with other limits: a line over max_line is -EINVAL, an input over max_bytes -EFBIG. */
int replay_read_stream_limited(FILE *f, const char *name, size_t max_line, size_t max_bytes,
			       struct replay_data *out, char *err, size_t errlen);
/* The same for a path; "-" is standard input. */
int replay_read(const char *path, struct replay_data *out, char *err, size_t errlen);
void replay_free(struct replay_data *d);

/*
 * The model tmacg's own lines were measured with, the default of --replay:
 * the id, NULL when no line names one (other replay input), or NULL with
 * err set when lines name different models or TMA versions.  *version: the
 * lines' tma_version (NULL: none given), so a 5.1 recording replays at 5.1.
 */
const char *replay_recorded_model(const struct replay_data *d, const char **version, char *err,
				  size_t errlen);

#endif /* TMACG_REPLAY_READ_H */
