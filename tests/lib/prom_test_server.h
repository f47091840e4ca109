/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/* A /metrics server in the test's own process, on a free loopback port. */
#ifndef TMACG_PROM_TEST_SERVER_H
#define TMACG_PROM_TEST_SERVER_H

struct prom_server;

/* Started on 127.0.0.1, port 0: the port bound in *port.  Fails the test if it cannot start. */
struct prom_server *prom_test_server_start(int *port);

#endif
