# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# One guest's figures for the bench's bighost section (tests/bench/bighost.sh), from the
# "@@ scale... figure KEY VALUE..." lines tests/guest/init's scale group printed on its
# console (read raw: jq -R -s).  Totals as measured, and each divided by the guest's
# CPUs (per_cpu), the figures that must stay flat from 2 to 64 CPUs.  A figure the
# guest did not print is null, never 0.
#   USER_HZ: /proc/PID/stat's ticks a second, 100 on x86 Linux (a fixed ABI).

def USER_HZ: 100;

# {scenario: {key: [numbers]}} from the figure lines.
(split("\n") | map(select(test("^@@ scale[36]? figure ")) | split(" ")
	| {s: .[1], k: .[3], v: (.[4:] | map(tonumber))})
 | reduce .[] as $f ({}; .[$f.s][$f.k] = $f.v)) as $all
| ($all.scale.cpus[0]) as $cpus
| ($all.scale.seconds[0]) as $secs
| def level($s): $all[$s] as $f
	| if $f == null then null else
	  # calls a second running alone; CPU time per interval ended, running beside the
	  # other level (tests/guest/init: run_scale)
	  ($f.intervals[0]) as $n
	  | def per_interval($v): if $n and $n > 0 and $v != null then $v / $n else null end;
	  {ready_s: $f.ready_s[0],
	     first_line_s: $f.first_line_s[0],
	     start_calls: $f.start_calls[0],
	     descriptors: $f.fds[0],
	     perf_events: $f.perf_events[0],
	     # active objects after less before, times the object's size (the cache
	     # shrunk before each reading: tests/guest/init, perf_slab)
	     perf_event_bytes: (if $f.perf_slab then ($f.perf_slab[5] - $f.perf_slab[0]) * $f.perf_slab[2]
				else null end),
	     rss_bytes: (if $f.rss_kb then $f.rss_kb[0] * 1024 else null end),
	     bpf_map_bytes: $f.bpf_map_bytes[0],
	     calls_per_s: (if $f.window_s then $f.calls[0] / $f.window_s[0] else null end),
	     user_s_per_interval: per_interval($f.ticks[0] | if . == null then null else . / USER_HZ end),
	     system_s_per_interval: per_interval($f.ticks[1] | if . == null then null else . / USER_HZ end),
	     cpu_s_per_interval: per_interval($f.cpu_ns[0] | if . == null then null else . / 1e9 end)}
	  | . + {per_cpu: (to_entries | map(.value |= if . == null then null else . / $cpus end)
			   | from_entries)}
	  end;
{cpus: $cpus,
 idle_calls_per_cpu_s: (if $secs then $all.scale.idle_calls[0] / $secs / $cpus else null end),
 l3: level("scale3"), l6: level("scale6")}
