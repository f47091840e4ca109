// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "prom/prom_listen.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FORM "expected ADDR:PORT, e.g. 127.0.0.1:9464, [::1]:9464 or :9464 for every address"

static int parse_port(const char *s, in_port_t *port)
{
	char *end;
	long v;

	if (!*s || *s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	v = strtol(s, &end, 10);
	if (*end || errno || v < 0 || v > 65535)
		return -EINVAL;
	*port = htons((in_port_t)v);
	return 0;
}

int prom_listen_parse(const char *spec, struct prom_listen_addr *a, char *err, size_t errlen)
{
	const char *colon = strrchr(spec, ':');
	char host[64];
	size_t hostlen;
	in_port_t port;

	memset(a, 0, sizeof(*a));
	if (!colon) {
		snprintf(err, errlen, "--listen '%s': no port: " FORM, spec);
		return -EINVAL;
	}
	if (parse_port(colon + 1, &port)) {
		snprintf(err, errlen,
			 "--listen '%s': the port must be a number from 0 to 65535 "
			 "(" FORM ")",
			 spec);
		return -EINVAL;
	}
	hostlen = colon - spec;
	if (hostlen >= sizeof(host)) {
		snprintf(err, errlen, "--listen '%s': not an IP address before the port (" FORM ")",
			 spec);
		return -EINVAL;
	}
	memcpy(host, spec, hostlen);
	host[hostlen] = '\0';
	if (!hostlen || (host[0] == '[' && hostlen > 2 && host[hostlen - 1] == ']')) {
		struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&a->ss;

		if (hostlen)
			host[hostlen - 1] = '\0';
		/* ":PORT": every address, in6addr_any (all zeros, as a is) */
		if (!hostlen || inet_pton(AF_INET6, host + 1, &in6->sin6_addr) == 1) {
			in6->sin6_family = AF_INET6;
			in6->sin6_port = port;
			a->len = sizeof(*in6);
			a->any = !hostlen;
			return 0;
		}
	} else {
		struct sockaddr_in *in4 = (struct sockaddr_in *)&a->ss;

		if (inet_pton(AF_INET, host, &in4->sin_addr) == 1) {
			in4->sin_family = AF_INET;
			in4->sin_port = port;
			a->len = sizeof(*in4);
			return 0;
		}
	}
	snprintf(err, errlen,
		 "--listen '%s': '%s' is not an IP address (names are not "
		 "resolved; IPv6 goes in brackets): " FORM,
		 spec, host);
	return -EINVAL;
}

void prom_listen_format(const struct sockaddr *sa, char *buf, size_t len)
{
	char addr[INET6_ADDRSTRLEN] = "?";

	if (sa->sa_family == AF_INET6) {
		const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)sa;

		inet_ntop(AF_INET6, &in6->sin6_addr, addr, sizeof(addr));
		snprintf(buf, len, "[%s]:%u", addr, ntohs(in6->sin6_port));
	} else {
		const struct sockaddr_in *in4 = (const struct sockaddr_in *)sa;

		inet_ntop(AF_INET, &in4->sin_addr, addr, sizeof(addr));
		snprintf(buf, len, "%s:%u", addr, ntohs(in4->sin_port));
	}
}
