/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* --listen ADDR:PORT: the address the /metrics endpoint binds, parsed without resolving names. */
#ifndef TMACG_PROM_LISTEN_H
#define TMACG_PROM_LISTEN_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>

struct prom_listen_addr {
	struct sockaddr_storage ss;
	socklen_t len;
	bool any; /* ":PORT": every address, IPv6 and IPv4 when the host has IPv6 */
};

/*
 * "127.0.0.1:9464", "[::1]:9464", ":9464" (every address), port 0 for one
 * the kernel picks.  0, or -EINVAL with a message naming the problem in err.
 */
int prom_listen_parse(const char *spec, struct prom_listen_addr *a, char *err, size_t errlen);

/* "127.0.0.1:9464" or "[::1]:9464" from a bound address. */
void prom_listen_format(const struct sockaddr *sa, char *buf, size_t len);

#endif
