# SPDX-License-Identifier: GPL-2.0
# Shared by the sched_rust_lb selftests: KTAP helpers and the sched debugfs.
# ktap_helpers.sh is in ../kselftest/ both in the source tree and where
# kselftest-install puts it.
. "$(dirname "$0")/../kselftest/ktap_helpers.sh"

SCHED_DEBUGFS=/sys/kernel/debug/sched
FEATURES=$SCHED_DEBUGFS/features
. "$(dirname "$0")/debugfs.sh"

# The mechanisms' case table: one line each (see its header).
CASES_FILE=$(dirname "$0")/cases
# cases_field N: field N of every case (2: feature, 4: counters, 5: load).
cases_field() {
	grep -v '^#' "$CASES_FILE" | grep . | cut -d: -f"$1"
}

# decisions: the helpers' decisions, one per RUST_LB_DECISION(name) line of
# kernel/sched/rust_lb_decisions.h, installed beside the tests.
decisions() {
	sed -n 's/^RUST_LB_DECISION(\([a-z0-9_]*\))$/\1/p' "$(dirname "$0")/rust_lb_decisions.h"
}

require_debugfs() {
	[ -r "$FEATURES" ] || ktap_skip_all \
		"$FEATURES not readable (debugfs not mounted or no CONFIG_SCHED_DEBUG)"
	[ -r "$FEATURES" ] || exit "$KSFT_SKIP"
}

COUNTERS=$SCHED_DEBUGFS/rust_lb
# The counters count while schedstats are enabled, as the scheduler's own
# statistics do: the tests that watch them need schedstats on.
SCHEDSTATS_SYSCTL=/proc/sys/kernel/sched_schedstats
[ -w "$SCHEDSTATS_SYSCTL" ] && [ "$(cat "$SCHEDSTATS_SYSCTL")" != 1 ] &&
	echo 1 > "$SCHEDSTATS_SYSCTL"
# The workloads: built next to the tests (TEST_GEN_FILES), or on PATH.
BIN=$(cd "$(dirname "$0")" && pwd)
[ -x "$BIN/wakelat" ] || BIN=$(dirname "$(command -v wakelat || echo ./wakelat)")
NCPUS=$(grep -c ^processor /proc/cpuinfo)

# counter_sum PREFIX: the sum of the counters whose name starts with PREFIX.
counter_sum() {
	awk -v p="$1" 'index($1, p) == 1 { s += $2 } END { print s + 0 }' "$COUNTERS"
}

# counter NAME: current value of one of the helpers' counters.
counter() {
	awk -v n="$1" \
		'$1 == n { print $2; found = 1 } END { if (!found) print "missing" }' \
		"$COUNTERS"
}

counters_reset() {
	echo 0 > "$COUNTERS"
}

# run_load KIND: a few seconds of one of the project's workloads.
run_load() {
	case "$1" in
	idle)	"$BIN/idlewake" -r 2 -p 500 -u 20 > /dev/null ;;
	wake)	"$BIN/wakelat" -m 2 -t 4 -r 2 -w 0 -s 50 > /dev/null ;;
	msg)	"$BIN/msgbench" -g 4 -f 5 -l 100 > /dev/null ;;
	over)	"$BIN/spin" -r 2 -n $((NCPUS + NCPUS / 2)) &
		"$BIN/idlewake" -r 2 -n "$NCPUS" -p 300 -u 200 > /dev/null; wait ;;
	mixed)	"$BIN/idlewake" -r 3 > /dev/null & "$BIN/wakelat" -r 3 -w 0 > /dev/null &
		"$BIN/msgbench" -g 2 -l 200 > /dev/null; "$BIN/spin" -r 1 -n $((NCPUS * 2)); wait ;;
	esac
}

# load CMD...: runs CMD over and over until $end (seconds since the epoch),
# noting each failure in $T/load-fail and the end in $T/load-done (the
# caller sets end and T; flip.sh and stress.sh run several in the
# background).
load() {
	while [ "$(date +%s)" -lt "$end" ]; do
		"$@" > /dev/null 2>&1 || echo "$1 exit $?" >> "$T/load-fail"
	done
	echo done >> "$T/load-done"
}

# The storms of flip.sh, stress.sh and soak.sh.  Each runs until $end in
# the background and leaves its count in $T (the caller sets end and T
# and waits).

# storm_load: the four workloads at once, over and over (nload: how many).
storm_load() {
	load "$BIN/spin" -r 1 -n "$NCPUS" &
	load "$BIN/wakelat" -m 2 -t 4 -r 2 -w 0 &
	load "$BIN/idlewake" -r 2 -n "$NCPUS" &
	load "$BIN/msgbench" -g 2 -f 4 -l 100 &
	nload=4
}

# test_load_done: a KTAP result: every workload of storm_load ran to $end.
test_load_done() {
	done_n=$(wc -l < "$T/load-done" 2>/dev/null || echo 0)
	ok=false; [ "$done_n" -eq "$nload" ] && [ ! -e "$T/load-fail" ] && ok=true
	[ -e "$T/load-fail" ] && ktap_print_msg "$(sort "$T/load-fail" | uniq -c | head -5)"
	ktap_test_result "workloads ran to the end without failing" $ok
}

# storm_hotplug PAUSE: every CPU but 0, at random, offline and online
# again, PAUSE seconds apart ($T/hp-count; $T/hp-fail names one that did
# not come back).
storm_hotplug() {
	(
		n=0
		while [ "$(date +%s)" -lt "$end" ]; do
			c=$(( RANDOM % (NCPUS - 1) + 1 ))
			f=/sys/devices/system/cpu/cpu$c/online
			if echo 0 > "$f"; then
				echo 1 > "$f" || echo "cpu$c did not come back" >> "$T/hp-fail"
				n=$((n + 1))
			fi
			[ "$1" = 0 ] || sleep "$1"
		done
		echo "$n" > "$T/hp-count"
	) &
}

# storm_cpusets NAME HOLD: a cpuset root partition of two CPUs, held HOLD
# seconds, then back to a member and removed ($T/cs-count; 0 without
# cpusets).
storm_cpusets() {
	(
		n=0
		cg=/sys/fs/cgroup
		if echo "+cpuset" > "$cg/cgroup.subtree_control" 2>/dev/null; then
			while [ "$(date +%s)" -lt "$end" ]; do
				p=$cg/$1
				mkdir -p "$p"
				lo=$(( (RANDOM % (NCPUS / 2)) * 2 ))
				[ "$lo" -eq 0 ] && lo=2
				echo "$lo-$((lo + 1))" > "$p/cpuset.cpus" 2>/dev/null
				echo root > "$p/cpuset.cpus.partition" 2>/dev/null && n=$((n + 1))
				sleep "$2"
				echo member > "$p/cpuset.cpus.partition" 2>/dev/null
				rmdir "$p" 2>/dev/null
			done
		fi
		echo "$n" > "$T/cs-count"
	) &
}

# storm_flips PAUSE FEATURE...: each feature on or off at random, the
# whole list every PAUSE seconds ($T/flip-count).
storm_flips() {
	pause=$1
	shift
	(
		n=0
		while [ "$(date +%s)" -lt "$end" ]; do
			for f in "$@"; do
				s=$f
				[ $((RANDOM % 2)) = 0 ] && s=NO_$f
				echo "$s" > "$FEATURES"
				n=$((n + 1))
			done
			[ "$pause" = 0 ] || sleep "$pause"
		done
		echo "$n" > "$T/flip-count"
	) &
}

# cpus_online: every CPU online again; prints those that were not.
cpus_online() {
	for f in /sys/devices/system/cpu/cpu[0-9]*/online; do
		[ "$(cat "$f")" = 1 ] || { echo "$f"; echo 1 > "$f"; }
	done
}

# A splat in the kernel log: an oops, BUG (a soft lockup's too), WARNING, a
# breakpoint left in patched text, a panic, a sanitizer's report, a hung
# task or an RCU stall ("INFO: "), a hard lockup.
SPLATS='Oops|BUG:|WARNING:|int3:|Kernel panic|cut here|Call Trace:|KASAN:|UBSAN:|INFO: |hard LOCKUP'

# log_mark: where the kernel log ends now; log_new: what came after it.
log_mark() { LOG_MARK=$(dmesg | wc -l); }
log_new() { dmesg | tail -n +"$((LOG_MARK + 1))"; }

# test_no_splat WHILE: a KTAP result: no splat in the log since log_mark.
test_no_splat() {
	bad=$(log_new | grep -E "$SPLATS" | head -n 10)
	[ -n "$bad" ] && echo "$bad" | while read -r l; do ktap_print_msg "$l"; done
	ok=false; [ -z "$bad" ] && ok=true
	ktap_test_result "no oops, BUG, WARNING, lockup or stall $1" $ok
}
