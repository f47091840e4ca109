// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * --listen: the addresses it takes, the message and exit code 2 for those it
 * does not, --format none only with it; a port in use or an address not on
 * this host fails at bind with a message naming it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "options.h"
#include "prom/prom_listen.h"
#include "prom/prom_server.h"

static void good_addresses(void **state)
{
	struct prom_listen_addr a;
	char err[256], shown[80];

	(void)state;
	assert_int_equal(prom_listen_parse("127.0.0.1:9464", &a, err, sizeof(err)), 0);
	assert_int_equal(a.ss.ss_family, AF_INET);
	assert_false(a.any);
	prom_listen_format((struct sockaddr *)&a.ss, shown, sizeof(shown));
	assert_string_equal(shown, "127.0.0.1:9464");
	assert_int_equal(prom_listen_parse("[::1]:0", &a, err, sizeof(err)), 0);
	assert_int_equal(a.ss.ss_family, AF_INET6);
	prom_listen_format((struct sockaddr *)&a.ss, shown, sizeof(shown));
	assert_string_equal(shown, "[::1]:0");
	assert_int_equal(prom_listen_parse(":9464", &a, err, sizeof(err)), 0);
	assert_true(a.any);
	assert_int_equal(ntohs(((struct sockaddr_in6 *)&a.ss)->sin6_port), 9464);
}

static void bad_addresses_say_why(void **state)
{
	static const struct {
		const char *spec, *why;
	} cases[] = {
		{ "9464", "no port" },
		{ "127.0.0.1", "no port" },
		{ "127.0.0.1:", "the port must be a number" },
		{ "127.0.0.1:65536", "the port must be a number" },
		{ "127.0.0.1:-1", "the port must be a number" },
		{ "127.0.0.1:94x", "the port must be a number" },
		{ "localhost:9464", "'localhost' is not an IP address" },
		{ "300.1.1.1:9464", "is not an IP address" },
		{ "::1:9464", "is not an IP address" },
		{ "[::1:9464", "is not an IP address" },
		{ "[zz]:9464", "is not an IP address" },
	};
	struct prom_listen_addr a;
	char err[256];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_not_equal(prom_listen_parse(cases[i].spec, &a, err, sizeof(err)), 0);
		if (!strstr(err, cases[i].why) || !strstr(err, cases[i].spec))
			fail_msg("%s: message '%s' lacks '%s'", cases[i].spec, err, cases[i].why);
	}
}

static int parse(const char **argv, int argc, char *errbuf, size_t len)
{
	struct options o;
	char outbuf[8192];
	FILE *out = fmemopen(outbuf, sizeof(outbuf), "w");
	FILE *err = fmemopen(errbuf, len, "w");
	int ret;

	memset(errbuf, 0, len);
	ret = options_parse(&o, argc, (char **)argv, out, err);
	fclose(out);
	fclose(err);
	return ret;
}

static void options_exit_2_on_bad_listen(void **state)
{
	const char *bad_port[] = { "tmacg", "--listen", "127.0.0.1" };
	const char *none_alone[] = { "tmacg", "--format", "none" };
	const char *with_replay[] = { "tmacg", "--listen", ":9464", "--replay", "-" };
	const char *good[] = { "tmacg", "--listen", "127.0.0.1:9464", "--format", "none", "--k8s" };
	char err[1024];

	(void)state;
	assert_int_equal(parse(bad_port, 3, err, sizeof(err)), 2);
	assert_non_null(strstr(err, "--listen '127.0.0.1': no port"));
	assert_non_null(strstr(err, "tmacg --help"));
	assert_int_equal(parse(none_alone, 3, err, sizeof(err)), 2);
	assert_non_null(strstr(err, "--format none prints nothing: it needs --listen"));
	assert_int_equal(parse(with_replay, 5, err, sizeof(err)), 2);
	assert_non_null(strstr(err, "not with --replay"));
	assert_int_equal(parse(good, 6, err, sizeof(err)), 0);
}

static void port_in_use_is_named(void **state)
{
	struct sockaddr_in sin = { .sin_family = AF_INET,
				   .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(sin);
	struct prom_listen_addr a;
	struct prom_server *s;
	char err[256], spec[64], bound[80];
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(bind(fd, (struct sockaddr *)&sin, sizeof(sin)), 0);
	assert_int_equal(listen(fd, 1), 0);
	assert_int_equal(getsockname(fd, (struct sockaddr *)&sin, &len), 0);
	snprintf(spec, sizeof(spec), "127.0.0.1:%u", ntohs(sin.sin_port));
	assert_int_equal(prom_listen_parse(spec, &a, err, sizeof(err)), 0);
	assert_null(prom_server_start(&a, bound, sizeof(bound), err, sizeof(err)));
	assert_non_null(strstr(err, "the port is in use"));
	assert_non_null(strstr(err, spec));
	close(fd);
	/* An address this host does not have (TEST-NET-1, RFC 5737). */
	assert_int_equal(prom_listen_parse("192.0.2.1:9464", &a, err, sizeof(err)), 0);
	assert_null(prom_server_start(&a, bound, sizeof(bound), err, sizeof(err)));
	assert_non_null(strstr(err, "no such address on this host"));
	/* Port 0: the kernel's choice, shown. */
	assert_int_equal(prom_listen_parse("127.0.0.1:0", &a, err, sizeof(err)), 0);
	s = prom_server_start(&a, bound, sizeof(bound), err, sizeof(err));
	assert_non_null(s);
	assert_true(strncmp(bound, "127.0.0.1:", 10) == 0 && strcmp(bound, "127.0.0.1:0") != 0);
	prom_server_stop(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(good_addresses),
		cmocka_unit_test(bad_addresses_say_why),
		cmocka_unit_test(options_exit_2_on_bad_listen),
		cmocka_unit_test(port_in_use_is_named),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
