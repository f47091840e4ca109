/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * A temporary directory standing for "/" in unit tests of code that reads
 * /proc and /sys (cpu_detect's opts.root, TMACG_SYSFS_ROOT): fixture files
 * of machines this one is not.
 */
#ifndef TMACG_FAKE_ROOT_H
#define TMACG_FAKE_ROOT_H

/* mkdtemp on root ("/tmp/tmacg-cpu-XXXXXX"); 0 or -1. */
int fake_root_make(char *root);
/* Writes text to "<root><rel>", creating the directories between; fails the test otherwise. */
void fake_root_put(const char *root, const char *rel, const char *text);
/* Removes root and everything below it; 0 or -1. */
int fake_root_remove(const char *root);

#endif
