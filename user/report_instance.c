// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Which tmacg wrote a line.  Two instances on one node (a DaemonSet and an
 * engineer's shell) measure independently, but their lines look alike in one
 * log pipeline: pid and start time tell them apart, also across pid reuse.
 */
#include "report.h"

#include <stdio.h>
#include <time.h>
#include <unistd.h>

void report_instance_name(char *buf, size_t len)
{
	struct timespec ts;
	struct tm tm;
	char date[32];

	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf, len, "%d@%s.%09ldZ", (int)getpid(), date, ts.tv_nsec);
}
