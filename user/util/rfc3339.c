// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "util/rfc3339.h"

#include <string.h>

/* The first and last instants RFC 3339's four-digit years hold (0000-01-01, 9999-12-31). */
#define FIRST_SEC (-62167219200LL)
#define LAST_SEC 253402300799LL

/* v's last n decimal digits at p, zero-padded. */
static char *put_digits(char *p, int v, int n)
{
	for (int i = n - 1; i >= 0; i--, v /= 10)
		p[i] = (char)('0' + v % 10);
	return p + n;
}

/* "YYYY-MM-DDThh:mm:ss." of sec (within FIRST_SEC..LAST_SEC) into buf; its length. */
static size_t date_text(time_t sec, char *buf)
{
	struct tm tm;
	char *p = buf;

	if (!gmtime_r(&sec, &tm))
		tm = (struct tm){ .tm_year = 70, .tm_mday = 1 }; /* the epoch */
	p = put_digits(p, tm.tm_year + 1900, 4);
	*p++ = '-';
	p = put_digits(p, tm.tm_mon + 1, 2);
	*p++ = '-';
	p = put_digits(p, tm.tm_mday, 2);
	*p++ = 'T';
	p = put_digits(p, tm.tm_hour, 2);
	*p++ = ':';
	p = put_digits(p, tm.tm_min, 2);
	*p++ = ':';
	p = put_digits(p, tm.tm_sec, 2);
	*p++ = '.';
	return (size_t)(p - buf);
}

size_t rfc3339_text(const struct timespec *ts, char *buf)
{
	static _Thread_local time_t cached_sec;
	static _Thread_local char cached[RFC3339_MAX]; /* "2026-11-21T10:00:01." */
	static _Thread_local size_t cached_len;	       /* 0: nothing cached yet */
	time_t sec = ts->tv_sec;
	long ns = ts->tv_nsec;

	if (ns < 0 || ns > 999999999)
		ns = 0;
	/* Beyond the years RFC 3339 writes: the nearest instant it can. */
	if ((long long)sec < FIRST_SEC) {
		sec = (time_t)FIRST_SEC;
		ns = 0;
	} else if ((long long)sec > LAST_SEC) {
		sec = (time_t)LAST_SEC;
		ns = 999999999;
	}
	if (!cached_len || sec != cached_sec) {
		cached_len = date_text(sec, cached);
		cached_sec = sec;
	}
	memcpy(buf, cached, cached_len);
	buf = put_digits(buf + cached_len, (int)ns, 9);
	buf[0] = 'Z';
	buf[1] = '\0';
	return cached_len + 10;
}
