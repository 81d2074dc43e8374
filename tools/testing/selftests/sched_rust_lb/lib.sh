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
