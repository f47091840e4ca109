/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* The cgroup event ring buffer's size, from --max-cgroups. */
#ifndef TMACG_RING_SIZE_H
#define TMACG_RING_SIZE_H

#include <stdint.h>

/* Never smaller than this (the size before it followed --max-cgroups). */
#define RING_MIN_BYTES (2u << 20)
/* Nor larger: 2^24 cgroups' records would be 9 GiB of kernel memory. */
#define RING_MAX_BYTES (256u << 20)

/*
 * Bytes for max_cgroups records of record_size (plus the ring's 8-byte header
 * each): a burst of --max-cgroups mkdir events, or half as many cgroups
 * created and removed, between two polls.  A power of two, as the kernel
 * requires, within [RING_MIN_BYTES, RING_MAX_BYTES].
 */
uint32_t ring_bytes_for(uint32_t max_cgroups, uint32_t record_size);

#endif
