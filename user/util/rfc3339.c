// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "util/rfc3339.h"

#include <string.h>

size_t rfc3339_text(const struct timespec *ts, char *buf)
{
	static _Thread_local time_t cached_sec;
	static _Thread_local char cached[RFC3339_MAX]; /* "2026-11-21T10:00:01." */
	static _Thread_local size_t cached_len;	       /* 0: nothing cached yet */
	long ns = ts->tv_nsec;

	if (!cached_len || ts->tv_sec != cached_sec) {
		struct tm tm;

		if (!gmtime_r(&ts->tv_sec, &tm))
			tm = (struct tm){ .tm_year = 70, .tm_mday = 1 }; /* the epoch */
		cached_len = strftime(cached, sizeof(cached), "%Y-%m-%dT%H:%M:%S.", &tm);
		cached_sec = ts->tv_sec;
	}
	memcpy(buf, cached, cached_len);
	buf += cached_len;
	if (ns < 0 || ns > 999999999)
		ns = 0;
	for (int i = 8; i >= 0; i--, ns /= 10)
		buf[i] = (char)('0' + ns % 10);
	buf[9] = 'Z';
	buf[10] = '\0';
	return cached_len + 10;
}
