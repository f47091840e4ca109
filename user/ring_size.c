// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * One user creating cgroups faster than tmacg polls must not make the others
 * nameless: a mkdir event lost to a full ring leaves a short-lived cgroup's
 * time unattributed.  The map holds --max-cgroups entries, so the ring holds
 * as many events.
 */
#include "ring_size.h"

/* The kernel's header before each ring buffer record (BPF_RINGBUF_HDR_SZ). */
#define RING_RECORD_HEADER 8

uint32_t ring_bytes_for(uint32_t max_cgroups, uint32_t record_size)
{
	uint64_t want = (uint64_t)max_cgroups * ((record_size + RING_RECORD_HEADER + 7) & ~7u);
	uint64_t bytes = RING_MIN_BYTES;

	while (bytes < want && bytes < RING_MAX_BYTES)
		bytes *= 2;
	return (uint32_t)bytes;
}
