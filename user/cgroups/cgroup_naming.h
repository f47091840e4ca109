/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * Cgroup mkdir/rmdir events applied to the tree.  A new cgroup is named by
 * its parent's path plus its own directory name, never by the tracepoint's
 * path: that one is cut short (two siblings differing after the cut would
 * share a name, a cut path sits at the wrong level) and is relative to the
 * cgroup namespace of whoever called mkdir.
 */
#ifndef TMACG_CGROUP_NAMING_H
#define TMACG_CGROUP_NAMING_H

#include <linux/types.h>
#include <stdbool.h>

#include "cgroups/cgroup_tree.h"
#include "tmacg.h"

/*
 * Applies ev to t.  When a new cgroup's parent is not known (its own event
 * was lost, or it was created between the scan and the programs' attach),
 * the hierarchy is scanned again if *may_scan, which is then cleared: one
 * scan per batch of events bounds the cost of a burst.  0; -ENOENT when the
 * cgroup could not be named (its counts are then counted as unattributed);
 * -EINVAL for an event without a name; -ENOMEM.
 */
int cgroup_naming_apply(struct cgroup_tree *t, const struct tmacg_cgroup_event *ev, bool *may_scan);

#endif
