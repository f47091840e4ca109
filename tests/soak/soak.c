// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * The soak run of issue 10 (`make soak`, root, about 70 s): tmacg watches the
 * whole host while thousands of cgroups are created and removed below it,
 * some 100 levels deep (paths over PATH_MAX), some with hostile names
 * (invalid UTF-8, terminal escapes, quotes, control bytes, 255-byte names).
 * Then:
 *   - every output line is strict UTF-8 (RFC 3629 byte by byte, RFC 8259 §8.1)
 *     and one JSON object, and different hostile names stay different;
 *   - the host's CPU time as tmacg reports it (every level-1 line plus the root
 *     line, which carries the root's own tasks) equals the cgroup2 root's
 *     cpu.stat usage_usec over the same time within 2 %;
 *   - tmacg's VmRSS is flat: the mean of the last 20 s within 5 % + 2 MiB of
 *     the mean of the first 20 s after a 10 s warm-up.  The slack is for
 *     high-water marks, not leaks: an interval stretched by a loaded machine
 *     reads more cgroups at once (776-byte accumulators), and the buffers
 *     keep that size (+2.4 MiB once here, at load 12).  Leaked 100-level
 *     chains (~250 KiB of paths each, ~16 between the windows) exceed it; a
 *     leak of one small node per cgroup churned (~1.5 MiB) would not.
 * Prints its figures and a verdict; exit 0 only when every check passes.
 * TMACG_SOAK_SECONDS shortens or lengthens the churn (default 60).
 */
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <math.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "itest.h"
#include "itest_deep.h"

#define WARMUP_S 10.0
#define WINDOW_S 20.0
#define CPU_TOLERANCE 0.02
#define RSS_TOLERANCE 0.05
#define RSS_SLACK_KB 2048
#define DEEP_LEVELS 100
#define DEEP_NAME "soak-level-of-a-deep-hierarchy-0123456789abcdef" /* 47 bytes */
#define MAX_RSS_SAMPLES 4096

/* Level-1 cgroups with names chosen to hurt: reported by name in whole-host mode. */
static const char *hostile[] = {
	"bad\xff\xfe",		 /* invalid UTF-8 */
	"bad\xff\xfd",		 /* differs from the one above in one invalid byte */
	"overlong\xc0\xaf",	 /* overlong '/' */
	"surrogate\xed\xa0\x80", /* UTF-8 of a UTF-16 surrogate */
	"esc\x1b[2J\x1b[H",	 /* clears a terminal */
	"quote\"back\\slash'",
	"ctl\x01\x7f\ttab",
	"newline\nfake-line",	      /* refused by cgroup_mkdir: noted, not an error */
	"valid-\xc3\xa9\xe2\x82\xac", /* é€: must stay as it is */
	"",			      /* long: filled in to 255 bytes with the prefix */
};
#define NHOSTILE (sizeof(hostile) / sizeof(hostile[0]))

struct hostile_cg {
	char rel[512];
	uint64_t id;
	bool made;
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void sleep_s(double s)
{
	struct timespec ts = { (time_t)s, (long)((s - (time_t)s) * 1e9) };

	nanosleep(&ts, NULL);
}

/* --- the churn, in a child process ------------------------------------------------------ */

struct churn_stats {
	long created, deep_chains, refused, burners, left; /* left: not removed */
};

static void reap(pid_t *pids, int *n, bool block)
{
	for (int i = 0; i < *n;) {
		if (waitpid(pids[i], NULL, block ? 0 : WNOHANG) == pids[i]) {
			pids[i] = pids[--*n];
			continue;
		}
		i++;
	}
}

/* A chain DEEP_LEVELS deep below top/deep<k>, a burner at its bottom. */
struct chain {
	int k;
	pid_t burner;
	bool live;
};

static void chain_start(int top, struct chain *c, int k, struct churn_stats *st)
{
	char name[32];
	int dir, leaf;

	snprintf(name, sizeof(name), "deep%d", k);
	if (mkdirat(top, name, 0755))
		return;
	dir = openat(top, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	leaf = dir >= 0 ? itest_deep_mkdir(dir, DEEP_NAME, DEEP_LEVELS) : -1;
	if (dir >= 0)
		close(dir);
	st->created += 1 + DEEP_LEVELS;
	st->deep_chains++;
	c->k = k;
	c->live = true;
	c->burner = leaf >= 0 ? itest_deep_burn(leaf, "1", "0.5") : -1;
	if (leaf >= 0)
		close(leaf);
	st->burners++;
}

static void chain_end(int top, struct chain *c, struct churn_stats *st, bool block)
{
	char name[32];

	if (!c->live || (c->burner > 0 && waitpid(c->burner, NULL, block ? 0 : WNOHANG) == 0))
		return;
	snprintf(name, sizeof(name), "deep%d", c->k);
	if (itest_deep_remove(top, name))
		st->left++;
	c->live = false;
}

/*
 * One batch: 40 cgroups with a child each (hostile names among them, and one
 * 255 bytes long), a few short burners, then all removed.
 */
static void batch(int top, int b, struct churn_stats *st)
{
	char name[300], bname[32];
	pid_t pids[8];
	int np = 0, dir;

	snprintf(bname, sizeof(bname), "b%d", b);
	if (mkdirat(top, bname, 0755))
		return;
	st->created++;
	dir = openat(top, bname, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dir < 0)
		return;
	for (int i = 0; i < 40; i++) {
		int fd;

		if (i == 0) {
			memset(name, 'L', 255);
			name[255] = '\0';
		} else {
			snprintf(name, sizeof(name), "c%d-%s", i, hostile[i % NHOSTILE]);
			name[255] = '\0'; /* NAME_MAX, for the long one */
		}
		if (mkdirat(dir, name, 0755)) {
			st->refused += errno == EINVAL;
			continue;
		}
		st->created++;
		fd = openat(dir, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd < 0)
			continue;
		if (!mkdirat(fd, hostile[(i + 3) % NHOSTILE], 0755))
			st->created++;
		if (i % 8 == 1 && np < 8) {
			pids[np++] = itest_deep_burn(fd, "0.02", "1");
			st->burners++;
		}
		close(fd);
	}
	reap(pids, &np, true);
	close(dir);
	if (itest_deep_remove(top, bname))
		st->left++;
}

static int churn(const char *parent, const struct hostile_cg *hc, double seconds)
{
	struct churn_stats st = { 0 };
	struct chain chains[4] = { 0 };
	double end = now_s() + seconds, next_chain = 0, next_hostile = 0;
	pid_t hpids[NHOSTILE];
	int top = itest_deep_open(parent), nh = 0, k = 0, b = 0;

	if (top < 0)
		return 1;
	while (now_s() < end) {
		double t = now_s();

		if (t >= next_chain) {
			struct chain *c = &chains[k % 4];

			chain_end(top, c, &st, true);
			chain_start(top, c, k++, &st);
			next_chain = t + 2.5;
		}
		if (t >= next_hostile) {
			reap(hpids, &nh, false);
			for (size_t i = 0; i < NHOSTILE && nh < (int)NHOSTILE; i++) {
				int fd;

				if (!hc[i].made || (fd = itest_deep_open(hc[i].rel)) < 0)
					continue;
				hpids[nh++] = itest_deep_burn(fd, "0.05", "1");
				st.burners++;
				close(fd);
			}
			next_hostile = t + 2;
		}
		batch(top, b++, &st);
		for (int i = 0; i < 4; i++)
			chain_end(top, &chains[i], &st, false);
		sleep_s(0.15);
	}
	for (int i = 0; i < 4; i++)
		chain_end(top, &chains[i], &st, true);
	reap(hpids, &nh, true);
	close(top);
	printf("soak: churn: %ld cgroups created and removed (%d batches), %ld chains %d levels "
	       "deep, %ld burners, %ld names refused by the kernel (newline), %ld not removed\n",
	       st.created, b, st.deep_chains, DEEP_LEVELS, st.burners, st.refused, st.left);
	fflush(stdout);
	return st.left ? 1 : 0;
}

/* --- the checks --------------------------------------------------------------------------- */

/* Well-formed UTF-8 (RFC 3629): no overlong forms, no surrogates, nothing above U+10FFFF. */
static bool utf8_valid(const unsigned char *s, size_t len)
{
	for (size_t i = 0; i < len;) {
		unsigned char c = s[i];
		size_t n;
		uint32_t cp;

		if (c < 0x80) {
			i++;
			continue;
		}
		if (c >= 0xc2 && c <= 0xdf)
			n = 1, cp = c & 0x1f;
		else if (c >= 0xe0 && c <= 0xef)
			n = 2, cp = c & 0x0f;
		else if (c >= 0xf0 && c <= 0xf4)
			n = 3, cp = c & 0x07;
		else
			return false;
		if (i + n >= len)
			return false;
		for (size_t k = 1; k <= n; k++) {
			if ((s[i + k] & 0xc0) != 0x80)
				return false;
			cp = cp << 6 | (s[i + k] & 0x3f);
		}
		if ((n == 2 && cp < 0x800) || (n == 3 && cp < 0x10000) || cp > 0x10ffff ||
		    (cp >= 0xd800 && cp <= 0xdfff))
			return false;
		i += n + 1;
	}
	return true;
}

/* A \uD800-\uDFFF escape not part of a pair: valid JSON text, but no Unicode string. */
static bool has_lone_surrogate_escape(const char *s, size_t len)
{
	for (size_t i = 0; i + 6 <= len; i++) {
		unsigned v;

		if (s[i] != '\\') {
			continue;
		}
		if (s[i + 1] != 'u') {
			i++; /* skip the escaped character */
			continue;
		}
		if (sscanf(s + i + 2, "%4x", &v) != 1)
			continue;
		if (v >= 0xd800 && v <= 0xdbff) {
			unsigned w;

			if (i + 12 <= len && s[i + 6] == '\\' && s[i + 7] == 'u' &&
			    sscanf(s + i + 8, "%4x", &w) == 1 && w >= 0xdc00 && w <= 0xdfff) {
				i += 11;
				continue;
			}
			return true;
		}
		if (v >= 0xdc00 && v <= 0xdfff)
			return true;
		i += 5;
	}
	return false;
}

/* The line as printable ASCII, for a message. */
static void show(const char *s, size_t len, char *out, size_t outlen)
{
	size_t o = 0;

	for (size_t i = 0; i < len && o + 5 < outlen; i++) {
		unsigned char c = s[i];

		if (c >= 0x20 && c < 0x7f)
			out[o++] = c;
		else
			o += snprintf(out + o, outlen - o, "\\x%02x", c);
	}
	out[o] = '\0';
}

struct figures {
	size_t lines, bad_utf8, bad_json, lone_surrogates;
	double tmacg_cpu_s;
	uint64_t dropped;
	const char *hostile_seen[NHOSTILE];
	int hostile_distinct;
};

static void check_lines(const char *out, const struct hostile_cg *hc, struct figures *f,
			json_object ***keep, size_t *nkeep)
{
	json_tokener *tok = json_tokener_new();
	const char *p = out;
	int shown = 0;

	json_tokener_set_flags(tok, JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8);
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		json_object *o = NULL, *v;
		bool utf8 = utf8_valid((const unsigned char *)p, len), strict;

		f->lines++;
		if (!utf8)
			f->bad_utf8++;
		json_tokener_reset(tok);
		o = json_tokener_parse_ex(tok, p, (int)len);
		strict = o && json_tokener_get_error(tok) == json_tokener_success &&
			 json_tokener_get_parse_end(tok) == len &&
			 json_object_is_type(o, json_type_object);
		if (!strict && utf8)
			f->bad_json++;
		if (!strict) {
			/* The other figures still count the line: parsed leniently for them. */
			char *copy = strndup(p, len);

			json_object_put(o);
			o = copy ? json_tokener_parse(copy) : NULL;
			free(copy);
		}
		if ((!utf8 || !strict) && shown++ < 3) {
			char msg[400];

			show(p, len > 300 ? 300 : len, msg, sizeof(msg));
			printf("soak:   not strict UTF-8 JSON: %s%s\n", msg,
			       len > 300 ? "..." : "");
		}
		f->lone_surrogates += has_lone_surrogate_escape(p, len);
		if (o) {
			uint64_t id = 0;

			if (json_object_object_get_ex(o, "cgroup_id", &v))
				id = json_object_get_uint64(v);
			if (!json_object_object_get(o, "task")) {
				f->tmacg_cpu_s += itest_num(o, "counts.on_cpu_s");
				if (json_object_object_get_ex(o, "quality", &v) &&
				    json_object_object_get_ex(v, "dropped", &v))
					f->dropped += json_object_get_uint64(v);
			}
			for (size_t i = 0; i < NHOSTILE; i++)
				if (hc[i].made && hc[i].id == id && !f->hostile_seen[i])
					f->hostile_seen[i] = itest_str(o, "cgroup");
			*keep = realloc(*keep, (*nkeep + 1) * sizeof(**keep));
			(*keep)[(*nkeep)++] = o;
		}
		p += len + (nl ? 1 : 0);
	}
	json_tokener_free(tok);
	/* Different names must stay different once decoded (leniently, where not strict). */
	f->hostile_distinct = 1;
	for (size_t i = 0; i < NHOSTILE; i++)
		for (size_t j = i + 1; j < NHOSTILE; j++)
			if (f->hostile_seen[i] && f->hostile_seen[j] &&
			    !strcmp(f->hostile_seen[i], f->hostile_seen[j]))
				f->hostile_distinct = 0;
}

static long vm_rss_kb(pid_t pid)
{
	char path[64], line[256];
	long kb = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmRSS: %ld kB", &kb) == 1)
			break;
	fclose(f);
	return kb;
}

static double mean_rss(const double *t, const long *kb, int n, double from, double to, int *cnt)
{
	double sum = 0;

	*cnt = 0;
	for (int i = 0; i < n; i++) {
		if (t[i] >= from && t[i] < to) {
			sum += kb[i];
			(*cnt)++;
		}
	}
	return *cnt ? sum / *cnt : NAN;
}

int main(void)
{
	const char *args[] = { "--pmu", "software",	 "--interval", "1s", "--format",
			       "json",	"--max-cgroups", "65536",      NULL };
	static double rss_t[MAX_RSS_SAMPLES];
	static long rss_kb[MAX_RSS_SAMPLES];
	struct hostile_cg hc[NHOSTILE] = { 0 };
	struct figures fig = { 0 };
	struct itest_tmacg t;
	json_object **lines = NULL;
	size_t nlines = 0;
	char parent[128], why[256];
	const char *env = getenv("TMACG_SOAK_SECONDS");
	double seconds = env ? atof(env) : 60, t0, t_end, first_mean, last_mean, err;
	uint64_t u0, u1;
	int nrss = 0, nfirst, nlast, nhostile_made = 0, nhostile_seen = 0;
	bool ok_utf8, ok_cpu, ok_rss, ok_names;
	pid_t churner;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (!itest_can_run(why, sizeof(why))) {
		fprintf(stderr, "soak: cannot run: %s\n", why);
		return 2;
	}
	if (seconds < 2 * WINDOW_S + WARMUP_S)
		printf("soak: %.0f s is shorter than the RSS windows need (%.0f s): "
		       "RSS not judged\n",
		       seconds, 2 * WINDOW_S + WARMUP_S);
	itest_parent_name(parent, sizeof(parent), "soak");
	if (itest_mkcg(parent)) {
		fprintf(stderr, "soak: cannot create %s/%s\n", itest_cgroup_mount(), parent);
		return 1;
	}
	{
		static char long_name[256];
		size_t room = 255 - strlen(parent) - 1;

		memset(long_name, 'L', room);
		long_name[room] = '\0';
		hostile[NHOSTILE - 1] = long_name;
	}
	for (size_t i = 0; i < NHOSTILE; i++) {
		snprintf(hc[i].rel, sizeof(hc[i].rel), "%s-%s", parent, hostile[i]);
		hc[i].made = !itest_mkcg(hc[i].rel) && !itest_cgroup_id(hc[i].rel, &hc[i].id);
		nhostile_made += hc[i].made;
	}
	if (itest_tmacg_start(&t, args)) {
		fprintf(stderr, "soak: tmacg did not start: %s\n", t.err ? t.err : "");
		itest_cleanup(NULL);
		return 1;
	}
	itest_tmacg_drain(&t);
	u0 = itest_usage_usec("");
	t0 = now_s();
	churner = fork();
	if (churner == 0)
		_exit(churn(parent, hc, seconds));
	while (waitpid(churner, NULL, WNOHANG) == 0) {
		long kb = vm_rss_kb(t.pid);

		if (kb > 0 && nrss < MAX_RSS_SAMPLES) {
			rss_t[nrss] = now_s() - t0;
			rss_kb[nrss++] = kb;
		}
		sleep_s(0.5);
	}
	/* Two more intervals: every removal reported, then the host's time read and stopped. */
	sleep_s(2.2);
	u1 = itest_usage_usec("");
	t_end = now_s() - t0;
	itest_tmacg_stop(&t, SIGTERM);
	check_lines(t.out, hc, &fig, &lines, &nlines);

	for (size_t i = 0; i < NHOSTILE; i++)
		nhostile_seen += fig.hostile_seen[i] != NULL;
	ok_utf8 = fig.lines > 0 && !fig.bad_utf8 && !fig.bad_json;
	printf("soak: %zu lines: %zu not strict UTF-8, %zu not one JSON object, %zu with a lone "
	       "surrogate escape -> %s\n",
	       fig.lines, fig.bad_utf8, fig.bad_json, fig.lone_surrogates, ok_utf8 ? "ok" : "FAIL");
	ok_names = fig.hostile_distinct && nhostile_seen == nhostile_made;
	printf("soak: hostile level-1 names: %d made, %d reported, %s -> %s\n", nhostile_made,
	       nhostile_seen, fig.hostile_distinct ? "all different" : "TWO SHARE ONE NAME",
	       ok_names ? "ok" : "FAIL");
	err = (fig.tmacg_cpu_s - (u1 - u0) / 1e6) / ((u1 - u0) / 1e6);
	ok_cpu = fabs(err) <= CPU_TOLERANCE;
	printf("soak: host CPU over %.1f s: tmacg %.3f s (level-1 lines + root's own tasks), "
	       "root cpu.stat %.3f s, error %+.2f %% (limit %.0f %%) -> %s\n",
	       t_end, fig.tmacg_cpu_s, (u1 - u0) / 1e6, 100 * err, 100 * CPU_TOLERANCE,
	       ok_cpu ? "ok" : "FAIL");
	printf("soak: quality.dropped summed over the lines: %llu\n",
	       (unsigned long long)fig.dropped);
	first_mean = mean_rss(rss_t, rss_kb, nrss, WARMUP_S, WARMUP_S + WINDOW_S, &nfirst);
	last_mean = mean_rss(rss_t, rss_kb, nrss, seconds - WINDOW_S, seconds + 1, &nlast);
	if (seconds < 2 * WINDOW_S + WARMUP_S || !nfirst || !nlast) {
		ok_rss = true;
		printf("soak: RSS: not judged (run too short)\n");
	} else {
		double limit = first_mean * (1 + RSS_TOLERANCE) + RSS_SLACK_KB;

		ok_rss = last_mean <= limit;
		printf("soak: tmacg VmRSS: %.0f kB mean over %.0f-%.0f s (%d samples), "
		       "%.0f kB over the last %.0f s (%d samples), limit %.0f kB -> %s\n",
		       first_mean, WARMUP_S, WARMUP_S + WINDOW_S, nfirst, last_mean, WINDOW_S,
		       nlast, limit, ok_rss ? "ok" : "FAIL");
	}
	{
		const char *tot = strstr(t.err, "tmacg: dropped:");

		if (tot)
			printf("soak: %.*s\n", (int)strcspn(tot, "\n"), tot);
	}
	itest_json_free(lines, nlines);
	itest_tmacg_free(&t);
	for (size_t i = 0; i < NHOSTILE; i++)
		if (hc[i].made)
			itest_rmcg(hc[i].rel);
	itest_rmcg(parent);
	printf("soak: %s\n", ok_utf8 && ok_cpu && ok_rss && ok_names ? "PASS" : "FAIL");
	return ok_utf8 && ok_cpu && ok_rss && ok_names ? 0 : 1;
}
