# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# The bench's bighost section, sourced by tests/bench/run: what tmacg costs by CPU
# count.  One Debian amd64 guest per count, booted one after the other the way
# `make test` boots its guests (tests/guest/run: QEMU TCG, the static tmacg of
# `make static`), each running tests/guest/init's scale group: icx's level 3 and
# level 6 plans on software stand-ins (tests/bench/standin-model), tmacg alone on an
# idle guest.  Every count is a guest, the 2-CPU one too: the same kernel, the same
# emulated clock and the same readings in every row, where this machine's kernel,
# load and interrupts (other programs' cross-CPU calls) would differ from the
# guests' in ways no per-CPU figure could tell apart.
# The caller defines die(), skip() and skip_reason(), and sets WORK and OUT (where each
# guest's console is kept, bighost-N.log).

# bighost_guest N KERNEL: boots an N-vCPU guest of KERNEL (a tools/guest-kernels
# series), writes its figures to $WORK/bighost.N.json (tests/bench/bighost.jq) or
# records why there are none (skip bighost.N).
bighost_guest() {
	local n=$1 series=$2 why
	local out=$WORK/bighost.$n.out log=$WORK/bighost.$n.log
	echo "bench: big hosts: a $n-vCPU Debian $series amd64 guest (QEMU TCG), icx's" \
		"levels 3 and 6 on software stand-ins" >&2
	# This machine's load beside the guest: its vCPUs share QEMU's one TCG thread, so a
	# loaded host stretches the guest's clock and starves it (at a load of 900, the 64-vCPU
	# guest's tmacg ended intervals back to back and its kernel made 10x the calls).
	local load0 load1
	load0=$(cut -d' ' -f1 /proc/loadavg)
	# Ten turns, each starting and stopping a tmacg: the 64-vCPU guest runs 4-5 minutes,
	# and a loaded machine may stretch that past tests/guest/run's default limit of 600 s.
	GUEST_TIMEOUT=${GUEST_TIMEOUT:-1200} GUEST_SMP=$n GUEST_RUN=scale GUEST_LOG=$log \
		tests/guest/run amd64 "$series" >"$out" 2>&1
	local rc=$?
	load1=$(cut -d' ' -f1 /proc/loadavg)
	why=$(sed -n 's/.*: SKIPPED: //p' "$out" | head -1)
	if [ -z "$why" ] && [ $rc != 0 ]; then
		sed 's/^/  /' "$out" | tail -20 >&2
		why="the $n-vCPU guest failed: $(grep -m1 -E 'FAILED' "$out" || tail -1 "$out")"
	fi
	if [ -n "$why" ]; then
		skip "bighost.$n" "$n CPUs" "$why"
		return
	fi
	# Kept beside bench.json: tmacg's own lines and -v totals in each guest.
	tr -d '\r' <"$log" >"$OUT/bighost-$n.log"
	echo "bench: the $n-vCPU guest's console: $OUT/bighost-$n.log" >&2
	jq -R -s -f tests/bench/bighost.jq "$OUT/bighost-$n.log" |
		jq --argjson a "$load0" --argjson b "$load1" '. + {host_load: [$a, $b]}' \
			>"$WORK/bighost.$n.json" ||
		skip "bighost.$n" "$n CPUs" "the $n-vCPU guest's figures could not be read ($log)"
}

# bighost_json KERNEL MODEL COUNTS...: the section's figures as one JSON object: each
# count's (or why it was not measured), what each CPU added costs (the slope of the
# least-squares line through every count measured) and each total projected along
# that line to 512 CPUs, never below the largest guest's figure (a time that came out
# shorter on a bigger guest is the host's noise, not a saving).
bighost_json() {
	local series=$1 model=$2 n obj="{" reason
	shift 2
	for n in "$@"; do
		reason=$(skip_reason "bighost.$n")
		if [ -n "$reason" ]; then
			obj="$obj\"$n\":$(jq -nc --arg r "$reason" '{not_measured: $r}'),"
		else
			obj="$obj\"$n\":$(jq -c . "$WORK/bighost.$n.json"),"
		fi
	done
	echo "${obj%,}}" | jq -c --arg k "$series" --arg m "$model" '
		[to_entries[] | select(.value.not_measured | not) | .value] as $ok
		| [$ok[].cpus] as $xs
		| ($xs | add / length) as $mx
		# {slope, at512} of the least-squares line through ($xs, $ys)
		| def line($ys):
			($ys | add / length) as $my
			| ([range($xs | length)] | map(($xs[.] - $mx) * ($ys[.] - $my)) | add) as $sxy
			| ([range($xs | length)] | map(($xs[.] - $mx) * ($xs[.] - $mx)) | add) as $sxx
			| {slope: ($sxy / $sxx), at512: ([$my + $sxy / $sxx * (512 - $mx), $ys[-1]] | max)};
		  def fits($lv):
			if any($ok[]; .[$lv] == null) then null else
			$ok[-1][$lv] | to_entries
			| map(select(.key != "per_cpu" and (.value | type) == "number") | .key as $k
			      | [$ok[] | .[$lv][$k]] as $ys
			      | {key: $k, value: (if any($ys[]; . == null) then null else line($ys) end)})
			| from_entries end;
		  def pick($f; $what): if $f == null then null else $f | map_values(if . == null then null else .[$what] end) end;
		(if ($ok | length) >= 2 then {l3: fits("l3"), l6: fits("l6")} else null end) as $fit
		| {kernel: "\($k) amd64", model: $m, interval_s: 1, cpus: .,
		   fitted_on: $xs,
		   per_added_cpu: (if $fit then {l3: pick($fit.l3; "slope"), l6: pick($fit.l6; "slope")} else null end),
		   projected_512: (if $fit then {l3: pick($fit.l3; "at512"), l6: pick($fit.l6; "at512")} else null end)}'
}
