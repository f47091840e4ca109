// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The rule file: one group, so that Prometheus evaluates every rule in order
 * at one time and each reads the series the rules before it recorded at that
 * time: the pods' workloads (kube-state-metrics), the counts summed per
 * workload and formula state, then per model and state the nodes' values,
 * their flags and the bottleneck path.  YAML strings are written
 * double-quoted with YAML's escapes (rules_yaml_string), so no PromQL text
 * can end one early.
 */
#include "prom/rules_gen.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "model/model_view.h"
#include "prom/rules_expr.h"
#include "util/version.h"

/* The labels that tell apart counts whose formulas differ, besides the workload's. */
#define STATE_LABELS "model, tma_version, smt, topdown_fixed, pmu_slots"
#define WORKLOAD_LABELS "namespace, workload, workload_type"
#define POD_OWNER "namespace_workload_pod:tmacg_pod_owner:relabel"
/* Each pod's workload and state, a series a pod. */
#define POD_STATE "namespace_workload_pod:tmacg_pod_state:relabel"
#define EVENT_PODS "namespace_workload_event:tmacg_event_pods:count"
#define PODS "namespace_workload:tmacg_pods:count"
/* The pods' counts (a container's line is its pod's too). */
#define POD_EVENTS "tmacg_events_total{pod!=\"\",container=\"\"}"
/*
 * The slot widths the rules know: PMMIR_EL1.SLOTS, which caps/slots gives, is
 * an 8-bit field, so every width a host can give.
 */
#define PMU_SLOTS_MAX 255

static void yaml_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(f, "\\x%02x", (unsigned char)*s);
		else
			fputc(*s, f);
	}
	fputc('"', f);
}

/* One rule; label pairs in labels[] (name, value, ..., NULL). */
static void rule(FILE *f, const char *record, const char *window, const char *expr,
		 const char *const *labels)
{
	char *name = rules_fmt("%s%s", record, window ? window : "");

	if (!name)
		return;
	fputs("      - record: ", f);
	yaml_string(f, name);
	free(name);
	fputs("\n        expr: ", f);
	yaml_string(f, expr);
	fputc('\n', f);
	if (labels && labels[0]) {
		fputs("        labels:\n", f);
		for (int i = 0; labels[i]; i += 2) {
			fprintf(f, "          %s: ", labels[i]);
			yaml_string(f, labels[i + 1]);
			fputc('\n', f);
		}
	}
}

/* A rule of no labels whose expr is made for it (NULL: out of memory, noted): expr freed. */
static void rule_of(FILE *f, const char *record, const char *window, char *expr)
{
	if (expr)
		rule(f, record, window, expr, NULL);
	free(expr);
}

/* kube-prometheus's mapping of pods to workloads, from kube-state-metrics. */
static void pod_owners(FILE *f)
{
	static const char *const direct[][2] = {
		{ "DaemonSet", "daemonset" },
		{ "StatefulSet", "statefulset" },
		{ "Job", "job" },
	};
	char expr[512];

	snprintf(expr, sizeof(expr),
		 "max by (namespace, workload, pod) (label_replace(kube_pod_owner{owner_kind="
		 "\"ReplicaSet\"}, \"replicaset\", \"$1\", \"owner_name\", \"(.*)\") * on "
		 "(namespace, replicaset) group_left (workload) label_replace(max by (namespace, "
		 "replicaset, owner_name) (kube_replicaset_owner{owner_kind=\"Deployment\"}), "
		 "\"workload\", \"$1\", \"owner_name\", \"(.*)\"))");
	rule(f, POD_OWNER, NULL, expr,
	     (const char *const[]){ "workload_type", "deployment", NULL });
	for (size_t i = 0; i < sizeof(direct) / sizeof(direct[0]); i++) {
		snprintf(expr, sizeof(expr),
			 "max by (namespace, workload, pod) (label_replace(kube_pod_owner{"
			 "owner_kind=\"%s\"}, \"workload\", \"$1\", \"owner_name\", \"(.*)\"))",
			 direct[i][0]);
		rule(f, POD_OWNER, NULL, expr,
		     (const char *const[]){ "workload_type", direct[i][1], NULL });
	}
}

/* Pods' series of tmacg_events_total (of an expression of them) with their workload and state. */
static char *joined(const char *series)
{
	return rules_fmt("%s * on (host) group_left (" STATE_LABELS ") max by (host, " STATE_LABELS
			 ") (tmacg_build_info) * on (namespace, pod) group_left (workload, "
			 "workload_type) " POD_OWNER,
			 series);
}

/*
 * The counts summed per workload and formula state, kept only where every
 * pod of the workload has the count: a sum over some of its pods would
 * give nodes of a part for the whole.  The pods are counted on the
 * counters' last samples, an instant read, not on their increases, which
 * read the window's samples of every pod's every count: the increase is
 * read once, by the sums.  Each pod's workload and state is joined once, to
 * one series a pod, and the counts it has are matched to that: joining every
 * count's series to the hosts' and the owners' twice is the costlier.  The
 * sums join the increases themselves, as a pod gone within the window has
 * an increase and no last sample.  A pod with a sample in the window but too
 * few for an increase (one, as it starts) is counted and not summed, every
 * count alike, as if it had started after the window.
 */
static void event_sums(FILE *f, const char *window)
{
	char *range = rules_fmt("increase(" POD_EVENTS "[%s])", window),
	     *inc = range ? joined(range) : NULL;

	if (inc) {
		rule_of(f, POD_STATE, window,
			joined("group by (host, namespace, pod) (" POD_EVENTS ")"));
		rule_of(f, EVENT_PODS, window,
			rules_fmt(
				"count by (" WORKLOAD_LABELS ", " STATE_LABELS
				", event) (" POD_EVENTS
				" * on (host, namespace, pod) group_left (workload, workload_type, " STATE_LABELS
				") " POD_STATE "%s)",
				window));
		rule_of(f, PODS, window,
			rules_fmt("count by (" WORKLOAD_LABELS ", " STATE_LABELS ") (" POD_STATE
				  "%s)",
				  window));
		rule_of(f, RULES_EVENTS, window,
			rules_fmt("sum by (" WORKLOAD_LABELS ", " STATE_LABELS
				  ", event) (%s) and on (" WORKLOAD_LABELS ", " STATE_LABELS
				  ", event) (" EVENT_PODS "%s == on (" WORKLOAD_LABELS
				  ", " STATE_LABELS ") group_left () " PODS "%s)",
				  inc, window, window));
		rule_of(f, RULES_EVENT_SUMS, window,
			rules_fmt("count without (event) (" RULES_EVENTS "%s)", window));
	}
	free(range);
	free(inc);
}

/*
 * The hosts' slot width as a value per workload and state: PromQL cannot read
 * a label's value as a number, so one term per width the label can have.
 */
static void pmu_slots_rule(FILE *f, const char *window)
{
	char *expr = NULL;
	size_t len = 0;
	FILE *t = rules_stream(&expr, &len);

	if (!t)
		return;
	for (int w = 1; w <= PMU_SLOTS_MAX; w++)
		fprintf(t, "%s(0 * " PODS "%s{pmu_slots=\"%d\"} + %d)", w > 1 ? " or " : "", window,
			w, w);
	rule_of(f, RULES_PMU_SLOTS, window, rules_stream_end(t, &expr));
}

static bool is_tree(const struct model_node_info *n, int level)
{
	return !n->is_info && !n->is_count && n->level >= 1 && n->level <= level;
}

/*
 * The states of one model the rules tell apart, each with its own matchers and
 * tree guard: the flags' four, each with and without a slot width.
 */
struct states {
	struct rules_state s[8];
	char *sel[8];
	char *guard[8]; /* " and (SLOTS > 0)", "" without one */
	int n;
};

typedef char *(*make_fn)(const struct rules_state *s, int i);

/*
 * Rule record of node i: each state's expression, joined by `or` (the
 * states' series are apart by their labels), so that a node is one rule;
 * labels: the node's, and the model's that the series carry already, which
 * keep one model's rules apart from another's.
 */
static void union_rule(FILE *f, const struct states *st, const char *record, int i, make_fn make,
		       bool guarded, const char *label, const char *value)
{
	const struct tma_model *m = st->s[0].m;
	const struct model_node_info *n = model_node(m, i);
	/* the build info's "" for a model without a TMA version */
	const char *version = model_tma_version(m) ? model_tma_version(m) : "";
	char level[8], *expr = NULL;
	size_t len = 0;
	FILE *t = rules_stream(&expr, &len);
	int parts = 0;

	if (!t)
		return;
	for (int k = 0; k < st->n; k++) {
		char *e = make(&st->s[k], i);

		if (e)
			fprintf(t, "%s(%s%s)", parts++ ? " or " : "", e,
				guarded ? st->guard[k] : "");
		free(e);
	}
	snprintf(level, sizeof(level), "%d", n->level);
	if (rules_stream_end(t, &expr) && parts)
		rule(f, record, st->s[0].window, expr,
		     label ? (const char *const[]){ label, value, "model", model_id(m),
						    "tma_version", version, NULL } :
			     (const char *const[]){ "tma_node", n->path, "level", level, "model",
						    model_id(m), "tma_version", version, NULL });
	free(expr);
}

/* Node i a tree node with a threshold: it can be flagged, and be on the path. */
static bool flaggable(const struct tma_model *m, int i, int level)
{
	return is_tree(model_node(m, i), level) && model_view_threshold(m, i) >= 0;
}

/* Node i's value where it is flagged. */
static char *flagged_value(const struct rules_state *s, int i)
{
	char *a = rules_recorded(s, RULES_RATIO, i), *b = rules_recorded(s, RULES_FLAGGED, i);
	char *out = NULL;

	if (a && b)
		out = rules_fmt("(%s and (%s == 1))", a, b);
	free(a);
	free(b);
	return out;
}

/* Node p on the bottleneck path: flagged, its parent on it, the largest of its flagged siblings, the first of equals. */
static char *path_expr(const struct rules_state *s, int p)
{
	const struct model_node_info *n = model_node(s->m, p);
	int nk;
	const int *kids = model_view_kids(s->m, n->parent, &nk);
	char *fv_p = flagged_value(s, p), *out = NULL;
	size_t len = 0;
	FILE *f;
	bool after = false;

	if (!fv_p || !(f = rules_stream(&out, &len))) {
		free(fv_p);
		return NULL;
	}
	fprintf(f, "(%s", fv_p);
	for (int k = 0; k < nk; k++) {
		int q = kids[k];
		char *fv_q;

		if (q == p) {
			after = true;
			continue;
		}
		if (!flaggable(s->m, q, s->level))
			continue;
		fv_q = flagged_value(s, q);
		if (fv_q)
			fprintf(f, " unless (%s %s %s)", fv_p, after ? "<" : "<=", fv_q);
		free(fv_q);
	}
	if (n->parent >= 0) {
		char *pp = rules_recorded(s, RULES_PATH, n->parent);

		if (pp)
			fprintf(f, " and %s", pp);
		free(pp);
	}
	fputs(") * 0 + 1", f);
	free(fv_p);
	return rules_stream_end(f, &out);
}

/* Node i ends the path: on it, none of its children within the level on it. */
static char *path_end(const struct rules_state *s, int i)
{
	int nk;
	const int *kids = model_view_kids(s->m, i, &nk);
	char *on = rules_recorded(s, RULES_PATH, i), *out = NULL;
	size_t len = 0;
	FILE *t = on ? rules_stream(&out, &len) : NULL;

	if (!t) {
		free(on);
		return NULL;
	}
	fprintf(t, "%s", on);
	for (int k = 0; k < nk; k++) {
		char *kid;

		if (!flaggable(s->m, kids[k], s->level))
			continue;
		kid = rules_recorded(s, RULES_PATH, kids[k]);
		if (kid)
			fprintf(t, " unless %s", kid);
		free(kid);
	}
	free(on);
	return rules_stream_end(t, &out);
}

/*
 * The value and flag rules, each after the ones it reads: the values in the
 * order of their formulas, then the flags in the order of their thresholds,
 * but a value whose threshold may divide by zero reads what its threshold
 * reads, flags included, which then come before it.  A read of a rule being
 * made (a cycle of flags) reads the previous evaluation's, as before.
 */
struct emit {
	FILE *f;
	const struct states *st;
	unsigned char *value, *flag; /* by node: 0 to make, 1 being made, 2 made */
};

static void need_value(struct emit *em, int i);
static void need_flag(struct emit *em, int i);

/* The recorded values and flags expression e reads, made first. */
static void need_reads(struct emit *em, int e)
{
	const struct tma_model *m = em->st->s[0].m;
	const struct expr *x = &model_view_pool(m)->e[e];
	int kids[3], n, level = em->st->s[0].level;

	if (x->kind == EXPR_HELPER) {
		need_reads(em, model_view_helper(m, x->a));
		return;
	}
	if (x->kind == EXPR_NODE || x->kind == EXPR_OVER) {
		if (is_tree(model_node(m, x->a), level)) {
			if (x->kind == EXPR_NODE)
				need_value(em, x->a);
			else
				need_flag(em, x->a);
			return;
		}
		/* made inline: what it reads */
		need_reads(em, model_view_formula(m, x->a));
		if (model_view_threshold(m, x->a) >= 0 &&
		    (x->kind == EXPR_OVER || rules_threshold_may_fail(&em->st->s[0], x->a)))
			need_reads(em, model_view_threshold(m, x->a));
		return;
	}
	n = expr_operands(model_view_pool(m), e, kids);
	for (int k = 0; k < n; k++)
		need_reads(em, kids[k]);
}

static bool threshold_may_fail(const struct states *st, int i)
{
	for (int k = 0; k < st->n; k++)
		if (rules_threshold_may_fail(&st->s[k], i))
			return true;
	return false;
}

static void need_value(struct emit *em, int i)
{
	const struct tma_model *m = em->st->s[0].m;

	if (em->value[i])
		return;
	em->value[i] = 1;
	need_reads(em, model_view_formula(m, i));
	if (threshold_may_fail(em->st, i))
		need_reads(em, model_view_threshold(m, i));
	union_rule(em->f, em->st, RULES_RATIO, i, rules_node_value, true, NULL, NULL);
	em->value[i] = 2;
}

static void need_flag(struct emit *em, int i)
{
	if (em->flag[i])
		return;
	em->flag[i] = 1;
	need_value(em, i);
	if (model_view_threshold(em->st->s[0].m, i) >= 0)
		need_reads(em, model_view_threshold(em->st->s[0].m, i));
	union_rule(em->f, em->st, RULES_FLAGGED, i, rules_node_flag, false, NULL, NULL);
	em->flag[i] = 2;
}

static void tree_rules(FILE *f, const struct states *st)
{
	const struct tma_model *m = st->s[0].m;
	int level = st->s[0].level, n, nt, nn = model_node_count(m);
	const int *order = model_view_order(m, &n);
	const int *torder = model_view_threshold_order(m, &nt);
	struct emit em = {
		.f = f, .st = st, .value = calloc(nn + 1, 1), .flag = calloc(nn + 1, 1)
	};

	if (!em.value || !em.flag) {
		rules_out_of_memory();
		goto out;
	}
	for (int k = 0; k < n; k++)
		if (is_tree(model_node(m, order[k]), level))
			need_value(&em, order[k]);
	/* in threshold order, a cycle's flags as the evaluator's first pass has them */
	for (int k = 0; k < nt; k++)
		if (is_tree(model_node(m, torder[k]), level) && !em.flag[torder[k]]) {
			em.flag[torder[k]] = 2;
			union_rule(f, st, RULES_FLAGGED, torder[k], rules_node_flag, false, NULL,
				   NULL);
		}
	for (int l = 1; l <= level; l++)
		for (int i = 0; i < nn; i++)
			if (model_node(m, i)->level == l && flaggable(m, i, level))
				union_rule(f, st, RULES_PATH, i, path_expr, false, NULL, NULL);
	for (int i = 0; i < nn; i++)
		if (flaggable(m, i, level))
			union_rule(f, st, RULES_BOTTLENECK, i, path_end, false, "bottleneck",
				   model_node(m, i)->path);
out:
	free(em.value);
	free(em.flag);
}

/* Which flags the model's formulas read: each a state the rules tell apart. */
static unsigned flags_read(const struct tma_model *m, bool *pmu_slots)
{
	const struct expr_pool *p = model_view_pool(m);
	unsigned flags = 0;

	*pmu_slots = false;
	for (int e = 0; e < p->n; e++) {
		if (p->e[e].kind == EXPR_FLAG)
			flags |= (unsigned)p->e[e].a;
		if (p->e[e].kind == EXPR_PMU_SLOTS)
			*pmu_slots = true;
	}
	return flags;
}

/* A state's tree guard: the model's SLOTS above 0 (model_result_no_slots); false: no tree. */
static bool tree_guard(const struct rules_state *s, char **guard)
{
	struct pq slots = rules_slots(s);
	bool tree = true;

	*guard = NULL;
	if (model_view_slots_helper(s->m) >= 0) {
		tree = !slots.absent && (slots.text || slots.num > 0);
		if (tree && slots.text)
			*guard = rules_fmt(" and (%s > 0)", slots.text);
	}
	free(slots.text);
	if (tree && !*guard && !(*guard = strdup("")))
		rules_out_of_memory();
	return tree && *guard;
}

/* The state of flags and slot width, its matchers and tree guard, unless it has no tree. */
static void add_state(struct states *st, const struct rules_model *rm, unsigned read,
		      bool slots_read, unsigned flags, bool slots, const char *window,
		      double window_s)
{
	struct rules_state *s = &st->s[st->n];
	char **sel = &st->sel[st->n];

	*s = (struct rules_state){ .m = rm->m,
				   .flags = flags,
				   .pmu_slots = slots,
				   .window = window,
				   .window_s = window_s,
				   .level = rm->level,
				   .latency = rm->latency };
	*sel = rules_fmt("model=\"%s\",tma_version=\"%s\"%s%s%s", model_id(rm->m),
			 model_tma_version(rm->m) ? model_tma_version(rm->m) : "",
			 !(read & MODEL_FLAG_SMT) ? "" :
			 (flags & MODEL_FLAG_SMT) ? ",smt=\"true\"" :
						    ",smt!=\"true\"",
			 !(read & MODEL_FLAG_TOPDOWN_FIXED) ? "" :
			 (flags & MODEL_FLAG_TOPDOWN_FIXED) ? ",topdown_fixed=\"true\"" :
							      ",topdown_fixed!=\"true\"",
			 !slots_read ? "" :
			 slots	     ? ",pmu_slots!=\"\"" :
				       ",pmu_slots=\"\"");
	s->sel = *sel;
	if (*sel && tree_guard(s, &st->guard[st->n]))
		st->n++;
	else
		free(*sel);
}

static void model_rules(FILE *f, const struct rules_model *rm, const char *window, double window_s)
{
	bool slots_read;
	unsigned read = flags_read(rm->m, &slots_read);
	struct states st = { .n = 0 };

	/* without a slot width first: those states' rules as before any host gave one */
	for (int slots = 0; slots <= slots_read; slots++)
		for (unsigned flags = 0; flags <= (MODEL_FLAG_TOPDOWN_FIXED | MODEL_FLAG_SMT);
		     flags++)
			if (!(flags & ~read))
				add_state(&st, rm, read, slots_read, flags, slots, window,
					  window_s);
	if (st.n)
		tree_rules(f, &st);
	for (int k = 0; k < st.n; k++) {
		free(st.sel[k]);
		free(st.guard[k]);
	}
}

int rules_model_depth(const struct tma_model *m)
{
	int depth = 0;

	for (int i = 0; i < model_node_count(m); i++) {
		const struct model_node_info *n = model_node(m, i);

		if (is_tree(n, 99) && n->level > depth)
			depth = n->level;
	}
	return depth;
}

/* window_ns as a Prometheus duration: "5m", "90s", "1500ms". */
static void window_text(uint64_t ns, char *buf, size_t len)
{
	static const struct {
		uint64_t ms;
		const char *unit;
	} units[] = { { 3600000, "h" }, { 60000, "m" }, { 1000, "s" }, { 1, "ms" } };
	uint64_t ms = ns / 1000000;
	size_t i = 0;

	while (ms % units[i].ms) /* the largest unit that divides it: ms divides all */
		i++;
	snprintf(buf, len, "%llu%s", (unsigned long long)(ms / units[i].ms), units[i].unit);
}

int rules_write(FILE *out, const struct rules_model *models, int n, uint64_t window_ns,
		const char *command)
{
	char window[32], group[64];

	window_text(window_ns, window, sizeof(window));
	rules_take_out_of_memory();
	fprintf(out, "# Made by tmacg %s: %s\n", TMACG_VERSION, command);
	fputs("# Every TMA node per workload from the counts of its pods on every host\n"
	      "# (tmacg --listen ... --prom-counts); docs/prometheus.md \"Recording rules\".\n"
	      "groups:\n",
	      out);
	snprintf(group, sizeof(group), "tmacg-workload-tma-%s", window);
	fputs("  - name: ", out);
	yaml_string(out, group);
	fputs("\n    rules:\n", out);
	pod_owners(out);
	event_sums(out, window);
	for (int i = 0; i < n; i++) {
		bool slots_read;

		flags_read(models[i].m, &slots_read);
		if (slots_read) {
			pmu_slots_rule(out, window);
			break;
		}
	}
	for (int i = 0; i < n; i++)
		model_rules(out, &models[i], window, (double)(window_ns / 1000000) / 1000);
	fflush(out);
	if (rules_take_out_of_memory())
		return -ENOMEM;
	return ferror(out) ? -EIO : 0;
}
