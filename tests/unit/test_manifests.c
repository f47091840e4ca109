// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The Kubernetes manifests stay valid, and the validator keeps rejecting what
 * is wrong: deploy/kubernetes must pass tests/deploy/validate-manifests.mjs,
 * each fixture under tests/deploy/fixtures must fail it with the file, the
 * document and the reason.  Needs node and `npm ci --prefix tests/deploy`
 * (deploy/install-deps.sh --test does both); without them the test fails and says so.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "repo_root.h"

/* Repository root: the binary is <root>/<build tree>/tests/unit/test_manifests. */
static char root[PATH_MAX];

static int find_root(void **state)
{
	(void)state;
	if (repo_root(root, sizeof(root)))
		return -1;
	return strchr(root, '\'') ? -1 : 0; /* quoted in a shell command below */
}

struct run {
	int status;	 /* exit code, or -1 when it did not exit */
	char out[16384]; /* stdout and stderr */
};

/* Runs the validator on a path relative to the root. */
static void validate(const char *rel, struct run *r)
{
	char cmd[2 * PATH_MAX + 256];
	size_t used = 0;
	FILE *p;
	int st;

	snprintf(cmd, sizeof(cmd),
		 "cd '%s' && timeout 120 node tests/deploy/validate-manifests.mjs '%s' 2>&1", root,
		 rel);
	p = popen(cmd, "r");
	assert_non_null(p);
	while (used < sizeof(r->out) - 1) {
		size_t got = fread(r->out + used, 1, sizeof(r->out) - 1 - used, p);

		if (!got)
			break;
		used += got;
	}
	r->out[used] = '\0';
	st = pclose(p);
	r->status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void require_tools(void)
{
	char path[PATH_MAX + 128];
	struct stat sb;

	if (system("node --version >/dev/null 2>&1"))
		fail_msg("node is not installed: run deploy/install-deps.sh --test");
	static const char *const packages[] = { "kubernetes-models",
						"@kubernetes-models/prometheus-operator" };

	for (int i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/tests/deploy/node_modules/%s", root, packages[i]);
		if (stat(path, &sb))
			fail_msg("%s missing: run deploy/install-deps.sh --test (npm ci --prefix "
				 "tests/deploy)",
				 path);
	}
}

static void test_deploy_manifests_valid(void **state)
{
	struct run r;

	(void)state;
	require_tools();
	validate("deploy/kubernetes", &r);
	if (r.status != 0)
		fail_msg("deploy/kubernetes does not validate (exit %d):\n%s", r.status, r.out);
	assert_non_null(strstr(r.out, "all valid"));
}

/* A fixture must fail, naming itself, the document and the reason. */
static void expect_rejected(const char *fixture, const char *doc, const char *reason)
{
	char rel[256], where[320];
	struct run r;

	require_tools();
	snprintf(rel, sizeof(rel), "tests/deploy/fixtures/%s", fixture);
	validate(rel, &r);
	if (r.status != 1)
		fail_msg("%s: exit %d, want 1 (rejected):\n%s", fixture, r.status, r.out);
	snprintf(where, sizeof(where), "%s: %s", rel, doc);
	if (!strstr(r.out, where) || !strstr(r.out, reason))
		fail_msg("%s: want \"%s\" and \"%s\" in:\n%s", fixture, where, reason, r.out);
}

static void test_schema_error_in_second_document(void **state)
{
	(void)state;
	expect_rejected("bad-schema.yaml", "document 2 (DaemonSet/broken)", "limits/cpu");
}

static void test_policy_violations(void **state)
{
	(void)state;
	expect_rejected("bad-policy.yaml", "document 1 (DaemonSet/too-powerful)",
			"privileged must be false");
	expect_rejected("bad-policy.yaml", "document 1", "capability SYS_ADMIN");
	expect_rejected("bad-policy.yaml", "document 1", "must be mounted readOnly");
}

/* --listen's port and the scrape annotations must agree, and the node stays closed. */
static void test_scrape_annotations_match_listen(void **state)
{
	(void)state;
	expect_rejected("bad-scrape.yaml", "document 1 (DaemonSet/wrong-port)",
			"annotation prometheus.io/port is \"9100\", --listen port is 9464");
	expect_rejected("bad-scrape.yaml", "document 1", "hostPort 9464 exposes the node");
}

/* A node agent (issue 20): priority, probes on /healthz and /readyz, limits, seccomp on. */
static void test_node_agent_requirements(void **state)
{
	(void)state;
	expect_rejected("bad-node-agent.yaml", "document 1 (DaemonSet/careless)",
			"priorityClassName must be system-node-critical");
	expect_rejected("bad-node-agent.yaml", "document 1",
			"livenessProbe must be an httpGet of /healthz on the --listen port 9464");
	expect_rejected("bad-node-agent.yaml", "document 1",
			"readinessProbe must be an httpGet of /readyz");
	expect_rejected("bad-node-agent.yaml", "document 1", "resources.limits.memory is missing");
	expect_rejected("bad-node-agent.yaml", "document 1",
			"seccompProfile must be RuntimeDefault or Localhost");
}

/* Documents that are valid alone but do not let Prometheus reach /metrics. */
static void test_service_monitor_and_network_policy_reach_the_port(void **state)
{
	(void)state;
	expect_rejected("bad-monitoring.yaml", "document 3 (ServiceMonitor/agent)",
			"reaches no Service port targeting a --listen port");
	expect_rejected("bad-monitoring.yaml", "document 4 (NetworkPolicy/agent)",
			"blocks the --listen port 9464 of DaemonSet/agent");
}

static void test_unknown_kind(void **state)
{
	(void)state;
	expect_rejected("bad-kind.yaml", "document 1 (Daemonset/typo)", "unknown kind Daemonset");
}

static void test_not_yaml(void **state)
{
	(void)state;
	expect_rejected("bad-yaml.yaml", "document 1", "YAML");
}

static void test_usage_errors(void **state)
{
	struct run r;

	(void)state;
	require_tools();
	validate("tests/deploy/no-such-dir", &r);
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.out, "no-such-dir"));
	/* A directory without manifests is an error, not a silent pass. */
	validate("docs", &r);
	assert_int_equal(r.status, 2);
	assert_non_null(strstr(r.out, "no Kubernetes documents"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_deploy_manifests_valid),
		cmocka_unit_test(test_schema_error_in_second_document),
		cmocka_unit_test(test_policy_violations),
		cmocka_unit_test(test_scrape_annotations_match_listen),
		cmocka_unit_test(test_node_agent_requirements),
		cmocka_unit_test(test_service_monitor_and_network_policy_reach_the_port),
		cmocka_unit_test(test_unknown_kind),
		cmocka_unit_test(test_not_yaml),
		cmocka_unit_test(test_usage_errors),
	};

	return cmocka_run_group_tests(tests, find_root, NULL);
}
