# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# The bench's table, from its JSON (build/bench.json, or a recorded one):
#   jq -r -f tests/bench/render.jq bench.json     (tests/bench/run --render FILE)
# A figure that was not measured is printed as "not measured: <reason>", from the
# JSON's not_measured fields, and never as a number: a missing tool or an
# exceeded limit must not read as a figure of 0.

def r(n): if . == null then null else (. * pow(10; n) | round) / pow(10; n) end;
def s: if . == null then "-" else tostring end;
def lpad(n): s | if length < n then (" " * (n - length)) + . else . end;
def rpad(n): s | if length < n then . + (" " * (n - length)) else . end;
def range3: "\(.median | r(3) | s) [\(.min | r(3) | s)-\(.max | r(3) | s)]";
def mib: if . == null then null else . / 1048576 | r(1) end;
def nm: "not measured: \(.)";

(.machine as $m |
 "",
 "tmacg bench  \($m.cpu) (\(if ($m.hypervisor // "") == "" then "bare metal" else $m.hypervisor end)), \($m.cpus) CPUs, kernel \($m.kernel), PMU \($m.pmu)",
 "medians of \(.repeats) runs, [min-max]; ratios against the unmonitored run of the same round"),

(select(.context_switch) |
 "",
 "Context switch (ping-pong between two cgroups, CPUs \(.cpu) and \(.cpu_peer), ns per round trip;",
 " \(if .events == "software" then "both tools on the four software events" else "tmacg's TMA model, perf on the same raw events" end))",
 "  \("variant" | rpad(28)) \("ns/rt" | lpad(10)) \("ratio" | lpad(8)) \("ratio [min-max]" | lpad(22)) \("added ns/switch" | lpad(16))",
 (.context_switch | to_entries[] | .value |
  if .not_measured then "  \(.label | rpad(28)) \(.not_measured | nm)"
  else "  \(.label | rpad(28)) \(.ns_per_round_trip.median | r(0) | lpad(10)) \(.ratio.median | r(3) | lpad(8)) \(.ratio | range3 | lpad(22)) \(.added_ns_per_switch | r(0) | lpad(16))"
  end)),

(select(.scaling) |
 "",
 "Scaling: tmacg with N active cgroups (each wakes once a second)",
 "  (user CPU: % of one CPU at --interval 1s, rolled up into one line / every",
 "   cgroup reported as a JSON line; RSS and maps with every cgroup reported)",
 "  (ping-pong ns per round trip without and with tmacg; BPF: the switch program's ns",
 "   per run with N cgroups in its map, and against the floor measured alongside)",
 "  \("cgroups" | rpad(7)) \("base" | lpad(7)) \("tmacg" | lpad(7)) \("ratio [min-max]" | lpad(22)) \("added/sw" | lpad(8)) \("BPF ns" | lpad(8)) \("x floor" | lpad(8)) \("early %" | lpad(7)) \("user CPU %" | lpad(16)) \("RSS MiB" | lpad(7)) \("maps MiB" | lpad(8))",
 (.scaling | to_entries[] | .key as $n | .value |
  "  \($n | rpad(7)) \(.base_ns_per_round_trip.median | r(0) | lpad(7)) \(.tmacg_ns_per_round_trip.median | r(0) | lpad(7)) \(.ratio | range3 | lpad(22)) \(.added_ns_per_switch | r(0) | lpad(8)) \(.bpf_ns_per_run.median | r(0) | lpad(8)) \(.bpf_ratio_to_floor.median | r(3) | lpad(8)) \((if (.switches // 0) > 0 then 100 * .early_returns / .switches else null end) | r(1) | lpad(7)) \("\(.user_cpu_percent_rolled_up | r(3) | s) / \(.user_cpu_percent_all_reported | r(3) | s)" | lpad(16)) \(.rss_bytes | mib | lpad(7)) \(if .maps_not_measured then "n/m" else .map_bytes | mib end | lpad(8))"),
 ([.scaling[] | .maps_not_measured // empty] | unique[] | "  maps MiB: \(nm)")),

(select(.map_memory_computed) |
 "",
 "BPF map memory from the map definitions (\(.scaling | keys_unsorted | last // "-") cgroups, 64 events)",
 (if .map_memory_computed.not_measured then "  \(.map_memory_computed.not_measured | nm)"
  else .map_memory_computed | to_entries[] |
   "  \(.key | lpad(4)) CPUs: \(.value.total_bytes | mib | lpad(8)) MiB  (\(.value.maps | map("\(.name) \((.bytes / 1024) | floor) KiB") | join(", ")))"
  end)),

(select(.map_memory_spr) |
 "",
 "BPF map memory of spr's plans (\(.scaling | keys_unsorted | last // "-") cgroups; computed: each plan's value size on the maps measured)",
 (.map_memory_spr | to_entries[] | .value as $v |
  "  level \(.key): \($v.events) events in \($v.groups) groups, \($v.value_bytes) bytes a cgroup: " +
  ([$v | to_entries[] | select(.key | endswith("_cpus_bytes")) |
    "\(.value | mib) MiB on \(.key | rtrimstr("_cpus_bytes")) CPUs"] | join(", ")))),

(select(.bpf) |
 "",
 "BPF program time on sched_switch (ns per run, BPF run-time statistics)",
 "  \("program" | rpad(26)) \("ns/run" | lpad(10)) \("x floor [min-max]" | lpad(22)) \("early ret %" | lpad(12))",
 (.bpf | to_entries[] |
  "  \(.key | gsub("_"; " ") | rpad(26)) \(.value.ns_per_run.median | r(0) | lpad(10)) \(if .value.ratio_to_floor then .value.ratio_to_floor | range3 else "-" end | lpad(22)) \(.value.early_return_percent | lpad(12))")),

(select(.bpf_levels) | .bpf_levels |
 "",
 "Levels on \(.model)'s plans, software stand-ins (tmacg l3: every group counting; l3mux: one",
 " group on, as a PMU multiplexes; l6: multiplexed, the set reading most): counters read",
 " per switch l3 \(.reads_per_switch.l3), l3mux \(.reads_per_switch.l3mux), l6 \(.reads_per_switch.l6);",
 "  level 6 / level 3 \(.l6_to_l3 | range3), level 6 / level 3 multiplexed \(.l6_to_l3mux | range3)"),

(select(.output) |
 "",
 "Output path alone, per reported cgroup (tests/bench/outpath.c: \(.output.rounds) rounds of \(.output.lines) lines;",
 " % of one CPU at 1,000 / 10,000 lines a second; prom: the /metrics text of the same lines;",
 " eval: the model's evaluation of the same lines' events, before any output)",
 "  \("variant" | rpad(18)) \("ns/line [min-max]" | lpad(24)) \("bytes" | lpad(6)) \("% CPU 1,000 / 10,000" | lpad(22))",
 (.output | to_entries[] | select(.value | type == "object") | .key as $k | .value |
  "  \($k | rpad(18)) \("\(.ns_per_line.median) [\(.ns_per_line.min)-\(.ns_per_line.max)]" | lpad(24)) \(.bytes_per_line // "-" | lpad(6)) \("\(.ns_per_line.median * 1000 / 1e7 | r(3)) / \(.ns_per_line.median * 10000 / 1e7 | r(2))" | lpad(22))")),

(select(.deep) | .deep as $d |
 "",
 "Whole process, level 6 / level 3: \($d.cgroups) cgroups each reported every second (each waking every",
 " \($d.period_ms) ms), \($d.model)'s plans on software stand-ins (tests/bench/standin-model); tmacg's own CPU,",
 " % of one CPU; JSON lines to /dev/null, or /metrics (--format none) scraped once a second, or the",
 " baseline (base: the same cgroups collected into the pool's one line, --depth 0); output: the user",
 " CPU less the same round's baseline at that level",
 "  \("variant" | rpad(10)) \("user % [min-max]" | lpad(24)) \("system % [min-max]" | lpad(24)) \("output user % [min-max]" | lpad(26))",
 (["json_l3", "json_l6", "prom_l3", "prom_l6", "base_l3", "base_l6"][] as $k | $d[$k] | select(.) |
  "  \($k | rpad(10)) \(.user_cpu_percent | range3 | lpad(24)) \(.system_cpu_percent | range3 | lpad(24)) \(.output_user_cpu_percent // null | if . == null then "-" else range3 end | lpad(26))"),
 "  level 6 / level 3, user: JSON \($d.json_l6_to_l3.user | range3), /metrics \($d.prom_l6_to_l3.user | range3)",
 "  level 6 / level 3, system: JSON \($d.json_l6_to_l3.system | range3), /metrics \($d.prom_l6_to_l3.system | range3)",
 ($d.check | to_entries[] | .key as $lv | .value |
  "  level \($lv) lines: \(.lines_per_interval) an interval, nodes with a value \(.not_null_median) (least \(.not_null_min)) of \(.nodes) (a real \($d.model) line: \(.real.not_null)), \(.bytes_per_line) bytes (real: \(.real.bytes))"),
 "  /metrics a scrape: level 3 \($d.prom_l3.scrapes.bytes | mib) MiB, level 6 \($d.prom_l6.scrapes.bytes | mib) MiB"),

(select(.bighost) | .bighost as $b | (.targets.bighost_per_cpu_flat_1_5x // {}) as $flat |
 [$b.cpus | to_entries[] | select(.value.not_measured | not) | .value] as $g |
 # figure key, label, unit's divisor, decimals
 [["first_line_s", "first line after start, s", 1, 3], ["ready_s", "ready after start, s", 1, 3],
  ["start_calls", "cross-CPU calls at start", 1, 1], ["descriptors", "descriptors", 1, 1],
  ["perf_events", "perf events", 1, 1], ["perf_event_bytes", "perf_event slab, KiB", 1024, 1],
  ["rss_bytes", "RSS, KiB", 1024, 1], ["bpf_map_bytes", "BPF maps (memlock), KiB", 1024, 1],
  ["calls_per_s", "cross-CPU calls a second", 1, 2],
  ["user_s_per_interval", "user time an interval, ms", 0.001, 3],
  ["system_s_per_interval", "system time an interval, ms", 0.001, 3],
  ["cpu_s_per_interval", "CPU time an interval, ms", 0.001, 3]] as $rows |
 "",
 "By CPU count: \($b.model)'s plans on software stand-ins in Debian \($b.kernel) guests under QEMU TCG",
 " (tests/bench/bighost.sh), one guest per count, idle but for tmacg (--interval \($b.interval_s)s, two",
 " cgroups). Counts are exact; times are each guest's emulated clock's, comparable within one guest.",
 " Per CPU: each total divided by the guest's CPUs; flat: none grows past 1.5x from a smaller count.",
 ($b.cpus | to_entries[] | select(.value.not_measured) | "  \(.key) CPUs: \(.value.not_measured | nm)"),
 (["l3", "l6"][] as $lv |
  "  \("level \($lv[1:]), per CPU" | rpad(30)) \($g | map("\(.cpus) CPUs" | lpad(10)) | join(" ")) \("flat" | lpad(9))",
  ($rows[] as [$k, $what, $div, $d] |
   "  \($what | rpad(30)) \($g | map(.[$lv].per_cpu[$k] | if . == null then null else . / $div | r($d) end | lpad(10)) | join(" ")) \($flat[$lv] // {} | if has($k) | not then "-" elif .[$k] == null then "NO" elif .[$k] <= 1.5 then "yes" else "NO \(.[$k] | r(2))x" end | lpad(9))")),
 "  idle guest's cross-CPU calls a second, per CPU: \($g | map("\(.cpus) CPUs \(.idle_calls_per_cpu_s | r(3) | s)") | join(", "))",
 "  this machine's load average (1 min) before and after each guest: \($g | map("\(.cpus) CPUs \(.host_load | if . == null then "-" else map(tostring) | join("/") end)") | join(", ")) (over its CPUs: the guests starve)",
 (["l3", "l6"][] as $lv |
  "  \("level \($lv[1:]), totals" | rpad(30)) \($g | map("\(.cpus) CPUs" | lpad(10)) | join(" ")) \("a CPU more" | lpad(10)) \("512 CPUs" | lpad(10))",
  ($rows[] as [$k, $what, $div, $d] |
   "  \($what | rpad(30)) \($g | map(.[$lv][$k] | if . == null then null else . / $div | r($d) end | lpad(10)) | join(" ")) \($b.per_added_cpu[$lv][$k] | if . == null then null else . / $div | r($d + 1) end | lpad(10)) \($b.projected_512[$lv][$k] | if . == null then null else . / $div | r($d) end | lpad(10))")),
 "  a CPU more: the slope of the least-squares line through \($b.fitted_on // [] | map(tostring) | join(", ")) CPUs; 512 CPUs: projected along it",
 "  (never below the largest guest's figure: a time shorter on a bigger guest is this host's noise)",
 (.targets.bighost_level6_vs_level3 // {} | to_entries[] | select(.key != "met") | .key as $n | .value |
  if .not_measured then "  level 6 / level 3 on \($n) CPUs: \(.not_measured | nm)"
  else "  level 6 / level 3 on \($n) CPUs: cross-CPU calls a second per CPU \(.calls_per_cpu_s_more | r(2) | if . >= 0 then "+\(.)" else tostring end) (at most +2), system time \(.system_ratio | r(2) | s)x [\(.system_ratio_range | map(r(2) | s) | join("-"))] over \(.rounds) rounds (at most 1.5x)\(if .met then "" else ": NOT MET" end)" end),
 "  (each round a turn of each level, alone in the guest; a round's ratio of the time an interval; median [min-max])",
 "  level 6 / level 3 CPU time (the scheduler's, exact), median [min-max]: \($g | map("\(.cpus) CPUs \(.l6_to_l3.cpu // null | if . == null then "-" else range3 end)") | join(", "))"),

(select(.targets.user_cpu_budgets_1000) | .repeats as $n | .targets.user_cpu_budgets_1000 as $b |
 "",
 "Budgets of the output path (README.md): its user CPU (the whole less the baseline), % of one CPU,",
 " 1,000 cgroups each reported every second (the section above); median of \($n) rounds [min-max],",
 " spread: (max - min) / median, the run-to-run noise; whole: the process's median",
 "  \("variant" | rpad(18)) \("user % [min-max]" | lpad(24)) \("spread" | lpad(7)) \("budget" | lpad(7)) \("whole" | lpad(7))",
 ([["json_l3", "JSON, level 3"], ["json_l6", "JSON, level 6"], ["prom_l3", "/metrics, level 3"],
   ["prom_l6", "/metrics, level 6"]][] as [$k, $name] | $b[$k] |
  if .not_measured then "  \($name | rpad(18)) \(.not_measured | nm)"
  else "  \($name | rpad(18)) \("\(.percent | r(3) | s) [\(.min | r(3) | s)-\(.max | r(3) | s)]" | lpad(24)) \("\(.spread_percent | s) %" | lpad(7)) \(.budget | lpad(7)) \(.whole // null | if . == null then "-" else r(3) | s end | lpad(7))  \(if .met then "met" else "NOT MET" end)" end)),

(select(.targets) |
 "",
 "Targets (docs/architecture.md)",
 (.targets | to_entries[] | select(.value != null) |
  if (.value | type) == "object" and .value.not_measured then "  \(.key): \(.value.not_measured | nm)"
  else "  \(.key): \(.value | tostring)" end))
