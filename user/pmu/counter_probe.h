/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * How many events one perf group of a core PMU holds, asked of the kernel:
 * the counters it offers where nothing else says (Arm: sysfs gives no
 * count, and a virtual machine's PMU may have fewer counters than the core
 * it runs on).  The kernel checks at perf_event_open whether a group's
 * events can all have a counter at once (validate_group), so the first
 * event it refuses is one more than the PMU has.  Nothing counts: the
 * group is opened disabled and closed at once.
 */
#ifndef TMACG_COUNTER_PROBE_H
#define TMACG_COUNTER_PROBE_H

#include <linux/perf_event.h>

/* Events one probe opens at most: Arm's 31 event counters and the cycle counter. */
#define COUNTER_PROBE_MAX 32

/* perf_event_open(attr) for this thread on any CPU in group_fd's group: the fd, or -errno. */
typedef int (*counter_probe_open_fn)(struct perf_event_attr *attr, int group_fd);

/* The system call itself. */
int counter_probe_syscall(struct perf_event_attr *attr, int group_fd);

/*
 * Opens copies of the event (type, config) into one group until the kernel
 * refuses one or max (at most COUNTER_PROBE_MAX) are open, then closes them.
 * Returns how many the group held, or -errno when the kernel refused the
 * first (no permission, no such PMU).
 */
int counter_probe_group(counter_probe_open_fn open_event, unsigned int type,
			unsigned long long config, int max);

#endif /* TMACG_COUNTER_PROBE_H */
