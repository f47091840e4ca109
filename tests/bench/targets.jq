# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# The targets of docs/architecture.md and the budgets of README.md, each held
# against its figure, added to the bench's JSON as .targets.  A target whose
# figure was not measured says why ({"not_measured": reason}); one whose section
# did not run is null.  Never arithmetic on a missing figure.

def nm_or(f): if .not_measured then {not_measured: .not_measured} else f end;

. as $all | . + {targets: {
	switch_cost_vs_perf_100: (
		if .context_switch.perf100 == null then null
		else .context_switch.perf100 | nm_or(.) as $p
		| if $p.not_measured then $p
		  else {tmacg: $all.context_switch.tmacg.ratio.median, perf: $p.ratio.median,
			met: ($all.context_switch.tmacg.ratio.median <= $p.ratio.median)} end
		end),
	# What tmacg adds to the cross-cgroup round trip against what perf's own BPF
	# cgroup mode adds (issue 21): at most 0.6x.  From the per-round ratios (each
	# against the unmonitored run of its round), which drift does not move as it
	# moves the medians of absolute times; those are given alongside.
	switch_cost_vs_perf_bpf_100: (
		if .context_switch.bperf100 == null then null
		else .context_switch.bperf100 | nm_or(.) as $p
		| if $p.not_measured then $p
		  else ($all.context_switch.tmacg.ratio.median - 1) as $t
		  | ($p.ratio.median - 1) as $b
		  | {tmacg_excess: ($t * 1000 | round / 1000), perf_bpf_excess: ($b * 1000 | round / 1000),
		     ratio: (if $b > 0 then ($t / $b * 1000 | round) / 1000 else null end),
		     tmacg_added_ns: $all.context_switch.tmacg.added_ns_per_switch,
		     perf_bpf_added_ns: $p.added_ns_per_switch,
		     met: ($b > 0 and $t <= 0.6 * $b)} end
		end),
	flat_1_to_max: (if .scaling then (.scaling | keys_unsorted) as $k |
		{cgroups: [$k[0], $k[-1]],
		 bpf_ns_per_run: [.scaling[$k[0]].bpf_ns_per_run.median,
				  .scaling[$k[-1]].bpf_ns_per_run.median],
		 bpf_ratio_to_floor: [.scaling[$k[0]].bpf_ratio_to_floor.median,
				      .scaling[$k[-1]].bpf_ratio_to_floor.median],
		 pingpong_added_ns_per_switch: [.scaling[$k[0]].added_ns_per_switch,
						.scaling[$k[-1]].added_ns_per_switch],
		 met: (.scaling[$k[-1]].bpf_ratio_to_floor.median <=
		       1.1 * .scaling[$k[0]].bpf_ratio_to_floor.median)}
		else null end),
	# The switch program against the floor: 1.15x at 4 events, 1.05x at 64
	# (issue 21); --per-task keeps the earlier 1.5x.
	bpf_to_floor: (if .bpf then
		(.bpf | to_entries | map(select(.value.ratio_to_floor != null and
					      (.key | test("_l[0-9]") | not)) |
		 (if .key == "tmacg_4" then 1.15 elif .key == "tmacg_64" then 1.05 else 1.5 end)
		 as $max |
		 {key, value: {ratio: .value.ratio_to_floor.median, max: $max,
			       met: (.value.ratio_to_floor.median <= $max)}}) | from_entries)
		else null end),
	# Issue 27: the switch program at level 6, multiplexed, within 1.2x of level 3
	# on the same model's plan (software stand-ins, measured in one run); held
	# against level 3 as a hardware PMU multiplexes it (one group on), the
	# stricter of the two level 3 figures.
	switch_l6_within_1_2x_l3: (if .bpf_levels then
		{model: .bpf_levels.model, l6_to_l3: .bpf_levels.l6_to_l3.median,
		 l6_to_l3_multiplexed: .bpf_levels.l6_to_l3mux.median,
		 met: (.bpf_levels.l6_to_l3mux.median <= 1.2 and .bpf_levels.l6_to_l3.median <= 1.2)}
		else null end),
	user_under_1pct_1000: (if .scaling["1000"] then
		{rolled_up: .scaling["1000"].user_cpu_percent_rolled_up,
		 all_reported: .scaling["1000"].user_cpu_percent_all_reported,
		 met: (.scaling["1000"].user_cpu_percent_rolled_up < 1)} else null end),
	# Issue 21: every cgroup printed as a JSON line, the whole process.
	user_all_reported_0_5pct_1000_5pct_10000: (if .scaling["1000"] and .scaling["10000"] then
		{"1000": .scaling["1000"].user_cpu_percent_all_reported,
		 "10000": .scaling["10000"].user_cpu_percent_all_reported,
		 met: (.scaling["1000"].user_cpu_percent_all_reported <= 0.5 and
		       .scaling["10000"].user_cpu_percent_all_reported <= 5)} else null end),
	# The output path alone (tests/bench/outpath.c): percent of one CPU at N lines a second.
	output_json_percent_1000_10000: (if .output then
		.output.json_software.ns_per_line.median as $ns |
		{"1000": ($ns * 1000 / 1e7), "10000": ($ns * 10000 / 1e7),
		 met: ($ns * 1000 / 1e7 <= 0.5 and $ns * 10000 / 1e7 <= 5)} else null end),
	# The output path's budgets, % of one CPU in user time, with 1,000 cgroups each
	# reported every second (icx's plans at levels 3 and 6 on software stand-ins),
	# JSON lines written or /metrics scraped every interval: each round's whole
	# process less that round's baseline at the same level (the same cgroups
	# collected and evaluated into the pool's one line, base_l3 and base_l6), the
	# median of the rounds against each budget.
	# spread_percent: (max - min) / median of the rounds, the run-to-run noise.
	user_cpu_budgets_1000: (if .deep then
		[{key: "json_l3", budget: 0.6}, {key: "json_l6", budget: 1.5},
		 {key: "prom_l3", budget: 1.0}, {key: "prom_l6", budget: 2.0}] |
		map(.budget as $b | .key as $k | $all.deep[$k].output_user_cpu_percent as $f |
		    {key: $k, value: (if ($f.median | type) != "number" then
			{not_measured: "no output path's user CPU for \($k) (its whole less the baseline's)",
			 budget: $b, met: false}
		    else {percent: $f.median, min: $f.min, max: $f.max,
			whole: $all.deep[$k].user_cpu_percent.median,
			spread_percent: (if $f.median > 0 then ($f.max - $f.min) / $f.median * 100
					 | round else null end),
			budget: $b, met: ($f.median <= $b)} end)}) |
		from_entries | {met: ([.[].met] | all)} + .
		else null end),
	# What tmacg costs a CPU stays flat from the smallest guest to the largest (the
	# bighost section, issue 43): each per-CPU figure at each level no more than 1.5x
	# its value at any smaller count (one that falls as CPUs are added, a fixed cost
	# shared by more of them, is flat).  growth: the largest such ratio.
	bighost_per_cpu_flat_1_5x: (if .bighost == null then null else
		[.bighost.cpus | to_entries[] | select(.value.not_measured | not) | .value] as $g
		| if ($g | length) < 2 then {not_measured: "fewer than two guests measured"} else
		  ["l3", "l6"] | map(. as $lv | {key: $lv, value: (
			[$g[0][$lv].per_cpu | keys_unsorted[]] | map(. as $k
			| [$g[] | .[$lv].per_cpu[$k]] as $v
			| {key: $k, value: ([range(1; $v | length) as $j | range(0; $j) as $i
					  | if $v[$i] == null or $v[$j] == null then null
					    elif $v[$i] > 0 then $v[$j] / $v[$i]
					    elif $v[$j] <= 0 then 1 else null end]
					 | if any(. == null) then null else max * 1000 | round / 1000 end)})
			| from_entries)})
		  | from_entries
		  | {cpus: [$g[].cpus], max_growth: 1.5,
		     met: ([.[][]] | all(. != null and . <= 1.5))} + . end end),
	# Levels 4-6 multiplexed by the kernel cost no other CPU's time (issue 43 item 2),
	# in every guest: cross-CPU calls per CPU per second at level 6 within 2 of
	# level 3's, tmacg's system time at level 6 within 1.5x level 3's (the median of
	# the rounds' ratios, tests/bench/bighost.jq; its range beside it).
	bighost_level6_vs_level3: (if .bighost == null then null else
		.bighost.cpus | to_entries | map(.key as $n | .value
		| [.l3.per_cpu.calls_per_s, .l6.per_cpu.calls_per_s] as [$c3, $c6]
		| .l6_to_l3.system as $s
		| {key: $n, value: (if .not_measured then {not_measured: .not_measured, met: false}
			elif [$c3, $c6] | any(type != "number") then
				{not_measured: "a level's cross-CPU calls missing", met: false}
			elif ($s.median | type) != "number" then
				{not_measured: "no round with both levels' system time", met: false}
			else {calls_per_cpu_s_more: ($c6 - $c3 | . * 1000 | round / 1000),
			      system_ratio: ($s.median | . * 1000 | round / 1000),
			      system_ratio_range: [$s.min, $s.max | . * 1000 | round / 1000],
			      rounds: ($s.rounds | length)}
			     | .met = (.calls_per_cpu_s_more <= 2 and .system_ratio <= 1.5) end)})
		| from_entries | {met: ([.[] | .met // false] | all)} + . end),
	maps_under_64mib: (if .map_memory_computed == null then null
		elif .map_memory_computed.not_measured then
			{not_measured: .map_memory_computed.not_measured}
		else (.map_memory_computed | to_entries | map({key: "\(.key)_cpus",
		 value: {mib: (.value.total_bytes / 1048576), met: (.value.total_bytes < 67108864)}})
		 | from_entries) end),
	# Issue 27: spr's deepest plan, values sized to it, under the same 64 MiB on 256 CPUs.
	maps_under_64mib_spr_level6: (if .map_memory_spr["6"] == null then null else
		.map_memory_spr["6"]["256_cpus_bytes"] as $b |
		{mib: ($b / 1048576), met: ($b < 67108864)} end)
}}
