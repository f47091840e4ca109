# SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
# The bench's shared pieces, sourced by tests/bench/run and tests/bench/ab-user-cpu
# so both start, wait for and stop tmacg and the populated cgroups the same way,
# with the same timeouts.  The caller defines die() and sets:
#   BIN   the bench helpers' directory ($OUT/tests/bench)
#   BASE  the cgroup the bench works in (populate makes BASE/pool/cNNNNN)
#   WORK  a scratch directory (tmacg's output goes to WORK/mon.out and mon.err)
#   TMACG the tmacg binary start_tmacg runs
# and reads MON (the monitor running, if any) and POP (populate, if running).

# The cgroup2 mount, from mountinfo (never assumed): fields after " - " are fstype, source.
cgroup2_root() {
	awk '{ for (i = 1; i <= NF; i++) if ($i == "-") break;
		if ($(i + 1) == "cgroup2") { print $5; exit } }' /proc/self/mountinfo
}

# start_populate N [PERIOD_MS]: N cgroups under $BASE/pool, each with an
# active thread waking every PERIOD_MS (1000) to spin 10 us.
start_populate() {
	local n=$1 t=0
	[ "$n" -gt 0 ] || return 0
	"$BIN/populate" "$BASE" "$n" "${2:-1000}" 10 >"$WORK/pop.out" &
	POP=$!
	until grep -q ready "$WORK/pop.out" 2>/dev/null; do
		kill -0 "$POP" 2>/dev/null || die "populate $n failed"
		sleep 0.2
		t=$((t + 1))
		[ $t -lt 600 ] || die "populate $n did not get ready in 120 s"
	done
}

stop_populate() {
	if [ -n "$POP" ]; then
		kill "$POP" 2>/dev/null
		wait "$POP" 2>/dev/null
		POP=
	fi
	if [ -d "$BASE/pool" ]; then
		find "$BASE/pool" -mindepth 1 -maxdepth 1 -type d -name 'c[0-9]*' -print0 |
			xargs -0 -r rmdir
		rmdir "$BASE/pool"
	fi
}

# wait_for FILE PATTERN WHAT [soft]: until PATTERN shows in FILE while $MON
# lives; soft: returns 1 when it exited instead of ending the bench.
wait_for() {
	local t=0
	until grep -q "$2" "$1" 2>/dev/null; do
		if ! kill -0 "$MON" 2>/dev/null; then
			[ "${4:-}" = soft ] && { wait "$MON" 2>/dev/null; MON=; return 1; }
			cat "${MON_ERR:-$WORK/mon.err}" >&2
			die "$3 exited early"
		fi
		sleep 0.1
		t=$((t + 1))
		[ $t -lt 1200 ] || die "$3 did not get ready in 120 s"
	done
}

# tmacg's options for a level: "sw" is --pmu software.
mode_args() { if [ "$1" = sw ]; then echo "--pmu software"; else echo "--level $1"; fi; }

start_tmacg() {	# LEVEL tmacg args...
	local lv=$1
	shift
	# shellcheck disable=SC2046
	start_tmacg_to "$WORK/mon.out" $(mode_args "$lv") --format json "$@"
}

# start_tmacg_to FILE tmacg args...: tmacg -v at a 1 s interval, its output to FILE,
# its stderr to $MON_ERR (a file of its own where two run at once) or mon.err.
start_tmacg_to() {
	local out=$1 err=${MON_ERR:-$WORK/mon.err}
	shift
	"$TMACG" -v --interval 1s "$@" >"$out" 2>"$err" &
	MON=$!
	wait_for "$err" "ready" "tmacg"
}

stop_monitor() {
	kill -INT "$MON" 2>/dev/null
	wait "$MON" 2>/dev/null
	MON=
}

# CPU time of every thread of PID in ns (schedstat: exact, unlike clock ticks).
proc_cpu_ns() { cat /proc/"$1"/task/*/schedstat | awk '{ t += $1 } END { printf "%.0f\n", t }'; }

# user_cpu_percent SECONDS: the running tmacg's ($MON) own CPU time, % of one CPU,
# over SECONDS after its first intervals (steady state).
user_cpu_percent() {
	local t0 t1
	sleep 2.5
	t0=$(proc_cpu_ns "$MON")
	sleep "$1"
	t1=$(proc_cpu_ns "$MON")
	awk -v t="$((t1 - t0))" -v s="$1" 'BEGIN { printf "%.3f\n", 100 * t / 1e9 / s }'
}
