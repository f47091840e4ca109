// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The size of a --format html report at scale, without BPF or a recording:
 * CGROUPS cgroups x INTERVALS intervals of Sapphire Rapids lines at level 3
 * (every node valued with six digits, the slots and the bottleneck path
 * varied), named as Kubernetes names its containers' cgroups, handed to the
 * report as report.c hands live lines, written to OUT.
 *
 *   html_size CGROUPS INTERVALS OUT.html
 * prints "cgroups intervals bytes".  tools/html-scale runs it and opens the
 * reports in headless chromium (docs/output.md's figures).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "model/model.h"
#include "output/cgroup_record.h"
#include "output/html_data.h"

static uint64_t rng = 0x9e3779b97f4a7c15u;

static double uniform(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (rng >> 11) * 0x1.0p-53;
}

/* Values of every node, a bottleneck path down to level 3, slots in the billions. */
static void vary(const struct tma_model *m, struct model_result *r)
{
	int n = model_node_count(m);

	r->bottleneck_len = 0;
	for (int i = 0; i < n; i++) {
		const struct model_node_info *node = model_node(m, i);
		int len = r->bottleneck_len;

		r->value[i] = uniform();
		r->flagged[i] = uniform() < 0.3;
		/* the first child of the path's last node, one node a level */
		if (len < 3 && node->level == len + 1 &&
		    (len == 0 || node->parent == r->bottleneck[len - 1]))
			r->bottleneck[r->bottleneck_len++] = i;
	}
	r->slots = 1e9 + 1e9 * uniform();
}

int main(int argc, char **argv)
{
	char err[512], path[512], pod[128], container[64];
	struct tma_model *m = model_load_builtin("spr", err, sizeof(err));
	struct html_report *h;
	struct model_result *r;
	struct stat st;
	int ncg, nint;
	FILE *f;

	if (argc != 4 || !m) {
		fprintf(stderr, "usage: html_size CGROUPS INTERVALS OUT.html (%s)\n", m ? "" : err);
		return 2;
	}
	ncg = atoi(argv[1]);
	nint = atoi(argv[2]);
	h = html_report_new(m, 3);
	r = model_result_new(m);
	for (int t = 0; t < nint; t++) {
		for (int c = 0; c < ncg; c++) {
			struct resource res = { .k8s_namespace = "payments",
						.k8s_pod = pod,
						.k8s_container = container,
						.host = "node-7" };
			const char *names[] = { "on_cpu_s" };
			double cpu = uniform();
			struct report_line line = {
				.time = { .tv_sec = 1800000000 + t },
				.interval_s = 1,
				.host = "node-7",
				.cgroup = path,
				.resource = &res,
				.ncounts = 1,
				.count_names = names,
				.count_values = &cpu,
				.running_min = 1,
				.pmu_groups = 4,
				.tma = m,
				.result = r,
				.level = 3,
			};

			snprintf(pod, sizeof(pod), "checkout-7c9f8d6b5-%05d", c);
			snprintf(container, sizeof(container), "app-%d", c % 3);
			snprintf(path, sizeof(path),
				 "/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod"
				 "8a3c2f1e_%04x_4b5d_9e8f_0a1b2c3d4e5f.slice/cri-containerd-"
				 "%064x.scope",
				 c, c);
			vary(m, r);
			if (html_report_add(h, &line) < 0)
				return 1;
		}
	}
	for (int c = 0; c < ncg; c++) {
		vary(m, r);
		html_report_set_total(h, c, r);
	}
	f = fopen(argv[3], "w");
	if (!f || html_report_write(h, f) || fclose(f) || stat(argv[3], &st))
		return 1;
	printf("%d %d %lld\n", ncg, nint, (long long)st.st_size);
	html_report_free(h);
	model_result_free(r);
	model_free(m);
	return 0;
}
