/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * Whether this process may do what live mode needs, asked before anything
 * is tried: loading tracing BPF programs needs CAP_BPF and CAP_PERFMON, and
 * per-CPU perf counters CAP_PERFMON (CAP_SYS_ADMIN covers both).  Asking
 * first names the missing capability instead of relaying libbpf's guesses
 * (RLIMIT_MEMLOCK, CONFIG_BPF_SYSCALL) after the fact.
 */
#ifndef TMACG_PRIVILEGES_H
#define TMACG_PRIVILEGES_H

#include <stddef.h>

/* 0, or -EPERM with err naming each missing capability and how to grant it. */
int privileges_check(char *err, size_t errlen);

/*
 * Why bpf() or perf_event_open() returned EPERM or EACCES although the
 * capabilities are there: a seccomp filter (a container runtime's default
 * profile) when one is in force, else kernel lockdown or an LSM.
 */
const char *privileges_denied_hint(void);

#endif
