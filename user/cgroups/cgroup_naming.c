// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "cgroups/cgroup_naming.h"

#include <errno.h>
#include <string.h>

int cgroup_naming_apply(struct cgroup_tree *t, const struct tmacg_cgroup_event *ev, bool *may_scan)
{
	char name[TMACG_NAME_MAX + 1];
	int err;

	if (ev->type == TMACG_CGROUP_RMDIR) {
		cgroup_tree_mark_removed(t, ev->id);
		return 0;
	}
	if (ev->type != TMACG_CGROUP_MKDIR)
		return -EINVAL;
	memcpy(name, ev->name, TMACG_NAME_MAX);
	name[TMACG_NAME_MAX] = '\0';
	err = cgroup_tree_add_child(t, ev->id, ev->parent_id, name);
	if (err != -ENOENT || !*may_scan)
		return err;
	*may_scan = false;
	cgroup_tree_scan(t); /* errors: the cgroup stays unnamed, as below */
	if (cgroup_tree_get(t, ev->id))
		return 0; /* the scan found it */
	return cgroup_tree_add_child(t, ev->id, ev->parent_id, name);
}
