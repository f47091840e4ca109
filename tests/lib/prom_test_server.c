// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include "prom_test_server.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>

#include "prom/prom_listen.h"
#include "prom/prom_server.h"

struct prom_server *prom_test_server_start(int *port)
{
	struct prom_listen_addr a;
	char bound[80], err[256];
	struct prom_server *s;

	assert_int_equal(prom_listen_parse("127.0.0.1:0", &a, err, sizeof(err)), 0);
	s = prom_server_start(&a, bound, sizeof(bound), err, sizeof(err));
	if (!s)
		fail_msg("%s", err);
	assert_int_equal(sscanf(bound, "127.0.0.1:%d", port), 1);
	return s;
}
