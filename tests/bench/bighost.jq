# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# One guest's figures for the bench's bighost section (tests/bench/bighost.sh), from the
# "@@ scale... figure KEY VALUE..." lines tests/guest/init's scale group printed on its
# console (read raw: jq -R -s).  Totals as measured, and each divided by the guest's
# CPUs (per_cpu), the figures that must stay flat from 2 to 64 CPUs.  A figure the
# guest did not print is null, never 0.
#   USER_HZ: /proc/PID/stat's ticks a second, 100 on x86 Linux (a fixed ABI).

def USER_HZ: 100;

# The figure lines, each {s: scenario, k: key, v: [numbers]}.
(split("\n") | map(select(test("^@@ scale[36]? figure ")) | split(" ")
	| {s: .[1], k: .[3], v: (.[4:] | map(tonumber))})) as $lines
# {scenario: {key: [numbers]}}: the last line of each key.
| ($lines | reduce .[] as $f ({}; .[$f.s][$f.k] = $f.v)) as $all
# {scenario: {round: {user, system, cpu_ns, intervals}}}: each level's turn in each round
# of the level ratio (tests/guest/init, scale_rounds).
| ($lines | map(select(.k == "turn"))
   | reduce .[] as $f ({}; .[$f.s]["\($f.v[0])"] =
	{user: $f.v[1], system: $f.v[2], cpu_ns: $f.v[3], intervals: $f.v[4]})) as $turns
| ($all.scale.cpus[0]) as $cpus
| ($all.scale.seconds[0]) as $secs
# {median, min, max, rounds}: as tests/bench/run's summary (an even count's median the
# mean of the middle two); null without a number.
| def stats: map(select(. != null)) as $v | ($v | sort) as $o | ($o | length) as $k
	| if $k == 0 then null else
	  {median: (if $k % 2 == 1 then $o[($k - 1) / 2] else ($o[$k / 2 - 1] + $o[$k / 2]) / 2 end),
	   min: $o[0], max: $o[-1], rounds: $v} end;
# Level 6's figure KEY an interval over level 3's, round by round.
  def ratios($key): ($turns.scale3 // {}) as $a | ($turns.scale6 // {}) as $b
	| [$a | keys_unsorted[] | select($b[.])
	   | ($a[.] | if .intervals > 0 then .[$key] / .intervals else null end) as $x
	   | ($b[.] | if .intervals > 0 then .[$key] / .intervals else null end) as $y
	   | if $x != null and $y != null and $x > 0 then $y / $x else null end]
	| stats;
  def level($s): $all[$s] as $f
	| if $f == null then null else
	  # calls a second running alone; CPU time per interval ended over the level's
	  # turns (tests/guest/init: scale_rounds)
	  [($turns[$s] // {})[]] as $t
	  | def total($k): if $t == [] then null else $t | map(.[$k]) | add end;
	  total("intervals") as $n
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
	     user_s_per_interval: per_interval(total("user") | if . == null then null else . / USER_HZ end),
	     system_s_per_interval: per_interval(total("system") | if . == null then null else . / USER_HZ end),
	     cpu_s_per_interval: per_interval(total("cpu_ns") | if . == null then null else . / 1e9 end)}
	  | . + {per_cpu: (to_entries | map(.value |= if . == null then null else . / $cpus end)
			   | from_entries)}
	  end;
{cpus: $cpus,
 idle_calls_per_cpu_s: (if $secs then $all.scale.idle_calls[0] / $secs / $cpus else null end),
 l3: level("scale3"), l6: level("scale6"),
 # level 6 / level 3 an interval, round by round: system time (ticks' split) and the
 # scheduler's exact CPU time
 l6_to_l3: {system: ratios("system"), cpu: ratios("cpu_ns")}}
